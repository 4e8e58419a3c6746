/**
 * The console's export and analytics over 100,000 orders (issue 31, points 3 and 4): the sandbox in
 * its own process (bench/child.ts provider) with 100,000 orders spread over the last 29 days, read
 * over loopback HTTP by the provider client in this process.
 *
 *   - export: `exportCsv(orders, the 30 days)` read to the end by a slow client (a pause every 50
 *     chunks); the peak of heap + array buffers above the idle level (sampled every 5 ms), the bytes,
 *     the rows and the time; beside it, what holding the same orders in an array costs
 *     (`listAllOrders` into memory), the thing the stream avoids;
 *   - analytics: `createAnalytics(client).handle(the 30 days, Europe/Moscow)` cold (a fresh cache)
 *     `runs` times, the median; then once more from the cache.
 *
 *   node --expose-gc --import tsx bench/console-analytics.ts [orders, default 100000] [runs, default 3]
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { createAnalytics } from '../src/console/analytics.js';
import { exportCsv } from '../src/console/exports.js';
import { createProviderClient, type Order } from '../src/provider/index.js';
import { startChild, type ProviderInfo } from './processes.js';
import { median } from './stats.js';

const ORDERS = Number(process.argv[2] ?? 100_000);
const RUNS = Number(process.argv[3] ?? 3);
const DAY = 24 * 3600 * 1000;
const MB = 1e6;

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with node --expose-gc');
const used = () => {
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
};

/**
 * Runs `work`, sampling memory above the level before it (after a full GC): `peak` every 5 ms (live
 * data and garbage not yet collected), `retained` when `work` calls `sample` (after a full GC: what it
 * holds).
 */
async function peakDuring<T>(work: (sample: () => void) => Promise<T>): Promise<{ result: T; peak: number; retained: number; seconds: number }> {
  gc!();
  const base = used();
  let peak = 0;
  let retained = 0;
  const timer = setInterval(() => (peak = Math.max(peak, used() - base)), 5);
  const sample = () => {
    peak = Math.max(peak, used() - base);
    gc!();
    retained = Math.max(retained, used() - base);
  };
  const started = performance.now();
  try {
    const result = await work(sample);
    sample();
    return { result, peak, retained, seconds: (performance.now() - started) / 1000 };
  } finally {
    clearInterval(timer);
  }
}

async function main() {
  const provider = await startChild<ProviderInfo>('provider');
  try {
    const { url, apiKey } = provider.info;
    const seeded = await fetch(`${url}/sandbox/orders/seed`, {
      method: 'POST',
      headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({ count: ORDERS, hours: 29 * 24 }),
    });
    if (seeded.status !== 201) throw new Error(`seed: ${seeded.status} ${await seeded.text()}`);
    const client = createProviderClient({ baseUrl: url, apiKey, maxRetries: 0, timeoutMs: 30_000 });
    const now = Date.now();
    const period = { from: new Date(now - 30 * DAY).toISOString(), to: new Date(now).toISOString() };

    const exported = await peakDuring(async (sample) => {
      const res = await exportCsv(client, 'orders', new URLSearchParams(period));
      const reader = res.body!.getReader();
      let bytes = 0;
      let rows = -1; // the header
      for (let chunk = 1; ; chunk++) {
        const r = await reader.read();
        if (r.done) break;
        bytes += r.value.byteLength;
        for (const b of r.value) if (b === 0x0a) rows++;
        if (chunk % 50 === 0) {
          await sleep(1); // a slow client
          sample();
        }
      }
      return { bytes, rows };
    });
    const held = await peakDuring(async (sample) => {
      const all: Order[] = [];
      for await (const o of client.listAllOrders({ start_date: period.from, end_date: period.to })) all.push(o);
      sample();
      return all.length;
    });

    const cold: number[] = [];
    let created = 0;
    for (let i = 0; i < RUNS; i++) {
      const analytics = createAnalytics(client);
      const started = performance.now();
      const res = await analytics.handle(new URLSearchParams({ ...period, tz: 'Europe/Moscow' }));
      cold.push((performance.now() - started) / 1000);
      const report = (await res.json()) as { days: { created: number }[] };
      created = report.days.reduce((s, d) => s + d.created, 0);
      if (i === RUNS - 1) {
        const t = performance.now();
        const again = await analytics.handle(new URLSearchParams({ ...period, tz: 'Europe/Moscow' }));
        await again.text();
        console.log(`analytics from the cache: ${(performance.now() - t).toFixed(1)} ms (${again.headers.get('x-paydesk-cache')})`);
      }
    }
    console.log(
      JSON.stringify(
        {
          orders: ORDERS,
          export: {
            rows: exported.result.rows,
            mb: +(exported.result.bytes / MB).toFixed(1),
            seconds: +exported.seconds.toFixed(1),
            retainedMb: +(exported.retained / MB).toFixed(1),
            peakWithGarbageMb: +(exported.peak / MB).toFixed(1),
          },
          holdingAllOrders: { orders: held.result, retainedMb: +(held.retained / MB).toFixed(1), peakWithGarbageMb: +(held.peak / MB).toFixed(1), seconds: +held.seconds.toFixed(1) },
          analytics: { payments: created, runs: cold.map((s) => +s.toFixed(2)), medianSeconds: +median(cold).toFixed(2) },
        },
        null,
        2,
      ),
    );
  } finally {
    await provider.stop();
  }
}

await main();
