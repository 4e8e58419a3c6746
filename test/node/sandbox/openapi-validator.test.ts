/**
 * `/openapi.json` checked by real OpenAPI tooling from npm: the document against the official
 * OpenAPI 3.1 schema (@seriousme/openapi-schema-validator), and live sandbox answers of every
 * operation — successes and documented errors — against it (openapi-backend's response validator).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { OpenAPIBackend } from 'openapi-backend';
import { Validator } from '@seriousme/openapi-schema-validator';
import { AGGREGATE_METHOD_IDS } from '../../../src/provider/index.js';
import { API_ROUTES } from '../../../src/sandbox/routes/api.js';
import { makePdf, makePng, receiptForm } from './receipt-files.js';
import { KEY, makeSandbox, type TestSandbox } from './helpers.js';

type Json = Record<string, unknown>;

let t: TestSandbox;
let doc: Json;
let api: OpenAPIBackend;
/** operationId → statuses whose live answers were validated. */
const checked = new Map<string, Set<number>>();

async function send(method: string, path: string, init: { body?: unknown; form?: FormData; key?: string | null; raw?: string; headers?: Record<string, string> } = {}) {
  const headers: Record<string, string> = { ...(init.headers ?? {}) };
  const key = init.key === undefined ? KEY : init.key;
  if (key !== null) headers['X-API-Key'] = key;
  let body: BodyInit | undefined;
  if (init.form) body = init.form;
  else if (init.raw !== undefined) body = init.raw;
  else if (init.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(init.body);
  }
  const res = await t.sandbox.app.request(path, { method, headers, ...(body !== undefined && { body }) });
  return { status: res.status, json: (await res.json()) as Json };
}

/** Validates a live answer against the operation's documented response for its status. */
function expectValid(operationId: string, status: number, body: unknown): void {
  const result = api.validateResponse(body, operationId, status);
  assert.equal(result.valid, true, `${operationId} ${status}: ${JSON.stringify(result.errors)}\n${JSON.stringify(body).slice(0, 400)}`);
  let statuses = checked.get(operationId);
  if (!statuses) checked.set(operationId, (statuses = new Set()));
  statuses.add(status);
}

async function check(operationId: string, status: number, method: string, path: string, init: Parameters<typeof send>[2] = {}) {
  const r = await send(method, path, init);
  assert.equal(r.status, status, `${method} ${path}: ${JSON.stringify(r.json).slice(0, 300)}`);
  expectValid(operationId, status, r.json);
  return r.json;
}

before(async () => {
  t = makeSandbox({ seed: true });
  doc = (await send('GET', '/openapi.json', { key: null })).json;
  // openapi-backend checks a whole definition against the OpenAPI 3.0 schema only (`quick` skips that):
  // the document is checked against 3.1 by @seriousme/openapi-schema-validator below, and
  // openapi-backend validates requests and answers against it.
  api = new OpenAPIBackend({ definition: structuredClone(doc) as never, strict: true, validate: true, quick: true });
  await api.init();
});
after(() => t.close());

describe('the document', () => {
  test('is valid OpenAPI 3.1 by the official schema', async () => {
    const result = await new Validator().validate(structuredClone(doc) as never);
    assert.equal(result.valid, true, JSON.stringify(result.errors));
  });

  test('the documented request examples are valid for their schema and the sandbox accepts them', async () => {
    const createOrder = ((doc.paths as Json)['/api/v1/order/'] as Json).post as Json;
    const examples = (((createOrder.requestBody as Json).content as Json)['application/json'] as Json).examples as Record<string, { value: Json }>;
    assert.ok(Object.keys(examples).length >= 2);
    for (const [name, { value }] of Object.entries(examples)) {
      const request = { method: 'post', path: '/api/v1/order/', headers: { 'content-type': 'application/json', 'x-api-key': KEY }, query: {}, body: value };
      const valid = api.validateRequest(request, 'createOrder');
      assert.equal(valid.valid, true, `${name}: ${JSON.stringify(valid.errors)}`);
      const answer = await check('createOrder', 201, 'POST', '/api/v1/order/', { body: { ...value, client_order_id: `example-${name}` } });
      assert.equal(answer.initial_method_id, value.payment_method_id);
    }
  });

  test('the real aggregate ids are the examples of payment_method_id and method_id', () => {
    const schemas = (doc.components as Json).schemas as Record<string, Json>;
    const ids = Object.values(AGGREGATE_METHOD_IDS);
    assert.deepEqual(((schemas.CreateOrderRequest!.properties as Json).payment_method_id as Json).examples, ids);
    assert.deepEqual(((schemas.PaymentMethod!.properties as Json).method_id as Json).examples, ids);
  });

  test('the dispute upload is documented as multipart with files[]', () => {
    const op = ((doc.paths as Json)['/api/v1/disputes/create'] as Json).post as Json;
    const content = (op.requestBody as Json).content as Json;
    assert.deepEqual(Object.keys(content), ['multipart/form-data']);
    const schema = (doc.components as Json).schemas as Record<string, Json>;
    assert.deepEqual(schema.CreateDisputeRequest!.required, ['order_id', 'amount', 'files[]']);
  });
});

