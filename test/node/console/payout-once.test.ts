/**
 * One payout form pays out once, whatever the provider's delays (issue 19, point 2): the console
 * API over the in-process sandbox, with a test double in front of it that holds a payout's create
 * (the provider is slow: the client times out and its lookups find nothing), then lets it land.
 * A resubmission that does not find it answers 409 payout_in_progress and sends nothing, however late
 * (the provider may queue it); once it landed, the resubmission gets that payout. The same across a restart (a durable store) and for
 * two submits at once.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, beforeEach, describe, test } from 'node:test';
import { createConsole, type PaydeskConsole, type PayoutAuditEntry } from '../../../src/console/index.js';
import type { PayoutResponse } from '../../../src/console/contract.js';
import { payoutClientOrderId, quotePayout, type PayoutMethod } from '../../../src/console/payout-rules.js';
import { createProviderClient } from '../../../src/provider/index.js';
import { createSandbox, type Sandbox } from '../../../src/sandbox/index.js';
import { CREATE_IN_FLIGHT_MS } from '../../../src/server/checkout/create-once.js';
import { createSqliteStore, type CheckoutStore } from '../../../src/server/index.js';

const KEY = 'payout_once_test_key_0123456789';
const PROVIDER = 'http://sandbox.test';
const PASSWORD = 'payout-once-test-password';

/** The console's API as a merchant reaches it: createConsole's fetch, under /console/api. */
interface ConsoleApi {
  request(path: string, init?: RequestInit): Promise<Response>;
}
const apiOf = (c: PaydeskConsole): ConsoleApi => ({ request: (path, init) => c.fetch(new Request(`http://merchant.test/console/api${path}`, init)) });


interface SellOrder {
  id: string;
  client_order_id: string;
  order_side: string;
}

