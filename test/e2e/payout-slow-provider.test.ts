/**
 * One payout form pays out once with a slow provider (issue 19, point 2), in a browser against the
 * demo and its sandbox: the console's provider client goes through a double that holds a payout's
 * create (no answer in time: the client times out and its lookups find nothing), then lets it land.
 * The page says the payout is unconfirmed; "Check again" while it may still land says plainly not to
 * pay again and when to check, and sends nothing; once it landed, "Check again" shows that payout.
 * And the same across a restart of `npm start` on its data directory.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { quotePayout, type PayoutMethod } from '../../src/console/payout-rules.js';
import { CONSOLE_PASSWORD, launchBrowser, newShopper, sandboxCall, screenshot, startTestDemo, type Shopper, type TestDemo } from './helpers.js';
import { logIn } from './console-page.js';

interface ProviderMethod {
  method_id: string;
  method_type: string;
  ranges: Array<{ fee_side: string; min_amount: number; max_amount: number }>;
}
interface ProviderOrder {
  id: string;
  order_side: string;
  customer_account: string | null;
}

/** A Luhn-valid card the seeded history does not use. */
const CARD = '4000056655665556';

describe('a payout form with a slow provider', () => {
  let demo: TestDemo;
  let browser: Browser;
  let merchant: Shopper;
  let page: Page;
  /** While true, the provider holds payout creates: no answer (the console's client times out) until `land()`. */
  let slow = false;
  let creates = 0;
  let held: Array<() => Promise<void>> = [];

  const slowFetch: typeof fetch = async (input, init) => {
    const req = new Request(input, init);
    if (req.method === 'POST' && new URL(req.url).pathname === '/api/v1/order/') {
      const body = await req.clone().text();
      if ((JSON.parse(body) as { order_side?: string }).order_side === 'Sell') {
        creates++;
        if (slow) {
          const late = new Request(req.url, { method: 'POST', headers: req.headers, body });
          held.push(async () => {
            const res = await fetch(late);
            assert.equal(res.status, 201, await res.text());
          });
          // The client's own signal: a Request's copy of it may miss the abort after a garbage collection.
          const signal = init?.signal ?? req.signal;
          return new Promise<Response>((_, reject) => signal.addEventListener('abort', () => reject(signal.reason), { once: true }));
        }
      }
    }
    return fetch(req);
  };

  before(async () => {
    [demo, browser] = await Promise.all([
      startTestDemo({ consoleProvider: { fetch: slowFetch, timeoutMs: 400, lookupWindowMs: 300 } }),
      launchBrowser(),
    ]);
    merchant = await newShopper(browser, { height: 1100 });
    page = merchant.page;
    await logIn(page, demo, '/console/payouts/new');
  });

  after(async () => {
    await merchant?.context.close().catch(() => undefined);
    await browser?.close();
    await demo?.close();
  });

  const sellsToCard = async () =>
    (await sandboxCall<{ orders: { items: ProviderOrder[] } }>(demo, '/api/v1/order/?order_side=Sell&size=50')).orders.items.filter(
      (o) => o.order_side === 'Sell' && o.customer_account === CARD,
    );

  test('unconfirmed, then "do not pay it again — check again in N s" with nothing sent, then the payout that landed; one Sell', async () => {
    const { payment_methods } = await sandboxCall<{ payment_methods: ProviderMethod[] }>(demo, '/api/v1/finance/payment_methods?active=true');
    const card = payment_methods.find((m) => m.method_type === 'BankCard' && m.ranges.some((r) => r.fee_side === 'Sell' && r.min_amount <= 1000 && r.max_amount >= 1000))!;
    assert.ok(card, 'a card method pays out 1000');
    await page.goto(`${demo.merchantUrl}/console/payouts/new?lang=en&theme=light`);
    await page.locator(`#payout-method option[value="${card.method_id}"]`).waitFor({ state: 'attached' });
    await page.locator('#payout-method').selectOption(card.method_id);
    await page.locator('#payout-amount').fill('1000');
    await page.locator('#payout-destination').fill('4000 0566 5566 5556');
    await page.locator('#payout-form button[type="submit"]').click();
    await page.locator('#payout-confirm').waitFor();

    slow = true;
    const error = page.locator('#payout-error');
    const submit = page.locator('#payout-submit');
    await submit.click();
    await error.filter({ hasText: 'The provider did not confirm the payout' }).waitFor();
    assert.equal((await submit.innerText()).trim(), 'Check again');
    assert.equal(creates, 1);

    // Checked again before the provider made it: told plainly not to pay again, and nothing is sent.
    await submit.click();
    await error.filter({ hasText: /still being confirmed; do not pay it again — check again in \d+ s\./ }).waitFor();
    await screenshot(page, 'console-payout-in-progress');
    assert.equal(creates, 1, 'nothing was sent');
    assert.deepEqual(await sellsToCard(), []);

    // The first create lands: checking again shows that payout, and there is one.
    for (const go of held.splice(0)) await go();
    const landed = await sellsToCard();
    assert.equal(landed.length, 1);
    await submit.click();
    await page.locator('#payout-done').waitFor();
    assert.equal((await page.locator('#payout-done-title').innerText()).trim(), 'This payout was already made by this form');
    assert.equal((await page.locator('#payout-done-summary .mono dd').last().innerText()).trim(), landed[0]!.id);
    assert.equal(creates, 1);
    assert.deepEqual((await sellsToCard()).map((o) => o.id), [landed[0]!.id], 'exactly one Sell for the form');
    assert.deepEqual(merchant.errors, []);
  });
});

