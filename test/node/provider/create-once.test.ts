/**
 * A create is sent at most once per call (issue 11, item 5: a slow create must never become two
 * provider orders). After a lost answer the client looks the record up at growing intervals within
 * `lookupWindowMs`; found, it is returned; not found, the call fails retryable with
 * `outcome: 'unknown'`, and the next create of the same record on this client looks up first.
 */
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { createProviderClient, ProviderError } from '../../../src/provider/index.js';
import { PROVIDER_MESSAGES } from '../../../src/provider/facts.js';
import { LOOKUP_CLOCK_SLACK_MS } from '../../../src/provider/matching.js';
import type { Order, ProviderClientOptions } from '../../../src/provider/index.js';
import {
  API_KEY,
  BASE_URL,
  buyRequest,
  dispute,
  formCreated,
  formRequest,
  formSession,
  formSessionsPage,
  hangingFetch,
  instantSleep,
  json,
  makeClient as makeBaseClient,
  order,
  ordersPage,
  providerError,
  recordingFetch,
} from './fake-provider.js';
import type { Handler, Recorded } from './fake-provider.js';

const ORDER_PATH = '/api/v1/order/';
const SEARCH_PATH = '/api/v1/order/search-by-client-order-id';
const FORM_CREATE_PATH = '/api/v1/form/create';
const FORM_SEARCH_PATH = '/api/v1/form/search';
const DISPUTE_CREATE_PATH = '/api/v1/disputes/create';
const DISPUTE_SEARCH_PATH = '/api/v1/disputes/search';
/** The fixtures' time: the client's clock says the call starts then. */
const NOW = Date.parse('2025-01-10T12:00:00Z');
/** Waits of a whole default window (10 s) with an instant sleep: 0.5, 1, 2, 4, then the 2.5 s left. */
const WINDOW_WAITS = [500, 1000, 2000, 4000, 2500];

const makeClient = (handler: Handler, extra: Partial<ProviderClientOptions> = {}) => makeBaseClient(handler, { now: () => NOW, ...extra });

/**
 * A tiny stateful provider: POST /order/ stores the order; `loseAnswers` drops that many create
 * answers after storing (network error), `failBefore` refuses that many before storing, `landAfter`
 * stores the order only after that many lookups (a create that arrives late), `lookupFails` fails
 * that many lookups.
 */
