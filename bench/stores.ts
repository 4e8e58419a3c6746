/**
 * The token endpoint on each store: memory, SQLite (a file, synchronous=FULL), Redis and PostgreSQL
 * (each a real server on loopback, bench/databases.ts). Per store, the merchant process runs that
 * store (bench/store-child.ts) and the same three figures are taken:
 *   POST /sessions   p50/p95 of one request at a time (→ store + provider)
 *   GET /sessions/S  throughput (autocannon, 10 connections) and its p50
 *   a paid order     the store calls it costs, from POST /sessions through the stream's "paid" and the
 *                    hooks (create, stream, provider webhook, onOrderPaid's markers), by method; for
 *                    PostgreSQL also the SQL statements sent
 */
import { signWebhookPayload } from '../src/server/webhooks.js';
import { benchPostgres, benchRedis, type Database } from './databases.js';
import { keepAlive, load, timed } from './http.js';
import { startPair, type MerchantInfo, type ProviderInfo } from './processes.js';
import { median, ms, percentile, perSecond, repeat } from './stats.js';
import { subscribe } from './webhook.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface StoreFigures {
  store: string;
  /** Why the store was not measured (no server for it on this machine). */
  skipped?: string;
  postP50?: number;
  postP95?: number;
  getRps?: number;
  getP50?: number;
  paidOrders?: number;
  /** Store calls per paid order, by method, and `total` (and `sql` for PostgreSQL). */
  callsPerPaidOrder?: Record<string, number>;
}

export interface StoresOptions {
  runs: number;
  seconds: number;
  postRequests: number;
  postWarmup: number;
  paidOrders: number;
  connections: number;
}

const JSON_HEADERS = { 'content-type': 'application/json', 'x-paydesk': '1' };

async function measure(merchant: MerchantInfo, provider: ProviderInfo, o: StoresOptions): Promise<Omit<StoreFigures, 'store'>> {
  const agent = keepAlive();
  let n = 0;
  const post = async () => {
    const r = await timed(agent, `${merchant.url}/api/paydesk/sessions`, {
      method: 'POST',
      headers: JSON_HEADERS,
      body: JSON.stringify({ order_ref: `bench-store-${n++}`, method_type: 'SBP' }),
    });
    if (r.status !== 201) throw new Error(`POST /sessions: ${r.status} ${r.body}`);
    return { ms: r.ms, body: JSON.parse(r.body) as { session: string; order: { id: string } } };
  };
  for (let i = 0; i < o.postWarmup; i++) await post();
  const posts = await repeat(o.runs, async () => {
    const samples: number[] = [];
    for (let i = 0; i < o.postRequests; i++) samples.push((await post()).ms);
    return { p50: percentile(samples, 50), p95: percentile(samples, 95) };
  });

  const { session } = (await post()).body;
  const gets = await repeat(o.runs, () =>
    load({ url: `${merchant.url}/api/paydesk/sessions/${encodeURIComponent(session)}`, connections: o.connections, seconds: o.seconds }),
  );

  // A paid order's store calls: counted from a reset to after the handler's background work.
  await timed(agent, `${merchant.url}/__store-calls?reset=1`);
  const providerHeaders = { 'x-api-key': provider.apiKey, 'content-type': 'application/json' };
  for (let i = 0; i < o.paidOrders; i++) {
    const { session: s, order } = (await post()).body;
    const stream = subscribe(false, `${merchant.url}/api/paydesk/sessions/${encodeURIComponent(s)}/events`);
    await stream.opened;
    await stream.next((v) => v.status === 'pending');
    const done = await timed(agent, `${provider.url}/sandbox/orders/${order.id}/complete`, { method: 'POST', headers: providerHeaders });
    if (done.status !== 200) throw new Error(`complete: ${done.status} ${done.body}`);
    const log = await timed(agent, `${provider.url}/sandbox/webhooks?order_id=${order.id}`, { headers: providerHeaders });
    const delivery = (JSON.parse(log.body) as { deliveries: { envelope: unknown }[] }).deliveries[0];
    if (!delivery) throw new Error(`no webhook recorded for order ${order.id}`);
    const body = JSON.stringify(delivery.envelope);
    const paid = stream.next((v) => v.status === 'paid');
    const answer = await timed(agent, `${merchant.url}/api/paydesk/webhooks`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-paydesk-signature': signWebhookPayload(provider.webhookSecret, body, Math.floor(Date.now() / 1000)) },
      body,
    });
    if (answer.status >= 300) throw new Error(`webhook answered ${answer.status}: ${answer.body}`);
    await paid;
    stream.close();
  }
  const counts = JSON.parse((await timed(agent, `${merchant.url}/__store-calls`)).body) as Record<string, number>;
  agent.destroy();
  const perOrder: Record<string, number> = {};
  let total = 0;
  for (const [k, v] of Object.entries(counts)) {
    perOrder[k] = v / o.paidOrders;
    if (k !== 'sql') total += v;
  }
  perOrder.total = total / o.paidOrders;
  return {
    postP50: median(posts.map((p) => p.p50)),
    postP95: median(posts.map((p) => p.p95)),
    getRps: median(gets.map((g) => g.rps)),
    getP50: median(gets.map((g) => g.p50)),
    paidOrders: o.paidOrders,
    callsPerPaidOrder: perOrder,
  };
}