test('the guard holds across a restart of the demo on its data directory (PAYDESK_DATA_DIR)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'paydesk-payout-restart-'));
  /** Where held creates land: the sandbox of the demo running now. */
  let sandboxUrl = '';
  let slow = true;
  let creates = 0;
  const held: Request[] = [];
  const slowFetch: typeof fetch = async (input, init) => {
    const req = new Request(input, init);
    if (req.method === 'POST' && new URL(req.url).pathname === '/api/v1/order/') {
      const body = await req.clone().text();
      if ((JSON.parse(body) as { order_side?: string }).order_side === 'Sell') {
        creates++;
        if (slow) {
          held.push(new Request(req.url, { method: 'POST', headers: req.headers, body }));
          // The client's own signal: a Request's copy of it may miss the abort after a garbage collection.
          const signal = init?.signal ?? req.signal;
          return new Promise<Response>((_, reject) => signal.addEventListener('abort', () => reject(signal.reason), { once: true }));
        }
      }
    }
    return fetch(req);
  };
  const start = () => startTestDemo({ dataDir: dir, consoleProvider: { fetch: slowFetch, timeoutMs: 400, lookupWindowMs: 300 } });
  async function consoleOf(demo: TestDemo) {
    const api = `${demo.merchantUrl}/console/api`;
    const headers = { 'content-type': 'application/json', 'x-paydesk': '1', origin: demo.merchantUrl };
    const login = await fetch(`${api}/login`, { method: 'POST', headers, body: JSON.stringify({ password: CONSOLE_PASSWORD }) });
    assert.equal(login.status, 204);
    const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0]!;
    return {
      get: async <T>(path: string) => (await (await fetch(`${api}${path}`, { headers: { cookie } })).json()) as T,
      post: async (path: string, body: unknown) => {
        const res = await fetch(`${api}${path}`, { method: 'POST', headers: { ...headers, cookie }, body: JSON.stringify(body) });
        return { status: res.status, body: (await res.json()) as any };
      },
    };
  }
  const key = 'e2e-restart-payout-key-0001';
  const sells = async (demo: TestDemo) =>
    (await sandboxCall<{ orders: { items: ProviderOrder[] } }>(demo, `/api/v1/order/search-by-client-order-id?id=payout-${key}`)).orders.items.filter(
      (o) => o.order_side === 'Sell',
    );

  let demo = await start();
  try {
    sandboxUrl = demo.sandboxUrl!;
    let api = await consoleOf(demo);
    const { methods } = await api.get<{ methods: PayoutMethod[] }>('/payout-methods');
    const card = methods.find((m) => m.kind === 'card' && quotePayout(m, '1000.00').ok)!;
    const quoted = quotePayout(card, '1000.00');
    assert.ok(quoted.ok);
    const form = { key, method_id: card.id, amount: '1000', destination: CARD, total: quoted.quote.total };
    const first = await api.post('/payouts', form);
    assert.equal(first.status, 502, JSON.stringify(first.body));
    assert.equal(first.body.error.code, 'payout_unconfirmed');
    await demo.close();

    // npm start again on the same directory: the console's store remembers that the payout may still land.
    demo = await start();
    sandboxUrl = demo.sandboxUrl!;
    api = await consoleOf(demo);
    const again = await api.post('/payouts', form);
    assert.equal(again.status, 409, JSON.stringify(again.body));
    assert.equal(again.body.error.code, 'payout_in_progress');
    assert.equal(creates, 1, 'nothing was sent after the restart');

    // The create sent before the restart lands (at the restarted sandbox, which kept the terminal).
    for (const req of held.splice(0)) {
      const res = await fetch(new Request(new URL(new URL(req.url).pathname, sandboxUrl), req));
      assert.equal(res.status, 201, await res.text());
    }
    slow = false;
    const later = await api.post('/payouts', form);
    assert.equal(later.status, 200, JSON.stringify(later.body));
    assert.equal(later.body.replayed, true);
    assert.deepEqual((await sells(demo)).map((o) => o.id), [later.body.payout.id], 'exactly one Sell');
    assert.equal(creates, 1);
  } finally {
    await demo.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
