/**
 * `createSandbox({ stateFile })` and `--state-file`: a restart of the demo loses nothing — orders,
 * balances, disputes with their receipts, form sessions, transactions, settings, the clock.
 */
import { test, describe, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { AGGREGATE_METHOD_IDS } from '../../../src/provider/index.js';
import { createSandbox, SandboxStateError, type SandboxOptions } from '../../../src/sandbox/index.js';
import { makePdf, makePng, receiptForm } from './receipt-files.js';
import { START, replyOf } from './helpers.js';

const dirs: string[] = [];
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'paydesk-state-'));
  dirs.push(dir);
  return dir;
}

/** A sandbox on a fake base clock; requests go through `app.request`. */
function open(stateFile: string, time: { now: number }, extra: SandboxOptions = {}) {
  const sandbox = createSandbox({ stateFile, now: () => time.now, sweepIntervalMs: 0, webhookRetryDelaysMs: [], seed: false, ...extra });
  const call = async (method: string, path: string, body?: unknown, key: string | null = sandbox.apiKey) => {
    const headers: Record<string, string> = {};
    if (key !== null) headers['X-API-Key'] = key;
    let payload: BodyInit | undefined;
    if (body instanceof FormData) payload = body;
    else if (body !== undefined) {
      headers['Content-Type'] = 'application/json';
      payload = JSON.stringify(body);
    }
    return replyOf(await sandbox.app.request(path, { method, headers, ...(payload !== undefined && { body: payload }) }));
  };
  return { sandbox, call };
}

/** Everything a console reads of a terminal, to compare before and after a restart. */
async function everything(call: ReturnType<typeof open>['call'], key?: string) {
  const get = async (path: string) => (await call('GET', path, undefined, key)).json;
  return {
    orders: await get('/api/v1/order/?size=100&start_date=2000-01-01'),
    sessions: await get('/api/v1/form/search?size=100'),
    disputes: await get('/api/v1/disputes/search?size=100'),
    transactions: await get('/api/v1/finance/transactions?size=100'),
    balance: await get('/api/v1/finance/balance'),
    terminal: await get('/sandbox/terminal'),
    clock: await get('/sandbox/clock'),
  };
}

