/**
 * Pure parts of the server: OrderView mapping, method offers and choice, provider error mapping,
 * route matching, and the promise that importing paydesk/server does not load ioredis.
 */
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { PROVIDER_MESSAGES, type OrderStatus } from '../../../src/provider/facts.js';
import { ProviderError } from '../../../src/provider/errors.js';
import type { Order } from '../../../src/provider/schemas.js';
import type { ProviderErrorCode } from '../../../src/provider/types.js';
import { fromProviderError, matchRoute, offersFor, orderToView, PROVIDER_ERROR_MAP, requisitesKind, sanitizeUrl, selectMethod } from '../../../src/server/index.js';
import { randomId } from '../../../src/server/crypto.js';
import { normaliseDecimal } from '../../../src/server/order-view.js';
import { CARD_ID, defaultMethods, SBER_SBP_ID, SBP_ID } from './fake-provider.js';

const order = (over: Partial<Order> = {}): Order => ({
  id: 'o-1',
  client_order_id: 'c-1',
  currency: 'RUB',
  method_id: SBP_ID,
  method_name: 'СБП',
  method_type: 'SBP',
  initial_method_id: SBP_ID,
  order_side: 'Buy',
  amount: '1500.00',
  fee: '22.5',
  fixed_fee: null,
  status: 'Unpaid',
  holder_name: 'Иванов Иван Иванович',
  holder_account: '+79991234567',
  customer_name: null,
  customer_account: null,
  customer_bank: null,
  payment_link: null,
  webhook_url: null,
  created_at: '2026-03-01T12:00:00Z',
  updated_at: '2026-03-01T12:00:00Z',
  expires_at: '2026-03-01T12:30:00Z',
  ...over,
});
const ctx = { currency: 'RUB', requested_amount: '1500.00', redirect_url: null, support_url: null, return_url: null };

describe('OrderView mapping', () => {
  test('status comes from orderOutcome: Completed → paid, timeout → expired, service → cancelled, unknown → pending', () => {
    for (const [status, outcome] of [
      ['Unpaid', 'pending'],
      ['Completed', 'paid'],
      ['CanceledByTimeout', 'expired'],
      ['CanceledByService', 'cancelled'],
      ['Paid', 'paid'],
      ['Brand-new status', 'pending'],
    ] as const) {
      const v = orderToView(order({ status: status as OrderStatus }), ctx);
      assert.equal(v.status, outcome, status);
      assert.equal(v.provider_status, status);
    }
  });

  test('times reach the widget with their zone: a provider time written without one is UTC (the countdown is right in any time zone)', () => {
    const tz = process.env.TZ;
    process.env.TZ = 'Europe/Moscow'; // Date.parse would read a zone-less time as this server's local time
    try {
      const v = orderToView(order({ created_at: '2024-08-02T15:34:07.440105', expires_at: '2024-08-02 16:04:07' }), ctx);
      assert.equal(v.created_at, '2024-08-02T15:34:07.440Z');
      assert.equal(v.expires_at, '2024-08-02T16:04:07.000Z');
      const z = orderToView(order({ created_at: '2024-08-02T18:34:07+03:00', expires_at: '2024-08-02T16:04:07Z' }), ctx);
      assert.deepEqual([z.created_at, z.expires_at], ['2024-08-02T15:34:07.000Z', '2024-08-02T16:04:07.000Z']);
    } finally {
      if (tz === undefined) delete process.env.TZ;
      else process.env.TZ = tz;
    }
  });

  test('requisites.kind follows the method type; unknown types are read from the account shape', () => {
    assert.equal(requisitesKind('BankCard', '4627100101654724'), 'card');
    assert.equal(requisitesKind('TransBankCard', '4627100101654724'), 'card');
    assert.equal(requisitesKind('SBP', '+79991234567'), 'phone');
    assert.equal(requisitesKind('TransSBP', '+79991234567'), 'phone');
    assert.equal(requisitesKind('BankAccount', '40817810099910004312'), 'account');
    assert.equal(requisitesKind('NSPKLink', 'https://qr.nspk.ru/x'), 'link');
    assert.equal(requisitesKind('Mystery', '4627 1001 0165 4724'), 'card');
    assert.equal(requisitesKind('Mystery', '+7 999 123-45-67'), 'phone');
    assert.equal(requisitesKind('Mystery', '40817810099910004312'), 'account');
  });

  test('the bank comes from customer_bank, else from the chosen method\'s nspk_code', () => {
    assert.equal(orderToView(order({ customer_bank: 'vtb' }), ctx).bank, 'vtb');
    assert.equal(orderToView(order(), { ...ctx, nspk_code: 'bank100000000004' }).bank, 'tinkoff');
    assert.equal(orderToView(order(), ctx).bank, null);
    assert.equal(orderToView(order({ customer_bank: 'bank-of-mars' }), ctx).bank, null);
  });

  test('amounts are rendered at the currency digits when nothing is lost; fee too', () => {
    const v = orderToView(order({ amount: '1500.00000', fee: '22.5' }), ctx);
    assert.equal(v.amount, '1500.00');
    assert.equal(v.fee, '22.50');
    assert.equal(normaliseDecimal('1500.123', 'RUB'), '1500.123');
    assert.equal(normaliseDecimal('-1', 'RUB'), null);
  });

  test('payment_link and form_url pass only as http(s); redirect URLs only from the context', () => {
    const v = orderToView(order({ payment_link: 'javascript:alert(1)', form_url: 'https://provider.example/pay?session_id=1' }), {
      ...ctx,
      redirect_url: 'https://shop.example/ok',
    });
    assert.equal(v.payment_link, null);
    assert.equal(v.form_url, 'https://provider.example/pay?session_id=1');
    assert.equal(v.redirect_url, 'https://shop.example/ok');
  });

  test('sanitizeUrl keeps http(s) only', () => {
    for (const good of ['https://a.example/x?y=1', 'http://127.0.0.1:3000/']) assert.equal(sanitizeUrl(good), good);
    for (const bad of ['javascript:alert(1)', 'data:text/html,x', 'ftp://a', '//a.example', 'https://', '', 5, null, `https://a.example/${'x'.repeat(3000)}`]) {
      assert.equal(sanitizeUrl(bad), null, String(bad));
    }
  });
});

