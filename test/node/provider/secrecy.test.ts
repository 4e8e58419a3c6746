/** The API key never appears in an error, its fields, its cause, its stack, or the client object. */
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { inspect } from 'node:util';
import { createProviderClient, ProviderError } from '../../../src/provider/index.js';
import {
  API_KEY,
  BASE_URL,
  buyRequest,
  formRequest,
  hangingFetch,
  instantSleep,
  json,
  makeClient,
  order,
  providerError,
} from './fake-provider.js';
import type { Handler } from './fake-provider.js';

function assertNoKey(err: unknown) {
  assert.ok(err instanceof Error);
  const views = [
    JSON.stringify(err),
    inspect(err, { depth: 10, showHidden: true }),
    String(err.stack),
    err.message,
    String(err),
    JSON.stringify(Object.entries(err)),
    JSON.stringify((err as ProviderError).providerMessage),
  ];
  for (const view of views) assert.ok(!view.includes(API_KEY), `the key leaked into: ${view.slice(0, 300)}`);
}

async function caught(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => assert.fail('expected a failure'),
    (e: unknown) => e,
  );
}

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
const disputeRequest = () => ({ order_id: 'o-1', amount: '1500.00' as const, files: [{ name: 'r.png', type: 'image/png', data: PNG }] });

const leakyCases: Array<[string, Handler, 'read' | 'create' | 'form' | 'order' | 'dispute']> = [
  ['a 401 that echoes the key', () => providerError(401, `Invalid API key ${API_KEY}`), 'read'],
  ['a 500 plain-text body that echoes the key', () => new Response(`upstream said X-API-Key: ${API_KEY}`, { status: 500 }), 'read'],
  ['a detail list that echoes the key', () => json({ detail: [{ loc: ['header', 'x-api-key'], msg: `bad ${API_KEY}` }] }, 422), 'read'],
  [
    'a network error whose text and cause echo the key',
    () => {
      throw new TypeError(`fetch failed for key=${API_KEY}`, { cause: new Error(`socket ${API_KEY}`) });
    },
    'read',
  ],
  ['an invalid response', () => json({ success: true, message: API_KEY }), 'read'],
  ['an H2H refusal that echoes the key', () => providerError(409, `blacklisted for ${API_KEY}`), 'create'],
  ['a lost create whose lookup fails with the key in the text', () => {
    throw new TypeError(`fetch failed ${API_KEY}`);
  }, 'create'],
  ['a form refusal that echoes the key', () => providerError(400, `button not enabled for ${API_KEY}`), 'form'],
  ['an order-by-id 404 that echoes the key', () => providerError(404, `no order for ${API_KEY}`), 'order'],
  ['a dispute refusal that echoes the key', () => providerError(415, `bad file from ${API_KEY}`), 'dispute'],
  ['a lost dispute upload whose lookups fail with the key in the text', () => {
    throw new TypeError(`fetch failed ${API_KEY}`);
  }, 'dispute'],
];

describe('the API key never leaks', () => {
  for (const [name, handler, kind] of leakyCases) {
    test(`${name}: not in JSON.stringify, util.inspect, stack, message or fields`, async () => {
      const { client } = makeClient(handler, { maxRetries: 1 });
      const calls: Record<typeof kind, () => Promise<unknown>> = {
        read: () => client.getBalance(),
        create: () => client.createOrder(buyRequest()),
        form: () => client.createForm(formRequest()),
        order: () => client.getOrder('o-1'),
        dispute: () => client.createDispute(disputeRequest()),
      };
      const err = await caught(calls[kind]());
      assert.ok(err instanceof ProviderError);
      assertNoKey(err);
    });
  }

  test('a timeout error does not carry the key', async () => {
    const { fetch } = hangingFetch();
    const client = createProviderClient({ baseUrl: BASE_URL, apiKey: API_KEY, fetch, sleep: instantSleep().sleep, timeoutMs: 5, maxRetries: 0 });
    assertNoKey(await caught(client.getBalance()));
  });

  test('an invalid request does not carry the key (not even one made of it)', async () => {
    const { client } = makeClient(() => json(order(), 201));
    assertNoKey(await caught(client.createOrder(buyRequest({ client_order_id: API_KEY.repeat(10) }))));
  });

  test('the client object does not show the key', () => {
    const { client } = makeClient(() => json(order()));
    assert.ok(!inspect(client, { depth: 10, showHidden: true }).includes(API_KEY));
    assert.ok(!JSON.stringify(client).includes(API_KEY));
  });

  test('a bad option error does not show the key', () => {
    let err: unknown;
    try {
      createProviderClient({ baseUrl: `ftp://${API_KEY}@x`, apiKey: API_KEY });
    } catch (e) {
      err = e;
    }
    assert.ok(err instanceof ProviderError);
    assert.ok(!err.message.includes(API_KEY));
  });

  test('the key is still sent, in the X-API-Key header only', async () => {
    const { client, calls } = makeClient(() => json(order(), 201));
    await client.createOrder(buyRequest());
    assert.equal(calls[0]!.headers.get('x-api-key'), API_KEY);
    assert.ok(!calls[0]!.url.href.includes(API_KEY));
    assert.ok(!JSON.stringify(calls[0]!.body).includes(API_KEY));
  });

  test('nor in a dispute upload: the header only, not the multipart body', async () => {
    const { client, calls } = makeClient(() => json({ order_id: 'o-1', dispute_id: 'd-1', dispute_files: [] }, 201));
    await client.createDispute(disputeRequest());
    assert.equal(calls[0]!.headers.get('x-api-key'), API_KEY);
    assert.ok(!Buffer.from(calls[0]!.raw!).toString('latin1').includes(API_KEY));
  });
});
