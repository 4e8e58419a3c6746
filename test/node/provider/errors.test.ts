import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { ProviderError } from '../../../src/provider/index.js';
import { classifyProviderError } from '../../../src/provider/errors.js';
import { PROVIDER_MESSAGES } from '../../../src/provider/facts.js';
import type { ProviderErrorCode } from '../../../src/provider/index.js';
import { buyRequest, formRequest, json, makeClient, providerError } from './fake-provider.js';

async function failure(promise: Promise<unknown>): Promise<ProviderError> {
  const caught = await promise.then(
    () => undefined,
    (err: unknown) => err,
  );
  assert.ok(caught instanceof ProviderError, `expected a ProviderError, got ${String(caught)}`);
  return caught;
}

// The rows of provider-api.md's H2H error table, with the document's exact texts.
const H2H_ROWS: Array<[number, string, ProviderErrorCode, boolean]> = [
  [400, PROVIDER_MESSAGES.no_payment_method, 'no_payment_method', false],
  [400, PROVIDER_MESSAGES.customer_account_required, 'customer_account_required', false],
  [402, PROVIDER_MESSAGES.insufficient_funds, 'insufficient_funds', false],
  [404, PROVIDER_MESSAGES.payment_method_not_found, 'payment_method_not_found', false],
  [409, PROVIDER_MESSAGES.amount_out_of_limits, 'amount_out_of_limits', false],
  [409, PROVIDER_MESSAGES.customer_blacklisted, 'customer_blacklisted', false],
  [429, PROVIDER_MESSAGES.user_pending_limit, 'rate_limited', true],
  [500, PROVIDER_MESSAGES.no_traders, 'no_traders', true],
];

describe('H2H creation errors: every row of the table has its own code', () => {
  for (const [status, message, code, retryable] of H2H_ROWS) {
    test(`${status} "${message.slice(0, 40)}…" → ${code}`, async () => {
      const { client, calls } = makeClient(() => providerError(status, message));
      const err = await failure(client.createOrder(buyRequest()));
      assert.equal(err.code, code);
      assert.equal(err.status, status);
      assert.equal(err.providerMessage, message);
      assert.equal(err.retryable, retryable);
      assert.match(err.message, new RegExp(String(status)));
      assert.equal(err.endpoint, 'POST /api/v1/order/');
      assert.equal(calls.length, 1, 'a definite refusal is neither retried nor looked up');
    });
  }

  test('the codes of the H2H rows are all different (429 aside, which shares rate_limited with the form)', () => {
    const codes = H2H_ROWS.map(([, , code]) => code);
    assert.equal(new Set(codes).size, codes.length);
  });
});

describe('H2H creation errors with another wording map by status and content', () => {
  const cases: Array<[number, string, ProviderErrorCode]> = [
    [400, 'customer_account: field required', 'customer_account_required'],
    [400, 'Either payment_method_id or method_type must be given', 'no_payment_method'],
    [402, 'Not enough money', 'insufficient_funds'],
    [404, 'Method does not exist', 'payment_method_not_found'],
    [409, 'Requisite is in the blacklist', 'customer_blacklisted'],
    [409, 'Amount is outside the limits', 'amount_out_of_limits'],
    [429, 'Slow down', 'rate_limited'],
    [500, 'No traders right now', 'no_traders'],
    [500, 'Internal Server Error', 'provider_error'],
    [418, 'I am a teapot', 'provider_error'],
  ];
  for (const [status, message, code] of cases) {
    test(`${status} "${message}" → ${code}`, () => {
      assert.equal(classifyProviderError(status, message, 'order_create').code, code);
    });
  }
});

// Form creation rows of the document (texts "not shown": the sandbox's wording, then any wording).
describe('form creation errors: every row of the table has its own code', () => {
  const rows: Array<[number, string, ProviderErrorCode, boolean]> = [
    [400, PROVIDER_MESSAGES.form_sell_not_allowed, 'form_sell_not_allowed', false],
    [400, PROVIDER_MESSAGES.button_not_enabled, 'button_not_enabled', false],
    [409, PROVIDER_MESSAGES.form_not_activated, 'form_not_activated', false],
    [429, PROVIDER_MESSAGES.rate_limited, 'rate_limited', true],
    [400, 'order_side Sell is not supported', 'form_sell_not_allowed', false],
    [400, 'Button TPay is not configured', 'button_not_enabled', false],
    [409, 'Conflict', 'form_not_activated', false],
    [429, 'Too many requests for this user_id', 'rate_limited', true],
  ];
  for (const [status, message, code, retryable] of rows) {
    test(`${status} "${message.slice(0, 40)}" → ${code}`, async () => {
      const { client, calls } = makeClient(() => providerError(status, message));
      const err = await failure(client.createForm(formRequest()));
      assert.equal(err.code, code);
      assert.equal(err.status, status);
      assert.equal(err.retryable, retryable);
      assert.equal(err.endpoint, 'POST /api/v1/form/create');
      assert.equal(calls.length, 1, 'a 4xx on create is never retried');
    });
  }

  test('a 409 from the form is form_not_activated, a 409 from H2H is not', () => {
    assert.equal(classifyProviderError(409, 'Conflict', 'form_create').code, 'form_not_activated');
    assert.notEqual(classifyProviderError(409, 'Conflict', 'order_create').code, 'form_not_activated');
  });
});