describe('a restart on the same state file', () => {
  test('orders, balances, disputes and their receipts, sessions, settings and the clock are all there; completing an order still works', async () => {
    const file = join(tempDir(), 'sandbox.json');
    const time = { now: START };
    let { sandbox, call } = open(file, time);
    const key = sandbox.apiKey;
    const secret = sandbox.webhookSecret();

    const unpaid = (await call('POST', '/api/v1/order/', { client_order_id: 'keep-1', order_side: 'Buy', payment_method_id: AGGREGATE_METHOD_IDS.SBP, amount: '1500.00' })).json;
    const paid = (await call('POST', '/api/v1/order/', { client_order_id: 'keep-2', order_side: 'Buy', method_type: 'BankCard', amount: '2500.00' })).json;
    await call('POST', `/sandbox/orders/${paid.id}/complete`);
    const payout = (await call('POST', '/api/v1/order/', { client_order_id: 'keep-3', order_side: 'Sell', method_type: 'BankCard', amount: '3000.00', customer_account: '2200123412341234' })).json;
    const expired = (await call('POST', '/api/v1/order/', { client_order_id: 'keep-4', order_side: 'Buy', method_type: 'SBP', amount: '990.00' })).json;
    await call('POST', `/sandbox/orders/${expired.id}/expire`);
    const png = makePng();
    const pdf = makePdf();
    const dispute = (
      await call('POST', '/api/v1/disputes/create', receiptForm({ order_id: expired.id, amount: expired.amount }, [
        { name: 'receipt.png', type: 'image/png', data: png },
        { name: 'statement.pdf', type: 'application/pdf', data: pdf },
      ]))
    ).json;
    const form = (await call('POST', '/api/v1/form/create', { order_data: { client_order_id: 'keep-form', order_side: 'Buy', amount: '700.00', button_name: 'SberPay' } })).json.form_data;
    await call('POST', '/sandbox/terminal', { webhook_url: 'http://127.0.0.1:9/after-restart', anti_fraud_pending_limit: 7 });
    await call('POST', '/sandbox/clock/advance', { seconds: 60 });
    await call('POST', '/api/v1/order/', { client_order_id: 'keep-uzs', order_side: 'Buy', payment_method_id: AGGREGATE_METHOD_IDS.BankCard, amount: '250000' }, 'sandbox_uzs');
    sandbox.addTerminal('extra_key');
    await call('POST', '/api/v1/order/', { client_order_id: 'keep-extra', order_side: 'Buy', method_type: 'SBP', amount: '1200.00' }, 'extra_key');

    const before = await everything(call);
    const beforeUzs = await everything(call, 'sandbox_uzs');
    const beforeExtra = await everything(call, 'extra_key');
    await sandbox.close();

    ({ sandbox, call } = open(file, time));
    assert.equal(sandbox.apiKey, key, 'without apiKey the main terminal keeps its key');
    assert.equal(sandbox.webhookSecret(), secret);
    assert.deepEqual(await everything(call), before);
    assert.deepEqual(await everything(call, 'sandbox_uzs'), beforeUzs);
    assert.deepEqual(await everything(call, 'extra_key'), beforeExtra);
    assert.equal(before.terminal.terminal.webhook_url, 'http://127.0.0.1:9/after-restart');
    assert.equal(before.clock.offset_seconds, 60);

    // The receipts are served from disk, byte for byte.
    const files = readdirSync(`${file}.files`);
    assert.equal(files.length, 2);
    for (const [i, bytes] of [png, pdf].entries()) {
      const res = await sandbox.app.request(`/sandbox/disputes/${dispute.dispute_id}/files/${i}`, { headers: { 'X-API-Key': key } });
      assert.equal(res.status, 200);
      assert.deepEqual(new Uint8Array(await res.arrayBuffer()), bytes);
    }
    // The form session is found by the hosted form, without a key.
    assert.equal((await call('GET', `/pay/api/sessions/${form.session_id}`, undefined, null)).json.order.status, 'pending');

    // Completing still works, with the money and the webhook; the dispute can still be processed.
    const available = Number(before.balance.deposit.available);
    const done = await call('POST', `/sandbox/orders/${unpaid.id}/complete`);
    assert.equal(done.status, 200, done.text);
    const after = (await call('GET', '/api/v1/finance/balance')).json.deposit;
    assert.equal(Math.round((Number(after.available) - available) * 100), Math.round((1500 - Number(unpaid.fee)) * 100));
    assert.equal((await call('POST', `/sandbox/orders/${payout.id}/complete`)).status, 200);
    assert.equal((await call('POST', `/sandbox/disputes/${dispute.dispute_id}/process`, { accepted: true })).status, 200);
    const log = sandbox.webhooks.log().filter((d) => d.order_id === unpaid.id);
    assert.equal(log.at(-1)?.envelope.payload.status, 'Completed');
    assert.equal(log.at(-1)?.url, 'http://127.0.0.1:9/after-restart');
    // A new order gets a fresh, non-clashing sequence and requisite.
    assert.equal((await call('POST', '/api/v1/order/', { client_order_id: 'after-1', order_side: 'Buy', method_type: 'SBP', amount: '1500.00' })).status, 201);
    await sandbox.close();
  });

  test('an order that expired while the sandbox was down expires at the first look, and its webhook goes out', async () => {
    const file = join(tempDir(), 'sandbox.json');
    const time = { now: START };
    let { sandbox, call } = open(file, time, { webhookUrl: 'http://127.0.0.1:9/hooks', fetch: async () => new Response(null, { status: 204 }) });
    const o = (await call('POST', '/api/v1/order/', { client_order_id: 'down-1', order_side: 'Buy', method_type: 'SBP', amount: '1500.00' })).json;
    await sandbox.close();
    time.now += 45 * 60_000;
    ({ sandbox, call } = open(file, time, { webhookUrl: 'http://127.0.0.1:9/hooks', fetch: async () => new Response(null, { status: 204 }) }));
    assert.equal((await call('GET', `/api/v1/order/${o.id}`)).json.order.status, 'CanceledByTimeout');
    await sandbox.webhooks.idle();
    assert.deepEqual(
      sandbox.webhooks.log().filter((d) => d.order_id === o.id).map((d) => [d.envelope.payload.status, d.status]),
      [['CanceledByTimeout', 'delivered']],
    );
    await sandbox.close();
  });

  test('a change is saved a moment later without a close, atomically, readable only by its owner', async () => {
    const dir = tempDir();
    const file = join(dir, 'sandbox.json');
    const { sandbox, call } = open(file, { now: START }, { stateSaveDelayMs: 5 });
    await call('POST', '/api/v1/order/', { client_order_id: 'soon', order_side: 'Buy', method_type: 'SBP', amount: '1500.00' });
    for (let i = 0; i < 100 && !readFileSync(file, 'utf8').includes('"soon"'); i++) await new Promise((r) => setTimeout(r, 10));
    const saved = JSON.parse(readFileSync(file, 'utf8'));
    assert.equal(saved.format, 'paydesk-sandbox-state');
    assert.ok(saved.terminals[0].data.orders.some((o: { clientOrderId: string }) => o.clientOrderId === 'soon'));
    assert.deepEqual(readdirSync(dir).filter((n) => n.endsWith('.tmp')), [], 'no temp file is left');
    assert.equal(statSync(file).mode & 0o777, 0o600);
    await sandbox.close();
  });

  test('settings given at this start win over the stored preset; settings changed at run time are kept', async () => {
    const file = join(tempDir(), 'sandbox.json');
    let { sandbox, call } = open(file, { now: START }, { webhookUrl: 'http://127.0.0.1:9/old', merchantName: 'Old name' });
    await call('POST', '/sandbox/terminal', { auto_pay_after_seconds: 30 });
    await sandbox.close();
    ({ sandbox, call } = open(file, { now: START }, { webhookUrl: 'http://127.0.0.1:9/new', merchantName: 'Old name' }));
    const terminal = (await call('GET', '/sandbox/terminal')).json.terminal;
    assert.equal(terminal.webhook_url, 'http://127.0.0.1:9/new');
    assert.equal(terminal.auto_pay_after_seconds, 30);
    await sandbox.close();
  });

  test('a reset removes the terminal’s receipts from disk at the next save', async () => {
    const file = join(tempDir(), 'sandbox.json');
    const { sandbox, call } = open(file, { now: START });
    const o = (await call('POST', '/api/v1/order/', { client_order_id: 'r-1', order_side: 'Buy', method_type: 'SBP', amount: '1500.00' })).json;
    await call('POST', '/api/v1/disputes/create', receiptForm({ order_id: o.id, amount: o.amount }, [{ name: 'r.png', type: 'image/png', data: makePng() }]));
    sandbox.saveState();
    assert.equal(readdirSync(`${file}.files`).length, 1);
    await call('POST', '/sandbox/reset');
    sandbox.saveState();
    assert.equal(readdirSync(`${file}.files`).length, 0);
    await sandbox.close();
  });
});

