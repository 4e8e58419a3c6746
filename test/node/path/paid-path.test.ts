/**
 * Issue 22, "webhook → paid on screen", the server's half: the hops of our own code from the webhook
 * route to the write of the paid event on the shopper's event stream, measured on a real handler
 * with an in-process sandbox (its webhook goes straight into the handler). How hops are counted:
 * test/hop-path.ts. The stacks are taken at the provider read, at every store call, at every queued
 * microtask (with the task it queued, so a pub/sub message is followed to its publish) and at the
 * write of the bytes; the path and its figure are printed (`node --import tsx --test
 * test/node/path/paid-path.test.ts`), and the test fails when the path grows past its ceiling.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createProviderClient } from '../../../src/provider/index.js';
import { createCheckoutHandler, createMemoryStore } from '../../../src/server/index.js';
import type { CheckoutHandler, CheckoutStore } from '../../../src/server/index.js';
import { describePath, followPath, framesOf, type Probe } from '../../hop-path.js';
import { createRequest, sandboxDeliveringTo, SseReader } from '../server/fake-provider.js';

/** The server's share of issue 22's goal (≤ 10 from webhook to screen). */
const SERVER_HOPS_CEILING = 7;

const KEY = 'merchant_hops_key_0123456789abcdef';
const PROVIDER = 'http://sandbox.test';
const ENDPOINT = 'http://merchant.test/api/paydesk';
const ORIGIN = 'http://merchant.test';

test('webhook → the paid event written to the shopper’s stream: the hops of our code', async (t) => {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = Infinity;
  const probes: Probe[] = [];
  let armed = false;
  let inTask: number | undefined;
  const probe = (label: string): number => {
    probes.push({ label, frames: framesOf(new Error().stack ?? ''), ...(inTask !== undefined && { origin: inTask }) });
    return probes.length - 1;
  };

  // Every microtask queued while armed remembers the probe that queued it.
  const queue = globalThis.queueMicrotask;
  globalThis.queueMicrotask = (task) => {
    if (!armed) return queue(task);
    const origin = probe('queueMicrotask');
    queue(() => {
      const outer = inTask;
      inTask = origin;
      try {
        task();
      } finally {
        inTask = outer;
      }
    });
  };
  // The bytes of the paid event, as they go into the response body.
  let end: number | undefined;
  const enqueue = ReadableStreamDefaultController.prototype.enqueue;
  ReadableStreamDefaultController.prototype.enqueue = function (this: ReadableStreamDefaultController, chunk?: unknown) {
    if (armed && end === undefined && chunk instanceof Uint8Array && /event: order\n[^]*"status":"paid"/.test(new TextDecoder().decode(chunk))) end = probe('write');
    return enqueue.call(this, chunk);
  };
  t.after(() => {
    globalThis.queueMicrotask = queue;
    ReadableStreamDefaultController.prototype.enqueue = enqueue;
    Error.stackTraceLimit = limit;
  });

  let handler!: CheckoutHandler;
  const sandbox = sandboxDeliveringTo(KEY, ENDPOINT, () => handler);
  const client = createProviderClient({
    baseUrl: PROVIDER,
    apiKey: KEY,
    maxRetries: 0,
    fetch: async (input, init) => {
      const req = new Request(input, init);
      if (armed) probe(`provider ${req.method} ${new URL(req.url).pathname}`);
      return sandbox.fetch(req);
    },
  });
  const memory = createMemoryStore();
  const store = new Proxy(memory, {
    get(target, name, receiver) {
      const value = Reflect.get(target, name, receiver) as unknown;
      if (typeof value !== 'function' || name === 'constructor') return value;
      return (...args: unknown[]) => {
        if (armed) probe(`store.${String(name)}`);
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  }) as CheckoutStore;
  handler = createCheckoutHandler({
    provider: { client, apiKey: KEY },
    sessionSecrets: ['hops-test-session-secret-0123456789abcdef'],
    webhookSecrets: [sandbox.webhookSecret(KEY)],
    resolveOrder: (ref) => (ref === 'tee' ? { amount: '1500.00' } : null),
    store,
    rateLimits: false,
    reconcileIntervalSeconds: 0,
    logger: { info() {}, warn() {}, error() {} },
  });
  t.after(async () => {
    await handler.close();
    await sandbox.close();
  });

  const body = { order_ref: 'tee', method_type: 'SBP' };
  const created = await handler(new Request(`${ENDPOINT}/sessions`, { method: 'POST', headers: createRequest(body, { origin: ORIGIN }).headers, body: JSON.stringify(body) }));
  assert.equal(created.status, 201);
  const { session, order } = (await created.json()) as { session: string; order: { id: string } };
  const stream = new SseReader(await handler(new Request(`${ENDPOINT}/sessions/${session}/events`, { headers: { origin: ORIGIN } })));
  assert.match((await stream.next())?.data ?? '', /"status":"pending"/);

  armed = true;
  // The shopper pays: the sandbox completes the order and delivers its webhook to the handler.
  const paid = await sandbox.fetch(new Request(`${PROVIDER}/sandbox/orders/${order.id}/complete`, { method: 'POST', headers: { 'X-API-Key': KEY } }));
  assert.equal(paid.status, 200);
  assert.match((await stream.next())?.data ?? '', /"status":"paid"/);
  armed = false;
  await sandbox.webhooks.idle();
  await handler.idle();

  assert.notEqual(end, undefined, 'the paid event was written');
  const path = followPath(probes, end!, 'webhooksRoute');
  for (const line of `server: webhook route → paid event written: ${describePath(path)}`.split('\n')) t.diagnostic(line);
  assert.equal(path.frames[0]!.file, 'src/server/routes/webhooks.ts');
  assert.equal(path.frames.at(-1)!.file, 'src/protocol/sse.ts', 'the path ends in the one SSE writer');
  // Shorter, never less safe: the order was read back from the provider before "paid" was written.
  assert.ok(
    probes.slice(0, end).some((p) => new RegExp(`^provider GET /api/v1/order/${order.id}$`).test(p.label)),
    'the paid event is written only after the order was read from the provider',
  );
  assert.ok(path.hops <= SERVER_HOPS_CEILING, `${path.hops} hops, over the ceiling of ${SERVER_HOPS_CEILING}`);
});