function statefulProvider(opts: { loseAnswers?: number; failBefore?: number; lookupFails?: number; landAfterLookups?: number } = {}) {
  const stored: Order[] = [];
  let lose = opts.loseAnswers ?? 0;
  let failBefore = opts.failBefore ?? 0;
  let lookupFails = opts.lookupFails ?? 0;
  let late: Order | null = null;
  let lookups = 0;
  const handler = (req: Recorded): Response => {
    if (req.method === 'POST' && req.path === ORDER_PATH) {
      if (failBefore > 0) {
        failBefore--;
        throw new TypeError('fetch failed: connection reset before the request was read');
      }
      const body = req.body as Record<string, string>;
      const created = order({ id: `order-${stored.length + 1}`, client_order_id: body.client_order_id, amount: body.amount, order_side: body.order_side }) as Order;
      if (opts.landAfterLookups !== undefined && late === null) {
        late = created;
        throw new TypeError('fetch failed: socket hang up');
      }
      stored.push(created);
      if (lose > 0) {
        lose--;
        throw new TypeError('fetch failed: socket hang up');
      }
      return json(created, 201);
    }
    if (req.method === 'GET' && req.path === SEARCH_PATH) {
      lookups++;
      if (late && lookups > opts.landAfterLookups!) {
        stored.push(late);
        late = null;
      }
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

async function failure(p: Promise<unknown>): Promise<ProviderError> {
  const err = await p.then(
    () => assert.fail('expected a failure'),
    (e: unknown) => e,
  );
  assert.ok(err instanceof ProviderError, String(err));
  return err;
}

describe('createOrder after a lost answer', () => {
  test('the create took effect, the answer was lost: the first lookup (after 0.5 s) finds the order, one create only', async () => {
    const provider = statefulProvider({ loseAnswers: 1 });
    const { client, calls, delays } = makeClient(provider.handler);
    const res = await client.createOrder(buyRequest());
    assert.equal(res.id, 'order-1');
    assert.equal(provider.stored.length, 1);
    assert.equal(creates(calls).length, 1);
    assert.equal(lookups(calls).length, 1);
    assert.deepEqual(delays, [500]);
    const lookup = lookups(calls)[0]!;
    assert.equal(lookup.path, SEARCH_PATH);
    assert.equal(lookup.url.searchParams.get('id'), 'shop-1001');
    assert.equal(lookup.headers.get('x-api-key'), API_KEY);
  });

  test('a create that lands late is found by a later lookup of the window, never sent again', async () => {
    const provider = statefulProvider({ landAfterLookups: 2 });
    const { client, calls, delays } = makeClient(provider.handler);
    const res = await client.createOrder(buyRequest());
    assert.equal(res.id, 'order-1');
    assert.equal(creates(calls).length, 1);
    assert.equal(lookups(calls).length, 3);
    assert.deepEqual(delays, [500, 1000, 2000], 'lookups at growing intervals');
  });

  test('the create never arrived: lookups over the whole window, then a retryable error with outcome unknown; never a second create', async () => {
    const provider = statefulProvider({ failBefore: 1 });
    const { client, calls, delays } = makeClient(provider.handler);
    const err = await failure(client.createOrder(buyRequest()));
    assert.equal(err.code, 'network');
    assert.equal(err.retryable, true);
    assert.equal(err.outcome, 'unknown');
    assert.match(err.message, /outcome is unknown/);
    assert.match(err.message, /client_order_id shop-1001/);
    assert.equal(creates(calls).length, 1);
    assert.equal(lookups(calls).length, WINDOW_WAITS.length);
    assert.deepEqual(delays, WINDOW_WAITS);
    assert.equal(provider.stored.length, 0);
  });

  test('maxRetries does not make a create send twice', async () => {
    const provider = statefulProvider({ failBefore: 10 });
    const { client, calls } = makeClient(provider.handler, { maxRetries: 5 });
    const err = await failure(client.createOrder(buyRequest()));
    assert.equal(err.outcome, 'unknown');
    assert.equal(creates(calls).length, 1);
  });

  test('lookupWindowMs bounds the lookups: 0 is one lookup at once; a per-request value wins over the client’s', async () => {
    const none = statefulProvider({ failBefore: 1 });
    const zero = makeClient(none.handler, { lookupWindowMs: 0 });
    assert.equal((await failure(zero.client.createOrder(buyRequest()))).outcome, 'unknown');
    assert.equal(lookups(zero.calls).length, 1);
    assert.deepEqual(zero.delays, []);

    const short = makeClient(statefulProvider({ failBefore: 1 }).handler, { lookupWindowMs: 60_000 });
    await failure(short.client.createOrder(buyRequest(), { lookupWindowMs: 1500 }));
    assert.deepEqual(short.delays, [500, 1000]);
    assert.equal(lookups(short.calls).length, 2);
  });

  test('lookupWindowMs is checked: a negative or absurd window is refused when the client is made', () => {
    for (const bad of [-1, Number.NaN, 3_600_000]) {
      assert.throws(
        () => createProviderClient({ baseUrl: BASE_URL, apiKey: API_KEY, lookupWindowMs: bad }),
        (e: ProviderError) => e.code === 'invalid_request' && e.field === 'lookupWindowMs',
      );
    }
  });

  test('after an unknown outcome the next create of the same client_order_id looks up first and adopts what landed', async () => {
    const provider = statefulProvider({ landAfterLookups: 100 }); // lands after the first call gave up
    const { client, calls } = makeClient(provider.handler, { lookupWindowMs: 0 });
    assert.equal((await failure(client.createOrder(buyRequest()))).outcome, 'unknown');
    const before = calls.length;
    // Meanwhile the first create landed:
    const landed = order({ id: 'landed-late' }) as Order;
    provider.stored.push(landed);
    const res = await client.createOrder(buyRequest());
    assert.equal(res.id, 'landed-late');
    assert.deepEqual(
      calls.slice(before).map((c) => `${c.method} ${c.path}`),
      [`GET ${SEARCH_PATH}`],
      'looked up, nothing sent',
    );
  });

  test('when the look-first finds nothing the create is sent, once, and a later create of that id does not look first again', async () => {
    const provider = statefulProvider({ failBefore: 1 });
    const { client, calls } = makeClient(provider.handler, { lookupWindowMs: 0 });
    await failure(client.createOrder(buyRequest()));
    const before = calls.length;
    const res = await client.createOrder(buyRequest());
    assert.equal(res.id, 'order-1');
    assert.deepEqual(
      calls.slice(before).map((c) => `${c.method} ${c.path}`),
      [`GET ${SEARCH_PATH}`, `POST ${ORDER_PATH}`],
    );
    const after = calls.length;
    await client.createOrder(buyRequest({ client_order_id: 'shop-1001' }));
    assert.deepEqual(calls.slice(after).map((c) => c.method), ['POST'], 'resolved: no lookup first any more');
  });

  test('when every lookup fails, the error says so, keeps the last lookup error as its cause, and nothing is resent', async () => {
    const provider = statefulProvider({ loseAnswers: 1, lookupFails: 100 });
    const { client, calls } = makeClient(provider.handler);
    const err = await failure(client.createOrder(buyRequest()));
    assert.equal(err.code, 'network');
    assert.equal(err.retryable, true);
    assert.equal(err.outcome, 'unknown');
    assert.match(err.message, /the last one failed/);
    assert.ok(err.cause instanceof ProviderError);
    assert.equal(creates(calls).length, 1);
    assert.equal(lookups(calls).length, WINDOW_WAITS.length);
  });

  test('a timeout on the create is resolved by lookup as well', async () => {
    const stored = [order({ id: 'landed' })];
    const { fetch, calls } = hangingFetch(() => json(ordersPage(stored)));
    const client = createProviderClient({ baseUrl: BASE_URL, apiKey: API_KEY, fetch, sleep: instantSleep().sleep, timeoutMs: 5, now: () => NOW });
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

  test('"no available traders" (500) and a 4xx are definite refusals: no lookup, outcome not_created', async () => {
    const traders = makeClient(() => providerError(500, PROVIDER_MESSAGES.no_traders));
    const err = await failure(traders.client.createOrder(buyRequest()));
    assert.equal(err.code, 'no_traders');
    assert.equal(err.retryable, true);
    assert.equal(err.outcome, 'not_created');
    assert.equal(traders.calls.length, 1);
    const limits = makeClient(() => providerError(409, PROVIDER_MESSAGES.amount_out_of_limits));
    assert.equal((await failure(limits.client.createOrder(buyRequest()))).outcome, 'not_created');
    assert.equal(limits.calls.length, 1);
  });

  test('a request refused before sending is not_created too', async () => {
    const { client, calls } = makeClient(() => json({}));
    const err = await failure(client.createOrder(buyRequest({ amount: '-1' })));
    assert.equal(err.code, 'invalid_request');
    assert.equal(err.outcome, 'not_created');
    assert.equal(calls.length, 0);
  });

  test('a refused connection (ECONNREFUSED) never carried the create: not_created, no lookup; a reset may have: unknown', async () => {
    const refused = makeClient(() => {
      throw new TypeError('fetch failed', { cause: Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:4010'), { code: 'ECONNREFUSED' }) });
    }, { maxRetries: 0 });
    const err = await failure(refused.client.createOrder(buyRequest()));
    assert.equal(err.code, 'network');
    assert.equal(err.outcome, 'not_created');
    assert.deepEqual(refused.calls.map((c) => c.path), [ORDER_PATH], 'sent once, never looked up');
    const reset = makeClient((req) => {
      if (req.path === ORDER_PATH) throw new TypeError('fetch failed', { cause: Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }) });
      return json({ success: true, orders: { items: [], total: 0, page: 1, size: 100, pages: 0 } });
    }, { maxRetries: 0 });
    assert.equal((await failure(reset.client.createOrder(buyRequest()))).outcome, 'unknown');
  });

  test('an order with the same client_order_id but another amount is not taken for ours', async () => {
    const other = order({ id: 'older', amount: '999.00' as const });
    const { client, calls } = makeClient((req) => {
      if (req.method === 'GET') return json(ordersPage([other]));
      throw new TypeError('fetch failed');
    });
    const err = await failure(client.createOrder(buyRequest()));
    assert.equal(err.outcome, 'unknown');
    assert.equal(creates(calls).length, 1);
  });

  test('an order of that client_order_id created long before the call (an earlier purchase) is not taken for ours', async () => {
    const earlier = order({ id: 'earlier-purchase', created_at: new Date(NOW - LOOKUP_CLOCK_SLACK_MS - 60_000).toISOString() });
    const { client } = makeClient((req) => {
      if (req.method === 'GET') return json(ordersPage([earlier]));
      throw new TypeError('fetch failed');
    });
    assert.equal((await failure(client.createOrder(buyRequest(), { lookupWindowMs: 0 }))).outcome, 'unknown');
  });

  test('with unique_amount an order raised by up to 9 is recognised; the latest match wins', async () => {
    const found = [
      order({ id: 'a', amount: '1507.00' as const, created_at: '2025-01-10T12:00:00.000001Z' }),
      order({ id: 'b', amount: '1509.00' as const, created_at: '2025-01-10T12:00:01.000001Z' }),
      order({ id: 'c', amount: '1509.01' as const, created_at: '2025-01-10T12:00:02.000001Z' }),
    ];
    const { client, calls } = makeClient((req) => {
      if (req.method === 'GET') return json(ordersPage(found));
      throw new TypeError('fetch failed');
    });
    const res = await client.createOrder(buyRequest({ unique_amount: true }));
    assert.equal(res.id, 'b');
    assert.equal(creates(calls).length, 1);
  });

  test('for any lost answers, refusals and landings within the window, one call sends one create and the provider never holds two orders', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 2 }),
        fc.integer({ min: 0, max: 2 }),
        // A late create lands within the lookups of one window (5 by default).
        fc.option(fc.integer({ min: 0, max: WINDOW_WAITS.length - 1 }), { nil: undefined }),
        fc.integer({ min: 0, max: 3 }),
        fc.integer({ min: 1, max: 3 }),
        async (failBefore, loseAnswers, landAfterLookups, lookupFails, attempts) => {
          const provider = statefulProvider({ failBefore, loseAnswers, lookupFails, ...(landAfterLookups !== undefined && { landAfterLookups }) });
          const { fetch, calls } = recordingFetch(provider.handler);
          const client = createProviderClient({ baseUrl: BASE_URL, apiKey: API_KEY, fetch, sleep: instantSleep().sleep, now: () => NOW });
          let outcome: string = 'none';
          for (let i = 0; i < attempts && outcome !== 'ok'; i++) {
            const sent = creates(calls).length;
            outcome = await client.createOrder(buyRequest()).then(
              (o) => (assert.equal(o.id, provider.stored[0]?.id), 'ok'),
              (e: ProviderError) => (assert.equal(e.outcome, 'unknown'), e.code),
            );
            assert.ok(creates(calls).length - sent <= 1, 'at most one create per call');
          }
          assert.ok(provider.stored.length <= 1, `${provider.stored.length} orders stored`);
        },
      ),
      { numRuns: 80 },
    );
  });

  test("the caller's abort during the lookup wait rethrows the caller's reason without resending; the next call looks up first", async () => {
    const controller = new AbortController();
    const reason = new Error('request cancelled');
    const provider = statefulProvider({ loseAnswers: 1 });
    const { client, calls } = makeClient(provider.handler, {
      sleep: async (_ms: number, signal?: AbortSignal) => {
        controller.abort(reason);
        signal?.throwIfAborted();
      },
    });
    await assert.rejects(client.createOrder(buyRequest(), { signal: controller.signal }), (e) => e === reason);
    assert.equal(creates(calls).length, 1);
    const res = await client.createOrder(buyRequest());
    assert.equal(res.id, 'order-1');
    assert.equal(creates(calls).length, 1, 'the order that landed is adopted, not created again');
  });

  test('an unreadable 2xx answer says the order exists (outcome created); the next call looks it up first', async () => {
    const stored = [order({ id: 'made' })];
    const { client, calls } = makeClient((req) => (req.method === 'POST' ? new Response(null, { status: 201 }) : json(ordersPage(stored))));
    const err = await failure(client.createOrder(buyRequest()));
    assert.equal(err.code, 'invalid_response');
    assert.equal(err.outcome, 'created');
    const res = await client.createOrder(buyRequest());
    assert.equal(res.id, 'made');
    assert.equal(creates(calls).length, 1);
  });
});

