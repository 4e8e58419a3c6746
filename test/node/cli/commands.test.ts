/**
 * Each `paydesk` command in-process against a listening sandbox: what it prints (text and --json),
 * what it does to the sandbox, its exit codes, and bad input (exit 2, one line that says what to do).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { COMMANDS } from '../../../src/cli/main.js';
import { KEY, notASandbox, paydesk, world, type World } from './helpers.js';

let w: World;
before(async () => {
  w = await world();
});
after(async () => {
  await w.close();
});

const json = <T = Record<string, unknown>>(out: string) => JSON.parse(out) as T;
const oneLine = (err: string) => assert.equal(err.trimEnd().split('\n').length, 1, `one line: ${err}`);

describe('help and usage', () => {
  test('--help lists every command; each command’s --help shows every option of its definition and the exit codes', async () => {
    const top = await paydesk(['--help'], {});
    assert.equal(top.code, 0);
    for (const c of COMMANDS) assert.match(top.out, new RegExp(`^  ${c.name}\\b`, 'm'), c.name);
    for (const c of COMMANDS) {
      const r = await paydesk([...c.name.split(' '), '--help'], {});
      assert.equal(r.code, 0, c.name);
      assert.match(r.out, new RegExp(`^Usage: paydesk ${c.name}\\b`));
      for (const name of Object.keys(c.options)) assert.match(r.out, new RegExp(`--${name}\\b`), `${c.name} --help shows --${name}`);
      assert.match(r.out, /Exit codes: 0 success; 1 .*; 2 bad usage/);
    }
  });

  test('--version prints the package version', async () => {
    const r = await paydesk(['--version'], {});
    assert.equal(r.code, 0);
    assert.match(r.out, /^\d+\.\d+\.\d+/);
  });

  test('bad usage exits 2 with one line naming the problem and where help is', async () => {
    const cases: [string[], RegExp][] = [
      [[], /Usage: paydesk <command>/],
      [['pay'], /unknown command "pay"; the commands are sandbox, trigger, orders, balance, webhooks, doctor/],
      [['orders', 'delete'], /unknown command "orders delete"; orders has list, show/],
      [['webhooks'], /webhooks needs a subcommand: test, resend/],
      [['trigger'], /missing event \(one of paid, late, expired, cancelled, dispute-accepted, dispute-rejected\)/],
      [['trigger', 'refunded'], /event must be one of paid, late/],
      [['orders', 'list', '--colour'], /Unknown option '--colour'; run 'paydesk orders list --help'/],
      [['orders', 'list', '--size', '500'], /--size must be a whole number from 1 to 100, not "500"/],
      [['orders', 'list', '--from', 'yesterday'], /--from must be an ISO 8601 date/],
      [['orders', 'list', '--side', 'Both'], /--side must be one of Buy, Sell/],
      [['orders', 'list', '--status'], /argument missing/],
      [['orders', 'list', '--status', 'finished'], /--status must be one of Unpaid, Completed, CanceledByTimeout, CanceledByService, not "finished"/],
      [['orders', 'show'], /missing ID/],
      [['balance', 'now'], /takes no arguments, got "now"/],
      [['webhooks', 'test', 'not a url'], /is not a URL/],
    ];
    for (const [argv, message] of cases) {
      const r = await paydesk(argv, w.env);
      assert.equal(r.code, 2, argv.join(' '));
      assert.match(r.err, message, argv.join(' '));
      if (argv.length > 0) oneLine(r.err);
      assert.equal(r.out, '', 'nothing on stdout');
    }
  });

  test('no provider in the environment or options: exit 2 saying which variable to set', async () => {
    const r = await paydesk(['balance'], {});
    assert.equal(r.code, 2);
    assert.match(r.err, /no provider URL: set PAYDESK_PROVIDER_URL or pass --provider-url/);
    const noKey = await paydesk(['balance', '--provider-url', w.sandboxUrl], {});
    assert.equal(noKey.code, 2);
    assert.match(noKey.err, /no API key: set PAYDESK_API_KEY or pass --api-key/);
    const ok = await paydesk(['balance', '--provider-url', w.sandboxUrl, '--api-key', KEY], {});
    assert.equal(ok.code, 0, ok.err);
  });
});

describe('trigger', () => {
  test('paid completes the newest order when no id is given; --json says what happened', async () => {
    await w.order('older');
    const id = await w.order('newest');
    const r = await paydesk(['trigger', 'paid', '--json'], w.env);
    assert.equal(r.code, 0, r.err);
    const outcome = json<{ event: string; order: { id: string; status: string }; dispute: null }>(r.out);
    assert.deepEqual([outcome.event, outcome.order.id, outcome.order.status, outcome.dispute], ['paid', id, 'Completed', null]);
  });

  test('expired, cancelled and late act on the order given; text output names its new status', async () => {
    for (const [event, status] of [['expired', 'CanceledByTimeout'], ['cancelled', 'CanceledByService'], ['late', 'Completed']] as const) {
      const id = await w.order(`t-${event}`);
      await w.order('a-newer-one');
      const r = await paydesk(['trigger', event, id], w.env);
      assert.equal(r.code, 0, r.err);
      assert.match(r.out, new RegExp(`^${event}: order ${id} \\(t-${event}, 1500\\.00 RUB\\) is now ${status}`));
    }
  });

  test('late on an order that has already expired completes it late without expiring it again', async () => {
    const id = await w.order('t-late-expired');
    assert.equal((await paydesk(['trigger', 'expired', id], w.env)).code, 0);
    const r = await paydesk(['trigger', 'late', id, '--json'], w.env);
    assert.equal(r.code, 0, r.err);
    assert.equal(json<{ order: { status: string } }>(r.out).order.status, 'Completed');
  });

  test('dispute-accepted opens a dispute and accepts it (the money credited); dispute-rejected decides an open one', async () => {
    const id = await w.order('t-dispute', '2100.00');
    await paydesk(['trigger', 'expired', id], w.env);
    const accepted = await paydesk(['trigger', 'dispute-accepted', id, '--json'], w.env);
    assert.equal(accepted.code, 0, accepted.err);
    const a = json<{ dispute: { id: string; opened: boolean; accepted: boolean } }>(accepted.out);
    assert.deepEqual([a.dispute.opened, a.dispute.accepted], [true, true]);
    const deposits = await (await fetch(`${w.sandboxUrl}/api/v1/finance/transactions?size=100`, { headers: { 'X-API-Key': KEY } })).json();
    assert.ok(JSON.stringify(deposits).includes(id), 'a deposit names the order');

    const other = await w.order('t-dispute-2');
    const opened = await fetch(`${w.sandboxUrl}/sandbox/orders/${other}/dispute`, { method: 'POST', headers: { 'X-API-Key': KEY } });
    const disputeId = ((await opened.json()) as { dispute: { dispute_id: string } }).dispute.dispute_id;
    const rejected = await paydesk(['trigger', 'dispute-rejected', other, '--json'], w.env);
    assert.equal(rejected.code, 0, rejected.err);
    assert.deepEqual(json<{ dispute: unknown }>(rejected.out).dispute, { id: disputeId, opened: false, accepted: false });
  });

  test('an unknown order id, or a control the sandbox refuses, exits 1 with the reason', async () => {
    const r = await paydesk(['trigger', 'paid', '00000000-0000-4000-8000-000000000000'], w.env);
    assert.equal(r.code, 1);
    assert.match(r.err, /no order with that id/);
    const id = await w.order('t-twice');
    await paydesk(['trigger', 'paid', id], w.env);
    const again = await paydesk(['trigger', 'cancelled', id], w.env);
    assert.equal(again.code, 1);
    assert.match(again.err, /^paydesk trigger: cancelling .*: the sandbox refused \(\d+\)/);
    oneLine(again.err);
  });

  test('against a provider that is not the sandbox: exit 1, it needs the sandbox', async () => {
    const other = await notASandbox();
    try {
      const r = await paydesk(['trigger', 'paid'], { PAYDESK_PROVIDER_URL: other.url, PAYDESK_API_KEY: 'k' });
      assert.equal(r.code, 1);
      assert.match(r.err, /is not the paydesk sandbox.*needs the sandbox: npx paydesk sandbox/);
      const resend = await paydesk(['webhooks', 'resend', 'x'], { PAYDESK_PROVIDER_URL: other.url, PAYDESK_API_KEY: 'k' });
      assert.equal(resend.code, 1);
      assert.match(resend.err, /needs the sandbox/);
    } finally {
      await other.close();
    }
  });

  test('a wrong key exits 1 saying so', async () => {
    const r = await paydesk(['trigger', 'paid'], { ...w.env, PAYDESK_API_KEY: 'sk_wrong' });
    assert.equal(r.code, 1);
    assert.match(r.err, /refused the API key; check PAYDESK_API_KEY/);
  });
});

describe('orders and balance', () => {
  test('orders list prints a table, filters by status, pages; --json is the provider’s page', async () => {
    const id = await w.order('list-me');
    const table = await paydesk(['orders', 'list', '--size', '2'], w.env);
    assert.equal(table.code, 0, table.err);
    assert.match(table.out, /^ID\s+CLIENT ORDER\s+STATUS\s+AMOUNT\s+METHOD\s+CREATED$/m);
    assert.match(table.out, new RegExp(`^${id}\\s+list-me\\s+Unpaid\\s+1500\\.00 RUB\\s+SBP\\s`, 'm'));
    assert.match(table.out, /page 1 of \d+ \(\d+ orders\); next: --page 2/);
    const completed = json<{ items: { status: string }[]; page: number; size: number }>((await paydesk(['orders', 'list', '--status', 'Completed', '--from', '2020-01-01', '--json'], w.env)).out);
    assert.ok(completed.items.length > 0);
    assert.ok(completed.items.every((o) => o.status === 'Completed'));
    const anyCase = json<{ items: { status: string }[] }>((await paydesk(['orders', 'list', '--status', 'completed', '--from', '2020-01-01', '--json'], w.env)).out);
    assert.deepEqual(anyCase.items.map((o) => o.status), completed.items.map((o) => o.status), '--status completed is Completed');
    const page2 = json<{ page: number; size: number }>((await paydesk(['orders', 'list', '--page', '2', '--size', '1', '--json'], w.env)).out);
    assert.deepEqual([page2.page, page2.size], [2, 1]);
    const byDefault = await paydesk(['orders', '--json'], w.env);
    assert.equal(byDefault.code, 0, '`paydesk orders` lists');
  });

  test('orders show prints one order; an unknown id exits 1', async () => {
    const id = await w.order('show-me', '777.00');
    const r = await paydesk(['orders', 'show', id], w.env);
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /^client_order_id\s+show-me$/m);
    assert.match(r.out, /^amount\s+777\.00 RUB$/m);
    assert.equal(json<{ id: string }>((await paydesk(['orders', 'show', id, '--json'], w.env)).out).id, id);
    const missing = await paydesk(['orders', 'show', 'no-such-order'], w.env);
    assert.equal(missing.code, 1);
    assert.match(missing.err, /no order with that id/);
  });

  test('balance prints available, frozen and total; --json the provider’s balance', async () => {
    const r = await paydesk(['balance'], w.env);
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /^available\s+[\d.]+ RUB$/m);
    const b = json<{ available: string; currency: string }>((await paydesk(['balance', '--json'], w.env)).out);
    assert.equal(b.currency, 'RUB');
    assert.match(b.available, /^\d+\.\d\d$/);
  });

  test('a provider that does not answer: exit 1, cannot reach it', async () => {
    const r = await paydesk(['balance'], { PAYDESK_PROVIDER_URL: 'http://127.0.0.1:9', PAYDESK_API_KEY: KEY });
    assert.equal(r.code, 1);
    assert.match(r.err, /cannot reach the provider at http:\/\/127\.0\.0\.1:9/);
  });
});

describe('webhooks', () => {
  test('test: a signed test delivery the handler verifies, logs as a test and answers 200 without fulfilling anything', async () => {
    const before = await w.handler.inspect.sessions();
    const r = await paydesk(['webhooks', 'test', w.webhookUrl, '--webhook-secret', w.sandbox.webhookSecret()], {});
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /answered 200: test delivery [0-9a-f-]{36} verified; nothing was fulfilled/);
    const [line] = await w.handler.inspect.webhooks({ verified: true, limit: 1 });
    assert.equal(line?.outcome, 'test');
    assert.deepEqual(await w.handler.inspect.sessions(), before);
    const asJson = await paydesk(['webhooks', 'test', w.webhookUrl, '--json'], { PAYDESK_WEBHOOK_SECRET: w.sandbox.webhookSecret() });
    assert.equal(asJson.code, 0, asJson.err);
    assert.deepEqual(json<{ status: number; recognised: boolean; signed: boolean }>(asJson.out), { ...json(asJson.out), status: 200, recognised: true, signed: true });
  });

  test('test: a wrong secret is answered 401: exit 1 saying the delivery was not verified; no secret or key at all: exit 2', async () => {
    const r = await paydesk(['webhooks', 'test', w.webhookUrl, '--webhook-secret', 'whsec_not_the_one'], {});
    assert.equal(r.code, 1);
    assert.match(r.err, /answered 401: the delivery was not verified; give the webhook secret/);
    const none = await paydesk(['webhooks', 'test', w.webhookUrl], {});
    assert.equal(none.code, 2);
    assert.match(none.err, /set PAYDESK_WEBHOOK_SECRET/);
  });

  test('test: a URL that is not a paydesk webhook route exits 1', async () => {
    const other = await notASandbox();
    try {
      const r = await paydesk(['webhooks', 'test', `${other.url}/hook`, '--webhook-secret', 'whsec_x'], {});
      assert.equal(r.code, 1);
      assert.match(r.err, /answered 404/);
    } finally {
      await other.close();
    }
  });

  test('resend: the sandbox delivers the order’s webhook again and the handler receives it', async () => {
    const id = await w.order('resend-me');
    await paydesk(['trigger', 'paid', id], w.env);
    await w.sandbox.webhooks.idle();
    const r = await paydesk(['webhooks', 'resend', id], w.env);
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, new RegExp(`Webhook of order ${id} \\(Completed\\) sent to ${w.webhookUrl.replace(/[/.]/g, '\\$&')}`));
    await w.sandbox.webhooks.idle();
    const deliveries = w.sandbox.webhooks.log(KEY).filter((d) => d.order_id === id);
    assert.equal(deliveries.length, 2);
    assert.ok(deliveries.every((d) => d.status === 'delivered'), JSON.stringify(deliveries.map((d) => d.status)));
    const unknown = await paydesk(['webhooks', 'resend', 'no-such-order'], w.env);
    assert.equal(unknown.code, 1);
    assert.match(unknown.err, /the sandbox refused \(404\)/);
  });
});
