import { test, describe, mock } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { createProviderClient, ProviderError } from '../../../src/provider/index.js';
import { BACKOFF_BASE_MS, BACKOFF_CAP_MS } from '../../../src/provider/transport.js';
import { API_KEY, BASE_URL, balance, buyRequest, hangingFetch, instantSleep, json, makeClient, providerError } from './fake-provider.js';

async function failure(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => assert.fail('expected a failure'),
    (err: unknown) => err,
  );
}

const networkError = () => {
  throw new TypeError('fetch failed');
};

describe('reads are retried on network errors, 429 and 5xx', () => {
  test('a network error then success: two attempts, one backoff wait', async () => {
    const { client, calls, delays } = makeClient((_, i) => (i === 0 ? networkError() : json(balance())));
    const res = await client.getBalance();
    assert.equal(res.available, '10000.00');
    assert.equal(calls.length, 2);
    assert.equal(delays.length, 1);
  });

  test('a 503 then success is retried', async () => {
    const { client, calls } = makeClient((_, i) => (i === 0 ? providerError(503, 'unavailable') : json(balance())));
    await client.getBalance();
    assert.equal(calls.length, 2);
  });

  test('a 429 then success is retried', async () => {
    const { client, calls } = makeClient((_, i) => (i === 0 ? providerError(429, 'Slow down') : json(balance())));
    await client.getBalance();
    assert.equal(calls.length, 2);
  });

  test('maxRetries 2 (the default) means three attempts, then the last error', async () => {
    const { client, calls, delays } = makeClient(() => providerError(502, 'Bad Gateway'));
    const err = (await failure(client.getBalance())) as ProviderError;
    assert.equal(err.code, 'provider_error');
    assert.equal(err.status, 502);
    assert.equal(calls.length, 3);
    assert.equal(delays.length, 2);
  });

  test('maxRetries 0 means exactly one attempt', async () => {
    const { client, calls, delays } = makeClient(networkError, { maxRetries: 0 });
    const err = (await failure(client.getBalance())) as ProviderError;
    assert.equal(err.code, 'network');
    assert.equal(calls.length, 1);
    assert.deepEqual(delays, []);
  });

  test('maxRetries per request overrides the client default', async () => {
    const { client, calls } = makeClient(networkError, { maxRetries: 5 });
    await failure(client.getBalance({ maxRetries: 1 }));
    assert.equal(calls.length, 2);
  });

  test('a 4xx read is not retried', async () => {
    const { client, calls } = makeClient(() => providerError(400, 'bad'));
    await failure(client.listOrders());
    assert.equal(calls.length, 1);
  });

  test('an invalid response is not retried', async () => {
    const { client, calls } = makeClient(() => json({ success: true }));
    await failure(client.getBalance());
    assert.equal(calls.length, 1);
  });

  test('a 401 is not retried', async () => {
    const { client, calls } = makeClient(() => providerError(401, 'Invalid or missing API key'));
    await failure(client.getBalance());
    assert.equal(calls.length, 1);
  });
});

describe('backoff delays', () => {
  test('with jitter at its top the waits double from 500 ms and stop at the 8 s cap', async () => {
    const { client, delays } = makeClient(networkError, { maxRetries: 7, random: () => 0.999999999 });
    await failure(client.getBalance());
    assert.deepEqual(delays, [500, 1000, 2000, 4000, 8000, 8000, 8000]);
  });

  test('with jitter at its bottom each wait is half the step (equal jitter)', async () => {
    const { client, delays } = makeClient(networkError, { maxRetries: 5, random: () => 0 });
    await failure(client.getBalance());
    assert.deepEqual(delays, [250, 500, 1000, 2000, 4000]);
  });

  test('every wait lies between half the step and the step, for any jitter', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), { minLength: 6, maxLength: 6 }), async (rolls) => {
        let n = 0;
        const { client, delays } = makeClient(networkError, { maxRetries: 6, random: () => rolls[n++ % rolls.length]! });
        await failure(client.getBalance());
        delays.forEach((delay, retry) => {
          const step = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** retry);
          assert.ok(delay >= step / 2 && delay <= step, `retry ${retry}: ${delay} not in [${step / 2}, ${step}]`);
        });
      }),
      { numRuns: 50 },
    );
  });
});

