/**
 * One logical create never makes two orders (or two form sessions): after a lost answer the client
 * looks the result up, and sends again only when the lookup proves nothing was created.
 */
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { createProviderClient, PROVIDER_MESSAGES, ProviderError } from '../../../src/provider/index.js';
import type { Order } from '../../../src/provider/index.js';
import {
  API_KEY,
  BASE_URL,
  buyRequest,
  formCreated,
  formRequest,
  formSession,
  formSessionsPage,
  hangingFetch,
  instantSleep,
  json,
  makeClient,
  order,
  ordersPage,
  providerError,
  recordingFetch,
} from './fake-provider.js';
import type { Recorded } from './fake-provider.js';

const ORDER_PATH = '/api/v1/order/';
const SEARCH_PATH = '/api/v1/order/search-by-client-order-id';
const FORM_CREATE_PATH = '/api/v1/form/create';
const FORM_SEARCH_PATH = '/api/v1/form/search';

/**
 * A tiny stateful provider: POST /order/ stores the order; `loseAnswers` drops that many create
 * answers after storing (network error), or `failBefore` refuses that many before storing.
 */
function statefulProvider(opts: { loseAnswers?: number; failBefore?: number; lookupFails?: number } = {}) {
  const stored: Order[] = [];
  let lose = opts.loseAnswers ?? 0;
  let failBefore = opts.failBefore ?? 0;
  let lookupFails = opts.lookupFails ?? 0;
  const handler = (req: Recorded): Response => {
    if (req.method === 'POST' && req.path === ORDER_PATH) {
      if (failBefore > 0) {
        failBefore--;
        throw new TypeError('fetch failed: connection reset before the request was read');
      }
      const body = req.body as Record<string, string>;
      const created = order({ id: `order-${stored.length + 1}`, client_order_id: body.client_order_id, amount: body.amount, order_side: body.order_side });
      stored.push(created as Order);
      if (lose > 0) {
        lose--;
        throw new TypeError('fetch failed: socket hang up');
      }
      return json(created, 201);
    }
    if (req.method === 'GET' && req.path === SEARCH_PATH) {
      if (lookupFails > 0) {
        lookupFails--;
        throw new TypeError('fetch failed');
      }
      const id = req.url.searchParams.get('id');
      return json(ordersPage(stored.filter((o) => o.client_order_id === id)));
    }
    return providerError(404, 'Not Found');
  };
  return { stored, handler };
}

const creates = (calls: Recorded[]) => calls.filter((c) => c.method === 'POST');
const lookups = (calls: Recorded[]) => calls.filter((c) => c.method === 'GET');

