/**
 * One shape for every method of the client (issue 21.4): each returns the resource, never the
 * provider's envelope, every list is a `Page` ({ items, page, size, pages, total }), and the `…All`
 * iterators walk every page. Against the in-process sandbox, with more orders than one page holds.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createProviderClient, decimalAmount, ProviderError, type Order, type ProviderClient } from '../../../src/provider/index.js';
import { createSandbox, type Sandbox } from '../../../src/sandbox/index.js';

let sandbox: Sandbox;
let client: ProviderClient;
const requests: string[] = [];
const tag = `pages-${process.pid}`;
const created: Order[] = [];

before(async () => {
  sandbox = createSandbox({ apiKey: 'pages_key', sweepIntervalMs: 0 });
  client = createProviderClient({
    baseUrl: 'http://sandbox.test',
    apiKey: sandbox.apiKey,
    maxRetries: 0,
    fetch: (input, init) => {
      requests.push(String(input));
      return sandbox.fetch(new Request(input as string, init));
    },
  });
  for (let i = 0; i < 7; i++) {
    created.push(await client.createOrder({ client_order_id: `${tag}-${i}`, order_side: 'Buy', method_type: 'SBP', amount: decimalAmount(`${1000 + i}.00`) }));
  }
});
after(() => sandbox.close());

const ENVELOPE = ['success', 'message', 'orders', 'data', 'deposit', 'payment_methods', 'form_data'];
const assertNoEnvelope = (value: object) => {
  for (const key of ENVELOPE) assert.ok(!(key in value), `the result carries the envelope's "${key}"`);
};

describe('every method returns the resource', () => {
  test('getBalance returns the balance, not { success, deposit }', async () => {
    const balance = await client.getBalance();
    assertNoEnvelope(balance);
    assert.match(balance.available, /^-?\d+(\.\d+)?$/);
    assert.equal(typeof balance.currency, 'string');
  });

  test('listPaymentMethods returns the array of methods', async () => {
    const methods = await client.listPaymentMethods();
    assert.ok(Array.isArray(methods) && methods.length > 0);
    assert.equal(typeof methods[0]!.method_id, 'string');
  });

  test('listOrders, searchOrdersByClientOrderId, searchDisputes, listTransactions, searchFormSessions: one Page shape', async () => {
    const pages = [
      await client.listOrders({ size: 3 }),
      await client.searchOrdersByClientOrderId({ id: `${tag}-0` }),
      await client.searchDisputes({ size: 3 }),
      await client.listTransactions({ size: 3 }),
      await client.searchFormSessions({ size: 3 }),
    ];
    for (const page of pages) {
      assertNoEnvelope(page);
      assert.deepEqual(Object.keys(page).filter((k) => ['items', 'page', 'size', 'pages', 'total'].includes(k)).sort(), ['items', 'page', 'pages', 'size', 'total']);
      assert.ok(Array.isArray(page.items));
    }
    assert.equal((pages[1]!.items[0] as Order).id, created[0]!.id);
  });

  test('createForm returns the form data (session_id, form_url), not { success, form_data }', async () => {
    const form = await client.createForm({ order_data: { client_order_id: `${tag}-form`, order_side: 'Buy', amount: '1500.00' } });
    assertNoEnvelope(form);
    assert.equal(typeof form.session_id, 'string');
    assert.match(form.form_url, /session_id=/);
    assert.equal(form.order_data.amount, '1500.00');
    const sessions = await client.searchFormSessions({ session_id: form.session_id });
    assert.equal(sessions.items[0]?.session_id, form.session_id);
  });
});

describe('the iterators walk every page', () => {
  test('listAllOrders yields every order once, across pages, and stops after the last', async () => {
    const first = await client.listOrders({ size: 2 });
    assert.ok(first.pages > 1, `more than one page (${first.pages})`);
    requests.length = 0;
    const seen: string[] = [];
    for await (const order of client.listAllOrders({ size: 2 })) seen.push(order.id);
    assert.equal(new Set(seen).size, seen.length, 'each order once');
    for (const o of created) assert.ok(seen.includes(o.id), `order ${o.id} was walked`);
    assert.equal(seen.length, first.total);
    const pagesAsked = requests.filter((u) => /\/api\/v1\/order\/?\?/.test(u)).map((u) => new URL(u).searchParams.get('page'));
    assert.deepEqual(pagesAsked, Array.from({ length: first.pages }, (_, i) => String(i + 1)));
  });

  test('listAllOrders can stop early (break) without reading further pages', async () => {
    requests.length = 0;
    for await (const _ of client.listAllOrders({ size: 2 })) break;
    assert.equal(requests.length, 1);
  });

  test('the other lists walk too', async () => {
    const disputes = [];
    for await (const d of client.searchAllDisputes()) disputes.push(d);
    const transactions = [];
    for await (const t of client.listAllTransactions({ size: 1 })) transactions.push(t);
    const sessions = [];
    for await (const s of client.searchAllFormSessions()) sessions.push(s);
    assert.equal(new Set(transactions.map((t) => t.id)).size, transactions.length);
  });
});

describe('money is a decimal string in every request', () => {
  test('createOrder refuses a number amount before sending, and says why', async () => {
    requests.length = 0;
    const err = await client
      .createOrder({ client_order_id: `${tag}-float`, order_side: 'Buy', method_type: 'SBP', amount: 100.5 as unknown as '100.50' })
      .catch((e: unknown) => e);
    assert.ok(err instanceof ProviderError);
    assert.equal(err.code, 'invalid_request');
    assert.equal(err.field, 'amount');
    assert.equal(err.outcome, 'not_created');
    assert.match(err.message, /decimal string.*not the number 100\.5/);
    assert.equal(requests.length, 0, 'nothing was sent');
  });

  test('createForm and createDispute refuse a number amount too', async () => {
    const form = await client.createForm({ order_data: { client_order_id: `${tag}-f`, order_side: 'Buy', amount: 10 as unknown as '10' } }).catch((e: unknown) => e);
    assert.ok(form instanceof ProviderError && form.field === 'order_data.amount', String(form));
    const dispute = await client.createDispute({ order_id: created[0]!.id, amount: 1000 as unknown as '1000', files: [] }).catch((e: unknown) => e);
    assert.ok(dispute instanceof ProviderError && dispute.field === 'amount', String(dispute));
  });
});