describe('a payout form pays out once, whatever the provider’s delays', () => {
  let sandbox: Sandbox;
  let dir: string;
  /** While true, the provider holds payout creates: no answer (the client times out) until `land()`. */
  let slow = false;
  /** While true, the provider refuses payout creates for money (402). */
  let refuse = false;
  /** Creates that reached the provider's door (held or not). */
  let creates = 0;
  let held: Array<() => Promise<void>> = [];
  let clock = Date.now();
  const audit: PayoutAuditEntry[] = [];

  const toSandbox = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const req = new Request(input, init);
    if (req.method === 'POST' && new URL(req.url).pathname === '/api/v1/order/') {
      creates++;
      if (refuse) return Response.json({ success: false, message: 'Insufficient funds' }, { status: 402 });
      if (slow) {
        const body = await req.text();
        const late = new Request(req.url, { method: 'POST', headers: req.headers, body });
        held.push(async () => {
          const res = await sandbox.fetch(late);
          assert.equal(res.status, 201, await res.text());
        });
        // The provider keeps the request and answers nothing: the client gives up at its timeout.
        // The client's own signal: a Request's copy of it may miss the abort after a garbage collection.
        const signal = init?.signal ?? req.signal;
        return new Promise<Response>((_, reject) => signal.addEventListener('abort', () => reject(signal.reason), { once: true }));
      }
    }
    return sandbox.fetch(req);
  };

  /** The held creates reach the provider now (the first lands). */
  async function land(): Promise<void> {
    const due = held;
    held = [];
    for (const go of due) await go();
  }

  /** A console API as `npm start` makes it, over `store`; a new one is a restarted demo (a fresh provider client too). */
  async function consoleOver(store?: CheckoutStore, payoutWaitMs = 5_000): Promise<{ app: ConsoleApi; cookie: string }> {
    const client = createProviderClient({ baseUrl: PROVIDER, apiKey: KEY, fetch: toSandbox, maxRetries: 0, timeoutMs: 150, lookupWindowMs: 200 });
    const app = apiOf(createConsole({
      client,
      password: PASSWORD,
      now: () => clock,
      audit: (entry) => audit.push(entry),
      logError: () => undefined,
      payoutWaitMs,
      ...(store && { store }),
    }));
    const login = await app.request('/login', { method: 'POST', headers: { 'content-type': 'application/json', 'x-paydesk': '1' }, body: JSON.stringify({ password: PASSWORD }) });
    assert.equal(login.status, 204);
    return { app, cookie: login.headers.get('set-cookie')!.split(';')[0]! };
  }

  let card: PayoutMethod;
  let n = 0;
  /** A new payout form (its own key), filled in for `amount` to a card. */
  function form(amount: string) {
    const quoted = quotePayout(card, amount);
    assert.ok(quoted.ok);
    return { key: `payout-once-form-${process.pid}-${++n}-xxxx`, method_id: card.id, amount, destination: '4111 1111 1111 1111', total: quoted.quote.total };
  }

  async function submit(c: { app: ConsoleApi; cookie: string }, body: unknown): Promise<{ status: number; body: any; retryAfter: string | null }> {
    const res = await c.app.request('/payouts', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-paydesk': '1', cookie: c.cookie },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: await res.json(), retryAfter: res.headers.get('retry-after') };
  }

  async function sellsOf(key: string): Promise<SellOrder[]> {
    const res = await sandbox.fetch(
      new Request(`${PROVIDER}/api/v1/order/search-by-client-order-id?id=${payoutClientOrderId(key)}&size=100`, { headers: { 'X-API-Key': KEY } }),
    );
    return ((await res.json()) as { orders: { items: SellOrder[] } }).orders.items.filter((o) => o.order_side === 'Sell');
  }

  /** A server keeps the process alive; here the client's own timers do not (they are unref'd), so this does. */
  let alive: ReturnType<typeof setInterval>;

  before(async () => {
    alive = setInterval(() => undefined, 60_000);
    sandbox = createSandbox({ apiKey: KEY, sweepIntervalMs: 0, webhookRetryDelaysMs: [] });
    dir = mkdtempSync(join(tmpdir(), 'paydesk-payout-once-'));
    const c = await consoleOver();
    const res = await c.app.request('/payout-methods', { headers: { cookie: c.cookie } });
    const { methods } = (await res.json()) as { methods: PayoutMethod[] };
    card = methods.find((m) => m.kind === 'card' && quotePayout(m, '1000.00').ok)!;
    assert.ok(card, 'the sandbox has a card method that pays out 1000.00');
  });

  beforeEach(() => {
    slow = false;
    refuse = false;
    held = [];
    creates = 0;
  });

  after(async () => {
    clearInterval(alive);
    await sandbox?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('submit, no answer in time (502), submit again: 409 payout_in_progress and nothing sent; once it landed, the same payout, never a second', async () => {
    const c = await consoleOver();
    const body = form('1000.00');
    slow = true;
    const first = await submit(c, body);
    assert.equal(first.status, 502, JSON.stringify(first.body));
    assert.equal(first.body.error.code, 'payout_unconfirmed');
    assert.equal(creates, 1);

    // The operator does what the answer says: the same form again. The provider has not made it yet.
    const again = await submit(c, body);
    assert.equal(again.status, 409, JSON.stringify(again.body));
    assert.equal(again.body.error.code, 'payout_in_progress');
    assert.equal(again.body.error.retryable, true);
    const wait = again.body.error.details.retry_after as number;
    assert.ok(wait >= 1 && wait <= CREATE_IN_FLIGHT_MS / 1000, `retry_after ${wait}`);
    assert.equal(again.retryAfter, String(wait));
    assert.equal(creates, 1, 'nothing was sent');
    assert.deepEqual(await sellsOf(body.key), []);

    // The first create lands: one Sell; every later submit of the form answers it.
    await land();
    const landed = await sellsOf(body.key);
    assert.equal(landed.length, 1);
    for (let i = 0; i < 2; i++) {
      const later = await submit(c, body);
      assert.equal(later.status, 200, JSON.stringify(later.body));
      assert.equal((later.body as PayoutResponse).replayed, true);
      assert.equal((later.body as PayoutResponse).payout.id, landed[0]!.id);
    }
    assert.equal(creates, 1);
    assert.equal((await sellsOf(body.key)).length, 1, 'exactly one Sell for the form');
    const lines = audit.filter((l) => l.client_order_id === payoutClientOrderId(body.key));
    assert.deepEqual(
      lines.map((l) => `${l.result}:${l.code ?? ''}`),
      ['refused:payout_unconfirmed', 'refused:payout_in_progress', 'replayed:', 'replayed:'],
    );
  });

  test('the guard holds across a restart of the demo with its durable store', async () => {
    const path = join(dir, 'console.db');
    const store = createSqliteStore({ path });
    const body = form('1100.00');
    slow = true;
    const first = await submit(await consoleOver(store), body);
    assert.equal(first.body.error.code, 'payout_unconfirmed');
    await store.close();

    // A restarted demo: a new console API, a new provider client (which remembers nothing), the same file.
    const reopened = createSqliteStore({ path });
    try {
      const c = await consoleOver(reopened);
      const again = await submit(c, body);
      assert.equal(again.status, 409, JSON.stringify(again.body));
      assert.equal(again.body.error.code, 'payout_in_progress');
      assert.equal(creates, 1, 'nothing was sent after the restart');
      await land();
      const later = await submit(c, body);
      assert.equal(later.status, 200, JSON.stringify(later.body));
      const sells = await sellsOf(body.key);
      assert.deepEqual(sells.map((o) => o.id), [later.body.payout.id]);
    } finally {
      await reopened.close();
    }
  });

  test('two submits at once with a slow provider: the second sends nothing and answers 409 payout_in_progress; one Sell', async () => {
    const c = await consoleOver(undefined, 50);
    const body = form('1200.00');
    slow = true;
    const [a, b] = await Promise.all([submit(c, body), submit(c, body)]);
    assert.deepEqual([a.body.error.code, b.body.error.code].sort(), ['payout_in_progress', 'payout_unconfirmed']);
    assert.equal(creates, 1);
    await land();
    const [x, y] = await Promise.all([submit(c, body), submit(c, body)]);
    assert.deepEqual([x.status, y.status], [200, 200]);
    assert.equal(x.body.payout.id, y.body.payout.id);
    assert.deepEqual((await sellsOf(body.key)).map((o) => o.id), [x.body.payout.id]);
  });

  test('two submits at once with a provider that answers in time: one creates (201), the other gets it (200)', async () => {
    const c = await consoleOver();
    const body = form('1300.00');
    const [a, b] = await Promise.all([submit(c, body), submit(c, body)]);
    assert.deepEqual([a.status, b.status].sort(), [200, 201]);
    assert.equal(a.body.payout.id, b.body.payout.id);
    assert.equal(creates, 1);
    assert.equal((await sellsOf(body.key)).length, 1);
  });

  test('a create the provider refused made nothing: the same form may create again at once', async () => {
    const c = await consoleOver();
    const body = form('1400.00');
    refuse = true; // the provider answers 402: not enough money, nothing made
    const refused = await submit(c, body);
    assert.equal(refused.status, 402, JSON.stringify(refused.body));
    assert.equal(refused.body.error.code, 'insufficient_funds');
    refuse = false;
    const ok = await submit(c, body);
    assert.equal(ok.status, 201, JSON.stringify(ok.body));
    assert.equal(creates, 2);
    assert.deepEqual((await sellsOf(body.key)).map((o) => o.id), [ok.body.payout.id]);
  });

  test('a payout whose outcome is unknown is never sent again by its form: a provider that makes it minutes later (a queue) still pays once', async () => {
    const c = await consoleOver();
    const body = form('1500.00');
    slow = true;
    assert.equal((await submit(c, body)).body.error.code, 'payout_unconfirmed');
    slow = false; // the provider answers again, but the first create is still in its queue
    for (const wait of [CREATE_IN_FLIGHT_MS + 1000, 3 * 3600_000]) {
      clock += wait;
      const again = await submit(c, body);
      assert.equal(again.status, 409, JSON.stringify(again.body));
      assert.equal(again.body.error.code, 'payout_in_progress');
      const retry = again.body.error.details.retry_after as number;
      assert.ok(retry >= 1 && retry <= 15, `retry_after ${retry}`);
      assert.equal(creates, 1, 'nothing was sent again');
    }
    // The provider makes the first create now: the form's one payout, answered to every submit.
    await land();
    const later = await submit(c, body);
    assert.equal(later.status, 200, JSON.stringify(later.body));
    assert.equal((later.body as PayoutResponse).replayed, true);
    assert.equal((await sellsOf(body.key)).length, 1);
    assert.equal(creates, 1);
  });

  test('a different payout under a form whose payout may still land is refused as idempotency_key_reused', async () => {
    const c = await consoleOver();
    const body = form('1600.00');
    slow = true;
    assert.equal((await submit(c, body)).body.error.code, 'payout_unconfirmed');
    const other = form('1700.00');
    const reused = await submit(c, { ...other, key: body.key });
    assert.equal(reused.status, 409);
    assert.equal(reused.body.error.code, 'idempotency_key_reused');
    assert.equal(creates, 1);
    await land();
  });
});
