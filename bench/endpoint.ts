/**
 * The token endpoint under load, beside bare handlers in the same run:
 *   GET /sessions/S   throughput (autocannon), paydesk vs a bare fetch handler behind the same Node
 *                     adapter answering the same body vs raw node:http answering the same body
 *   POST /sessions    p50 latency of one request at a time through paydesk (→ provider) vs the same
 *                     order created on the provider directly (POST /api/v1/order/)
 */
import { randomUUID } from 'node:crypto';
import { AMOUNT } from './stack.js';
import { keepAlive, load, timed, type LoadFigures } from './http.js';
import { median, percentile, repeat } from './stats.js';
import type { MerchantInfo, ProviderInfo } from './processes.js';

export interface GetFigures {
  runs: number;
  connections: number;
  seconds: number;
  paydesk: LoadFigures;
  bareAdapter: LoadFigures;
  rawNode: LoadFigures;
  /** Median of per-run paydesk rps / bare-adapter rps. */
  ratioToBare: number;
  /** Median of per-run paydesk rps / raw node rps. */
  ratioToRaw: number;
}

export interface PostFigures {
  runs: number;
  requestsPerRun: number;
  /** Pairs sent before the measured runs, so both servers run optimised code (steady state). */
  warmupPairs: number;
  /** p50s over the warm-up pairs: the same comparison before the JIT has warmed up. */
  warmupPaydeskP50: number;
  warmupDirectP50: number;
  warmupAddedP50: number;
  paydeskP50: number;
  paydeskP95: number;
  directP50: number;
  directP95: number;
  /** Median of per-run (paydesk p50 − direct p50). */
  addedP50: number;
}

const medianOf = (list: LoadFigures[]): LoadFigures => ({
  rps: median(list.map((l) => l.rps)),
  p50: median(list.map((l) => l.p50)),
  p99: median(list.map((l) => l.p99)),
  requests: median(list.map((l) => l.requests)),
});

export async function benchGet(merchant: MerchantInfo, opts: { runs: number; seconds: number; connections: number }): Promise<GetFigures> {
  const agent = keepAlive();
  const created = await timed(agent, `${merchant.url}/api/paydesk/sessions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-paydesk': '1' },
    body: JSON.stringify({ order_ref: 'bench-get', method_type: 'SBP' }),
  });
  if (created.status !== 201) throw new Error(`POST /sessions: ${created.status} ${created.body}`);
  const { session } = JSON.parse(created.body) as { session: string };
  const path = `/api/paydesk/sessions/${encodeURIComponent(session)}`;
  const answer = await timed(agent, `${merchant.url}${path}`);
  if (answer.status !== 200) throw new Error(`GET ${path}: ${answer.status}`);
  // The bare handlers answer the very body GET /sessions/S answers.
  await timed(agent, `${merchant.bareUrl}/`, { method: 'POST', body: answer.body });
  agent.destroy();

  const run = (url: string) => load({ url, connections: opts.connections, seconds: opts.seconds });
  const results = await repeat(opts.runs, async () => {
    const bare = await run(`${merchant.bareUrl}${path}`);
    const paydesk = await run(`${merchant.url}${path}`);
    const raw = await run(`${merchant.rawUrl}${path}`);
    return { bare, paydesk, raw };
  });
  return {
    runs: opts.runs,
    connections: opts.connections,
    seconds: opts.seconds,
    paydesk: medianOf(results.map((r) => r.paydesk)),
    bareAdapter: medianOf(results.map((r) => r.bare)),
    rawNode: medianOf(results.map((r) => r.raw)),
    ratioToBare: median(results.map((r) => r.paydesk.rps / r.bare.rps)),
    ratioToRaw: median(results.map((r) => r.paydesk.rps / r.raw.rps)),
  };
}

export async function benchPost(
  merchant: MerchantInfo,
  provider: ProviderInfo,
  opts: { runs: number; requests: number; warmup: number },
): Promise<PostFigures> {
  const agent = keepAlive();
  let n = 0;
  const viaPaydesk = async () => {
    const r = await timed(agent, `${merchant.url}/api/paydesk/sessions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-paydesk': '1' },
      body: JSON.stringify({ order_ref: `bench-post-${n++}`, method_type: 'SBP' }),
    });
    if (r.status !== 201) throw new Error(`POST /sessions: ${r.status} ${r.body}`);
    return r.ms;
  };
  const direct = async () => {
    const r = await timed(agent, `${provider.url}/api/v1/order/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': provider.apiKey },
      body: JSON.stringify({ client_order_id: randomUUID(), order_side: 'Buy', method_type: 'SBP', amount: AMOUNT }),
    });
    if (r.status !== 201) throw new Error(`POST /api/v1/order/: ${r.status} ${r.body}`);
    return r.ms;
  };
  // Warm both paths (connections, JIT): V8 optimises a function only after many calls, and a few
  // dozen requests leave most of either server's code unoptimised, which would measure the warm-up
  // of the JIT rather than the work per request of a running server. The warm-up is kept as a
  // figure of its own.
  const wp: number[] = [];
  const wd: number[] = [];
  for (let i = 0; i < opts.warmup; i++) {
    wp.push(await viaPaydesk());
    wd.push(await direct());
  }
  const results = await repeat(opts.runs, async () => {
    const p: number[] = [];
    const d: number[] = [];
    // Interleaved, so both see the same machine state.
    for (let i = 0; i < opts.requests; i++) {
      p.push(await viaPaydesk());
      d.push(await direct());
    }
    return { p50: percentile(p, 50), p95: percentile(p, 95), d50: percentile(d, 50), d95: percentile(d, 95) };
  });
  agent.destroy();
  return {
    runs: opts.runs,
    requestsPerRun: opts.requests,
    warmupPairs: opts.warmup,
    warmupPaydeskP50: percentile(wp, 50),
    warmupDirectP50: percentile(wd, 50),
    warmupAddedP50: percentile(wp, 50) - percentile(wd, 50),
    paydeskP50: median(results.map((r) => r.p50)),
    paydeskP95: median(results.map((r) => r.p95)),
    directP50: median(results.map((r) => r.d50)),
    directP95: median(results.map((r) => r.d95)),
    addedP50: median(results.map((r) => r.p50 - r.d50)),
  };
}