describe('Retry-After is honoured', () => {
  test('delta seconds', async () => {
    const { client, calls, delays } = makeClient((_, i) => (i === 0 ? providerError(429, 'Slow down', { 'Retry-After': '3' }) : json(balance())));
    await client.getBalance();
    assert.equal(calls.length, 2);
    assert.deepEqual(delays, [3000]);
  });

  test('an HTTP-date, against the injected clock', async () => {
    const now = Date.UTC(2025, 0, 10, 12, 0, 0);
    const at = new Date(now + 7000).toUTCString();
    const { client, delays } = makeClient((_, i) => (i === 0 ? providerError(503, 'later', { 'Retry-After': at }) : json(balance())), {
      now: () => now,
    });
    await client.getBalance();
    assert.deepEqual(delays, [7000]);
  });

  test('an HTTP-date in the past means no wait', async () => {
    const now = Date.UTC(2025, 0, 10, 12, 0, 0);
    const { client, delays } = makeClient(
      (_, i) => (i === 0 ? providerError(429, 'x', { 'Retry-After': new Date(now - 5000).toUTCString() }) : json(balance())),
      { now: () => now },
    );
    await client.getBalance();
    assert.deepEqual(delays, [0]);
  });

  test('an unreadable Retry-After falls back to the backoff', async () => {
    const { client, delays } = makeClient((_, i) => (i === 0 ? providerError(429, 'x', { 'Retry-After': 'soon' }) : json(balance())), {
      random: () => 0,
    });
    await client.getBalance();
    assert.deepEqual(delays, [250]);
  });

  test('a Retry-After above 60 s is not waited for: the error carries retryAfterMs', async () => {
    const { client, calls, delays } = makeClient(() => providerError(429, 'x', { 'Retry-After': '120' }));
    const err = (await failure(client.getBalance())) as ProviderError;
    assert.equal(err.code, 'rate_limited');
    assert.equal(err.retryAfterMs, 120_000);
    assert.equal(calls.length, 1);
    assert.deepEqual(delays, []);
  });

  test('a 429 on a create is never retried, even with Retry-After', async () => {
    const { client, calls } = makeClient(() => providerError(429, 'x', { 'Retry-After': '1' }));
    const err = (await failure(client.createOrder(buyRequest()))) as ProviderError;
    assert.equal(err.code, 'rate_limited');
    assert.equal(err.retryAfterMs, 1000);
    assert.equal(calls.length, 1);
  });
});

describe('timeouts and the caller signal', () => {
  test('a request that never answers ends as timeout; every attempt gets its own deadline', async () => {
    const { fetch, calls } = hangingFetch();
    const { sleep } = instantSleep();
    const client = createProviderClient({ baseUrl: BASE_URL, apiKey: API_KEY, fetch, sleep, timeoutMs: 5, maxRetries: 1 });
    const err = (await failure(client.getBalance())) as ProviderError;
    assert.ok(err instanceof ProviderError);
    assert.equal(err.code, 'timeout');
    assert.equal(err.retryable, true);
    assert.equal(err.status, null);
    assert.match(err.message, /5 ms/);
    assert.equal(calls.length, 2, 'a timed-out read is retried');
    assert.notEqual(calls[0]!.signal, calls[1]!.signal);
    assert.ok(calls.every((c) => c.signal?.aborted));
  });

  test('a timeout on the first attempt then an answer succeeds', async () => {
    const { fetch, calls } = hangingFetch(() => json(balance()));
    const client = createProviderClient({ baseUrl: BASE_URL, apiKey: API_KEY, fetch, sleep: instantSleep().sleep, timeoutMs: 5 });
    const res = await client.getBalance();
    assert.equal(res.currency, 'RUB');
    assert.equal(calls.length, 2);
  });

  test('timeoutMs per request overrides the client default', async () => {
    const { fetch } = hangingFetch();
    const client = createProviderClient({ baseUrl: BASE_URL, apiKey: API_KEY, fetch, timeoutMs: 60_000, maxRetries: 0 });
    const err = (await failure(client.getBalance({ timeoutMs: 5 }))) as ProviderError;
    assert.equal(err.code, 'timeout');
  });

  test("the caller's abort rethrows the caller's reason and is not retried", async () => {
    const { fetch, calls } = hangingFetch();
    const client = createProviderClient({ baseUrl: BASE_URL, apiKey: API_KEY, fetch, sleep: instantSleep().sleep, maxRetries: 3 });
    const controller = new AbortController();
    const reason = new Error('shopper left');
    const pending = client.getBalance({ signal: controller.signal });
    await Promise.resolve();
    await new Promise((resolve) => setImmediate(resolve));
    controller.abort(reason);
    const err = await failure(pending);
    assert.equal(err, reason);
    assert.equal(calls.length, 1);
  });

  test('an already aborted signal sends nothing', async () => {
    const { client, calls } = makeClient(() => json(balance()));
    const reason = new DOMException('gone', 'AbortError');
    const err = await failure(client.getBalance({ signal: AbortSignal.abort(reason) }));
    assert.equal(err, reason);
    assert.equal(calls.length, 0);
  });

  test('an abort during the backoff wait stops the retries', async () => {
    const controller = new AbortController();
    const reason = new Error('stop');
    const { client, calls } = makeClient(networkError, {
      maxRetries: 5,
      sleep: async () => {
        controller.abort(reason);
      },
    });
    const err = await failure(client.getBalance({ signal: controller.signal }));
    assert.equal(err, reason);
    assert.equal(calls.length, 1);
  });

  test('the default sleep waits on timers (fake clock) and the retry follows', async () => {
    mock.timers.enable({ apis: ['setTimeout'] });
    try {
      let attempts = 0;
      const client = createProviderClient({
        baseUrl: BASE_URL,
        apiKey: API_KEY,
        random: () => 0,
        fetch: async () => (++attempts === 1 ? providerError(503, 'x') : json(balance())),
      });
      const pending = client.getBalance();
      // Let the first attempt fail and the 250 ms wait start.
      for (let i = 0; i < 20 && attempts < 1; i++) await new Promise((r) => setImmediate(r));
      for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
      assert.equal(attempts, 1);
      mock.timers.tick(249);
      for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
      assert.equal(attempts, 1, 'no retry before the wait is over');
      mock.timers.tick(1);
      const res = await pending;
      assert.equal(attempts, 2);
      assert.equal(res.total, '10500.00');
    } finally {
      mock.timers.reset();
    }
  });
});