describe('a state file that cannot be used is a clear error, and is left as it is', () => {
  const cases: [string, string, RegExp][] = [
    ['not JSON', '{"format": "paydesk-sandbox-state", ', /is not JSON/],
    ['another JSON file', '{"name": "my-app", "version": "1.0.0"}', /not a paydesk sandbox state file/],
    ['a newer version', '{"format": "paydesk-sandbox-state", "version": 99}', /version 99/],
    [
      'a field of the wrong type',
      JSON.stringify({ format: 'paydesk-sandbox-state', version: 1, savedAt: 'x', clockOffsetMs: 'soon', masterSecret: 'm', mainApiKey: 'k', terminals: [] }),
      /clockOffsetMs/,
    ],
  ];
  for (const [name, text, message] of cases) {
    test(name, () => {
      const file = join(tempDir(), 'sandbox.json');
      writeFileSync(file, text);
      assert.throws(
        () => createSandbox({ stateFile: file, sweepIntervalMs: 0 }),
        (err: unknown) => err instanceof SandboxStateError && err.path === file && message.test(err.message) && /Move it away/.test(err.message),
      );
      assert.equal(readFileSync(file, 'utf8'), text, 'untouched');
    });
  }

  test('an order naming a payment method the terminal does not have', async () => {
    const file = join(tempDir(), 'sandbox.json');
    const { sandbox, call } = open(file, { now: START });
    await call('POST', '/api/v1/order/', { client_order_id: 'x', order_side: 'Buy', method_type: 'SBP', amount: '1500.00' });
    await sandbox.close();
    const state = JSON.parse(readFileSync(file, 'utf8'));
    state.terminals[0].data.orders[0].methodId = 'no-such-method';
    writeFileSync(file, JSON.stringify(state));
    assert.throws(() => createSandbox({ stateFile: file, sweepIntervalMs: 0 }), /payment method no-such-method/);
  });

  test('a path that cannot be written is an error at start', () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'taken.json'));
    assert.throws(() => createSandbox({ stateFile: join(dir, 'taken.json'), sweepIntervalMs: 0 }), SandboxStateError);
  });
});