describe('live answers of every operation match the document', () => {
  test('the reads', async () => {
    await check('searchFormSessions', 200, 'GET', '/api/v1/form/search?size=5');
    await check('searchDisputes', 200, 'GET', '/api/v1/disputes/search?size=5');
    await check('listTransactions', 200, 'GET', '/api/v1/finance/transactions?size=5');
    await check('listPaymentMethods', 200, 'GET', '/api/v1/finance/payment_methods');
    await check('listPaymentMethods', 200, 'GET', '/api/v1/finance/payment_methods', { key: 'sandbox_uzs' });
    await check('getBalance', 200, 'GET', '/api/v1/finance/balance');
    await check('listOrders', 200, 'GET', '/api/v1/order/?size=100&sort_by=amount');
    await check('searchOrdersByClientOrderId', 200, 'GET', '/api/v1/order/search-by-client-order-id?id=shop-1001');
  });

  test('the creates, order by id, and the dispute upload', async () => {
    const order = await check('createOrder', 201, 'POST', '/api/v1/order/', {
      body: { client_order_id: 'oa-live-1', order_side: 'Buy', payment_method_id: AGGREGATE_METHOD_IDS.SBP, amount: 1500, colour: 'ignored' },
    });
    await check('createOrder', 201, 'POST', '/api/v1/order/', { body: { client_order_id: 'oa-live-uzs', order_side: 'Buy', payment_method_id: AGGREGATE_METHOD_IDS.BankCard, amount: '250000' }, key: 'sandbox_uzs' });
    await check('createOrder', 201, 'POST', '/api/v1/order/', { body: { client_order_id: 'oa-live-form', order_side: 'Buy', method_type: 'SBP', amount: '990.00' }, key: 'sandbox_with_form' });
    await check('createForm', 201, 'POST', '/api/v1/form/create', { body: { order_data: { client_order_id: 'oa-live-2', order_side: 'Buy', amount: '990.00', button_name: 'SberPay' } } });
    await check('getOrder', 200, 'GET', `/api/v1/order/${String(order.id)}`);
    const form = receiptForm({ order_id: String(order.id), amount: '1500.00' }, [
      { name: 'r.png', type: 'image/png', data: makePng() },
      { name: 'r.pdf', type: 'application/pdf', data: makePdf() },
    ]);
    await check('createDispute', 201, 'POST', '/api/v1/disputes/create', { form });
  });

  test('the documented errors', async () => {
    const order = await send('POST', '/api/v1/order/', { body: { client_order_id: 'oa-errors', order_side: 'Buy', method_type: 'SBP', amount: '1500.00' } });
    await check('getBalance', 401, 'GET', '/api/v1/finance/balance', { key: 'nobody' });
    await check('getOrder', 404, 'GET', '/api/v1/order/00000000-0000-4000-8000-000000000000');
    await check('listOrders', 422, 'GET', '/api/v1/order/?size=101');
    await check('createOrder', 400, 'POST', '/api/v1/order/', { body: { client_order_id: 'x', order_side: 'Buy', amount: '1500.00' } });
    await check('createOrder', 404, 'POST', '/api/v1/order/', { body: { client_order_id: 'x', order_side: 'Buy', payment_method_id: '00000000-0000-4000-8000-000000000000', amount: '1500.00' } });
    await check('createOrder', 409, 'POST', '/api/v1/order/', { body: { client_order_id: 'x', order_side: 'Buy', method_type: 'SBP', amount: '1.00' } });
    await check('createOrder', 500, 'POST', '/api/v1/order/', { body: { client_order_id: 'x', order_side: 'Buy', method_type: 'SBP', amount: '1500.13' } });
    await check('createOrder', 402, 'POST', '/api/v1/order/', {
      body: { client_order_id: 'x', order_side: 'Sell', method_type: 'BankCard', amount: '1500.00', customer_account: '4111111111111111' },
      key: 'sandbox_empty_balance',
    });
    await check('createForm', 409, 'POST', '/api/v1/form/create', { body: { order_data: { client_order_id: 'x', order_side: 'Buy', amount: '990.00' } }, key: 'sandbox_form_off' });
    await check('createDispute', 404, 'POST', '/api/v1/disputes/create', {
      form: receiptForm({ order_id: 'nope', amount: '1.00' }, [{ name: 'r.png', type: 'image/png', data: makePng() }]),
    });
    await check('createDispute', 415, 'POST', '/api/v1/disputes/create', {
      form: receiptForm({ order_id: String(order.json.id), amount: '1500.00' }, [{ name: 'r.png', type: 'image/png', data: new TextEncoder().encode('<html>') }]),
    });
    await check('createDispute', 422, 'POST', '/api/v1/disputes/create', { body: { order_id: 'nope' } });
  });

  test('the validator is not vacuous: a broken answer is refused', async () => {
    const order = (await send('GET', '/api/v1/order/?size=1')).json;
    const one = ((order.orders as Json).items as Json[])[0]!;
    assert.equal(api.validateResponse({ success: true, message: 'Success', order: { ...one, amount: 1500 } }, 'getOrder', 200).valid, false);
    assert.equal(api.validateResponse({ success: true, message: 'Success' }, 'getOrder', 200).valid, false);
    assert.equal(api.validateResponse({ order_id: 'o', dispute_files: [] }, 'createDispute', 201).valid, false);
    assert.equal(api.validateResponse({ success: false }, 'getOrder', 404).valid, false);
  });

  test('every documented operation was validated against a live answer', () => {
    const operations = API_ROUTES.map((r) => (((doc.paths as Json)[r.path] as Json)[r.method] as Json).operationId as string);
    assert.equal(operations.length, 11);
    for (const id of operations) assert.ok(checked.get(id)?.size, `${id} validated`);
  });
});