describe('method offers and choice', () => {
  test('offers use the Buy range that holds the amount, bounds included', () => {
    const at = (amount: string) => offersFor(defaultMethods(), amount, 'RUB').map((o) => o.view.id);
    assert.ok(at('100.00').includes(SBP_ID));
    assert.ok(!at('99.99').includes(SBP_ID));
    assert.ok(at('100000.00').includes(SBP_ID));
    assert.ok(!at('100000.01').includes(SBP_ID));
    assert.ok(!at('499.99').includes(CARD_ID));
  });

  test('Sell ranges never count', () => {
    const methods = defaultMethods();
    methods[0]!.ranges = [{ ...methods[0]!.ranges[0]!, fee_side: 'Sell' }];
    assert.ok(!offersFor(methods, '1500.00', 'RUB').some((o) => o.view.id === SBP_ID));
  });

  test('by default the merchant bears the fee: the shopper pays fee 0 and the total is the price', () => {
    const card = offersFor(defaultMethods(), '1234.56', 'RUB').find((o) => o.view.id === CARD_ID)!;
    assert.equal(card.view.fee, '0.00');
    assert.equal(card.view.fixed_fee, null);
    assert.equal(card.view.total, '1234.56');
  });

  test('fees are exact decimals: percent rounded half-up, plus the fixed fee', () => {
    const card = offersFor(defaultMethods(), '1234.56', 'RUB', 'shopper').find((o) => o.view.id === CARD_ID)!;
    assert.equal(card.view.fee, '34.69'); // 2 % of 1234.56 = 24.6912 → 24.69, + 10.00
    assert.equal(card.view.total, '1269.25');
  });

  test('a bank prefers its SBP method', () => {
    const offers = offersFor(defaultMethods(), '1500.00', 'RUB');
    assert.equal(selectMethod({ customer_bank: 'sberbank' }, offers, 'h2h').payment_method_id, SBER_SBP_ID);
  });
});

