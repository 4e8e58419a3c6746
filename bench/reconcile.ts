/**
 * The reconciliation sweep at scale: N pending sessions (created through the handler against the
 * sandbox), a few of them paid with their webhooks lost, then `handler.reconcile()`. Counts the calls
 * made to the provider (the goal: at most one per 100 orders plus one per order that changed) and
 * the wall time, beside what one call per order would cost. In process: the handler's provider
 * client talks to the sandbox's fetch, so the figures are the sweep's own work plus the sandbox's.
 */
import { createProviderClient } from '../src/provider/index.js';
import { createSandbox } from '../src/sandbox/index.js';
import { createCheckoutHandler } from '../src/server/index.js';
import type { ProviderClient } from '../src/provider/index.js';

export interface ReconcileFigures {
  sessions: number;
  changed: number;
  createSeconds: number;
  /** The first sweep: finds the changed orders. */
  first: { calls: number; paid: number; ms: number; byMethod: Record<string, number> };
  /** A second sweep right after: nothing changed. */
  second: { calls: number; ms: number };
  /** The goal for the first sweep: ceil(sessions / 100) + changed (+ 1 for the dispute listing). */
  goal: number;
  /** Reading every order one by one, for comparison (calls). */
  onePerOrder: number;
}

const KEY = 'bench_reconcile_key_0123456789abcdef';

export async function benchReconcile(sessions: number, changed: number): Promise<ReconcileFigures> {
  const sandbox = createSandbox({ apiKey: KEY, seed: false, sweepIntervalMs: 0, webhookRetryDelaysMs: [] });
  const calls = new Map<string, number>();
  const real = createProviderClient({ baseUrl: 'http://sandbox.bench', apiKey: KEY, fetch: (i, init) => sandbox.fetch(new Request(i, init)), maxRetries: 0 });
  // Count every provider call the handler makes, by method (the client is frozen: wrap, not proxy).
  const client = Object.fromEntries(
    Object.entries(real).map(([name, fn]) => [
      name,
      (...args: unknown[]) => {
        calls.set(name, (calls.get(name) ?? 0) + 1);
        return (fn as (...a: unknown[]) => unknown)(...args);
      },
    ]),
  ) as unknown as ProviderClient;
  const handler = createCheckoutHandler({
    provider: { client, apiKey: KEY },
    sessionSecrets: ['bench-reconcile-session-secret-0123456789'],
    webhookSecrets: [sandbox.webhookSecret(KEY)],
    resolveOrder: (ref) => ({ amount: `${1000 + (Number(ref) % 9000)}.00` }),
    rateLimits: false,
    reconcileIntervalSeconds: 0,
    logger: { warn: () => undefined, error: (m, f) => console.error(m, f) },
    onOrderPaid: () => undefined,
  });
  try {
    const t0 = performance.now();
    const ids: string[] = [];
    const batch = 50;
    for (let i = 0; i < sessions; i += batch) {
      const made = await Promise.all(
        Array.from({ length: Math.min(batch, sessions - i) }, async (_, j) => {
          const res = await handler(
            new Request('http://merchant.bench/api/paydesk/sessions', {
              method: 'POST',
              headers: { 'content-type': 'application/json', 'x-paydesk': '1' },
              body: JSON.stringify({ order_ref: String(i + j), method_type: i % 2 ? 'SBP' : 'BankCard' }),
            }),
          );
          if (res.status !== 201) throw new Error(`create ${i + j}: ${res.status} ${await res.text()}`);
          return ((await res.json()) as { order: { id: string } }).order.id;
        }),
      );
      ids.push(...made);
    }
    const createSeconds = (performance.now() - t0) / 1000;
    // Paid at the provider, webhooks lost (the terminal has no webhook URL, the orders none).
    for (let i = 0; i < changed; i++) {
      const id = ids[Math.floor((i * ids.length) / changed)]!;
      const res = await sandbox.fetch(new Request(`http://sandbox.bench/sandbox/orders/${id}/complete`, { method: 'POST', headers: { 'X-API-Key': KEY } }));
      if (!res.ok) throw new Error(`complete: ${res.status}`);
    }
    calls.clear();
    let t = performance.now();
    const first = await handler.reconcile();
    const firstMs = performance.now() - t;
    const byMethod = Object.fromEntries(calls);
    const firstCalls = [...calls.values()].reduce((a, b) => a + b, 0);
    if (first.paid !== changed) throw new Error(`the sweep found ${first.paid} paid orders, expected ${changed}`);
    calls.clear();
    t = performance.now();
    await handler.reconcile();
    const secondMs = performance.now() - t;
    const secondCalls = [...calls.values()].reduce((a, b) => a + b, 0);
    return {
      sessions,
      changed,
      createSeconds,
      first: { calls: firstCalls, paid: first.paid, ms: firstMs, byMethod },
      second: { calls: secondCalls, ms: secondMs },
      goal: Math.ceil(sessions / 100) + changed + 1,
      onePerOrder: sessions,
    };
  } finally {
    await handler.close();
    await sandbox.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const n = Number(process.argv[2] ?? 10_000);
  console.log(JSON.stringify(await benchReconcile(n, Math.max(1, Math.round(n / 100))), null, 2));
}