describe('createOrder after a lost answer', () => {
  test('the create took effect, the answer was lost: the client finds the order and returns it, one create only', async () => {
    const provider = statefulProvider({ loseAnswers: 1 });
    const { client, calls } = makeClient(provider.handler);
    const res = await client.createOrder(buyRequest());
    assert.equal(res.id, 'order-1');
    assert.equal(provider.stored.length, 1);
    assert.equal(creates(calls).length, 1);
    assert.equal(lookups(calls).length, 1);
    const lookup = lookups(calls)[0]!;
    assert.equal(lookup.path, SEARCH_PATH);
    assert.equal(lookup.url.searchParams.get('id'), 'shop-1001');
    assert.equal(lookup.headers.get('x-api-key'), API_KEY);
  });

  test('the same holds with maxRetries 0: the lookup still happens and the order is returned', async () => {
    const provider = statefulProvider({ loseAnswers: 1 });
    const { client, calls } = makeClient(provider.handler, { maxRetries: 0 });
    const res = await client.createOrder(buyRequest());
    assert.equal(res.id, 'order-1');
    assert.equal(creates(calls).length, 1);
  });

  test('the create never arrived: the lookup proves it and the create is sent again, once', async () => {
    const provider = statefulProvider({ failBefore: 1 });
    const { client, calls, delays } = makeClient(provider.handler);
    const res = await client.createOrder(buyRequest());
    assert.equal(res.id, 'order-1');
    assert.equal(provider.stored.length, 1);
    assert.deepEqual(
      calls.map((c) => `${c.method} ${c.path}`),
      [`POST ${ORDER_PATH}`, `GET ${SEARCH_PATH}`, `POST ${ORDER_PATH}`],
    );
    assert.equal(delays.length, 1, 'the client waits before looking up, so an in-flight create can land');
  });

  test('with maxRetries 0 a proven-absent order is not sent again: the error says it was not created', async () => {
    const provider = statefulProvider({ failBefore: 1 });
    const { client, calls } = makeClient(provider.handler, { maxRetries: 0 });
    const err = await client.createOrder(buyRequest()).then(
      () => assert.fail('expected a failure'),
      (e: ProviderError) => e,
    );
    assert.equal(err.code, 'network');
    assert.equal(err.retryable, true);
    assert.match(err.message, /was not created/);
    assert.equal(creates(calls).length, 1);
    assert.equal(provider.stored.length, 0);
  });

  test('creates are bounded by maxRetries: 1 + maxRetries sends at most', async () => {
    const provider = statefulProvider({ failBefore: 10 });
    const { client, calls } = makeClient(provider.handler, { maxRetries: 2 });
    await assert.rejects(client.createOrder(buyRequest()), (e: ProviderError) => e.code === 'network');
    assert.equal(creates(calls).length, 3);
    assert.equal(lookups(calls).length, 3);
  });

  test('when the lookup fails too, the client gives up without sending again and says the order may exist', async () => {
    const provider = statefulProvider({ loseAnswers: 1, lookupFails: 10 });
    const { client, calls } = makeClient(provider.handler, { maxRetries: 1 });
    const err = await client.createOrder(buyRequest()).then(
      () => assert.fail('expected a failure'),
      (e: ProviderError) => e,
    );
    assert.ok(err instanceof ProviderError);
    assert.equal(err.code, 'network');
    assert.equal(err.retryable, true);
    assert.match(err.message, /may exist/);
    assert.equal(creates(calls).length, 1, 'never a second create while the first one is unknown');
    assert.equal(lookups(calls).length, 2, 'the lookup is a read and is retried');
    assert.ok(err.cause instanceof ProviderError);
  });

  test('a timeout on the create is resolved by lookup as well', async () => {
    const stored = [order({ id: 'landed' })];
    const { fetch, calls } = hangingFetch(() => json(ordersPage(stored)));
    const client = createProviderClient({ baseUrl: BASE_URL, apiKey: API_KEY, fetch, sleep: instantSleep().sleep, timeoutMs: 5 });
    const res = await client.createOrder(buyRequest());
    assert.equal(res.id, 'landed');
    assert.equal(creates(calls).length, 1);
  });

  test('an ambiguous 502 on the create is resolved by lookup', async () => {
    const { client, calls } = makeClient((req) =>
      req.method === 'POST' ? providerError(502, 'Bad Gateway') : json(ordersPage([order({ id: 'found-after-502' })])),
    );
    const res = await client.createOrder(buyRequest());
    assert.equal(res.id, 'found-after-502');
    assert.equal(creates(calls).length, 1);
  });

  test('"no available traders" (500) is a definite refusal: no lookup, no resend', async () => {
    const { client, calls } = makeClient(() => providerError(500, PROVIDER_MESSAGES.no_traders));
    await assert.rejects(client.createOrder(buyRequest()), (e: ProviderError) => e.code === 'no_traders' && e.retryable);
    assert.equal(calls.length, 1);
  });

  test('an order with the same client_order_id but another amount is not taken for ours', async () => {
    const other = order({ id: 'older', amount: '999.00' });
    const { client, calls } = makeClient((req) => {
      if (req.method === 'GET') return json(ordersPage([other]));
      if (creates(calls).length === 1) throw new TypeError('fetch failed');
      return json(order({ id: 'new' }), 201);
    });
    const res = await client.createOrder(buyRequest());
    assert.equal(res.id, 'new');
    assert.equal(creates(calls).length, 2);
  });

  test('with unique_amount an order raised by up to 9 is recognised; the latest match wins', async () => {
    const found = [
      order({ id: 'a', amount: '1507.00', created_at: '2025-01-10T12:00:00.000001Z' }),
      order({ id: 'b', amount: '1509.00', created_at: '2025-01-10T12:00:01.000001Z' }),
      order({ id: 'c', amount: '1509.01', created_at: '2025-01-10T12:00:02.000001Z' }),
    ];
    const { client, calls } = makeClient((req) => {
      if (req.method === 'GET') return json(ordersPage(found));
      throw new TypeError('fetch failed');
    });
    const res = await client.createOrder(buyRequest({ unique_amount: true }));
    assert.equal(res.id, 'b');
    assert.equal(creates(calls).length, 1);
  });

  test('for any number of lost answers and refusals, the provider never holds two orders', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 3 }),
        fc.integer({ min: 0, max: 3 }),
        fc.integer({ min: 0, max: 3 }),
        async (failBefore, loseAnswers, maxRetries) => {
          const provider = statefulProvider({ failBefore, loseAnswers });
          const { fetch } = recordingFetch(provider.handler);
          const client = createProviderClient({ baseUrl: BASE_URL, apiKey: API_KEY, fetch, sleep: instantSleep().sleep, maxRetries });
          const outcome = await client.createOrder(buyRequest()).then(
            (o) => o.id,
            (e: ProviderError) => e.code,
          );
          assert.ok(provider.stored.length <= 1, `${provider.stored.length} orders stored`);
          if (provider.stored.length === 1) assert.equal(outcome, provider.stored[0]!.id);
          else assert.equal(outcome, 'network');
        },
      ),
      { numRuns: 64 },
    );
  });

  test("the caller's abort during the lookup wait rethrows the caller's reason without resending", async () => {
    const controller = new AbortController();
    const reason = new Error('request cancelled');
    const provider = statefulProvider({ loseAnswers: 1 });
    const { client, calls } = makeClient(provider.handler, {
      sleep: async () => {
        controller.abort(reason);
      },
    });
    await assert.rejects(client.createOrder(buyRequest(), { signal: controller.signal }), (e) => e === reason);
    assert.equal(creates(calls).length, 1);
  });
});

