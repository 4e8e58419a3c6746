/**
 * Terminals in other currencies against the in-process sandbox (a UZS terminal): a preselected
 * `method_type` reaches the terminal's own method (way 1: the document's way 2 works for RUB only),
 * and an order left in RUB on a UZS terminal is refused with an error and a log line that name the
 * currency mismatch.
 */
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { AGGREGATE_METHOD_IDS } from '../../../src/provider/index.js';
import type { CheckoutHandlerOptions } from '../../../src/server/index.js';
import type { OrderView } from '../../../src/protocol/index.js';
import { selectMethod, type MethodOffer } from '../../../src/server/methods.js';
import { CheckoutError } from '../../../src/server/errors.js';
import { ENDPOINT, post, world as sandboxWorld, type World as SandboxWorld } from './world.js';

interface World extends SandboxWorld {
  /** The JSON bodies the client POSTed to the provider. */
  sent: unknown[];
}

/** A UZS terminal that sends no webhooks; the shop's orders are 150000.00 UZS. */
function world(handler: Partial<CheckoutHandlerOptions> = {}): World {
  const w: World = Object.assign(
    sandboxWorld({
      deliver: false,
      sandbox: { currency: 'UZS' },
      toSandbox: async (req, forward) => {
        if (req.method === 'POST') w.sent.push(await req.clone().json());
        return forward(req);
      },
      handler: { resolveOrder: () => ({ amount: '150000.00', currency: 'UZS' }), ...handler },
    }),
    { sent: [] as unknown[] },
  );
  return w;
}

describe('a UZS terminal', () => {
  for (const type of ['BankCard', 'TransBankCard'] as const) {
    test(`method_type ${type}: the order is created with the terminal's own ${type} method (by id) and shows card requisites in UZS`, async () => {
      const w = world();
      const res = await post(w, { order_ref: 'uzs-1', method_type: type });
      const json = (await res.json()) as { order: OrderView; error?: unknown };
      assert.equal(res.status, 201, JSON.stringify(json));
      assert.equal(json.order.currency, 'UZS');
      assert.equal(json.order.amount, '150000.00');
      assert.equal(json.order.requisites?.kind, 'card');
      assert.equal(json.order.method?.type, type);
      const created = w.sent.at(-1) as Record<string, unknown>;
      assert.equal(created.payment_method_id, AGGREGATE_METHOD_IDS[type], JSON.stringify(created));
      assert.equal(created.method_type, undefined);
    });
  }

  test('method_type SBP (not on this terminal): 409 method_unavailable, nothing sent to the provider', async () => {
    const w = world();
    const res = await post(w, { order_ref: 'uzs-2', method_type: 'SBP' });
    assert.equal(res.status, 409);
    assert.equal(((await res.json()) as { error: { code: string } }).error.code, 'method_unavailable');
    assert.deepEqual(w.sent, []);
  });

  test('a handler left on RUB: the error and an error log line name the currency mismatch (sessions and methods)', async () => {
    const w = world({ resolveOrder: () => ({ amount: '150000.00' }) });
    for (const res of [await post(w, { order_ref: 'uzs-3' }), await w.handler(new Request(`${ENDPOINT}/methods?order_ref=uzs-3`))]) {
      assert.equal(res.status, 409);
      const { error } = (await res.json()) as { error: { code: string; message: string } };
      assert.equal(error.code, 'method_unavailable');
      assert.match(error.message, /currency mismatch/i);
      assert.match(error.message, /RUB/);
      assert.match(error.message, /UZS/);
    }
    const lines = w.logs.filter((l) => /currency mismatch/i.test(l));
    assert.equal(lines.length, 2, w.logs.join('\n'));
    assert.match(lines[0]!, /^error /);
    assert.match(lines[0]!, /"order_currency":"RUB"/);
    assert.match(lines[0]!, /"terminal_currencies":\["UZS"\]/);
    assert.deepEqual(w.sent, []);
  });

  test('an amount out of every limit in the right currency is not called a currency mismatch', async () => {
    const w = world({ resolveOrder: () => ({ amount: '1.00', currency: 'UZS' }) });
    const res = await post(w, { order_ref: 'uzs-4' });
    assert.equal(res.status, 409);
    assert.doesNotMatch(((await res.json()) as { error: { message: string } }).error.message, /currency/i);
    assert.ok(!w.logs.some((l) => /currency mismatch/i.test(l)));
  });
});

describe('selectMethod: a preselected type maps to the terminal’s own method', () => {
  const offer = (id: string, type: string, currency: string, nspk: string | null = null) =>
    ({ method: { method_id: id, method_type: type, method_currency: currency, nspk_code: nspk }, range: {}, view: {} }) as unknown as MethodOffer;

  test('on a UZS terminal BankCard / TransBankCard go by the aggregate method’s id (way 1)', () => {
    const offers = [offer('card-agg', 'BankCard', 'UZS'), offer('card-humo', 'BankCard', 'UZS'), offer('trans', 'TransBankCard', 'UZS')];
    const card = selectMethod({ method_type: 'BankCard' }, offers, 'h2h');
    assert.equal(card.payment_method_id, 'card-agg');
    assert.equal(card.method_type, null);
    assert.equal(selectMethod({ method_type: 'TransBankCard' }, offers, 'h2h').payment_method_id, 'trans');
    assert.throws(() => selectMethod({ method_type: 'SBP' }, offers, 'h2h'), (e: CheckoutError) => e.code === 'method_unavailable');
  });

  test('on a RUB terminal the type still goes as method_type (way 2)', () => {
    const sel = selectMethod({ method_type: 'BankCard' }, [offer('card-agg', 'BankCard', 'RUB')], 'h2h');
    assert.equal(sel.method_type, 'BankCard');
    assert.equal(sel.payment_method_id, null);
  });
});