describe('createForm after a lost answer', () => {
  test('the session was created: the client finds it and throws with the session attached (outcome created), one create only', async () => {
    const session = formSession();
    const { client, calls } = makeClient((req) => {
      if (req.method === 'POST') throw new TypeError('fetch failed: socket hang up');
      return json(formSessionsPage([session]));
    });
    const err = await failure(client.createForm(formRequest()));
    assert.equal(err.code, 'network');
    assert.equal(err.retryable, true);
    assert.equal(err.outcome, 'created');
    assert.equal(err.formSession?.session_id, 'a1b2c3d4-session');
    assert.match(err.message, /do not create it again/);
    assert.equal(creates(calls).length, 1);
    const lookup = lookups(calls)[0]!;
    assert.equal(lookup.path, FORM_SEARCH_PATH);
    assert.equal(lookup.url.searchParams.get('client_order_id'), 'shop-2001');
  });

  test('the session was not found within the window: outcome unknown, never sent again in the call', async () => {
    const { client, calls } = makeClient((req) => {
      if (req.method === 'POST') throw new TypeError('fetch failed');
      return json(formSessionsPage([]));
    });
    const err = await failure(client.createForm(formRequest()));
    assert.equal(err.outcome, 'unknown');
    assert.deepEqual(
      [...new Set(calls.map((c) => `${c.method} ${c.path}`))],
      [`POST ${FORM_CREATE_PATH}`, `GET ${FORM_SEARCH_PATH}`],
    );
    assert.equal(creates(calls).length, 1);
  });

  test('a session of another amount under the same client_order_id is not taken for ours', async () => {
    const { client } = makeClient((req) => {
      if (req.method === 'POST') throw new TypeError('fetch failed');
      return json(formSessionsPage([formSession({ amount: '10.00000' as const })]));
    });
    assert.equal((await failure(client.createForm(formRequest(), { lookupWindowMs: 0 }))).outcome, 'unknown');
  });

  test('the next createForm of that client_order_id looks up first and sends only when nothing is there', async () => {
    let lost = true;
    const { client, calls } = makeClient((req) => {
      if (req.method === 'POST' && lost) {
        lost = false;
        throw new TypeError('fetch failed');
      }
      if (req.method === 'POST') return json(formCreated(), 201);
      return json(formSessionsPage([]));
    });
    await failure(client.createForm(formRequest(), { lookupWindowMs: 0 }));
    const before = calls.length;
    const res = await client.createForm(formRequest());
    assert.equal(res.session_id, 'a1b2c3d4-session');
    assert.deepEqual(
      calls.slice(before).map((c) => `${c.method} ${c.path}`),
      [`GET ${FORM_SEARCH_PATH}`, `POST ${FORM_CREATE_PATH}`],
    );
  });

  test('a 4xx on form creation is never retried nor looked up', async () => {
    const { client, calls } = makeClient(() => providerError(409, PROVIDER_MESSAGES.form_not_activated));
    const err = await failure(client.createForm(formRequest()));
    assert.equal(err.code, 'form_not_activated');
    assert.equal(err.outcome, 'not_created');
    assert.equal(calls.length, 1);
  });
});