export async function benchStores(o: StoresOptions, log: (m: string) => void, only?: string[]): Promise<StoreFigures[]> {
  const out: StoreFigures[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'paydesk-bench-sqlite-'));
  const kinds: Array<[string, () => Promise<Database | null>]> = [
    ['memory', async () => ({ url: '', stop: async () => {} })],
    ['sqlite', async () => ({ url: join(dir, 'bench.db'), stop: async () => {} })],
    ['redis', benchRedis],
    ['postgres', benchPostgres],
  ];
  try {
    for (const [store, start] of kinds) {
      if (only && !only.includes(store)) continue;
      const db = await start();
      if (!db) {
        out.push({ store, skipped: `no ${store} server on this machine (set PAYDESK_TEST_${store.toUpperCase()}_URL)` });
        continue;
      }
      log(`store ${store}: POST /sessions, GET /sessions/S, a paid order's store calls`);
      try {
        const pair = await startPair({ PAYDESK_BENCH_STORE: store, PAYDESK_BENCH_STORE_URL: db.url });
        try {
          out.push({ store, ...(await measure(pair.merchant.info, pair.provider.info, o)) });
        } finally {
          await pair.stop();
        }
      } finally {
        await db.stop();
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return out;
}

const round = (v: number) => (Number.isInteger(v) ? String(v) : v.toFixed(1));

export function storesReport(figures: StoreFigures[], o: StoresOptions): string {
  const rows = figures.map((f) =>
    f.skipped
      ? `| ${f.store} | not measured: ${f.skipped} | | | | |`
      : `| ${f.store} | ${ms(f.postP50!)} | ${ms(f.postP95!)} | ${perSecond(f.getRps!)} | ${ms(f.getP50!, 0)} | ${round(f.callsPerPaidOrder!.total!)}${f.callsPerPaidOrder!.sql ? ` (${round(f.callsPerPaidOrder!.sql)} SQL statements)` : ''} |`,
  );
  const methods = [...new Set(figures.flatMap((f) => Object.keys(f.callsPerPaidOrder ?? {})))].filter((k) => k !== 'total' && k !== 'sql').sort();
  const measured = figures.filter((f) => !f.skipped);
  return `## Stores

The merchant process on each store (memory; SQLite, one file, synchronous=FULL; Redis and PostgreSQL
on loopback, PostgreSQL with fsync on). \`POST /sessions\`: one request at a time (${o.postWarmup} warm-up, then
${o.runs} runs × ${o.postRequests}), the provider's time included. \`GET /sessions/S\`: ${o.runs} runs × ${o.seconds} s,
${o.connections} connections. A paid order: POST /sessions, the widget's stream, the provider's webhook, the stream's
"paid" and onOrderPaid's markers, ${o.paidOrders} orders, the handler's calls to the store counted.

| store | POST /sessions p50 | p95 | GET /sessions/S | its p50 | store calls per paid order |
|---|---|---|---|---|---|
${rows.join('\n')}

Store calls per paid order, by method:

| method | ${measured.map((f) => f.store).join(' | ')} |
|---|${measured.map(() => '---|').join('')}
${methods.map((m) => `| ${m} | ${measured.map((f) => round(f.callsPerPaidOrder![m] ?? 0)).join(' | ')} |`).join('\n')}
`;
}
