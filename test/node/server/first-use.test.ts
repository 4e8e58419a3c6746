/**
 * A handler reads and checks its options on its first use, never when it is created: a module that
 * creates it at its top level (README's Next.js route) can be imported by `next build` without the
 * provider's variables, and a SQLite store is not opened by that import.
 */
import { test, describe, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCheckoutHandler, createSqliteStore } from '../../../src/server/index.js';
import type { CheckoutHandlerOptions } from '../../../src/server/index.js';
import { API_KEY, createRequest, FakeProvider, SESSION_SECRET, WEBHOOK_SECRET } from './fake-provider.js';

const dir = mkdtempSync(join(tmpdir(), 'paydesk-first-use-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** What README's route module does at its top level, with the environment of a build (nothing set). */
function readmeOptions(env: Record<string, string | undefined>, path: string): CheckoutHandlerOptions {
  return {
    provider: { baseUrl: env.PAYDESK_PROVIDER_URL!, apiKey: env.PAYDESK_API_KEY! },
    sessionSecrets: [env.PAYDESK_SESSION_SECRET!],
    store: createSqliteStore({ path }),
    resolveOrder: () => ({ amount: '1500.00' }),
  };
}

describe('options are read and checked on first use', () => {
  test('created without the provider variables: no throw and no database file; the first use fails loudly', async () => {
    const path = join(dir, 'build', 'paydesk.db');
    const errors: string[] = [];
    const options = { ...readmeOptions({}, path), logger: { warn: () => undefined, error: (m: string) => void errors.push(m) } };
    const handler = createCheckoutHandler(options);
    assert.equal(existsSync(join(dir, 'build')), false, 'the store is not opened by creating the handler');

    const res = await handler(createRequest({ order_ref: 'tee' }));
    assert.equal(res.status, 500);
    const body = (await res.json()) as { error: { code: string; message: string } };
    assert.equal(body.error.code, 'internal_error');
    assert.match(errors.join('\n'), /the handler cannot start: .*baseUrl/);
    await assert.rejects(handler.reconcile(), /baseUrl/);
    await assert.rejects(handler.inspect.sessions(), /baseUrl/);
    await assert.rejects(handler.createSession({ order_ref: 'tee' }), /baseUrl/);
    assert.throws(() => handler.store, /baseUrl/);
    assert.equal(existsSync(join(dir, 'build')), false, 'a handler that cannot start never opens the store');
    await handler.close();
  });

  test('no options at all, or no resolveOrder: created fine, the first call names what is missing', async () => {
    const none = createCheckoutHandler(undefined as unknown as CheckoutHandlerOptions);
    await assert.rejects(none.reconcile(), /createCheckoutHandler needs options/);
    assert.equal((await none(createRequest({ order_ref: 'tee' }))).status, 500);
    const partial = createCheckoutHandler({ provider: { client: new FakeProvider() }, sessionSecrets: [SESSION_SECRET] } as unknown as CheckoutHandlerOptions);
    await assert.rejects(partial.createSession({ order_ref: 'tee' }), /resolveOrder/);
  });

  test('with valid options the store is opened by the first request, not before', async () => {
    const path = join(dir, 'ok', 'paydesk.db');
    const provider = new FakeProvider();
    const handler = createCheckoutHandler({
      provider: { client: provider, apiKey: API_KEY },
      sessionSecrets: [SESSION_SECRET],
      webhookSecrets: [WEBHOOK_SECRET],
      store: createSqliteStore({ path }),
      resolveOrder: () => ({ amount: '1500.00' }),
      reconcileIntervalSeconds: 0,
      rateLimits: false,
    });
    assert.equal(existsSync(path), false);
    const res = await handler(createRequest({ order_ref: 'tee', method_type: 'SBP' }));
    assert.equal(res.status, 201, await res.clone().text());
    assert.equal(existsSync(path), true);
    await handler.close();
    await handler.store.close();
  });

  test('a restarted server sweeps with no request: an order paid while it was down reaches onOrderPaid', async () => {
    const path = join(dir, 'restart', 'paydesk.db');
    const provider = new FakeProvider();
    const base = {
      provider: { client: provider, apiKey: API_KEY },
      sessionSecrets: [SESSION_SECRET],
      webhookSecrets: [WEBHOOK_SECRET],
      resolveOrder: () => ({ amount: '1500.00' }),
      rateLimits: false as const,
    };
    const before = createCheckoutHandler({ ...base, store: createSqliteStore({ path }), reconcileIntervalSeconds: 0 });
    const res = await before(createRequest({ order_ref: 'tee', method_type: 'SBP' }));
    assert.equal(res.status, 201, await res.clone().text());
    const { order } = (await res.json()) as { order: { id: string } };
    await before.close();
    await before.store.close();
    // Down: the shopper pays, and the webhook finds nobody.
    provider.setStatus(order.id, 'Completed');

    const paid: string[] = [];
    const after = createCheckoutHandler({ ...base, store: createSqliteStore({ path }), reconcileIntervalSeconds: 0.05, onOrderPaid: (e) => void paid.push(e.provider_order_id) });
    try {
      for (let i = 0; i < 200 && paid.length === 0; i++) await new Promise((r) => setTimeout(r, 25));
      assert.deepEqual(paid, [order.id], 'the sweep ran from the process start, with no request');
    } finally {
      await after.close();
      await after.store.close();
    }
  });

  test('during `next build` (NEXT_PHASE) a handler with valid options starts nothing by itself', async () => {
    const path = join(dir, 'next-build', 'paydesk.db');
    const saved = process.env.NEXT_PHASE;
    process.env.NEXT_PHASE = 'phase-production-build';
    try {
      const handler = createCheckoutHandler({
        provider: { client: new FakeProvider(), apiKey: API_KEY },
        sessionSecrets: [SESSION_SECRET],
        store: createSqliteStore({ path }),
        resolveOrder: () => ({ amount: '1500.00' }),
        reconcileIntervalSeconds: 0.05,
      });
      await new Promise((r) => setTimeout(r, 300));
      assert.equal(existsSync(join(dir, 'next-build')), false, 'no store opened, no sweep');
      await handler.close();
    } finally {
      if (saved === undefined) delete process.env.NEXT_PHASE;
      else process.env.NEXT_PHASE = saved;
    }
  });

  test('close() of a handler never used opens nothing and resolves; it cannot be started after', async () => {
    const path = join(dir, 'unused', 'paydesk.db');
    const handler = createCheckoutHandler(readmeOptions({}, path));
    await handler.close();
    await assert.rejects(handler.reconcile(), /closed before its first use/);
    assert.equal(existsSync(join(dir, 'unused')), false);
  });
});