describe('createForm after a lost answer', () => {
  test('the session was created: the client finds it and throws network with the session attached, one create only', async () => {
    const session = formSession();
    const { client, calls } = makeClient((req) => {
      if (req.method === 'POST') throw new TypeError('fetch failed: socket hang up');
      return json(formSessionsPage([session]));
    });
    const err = await client.createForm(formRequest()).then(
      () => assert.fail('expected a failure'),
      (e: ProviderError) => e,
    );
    assert.ok(err instanceof ProviderError);
    assert.equal(err.code, 'network');
    assert.equal(err.retryable, true);
    assert.equal(err.formSession?.session_id, 'a1b2c3d4-session');
    assert.match(err.message, /do not create it again/);
    assert.equal(creates(calls).length, 1);
    const lookup = lookups(calls)[0]!;
    assert.equal(lookup.path, FORM_SEARCH_PATH);
    assert.equal(lookup.url.searchParams.get('client_order_id'), 'shop-2001');
  });

  test('the session was not created: the form is sent again and its answer returned', async () => {
    const { client, calls } = makeClient((req, i) => {
      if (req.method === 'POST' && i === 0) throw new TypeError('fetch failed');
      if (req.method === 'POST') return json(formCreated(), 201);
      return json(formSessionsPage([]));
    });
    const res = await client.createForm(formRequest());
    assert.equal(res.form_data.session_id, 'a1b2c3d4-session');
    assert.deepEqual(
      calls.map((c) => `${c.method} ${c.path}`),
      [`POST ${FORM_CREATE_PATH}`, `GET ${FORM_SEARCH_PATH}`, `POST ${FORM_CREATE_PATH}`],
    );
  });

  test('a session of another amount under the same client_order_id is not taken for ours', async () => {
    const { client, calls } = makeClient((req, i) => {
      if (req.method === 'POST' && i === 0) throw new TypeError('fetch failed');
      if (req.method === 'POST') return json(formCreated(), 201);
      return json(formSessionsPage([formSession({ amount: '10.00000' })]));
    });
    await client.createForm(formRequest());
    assert.equal(creates(calls).length, 2);
  });

  test('a 4xx on form creation is never retried nor looked up', async () => {
    const { client, calls } = makeClient(() => providerError(409, PROVIDER_MESSAGES.form_not_activated));
    await assert.rejects(client.createForm(formRequest()), (e: ProviderError) => e.code === 'form_not_activated');
    assert.equal(calls.length, 1);
  });
});