describe('provider errors', () => {
  const codes = Object.keys(PROVIDER_ERROR_MAP) as ProviderErrorCode[];

  test('every provider-client code maps to a status, a stable code and a shopper message', () => {
    for (const code of codes) {
      const e = fromProviderError(new ProviderError({ code, message: `provider said ${code}`, providerMessage: 'raw provider text' }));
      assert.ok(e.status >= 400 && e.status < 600, code);
      assert.ok(e.message.length > 10, code);
      assert.ok(!e.message.includes('raw provider text') && !e.message.includes('provider said'), code);
    }
  });

  test('the document\'s messages map to the codes the widget knows', () => {
    const cases: Array<[ProviderErrorCode, number, string, boolean]> = [
      ['no_traders', 503, 'no_traders', true],
      ['amount_out_of_limits', 409, 'amount_out_of_limits', false],
      ['payment_method_not_found', 409, 'payment_method_not_found', false],
      ['rate_limited', 429, 'rate_limited', true],
      ['timeout', 504, 'timeout', true],
      ['network', 503, 'provider_unavailable', true],
      ['invalid_response', 502, 'invalid_response', true],
      ['unauthorized', 503, 'provider_unavailable', false],
    ];
    for (const [code, status, protocol, retryable] of cases) {
      const e = fromProviderError(new ProviderError({ code, message: PROVIDER_MESSAGES.no_traders }));
      assert.deepEqual([e.status, e.code, e.retryable], [status, protocol, retryable], code);
    }
  });

  test('Retry-After follows the provider\'s wait', () => {
    const e = fromProviderError(new ProviderError({ code: 'rate_limited', status: 429, message: 'x', retryAfterMs: 12_300 }));
    assert.equal(e.headers['retry-after'], '13');
  });

  test('a 4xx provider_error is not retryable; a 5xx one is', () => {
    assert.equal(fromProviderError(new ProviderError({ code: 'provider_error', status: 418, message: 'x' })).retryable, false);
    assert.equal(fromProviderError(new ProviderError({ code: 'provider_error', status: 503, message: 'x' })).retryable, true);
  });

  test('anything thrown that is not a provider error is a retryable provider_unavailable', () => {
    const e = fromProviderError(new TypeError('fetch failed'));
    assert.deepEqual([e.status, e.code, e.retryable], [503, 'provider_unavailable', true]);
  });
});

describe('routes', () => {
  test('matched by trailing segments', () => {
    assert.deepEqual(matchRoute('/api/paydesk/methods'), { kind: 'methods' });
    assert.deepEqual(matchRoute('/sessions'), { kind: 'create' });
    assert.deepEqual(matchRoute('/x/y/sessions/TOKEN'), { kind: 'session', token: 'TOKEN' });
    assert.deepEqual(matchRoute('/x/sessions/TOKEN/events'), { kind: 'events', token: 'TOKEN' });
    assert.deepEqual(matchRoute('/hooks/webhooks/'), { kind: 'webhooks' });
    assert.equal(matchRoute('/'), null);
    assert.equal(matchRoute('/api/paydesk/other'), null);
  });
});

describe('packaging', () => {
  test('importing paydesk/server does not load ioredis', () => {
    const root = fileURLToPath(new URL('../../../', import.meta.url));
    const hooks = fileURLToPath(new URL('./block-ioredis.mjs', import.meta.url));
    const run = spawnSync(
      process.execPath,
      ['--import', 'tsx', '--import', hooks, '--input-type=module', '-e', "const m = await import('./src/server/index.ts'); console.log(typeof m.createRedisStore)"],
      { cwd: root, encoding: 'utf8' },
    );
    assert.equal(run.status, 0, run.stderr);
    assert.equal(run.stdout.trim(), 'function');
    const control = spawnSync(
      process.execPath,
      ['--import', hooks, '--input-type=module', '-e', "await import('ioredis')"],
      { cwd: root, encoding: 'utf8' },
    );
    assert.notEqual(control.status, 0, 'the hook does catch an ioredis import');
  });

  test('importing paydesk/server loads neither pg nor node:test; paydesk/server/testing loads node:test', () => {
    const root = fileURLToPath(new URL('../../../', import.meta.url));
    const hooks = fileURLToPath(new URL('./block-peers.mjs', import.meta.url));
    const child = (code: string) => spawnSync(process.execPath, ['--import', 'tsx', '--import', hooks, '--input-type=module', '-e', code], { cwd: root, encoding: 'utf8' });
    const server = child("const m = await import('./src/server/index.ts'); console.log(typeof m.createPostgresStore)");
    assert.equal(server.status, 0, server.stderr);
    assert.equal(server.stdout.trim(), 'function');
    const testing = child("await import('./src/server/testing/index.ts')");
    assert.notEqual(testing.status, 0, 'the hook does catch the testing entry importing node:test');
    assert.match(testing.stderr, /node:test was loaded/);
    const control = child("await import('pg')");
    assert.match(control.stderr, /pg was loaded/, 'the hook does catch a pg import');
  });
});

describe('random ids', () => {
  test('randomId gives distinct base64url ids of the asked size, across refills of its pool', () => {
    const seen = new Set<string>();
    // 4 KiB pool: 1000 ids of 16 bytes and 1000 of 12 span several refills, at uneven offsets.
    for (let i = 0; i < 1000; i++) {
      const a = randomId(16);
      const b = randomId(12);
      assert.match(a, /^[A-Za-z0-9_-]{22}$/);
      assert.match(b, /^[A-Za-z0-9_-]{16}$/);
      seen.add(a).add(b);
    }
    assert.equal(seen.size, 2000);
    assert.match(randomId(1000), /^[A-Za-z0-9_-]{1334}$/, 'larger than the pool share');
  });
});