describe('the CLI', () => {
  const CLI = fileURLToPath(new URL('../../../src/sandbox/cli.ts', import.meta.url));
  const run = (args: string[]) => spawn(process.execPath, ['--import', 'tsx', CLI, '--port', '0', '--quiet', '--no-seed', ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, PAYDESK_SANDBOX_API_KEY: '' } });

  test('--state-file keeps the main key and the orders across a restart; --currency sets the main terminal’s currency', async () => {
    const file = join(tempDir(), 'cli-state.json');
    const start = async (extra: string[] = []) => {
      const child = run(['--state-file', file, ...extra]);
      let out = '';
      child.stdout.on('data', (c: Buffer) => (out += c.toString()));
      while (!/OpenAPI:/.test(out)) {
        const [chunk] = (await Promise.race([once(child.stdout, 'data'), once(child, 'exit').then(() => [null])])) as [Buffer | null];
        if (chunk === null) throw new Error(`the CLI exited: ${out}`);
      }
      const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out)![1]!;
      const key = /API key \(main terminal\): (\S+)/.exec(out)![1]!;
      return { child, url, key, out };
    };
    const first = await start(['--currency', 'kzt']);
    assert.match(first.out, /currency KZT/);
    assert.match(first.out, /state file:/);
    const balance = await (await fetch(`${first.url}/api/v1/finance/balance`, { headers: { 'X-API-Key': first.key } })).json();
    assert.equal(balance.deposit.currency, 'KZT');
    const card = AGGREGATE_METHOD_IDS.BankCard;
    const created = await fetch(`${first.url}/api/v1/order/`, {
      method: 'POST',
      headers: { 'X-API-Key': first.key, 'Content-Type': 'application/json' },
      body: JSON.stringify({ client_order_id: 'cli-keep', order_side: 'Buy', payment_method_id: card, amount: '10000' }),
    });
    assert.equal(created.status, 201);
    first.child.kill('SIGINT');
    await once(first.child, 'exit');

    const second = await start(['--currency', 'KZT']);
    assert.equal(second.key, first.key);
    const found = await (await fetch(`${second.url}/api/v1/order/search-by-client-order-id?id=cli-keep`, { headers: { 'X-API-Key': second.key } })).json();
    assert.equal(found.orders.total, 1);
    second.child.kill('SIGTERM');
    await once(second.child, 'exit');
  });

  test('a bad --currency and a corrupt --state-file are one clear line each', async () => {
    const file = join(tempDir(), 'bad.json');
    writeFileSync(file, 'garbage');
    for (const [args, message, exit] of [
      [['--currency', 'USD'], /--currency must be one of RUB, UZS, KZT, AZN, TJS, EUR/, 2],
      [['--state-file', file], /state file .* cannot be used: it is not JSON/, 1],
    ] as const) {
      const child = run([...args]);
      let err = '';
      child.stderr.on('data', (d: Buffer) => (err += d.toString()));
      const [code] = (await once(child, 'exit')) as [number | null];
      assert.equal(code, exit, args.join(' '));
      assert.match(err, message);
      assert.doesNotMatch(err, /\n\s+at /, 'no stack trace');
    }
  });
});