describe('transport and generic errors', () => {
  for (const status of [401, 403]) {
    test(`${status} is unauthorized on any endpoint`, async () => {
      const { client } = makeClient(() => providerError(status, 'nope'));
      const err = await failure(client.getBalance());
      assert.equal(err.code, 'unauthorized');
      assert.equal(err.retryable, false);
      assert.equal(err.status, status);
    });
  }

  test('the sandbox 401 text maps to unauthorized by message', () => {
    assert.equal(classifyProviderError(401, PROVIDER_MESSAGES.unauthorized, 'read').code, 'unauthorized');
  });

  test('an unknown 4xx on a read is provider_error, not retryable, not retried', async () => {
    const { client, calls } = makeClient(() => providerError(422, 'page: value is not a valid integer'));
    const err = await failure(client.listOrders());
    assert.equal(err.code, 'provider_error');
    assert.equal(err.retryable, false);
    assert.equal(err.providerMessage, 'page: value is not a valid integer');
    assert.equal(calls.length, 1);
  });

  test('a 5xx on a read is provider_error and retryable', async () => {
    const { client } = makeClient(() => providerError(503, 'Service Unavailable'), { maxRetries: 0 });
    const err = await failure(client.getBalance());
    assert.equal(err.code, 'provider_error');
    assert.equal(err.retryable, true);
    assert.equal(err.status, 503);
  });

  test('exact texts match despite extra spaces or case', () => {
    assert.equal(classifyProviderError(409, '  customer ACCOUNT is   blacklisted ', 'order_create').code, 'customer_blacklisted');
  });

  test('a network failure is code network, retryable, status null, with the cause kept', async () => {
    const { client } = makeClient(
      () => {
        throw new TypeError('fetch failed', { cause: Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:4010'), { code: 'ECONNREFUSED' }) });
      },
      { maxRetries: 0 },
    );
    const err = await failure(client.getBalance());
    assert.equal(err.code, 'network');
    assert.equal(err.status, null);
    assert.equal(err.retryable, true);
    assert.match(err.message, /fetch failed/);
    const cause = err.cause as Error & { cause?: Error & { code?: string } };
    assert.equal(cause.message, 'fetch failed');
    assert.equal(cause.cause?.code, 'ECONNREFUSED');
  });
});

describe('error bodies', () => {
  test('{"detail": "…"} is read as the message', async () => {
    const { client } = makeClient(() => json({ detail: PROVIDER_MESSAGES.payment_method_not_found }, 404));
    const err = await failure(client.createOrder(buyRequest()));
    assert.equal(err.code, 'payment_method_not_found');
    assert.equal(err.providerMessage, PROVIDER_MESSAGES.payment_method_not_found);
  });

  test('a FastAPI validation list is read as "field: message"', async () => {
    const { client } = makeClient(() =>
      json({ detail: [{ loc: ['query', 'size'], msg: 'ensure this value is less than or equal to 100', type: 'value_error' }] }, 422),
    );
    const err = await failure(client.listOrders());
    assert.equal(err.providerMessage, 'size: ensure this value is less than or equal to 100');
  });

  test('{"error": {"message": "…"}} is read as the message', async () => {
    const { client } = makeClient(() => json({ error: { message: PROVIDER_MESSAGES.customer_blacklisted } }, 409));
    const err = await failure(client.createOrder(buyRequest()));
    assert.equal(err.code, 'customer_blacklisted');
  });

  test('a plain-text error body becomes the message, cut short', async () => {
    const { client } = makeClient(() => new Response('<html>' + 'x'.repeat(1000) + '</html>', { status: 404 }));
    const err = await failure(client.createOrder(buyRequest()));
    assert.equal(err.code, 'payment_method_not_found');
    assert.ok(err.providerMessage!.startsWith('<html>'));
    assert.ok(err.providerMessage!.length <= 300);
  });

  test('an empty error body still gives a code from the status', async () => {
    const { client } = makeClient(() => new Response(null, { status: 402 }));
    const err = await failure(client.createOrder(buyRequest()));
    assert.equal(err.code, 'insufficient_funds');
    assert.equal(err.providerMessage, null);
  });

  test('a 2xx that says success: false is an error, classified by its message', async () => {
    const { client } = makeClient(() => json({ success: false, message: PROVIDER_MESSAGES.payment_method_not_found }, 200));
    const err = await failure(client.listPaymentMethods());
    assert.equal(err.code, 'payment_method_not_found');
    assert.equal(err.status, 200);
  });

  test('the request id is kept from the X-Request-Id header', async () => {
    const { client } = makeClient(() => providerError(404, PROVIDER_MESSAGES.payment_method_not_found, { 'X-Request-Id': 'req-42' }));
    const err = await failure(client.createOrder(buyRequest()));
    assert.equal(err.requestId, 'req-42');
  });

  test('the request id is kept from request_id in the body', async () => {
    const { client } = makeClient(() => json({ success: false, message: 'x', request_id: 'req-43' }, 404));
    const err = await failure(client.createOrder(buyRequest()));
    assert.equal(err.requestId, 'req-43');
  });

  test('a ProviderError serialises to a useful JSON object', async () => {
    const { client } = makeClient(() => providerError(402, PROVIDER_MESSAGES.insufficient_funds));
    const err = await failure(client.createOrder(buyRequest({ order_side: 'Sell', method_type: 'BankCard', customer_account: '4627100101654724' })));
    const plain = JSON.parse(JSON.stringify(err));
    assert.equal(plain.name, 'ProviderError');
    assert.equal(plain.code, 'insufficient_funds');
    assert.equal(plain.status, 402);
    assert.match(plain.message, /402/);
    assert.ok(err.stack!.startsWith('ProviderError: '));
    assert.ok(err instanceof Error);
  });
});
