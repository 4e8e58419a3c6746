/**
 * The sandbox provider: order listing latency over 100,000 orders (filters and sorts of provider-api.md
 * endpoint 8, one request at a time over loopback), and the H2H order creation rate (autocannon).
 */
import { randomUUID } from 'node:crypto';
import { AMOUNT } from './stack.js';
import { keepAlive, load, timed } from './http.js';
import { median, percentile, repeat } from './stats.js';
import type { ProviderInfo } from './processes.js';

export const LIST_QUERIES: Record<string, string> = {
  'default (newest first, page 1)': '',
  'status=Completed, sort_by=amount asc, size=100': 'status=Completed&sort_by=amount&sort=asc&size=100',
  'order_side=Buy, sort_by=amount desc, size=100, page=50': 'order_side=Buy&sort_by=amount&sort=desc&size=100&page=50',
  'status=CanceledByTimeout, last 6 h, sort_by=created_at asc, size=100': 'status=CanceledByTimeout&sort_by=created_at&sort=asc&size=100&start_date=START6H',
  'status=Unpaid, sort_by=amount asc, size=100, page=3': 'status=Unpaid&sort_by=amount&sort=asc&size=100&page=3',
};

export interface ListingFigures {
  orders: number;
  seedMs: number;
  runs: number;
  perRun: number;
  /** Query label → median of per-run p50 (ms). */
  p50: Record<string, number>;
  /** Query label → median of per-run p95 (ms). */
  p95: Record<string, number>;
  /** Query label → total matching orders. */
  totals: Record<string, number>;
}

export interface CreationFigures {
  runs: number;
  seconds: number;
  connections: number;
  rps: number;
  p50: number;
}

export async function benchListing(provider: ProviderInfo, opts: { orders: number; runs: number; perRun: number }): Promise<ListingFigures> {
  const agent = keepAlive();
  const headers = { 'x-api-key': provider.apiKey, 'content-type': 'application/json' };
  const seeded = await timed(agent, `${provider.url}/sandbox/orders/seed`, { method: 'POST', headers, body: JSON.stringify({ count: opts.orders }) });
  if (seeded.status !== 201) throw new Error(`seed: ${seeded.status} ${seeded.body}`);
  const seedMs = (JSON.parse(seeded.body) as { ms: number }).ms;
  const start6h = new Date(Date.now() - 6 * 3600_000).toISOString();
  const url = (q: string) => `${provider.url}/api/v1/order/${q ? `?${q.replace('START6H', encodeURIComponent(start6h))}` : ''}`;
  const totals: Record<string, number> = {};
  for (const [label, q] of Object.entries(LIST_QUERIES)) {
    const r = await timed(agent, url(q), { headers });
    if (r.status !== 200) throw new Error(`GET ${url(q)}: ${r.status} ${r.body}`);
    totals[label] = (JSON.parse(r.body) as { orders: { total: number } }).orders.total;
    for (let i = 0; i < 5; i++) await timed(agent, url(q), { headers }); // warm-up
  }
  const runs = await repeat(opts.runs, async () => {
    const out: Record<string, { p50: number; p95: number }> = {};
    for (const [label, q] of Object.entries(LIST_QUERIES)) {
      const samples = await repeat(opts.perRun, async () => (await timed(agent, url(q), { headers })).ms);
      out[label] = { p50: percentile(samples, 50), p95: percentile(samples, 95) };
    }
    return out;
  });
  agent.destroy();
  const labels = Object.keys(LIST_QUERIES);
  return {
    orders: opts.orders,
    seedMs,
    runs: opts.runs,
    perRun: opts.perRun,
    p50: Object.fromEntries(labels.map((l) => [l, median(runs.map((r) => r[l]!.p50))])),
    p95: Object.fromEntries(labels.map((l) => [l, median(runs.map((r) => r[l]!.p95))])),
    totals,
  };
}

export async function benchCreation(provider: ProviderInfo, opts: { runs: number; seconds: number; connections: number }): Promise<CreationFigures> {
  const body = JSON.stringify({ client_order_id: `bench-rate-${randomUUID()}`, order_side: 'Buy', method_type: 'SBP', amount: AMOUNT });
  const results = await repeat(opts.runs, () =>
    load({
      url: `${provider.url}/api/v1/order/`,
      method: 'POST',
      connections: opts.connections,
      seconds: opts.seconds,
      headers: { 'x-api-key': provider.apiKey, 'content-type': 'application/json' },
      body,
    }),
  );
  return {
    runs: opts.runs,
    seconds: opts.seconds,
    connections: opts.connections,
    rps: median(results.map((r) => r.rps)),
    p50: median(results.map((r) => r.p50)),
  };
}