describe('answers wait for the state file', () => {
  test('a change the file cannot take is answered 503, not 2xx; once it can, the change is saved with the next request', async () => {
    const dir = tempDir();
    const file = join(dir, 'sandbox.json');
    const { sandbox, call } = open(file, { now: START });
    // The temp files the next saves will use are taken by folders: those writes fail.
    const blocked = [1, 2, 3].map((n) => join(dir, `.sandbox.json.${process.pid}.${n}.tmp`));
    for (const b of blocked) mkdirSync(b);
    const refused = await call('POST', '/api/v1/order/', { client_order_id: 'unsaved', order_side: 'Buy', method_type: 'SBP', amount: '1500.00' });
    assert.equal(refused.status, 503);
    assert.match(refused.json.message, /could not save this change to its state file/);
    assert.ok(!readFileSync(file, 'utf8').includes('"unsaved"'));
    for (const b of blocked) rmSync(b, { recursive: true });
    const saved = await call('POST', '/api/v1/order/', { client_order_id: 'saved', order_side: 'Buy', method_type: 'SBP', amount: '1500.00' });
    assert.equal(saved.status, 201);
    const text = readFileSync(file, 'utf8');
    assert.ok(text.includes('"saved"') && text.includes('"unsaved"'), 'both orders are in the file once it can be written');
    await sandbox.close();
  });

  test('a webhook whose change the file cannot take is not sent', async () => {
    const dir = tempDir();
    const file = join(dir, 'sandbox.json');
    const sent: string[] = [];
    const { sandbox, call } = open(file, { now: START }, {
      webhookUrl: 'http://merchant.test/webhooks',
      fetch: async (input) => {
        sent.push(String(input));
        return new Response('{}');
      },
    });
    const order = (await call('POST', '/api/v1/order/', { client_order_id: 'quiet', order_side: 'Buy', method_type: 'SBP', amount: '1500.00' })).json;
    for (let n = 1; n <= 20; n++) mkdirSync(join(dir, `.sandbox.json.${process.pid}.${n}.tmp`), { recursive: true });
    assert.equal((await call('POST', `/sandbox/orders/${order.id}/complete`)).status, 503);
    await sandbox.webhooks.idle();
    assert.deepEqual(sent, []);
    const delivery = sandbox.webhooks.log().find((d) => d.order_id === order.id)!;
    assert.equal(delivery.status, 'failed');
    assert.match(delivery.attempts[0]!.error!, /not sent: the sandbox could not save its state/);
    await sandbox.close();
  });

  test('concurrent creates are each answered only once the file holds them', async () => {
    const file = join(tempDir(), 'sandbox.json');
    const { sandbox, call } = open(file, { now: START });
    const replies = await Promise.all(
      Array.from({ length: 20 }, (_, i) => call('POST', '/api/v1/order/', { client_order_id: `many-${i}`, order_side: 'Buy', method_type: 'SBP', amount: `${1000 + i}.00` })),
    );
    assert.deepEqual(new Set(replies.map((r) => r.status)), new Set([201]));
    // Read at once, no waiting: every answered order is on disk.
    const onDisk = new Set(JSON.parse(readFileSync(file, 'utf8')).terminals[0].data.orders.map((o: { id: string }) => o.id));
    for (const r of replies) assert.ok(onDisk.has(r.json.id));
    await sandbox.close();
  });
});
