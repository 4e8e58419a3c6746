/**
 * The console's order page while the provider hangs (probe: 92 s, three order reads of 15 s each and
 * then the disputes search). The provider's reads of one page share a bound (src/console/shop.ts
 * `PAGE_READS_MS`): the page answers with the shop's record and the provider's failure in its place.
 * The console's client here waits 120 s per read, so only that bound can end them.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { CONSOLE_PASSWORD, startTestDemo, type TestDemo } from './helpers.js';

const POST = { 'content-type': 'application/json', 'x-paydesk': '1' };

describe('the console with a provider that hangs', () => {
  let demo: TestDemo;
  /** While true, every read of the console's client is held until the client gives up. */
  let hang = false;
  let held = 0;
  const hangingFetch: typeof fetch = async (input, init) => {
    const req = new Request(input, init);
    if (hang && req.method === 'GET') {
      held++;
      // The client's own signal: a Request's copy of it may miss the abort after a garbage collection.
      const signal = init?.signal ?? req.signal;
      return new Promise<Response>((_, reject) => signal.addEventListener('abort', () => reject(signal.reason), { once: true }));
    }
    return fetch(req);
  };

  before(async () => {
    demo = await startTestDemo({ consoleProvider: { fetch: hangingFetch, timeoutMs: 120_000 } });
  });
  after(async () => {
    await demo?.close();
  });

  test("an order's page answers within its bound: the shop's record, and the provider's read as failed", async () => {
    const created = await fetch(`${demo.merchantUrl}/api/paydesk/sessions`, { method: 'POST', headers: POST, body: JSON.stringify({ order_ref: 'coffee-beans', method_type: 'SBP' }) });
    assert.equal(created.status, 201);
    const { order } = (await created.json()) as { order: { id: string; client_order_id: string } };
    const login = await fetch(`${demo.merchantUrl}/console/api/login`, { method: 'POST', headers: POST, body: JSON.stringify({ password: CONSOLE_PASSWORD }) });
    assert.equal(login.status, 204);
    const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0]!;

    hang = true;
    const page = await fetch(`${demo.merchantUrl}/console/api/orders/${encodeURIComponent(order.client_order_id)}`, { headers: { cookie }, signal: AbortSignal.timeout(40_000) });
    assert.equal(page.status, 200);
    const body = (await page.json()) as { order: { id: string; shop: { status: string } | null; provider: { error?: { code: string } } | null; disputes: unknown } };
    assert.equal(body.order.id, order.id);
    assert.equal(body.order.shop?.status, 'pending', "the shop's record stands");
    assert.equal(body.order.provider?.error?.code, 'timeout');
    assert.ok(held >= 1);
  });
});