describe('createDispute after a lost answer', () => {
  const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
  const request = () => ({ order_id: '7d7f4a52-0c0c-4b8e-9d47-3c1d7a1f0b11', amount: '1500.00' as const, files: [{ name: 'receipt.png', type: 'image/png', data: PNG }] });

  test('the dispute was created: found by searchDisputes for that order, answered as recovered, one upload only', async () => {
    const { client, calls } = makeClient((req) => {
      if (req.method === 'POST') throw new TypeError('fetch failed: socket hang up');
      return json({ success: true, message: 'ok', data: { items: [dispute({ dispute_id: 'd-9' })], total: 1, page: 1, size: 100, pages: 1 } });
    });
    const res = await client.createDispute(request());
    assert.deepEqual(res, { order_id: '7d7f4a52-0c0c-4b8e-9d47-3c1d7a1f0b11', dispute_id: 'd-9', dispute_files: [], recovered: true });
    assert.equal(creates(calls).length, 1);
    assert.equal(creates(calls)[0]!.path, DISPUTE_CREATE_PATH);
    const lookup = lookups(calls)[0]!;
    assert.equal(lookup.path, DISPUTE_SEARCH_PATH);
    assert.equal(lookup.url.searchParams.get('order_id'), '7d7f4a52-0c0c-4b8e-9d47-3c1d7a1f0b11');
  });

  test('a dispute of that order opened long before the call is not taken for this one: outcome unknown', async () => {
    const old = dispute({ created_at: new Date(NOW - LOOKUP_CLOCK_SLACK_MS - 60_000).toISOString() });
    const { client, calls } = makeClient((req) => {
      if (req.method === 'POST') throw new TypeError('fetch failed');
      return json({ success: true, message: 'ok', data: { items: [old], total: 1, page: 1, size: 100, pages: 1 } });
    });
    const err = await failure(client.createDispute(request()));
    assert.equal(err.outcome, 'unknown');
    assert.match(err.message, /order_id 7d7f4a52/);
    assert.equal(creates(calls).length, 1);
  });

  test('a 404 for the order is order_not_found, not retryable, not looked up', async () => {
    const { client, calls } = makeClient(() => providerError(404, PROVIDER_MESSAGES.order_not_found));
    const err = await failure(client.createDispute(request()));
    assert.equal(err.code, 'order_not_found');
    assert.equal(err.retryable, false);
    assert.equal(err.outcome, 'not_created');
    assert.equal(calls.length, 1);
  });
});
