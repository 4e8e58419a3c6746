/**
 * `npm run bench`: builds, measures, and writes BENCHMARKS.md.
 *
 * Every figure is the median of several runs; every comparison is a ratio (or difference) taken
 * inside one run and then the median over runs, so a noisy machine moves both sides together. Load
 * generator, merchant server and sandbox provider are separate processes on 127.0.0.1.
 *
 *   tsx bench/run.ts            full run (about 3 minutes on 2 cores)
 *   tsx bench/run.ts --quick    fewer and shorter runs (a smoke test of the benchmarks themselves)
 *   tsx bench/run.ts --no-build measure the dist/ that is there
 *   tsx bench/run.ts --stores-only  only the stores section (memory, SQLite, Redis, PostgreSQL), printed, BENCHMARKS.md untouched
 */
import { spawnSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { cpus, loadavg, platform, release, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchElement, type BrowserFigures } from './browser.js';
import { benchGet, benchPost, type GetFigures, type PostFigures } from './endpoint.js';
import { benchMemory, type MemoryFigures } from './memory.js';
import { benchNetwork, networkReport, paintBytes, type NetworkFigures } from './network.js';
import { benchOtel, type OtelFigures } from './otel.js';
import { startChild, startPair, type ProviderInfo } from './processes.js';
import { benchReconcile, type ReconcileFigures } from './reconcile.js';
import { benchCreation, benchListing, type CreationFigures, type ListingFigures } from './sandbox.js';
import { BUDGETS, KB, kb, measurePackageSizes, type PackageSizes, type SizeFigure } from './sizes.js';
import { mb, ms, perSecond, ratio } from './stats.js';
import { benchStores, storesReport, type StoreFigures } from './stores.js';
import { benchWebhook, type WebhookFigures } from './webhook.js';

const root = fileURLToPath(new URL('../', import.meta.url));
const quick = process.argv.includes('--quick');
const P = quick
  ? { runs: 2, browserRuns: 5, networkRuns: 2, seconds: 1, postRequests: 40, postWarmup: 100, webhookPerRun: 10, listPerRun: 10, orders: 100_000, sessions: 2_000, streams: 200 }
  : { runs: 3, browserRuns: 15, networkRuns: 5, seconds: 4, postRequests: 150, postWarmup: 500, webhookPerRun: 30, listPerRun: 40, orders: 100_000, sessions: 10_000, streams: 1_000 };
const CONNECTIONS = 10;
const STORES = quick
  ? { runs: 2, seconds: 1, postRequests: 40, postWarmup: 50, paidOrders: 5, connections: CONNECTIONS }
  : { runs: 3, seconds: 4, postRequests: 150, postWarmup: 300, paidOrders: 20, connections: CONNECTIONS };

const log = (msg: string) => console.log(`[bench ${new Date().toISOString().slice(11, 19)}] ${msg}`);

interface Results {
  machine: Record<string, string>;
  sizes: PackageSizes;
  browser: BrowserFigures;
  get: GetFigures;
  post: PostFigures;
  webhook: WebhookFigures;
  listing: ListingFigures;
  creation: CreationFigures;
  memory: MemoryFigures;
  network: NetworkFigures;
  reconcile: ReconcileFigures;
  otel: OtelFigures;
  stores: StoreFigures[];
  seconds: number;
}

async function main() {
  if (process.argv.includes('--stores-only')) {
    console.log(storesReport(await benchStores(STORES, log), STORES));
    return;
  }
  const started = performance.now();
  const machine: Record<string, string> = {
    CPU: `${cpus()[0]?.model.trim() ?? 'unknown'} × ${cpus().length}`,
    memory: `${(totalmem() / 2 ** 30).toFixed(1)} GiB`,
    OS: `${platform()} ${release()}`,
    Node: process.version,
    'load average at start (1, 5, 15 min)': loadavg().map((l) => l.toFixed(2)).join(', '),
    date: new Date().toISOString(),
    mode: quick ? 'quick (--quick: fewer, shorter runs)' : 'full',
  };

  if (!process.argv.includes('--no-build')) {
    log('building (npm run build)');
    const b = spawnSync(process.execPath, [join(root, 'scripts', 'build.mjs'), '--quiet'], { cwd: root, stdio: 'inherit' });
    if (b.status !== 0) throw new Error('the build failed');
  }

  log('bundle sizes');
  const sizes = await measurePackageSizes(root);

  log('starting provider and merchant processes');
  const pair = await startPair();
  let browser: BrowserFigures, get: GetFigures, post: PostFigures, webhook: WebhookFigures;
  try {
    log(`element → requisites painted in Chromium (${P.browserRuns} runs)`);
    browser = await benchElement(pair.merchant.info.url, root, P.browserRuns);
    machine.Chromium = browser.chromium;
    log(`GET /sessions/S throughput (${P.runs} runs × 3 servers × ${P.seconds} s, ${CONNECTIONS} connections)`);
    get = await benchGet(pair.merchant.info, { runs: P.runs, seconds: P.seconds, connections: CONNECTIONS });
    log(`POST /sessions latency (${P.postWarmup} warm-up pairs, then ${P.runs} runs × ${P.postRequests} pairs)`);
    post = await benchPost(pair.merchant.info, pair.provider.info, { runs: P.runs, requests: P.postRequests, warmup: P.postWarmup });
    log(`webhook → event (${P.runs} runs × ${P.webhookPerRun})`);
    webhook = await benchWebhook(pair.merchant.info, pair.provider.info, { runs: P.runs, perRun: P.webhookPerRun });
  } finally {
    await pair.stop();
  }

  log('stores: memory, SQLite, Redis, PostgreSQL');
  const stores = await benchStores(STORES, log);

  log(`sandbox: listing over ${P.orders.toLocaleString('en-US')} orders, creation rate`);
  const provider = await startChild<ProviderInfo>('provider');
  let listing: ListingFigures, creation: CreationFigures;
  try {
    listing = await benchListing(provider.info, { orders: P.orders, runs: P.runs, perRun: P.listPerRun });
    creation = await benchCreation(provider.info, { runs: P.runs, seconds: P.seconds, connections: CONNECTIONS });
  } finally {
    await provider.stop();
  }

  log(`merchant memory: ${P.sessions.toLocaleString('en-US')} sessions, ${P.streams.toLocaleString('en-US')} streams`);
  const memPair = await startPair();
  let memory: MemoryFigures;
  try {
    memory = await benchMemory(memPair.merchant.info, { sessions: P.sessions, streams: P.streams, concurrency: 16 });
  } finally {
    await memPair.stop();
  }

  const sweepSessions = quick ? 2_000 : 10_000;
  log(`reconciliation sweep over ${sweepSessions.toLocaleString('en-US')} pending sessions`);
  const reconcile = await benchReconcile(sweepSessions, Math.round(sweepSessions / 100));

  const otelRuns = quick ? { runs: 2, perState: 40, warmup: 40 } : { runs: 5, perState: 200, warmup: 200 };
  log(`OpenTelemetry: POST /sessions without the API, with it and no SDK, with an SDK (${otelRuns.runs} runs × ${otelRuns.perState} per state)`);
  const otel = await benchOtel(otelRuns);

  log(`real network: navigation → requisites painted under emulation (${P.networkRuns} runs × 11 pages)`);
  const network = await benchNetwork(P.networkRuns, log);

  const results: Results = {
    machine,
    sizes,
    browser,
    get,
    post,
    webhook,
    listing,
    creation,
    memory,
    reconcile,
    otel,
    stores,
    network,
    seconds: (performance.now() - started) / 1000,
  };
  const md = report(results);
  await writeFile(join(root, 'BENCHMARKS.md'), md);
  console.log(`\n${md}`);
  log(`BENCHMARKS.md written (${results.seconds.toFixed(0)} s)`);
}

const mark = (ok: boolean) => (ok ? 'met' : '**not met**');

function report(r: Results): string {
  const { sizes, browser, get, post, webhook, listing, creation, memory, network, reconcile, otel, stores } = r;
  const worstOf = <T>(list: T[], by: (v: T) => number) => list.reduce((a, b) => (by(b) > by(a) ? b : a));
  // The CDN pages (issue 33): the ES module and the classic script, Russian and Kazakh pages (the page
  // with a `modulepreload` of the first-paint table is a variant a merchant may add, in the table beside them).
  const cdnPages = network.variants.filter((v) => /^(es|iife)-(ru|kk)$/.test(v.id));
  const worstNetwork = worstOf(cdnPages, (v) => v.ratio);
  const heaviestCdn = worstOf(cdnPages, (v) => paintBytes(v.median));
  const vitePages = network.variants.filter((v) => v.ratioToReactBaseline !== undefined && !v.id.includes('baseline'));
  const worstVite = vitePages.length > 0 ? worstOf(vitePages, (v) => v.ratioToReactBaseline!) : null;
  const worstSsr = network.variants.filter((v) => v.id.startsWith('ssr-')).reduce((a, b) => (b.ratio > a.ratio ? b : a));
  const sizeRow = (f: SizeFigure, budget?: { gzip: number; brotli: number }) =>
    `| ${f.name} | ${kb(f.raw)} | ${kb(f.gzip)} | ${kb(f.brotli)} | ${budget ? `≤ ${kb(budget.gzip)} gzip: ${mark(f.gzip <= budget.gzip)}; ≤ ${kb(budget.brotli)} brotli: ${mark(f.brotli <= budget.brotli)}` : ''} |`;
  const chunks = sizes.languageChunks;
  const chunkGzip = chunks.map((c) => c.gzip);
  const chunkBrotli = chunks.map((c) => c.brotli);
  const worstListing = Math.max(...Object.values(listing.p50));
  const targets: [string, string, boolean][] = [
    ['CDN classic script ≤ 25 KB gzip', kb(sizes.cdnIife.gzip), sizes.cdnIife.gzip <= BUDGETS.cdnIifeGzip],
    [`element without Lit ≤ ${BUDGETS.elementWithoutLitGzip / KB} KB gzip (12 KB before issue 33)`, kb(sizes.element.gzip), sizes.element.gzip <= BUDGETS.elementWithoutLitGzip],
    ['CDN classic script ≤ 22 KB brotli', kb(sizes.cdnIife.brotli), sizes.cdnIife.brotli <= BUDGETS.cdnIifeBrotli],
    [`element without Lit ≤ ${BUDGETS.elementWithoutLitBrotli / KB} KB brotli (11 KB before issue 33)`, kb(sizes.element.brotli), sizes.element.brotli <= BUDGETS.elementWithoutLitBrotli],
    ['GET /sessions/S ≥ 50% of the bare handler’s throughput', `${(get.ratioToBare * 100).toFixed(0)}%`, get.ratioToBare >= 0.5],
    ['POST /sessions adds ≤ 2 ms p50 over the provider', ms(post.addedP50), post.addedP50 <= 2],
    ['webhook → event delivered p95 ≤ 50 ms', ms(webhook.p95), webhook.p95 <= 50],
    [`sandbox listing p50 ≤ 20 ms over ${listing.orders.toLocaleString('en-US')} orders (worst query)`, ms(worstListing), worstListing <= 20],
    ['sandbox order creation ≥ 2,000/s', perSecond(creation.rps), creation.rps >= 2000],
    [
      `reconciliation sweep over ${reconcile.sessions.toLocaleString('en-US')} pending sessions: provider calls ≤ one per 100 orders + one per changed order (${reconcile.goal})`,
      `${reconcile.first.calls} calls, ${ms(reconcile.first.ms, 0)}`,
      reconcile.first.calls <= reconcile.goal,
    ],
    ['OpenTelemetry no-op (API, no SDK): POST /sessions ≤ 1.05× without the API (CPU, per run)', ratio(otel.noopRatio), otel.noopRatio <= 1.05],
    [
      'real network: the CDN pages (ES module, classic script; Russian, Kazakh) ≤ 1.2× the baseline (worst)',
      `${ratio(worstNetwork.ratio)} (${worstNetwork.id})`,
      worstNetwork.ratio <= 1.2,
    ],
    [
      'real network: the CDN pages receive ≤ 20 KB gzip until painted (most)',
      `${kb(paintBytes(heaviestCdn.median))} (${heaviestCdn.id})`,
      paintBytes(heaviestCdn.median) <= 20 * KB,
    ],
    ...(worstVite
      ? ([['real network: the Vite + React app ≤ 1.2× the same app without paydesk (worst)', `${ratio(worstVite.ratioToReactBaseline!)} (${worstVite.id})`, worstVite.ratioToReactBaseline! <= 1.2]] as [string, string, boolean][])
      : []),
    ['real network: the server-rendered page (paydesk/ssr) ≤ 0.6× the baseline (worst)', `${ratio(worstSsr.ratio)} (${worstSsr.id})`, worstSsr.ratio <= 0.6],
  ];
  return `# Benchmarks

Written by \`npm run bench\` (\`tsx bench/run.ts\`) — do not edit by hand. Every figure is the median
of several runs; each comparison is taken within one run (same machine state) and then the median of
those per-run ratios or differences is shown. Everything runs on loopback (127.0.0.1; the "Real
network" section emulates a slow mobile network in Chromium on top of it); the load
generator, the merchant server (\`paydesk/server\`, in-memory store, rate limits off) and the sandbox
provider are three separate Node processes. The machine is shared and noisy: treat small differences
as noise, and compare ratios rather than absolute figures across machines.

## Machine

${Object.entries(r.machine).map(([k, v]) => `- ${k}: ${v}`).join('\n')}
- whole run: ${r.seconds.toFixed(0)} s

## Targets

| target | measured | |
|---|---|---|
${targets.map(([t, v, ok]) => `| ${t} | ${v} | ${mark(ok)} |`).join('\n')}

## Bundle sizes

KB = 1000 bytes; gzip level 9, brotli quality 11.

| file | raw | gzip | brotli | budget |
|---|---|---|---|---|
${sizeRow(sizes.cdnIife, { gzip: BUDGETS.cdnIifeGzip, brotli: BUDGETS.cdnIifeBrotli })}
${sizeRow(sizes.cdnEs)}
${sizeRow(sizes.firstPaint.es)}
${sizeRow(sizes.firstPaint.classic)}
${sizeRow(sizes.element, { gzip: BUDGETS.elementWithoutLitGzip, brotli: BUDGETS.elementWithoutLitBrotli })}
${sizeRow(sizes.elementWithRussian)}
${sizeRow(sizes.elementWithQrcode)}

- *first paint*: what a Russian page with \`method-type\` set downloads from dist/cdn before its requisites are painted, each file compressed alone (ES: ${sizes.firstPaint.es.what}; classic: ${sizes.firstPaint.classic.what}). Each entry carries the sha384 digests of the chunks it loads itself, the element's chunk those of the chunks it loads (a chain: docs/code-integrity.md): about 64 B gzip per digest, which no encoding compresses further.
- *element without Lit*: ${sizes.element.what}; what it loads with \`import()\` (language tables, method list, pay view, closed order, live status, bank links, QR drawing) becomes chunks of their own and is not counted. Only the few English messages needed offline are inside: in the npm build every language table, English and Russian too, is a chunk fetched in parallel with the first request (in the CDN files too, from chunks/ beside them), so *with Russian* is what a Russian-speaking shopper loads before the first text.
- Language chunks (\`dist/cdn/chunks/*.js\`, ${chunks.length} files, fetched only for their language):
  ${kb(Math.min(...chunkGzip))}–${kb(Math.max(...chunkGzip))} gzip, ${kb(Math.min(...chunkBrotli))}–${kb(Math.max(...chunkBrotli))} brotli each (gzip / brotli: ${chunks.map((c) => `${c.name.replace('language chunk ', '')} ${kb(c.gzip)} / ${kb(c.brotli)}`).join(', ')}).

## Element: connected → requisites painted (headless Chromium)

The element from \`dist/cdn/paydesk.js\` (module already loaded), \`method-type="SBP"\`, a fresh
order ref each run, against the merchant server and sandbox; beside it, in the same page and run, a
bare \`fetch\` of the same \`POST /sessions\`. ${browser.runs} runs, alternating.

| | median |
|---|---|
| connected → requisites in the DOM | ${ms(browser.elementInDom, 1)} |
| connected → requisites painted (next animation frame) | ${ms(browser.elementPainted, 1)} |
| bare \`fetch\` POST /sessions + JSON | ${ms(browser.bareFetch, 1)} |
| painted ÷ bare fetch (per run) | ${ratio(browser.ratioPaintedToFetch)} |

## Token endpoint

\`GET /sessions/S\`: autocannon, ${get.connections} connections, ${get.seconds} s per server per run, ${get.runs} runs. The
*bare handler* is a fetch handler that answers the same JSON body behind the same Node adapter
(\`toNodeListener\`); *raw node:http* answers it with no adapter at all. Latency from autocannon (1 ms resolution).

| server | requests/s | p50 | p99 |
|---|---|---|---|
| paydesk \`GET /sessions/S\` | ${perSecond(get.paydesk.rps)} | ${ms(get.paydesk.p50, 0)} | ${ms(get.paydesk.p99, 0)} |
| bare fetch handler | ${perSecond(get.bareAdapter.rps)} | ${ms(get.bareAdapter.p50, 0)} | ${ms(get.bareAdapter.p99, 0)} |
| raw node:http | ${perSecond(get.rawNode.rps)} | ${ms(get.rawNode.p50, 0)} | ${ms(get.rawNode.p99, 0)} |
| paydesk ÷ bare handler (per run) | ${ratio(get.ratioToBare)} | | |
| paydesk ÷ raw node:http (per run) | ${ratio(get.ratioToRaw)} | | |

\`POST /sessions\`: one request at a time over a keep-alive connection, ${post.requestsPerRun} per path per run,
interleaved, ${post.runs} runs: through paydesk (which creates the order at the provider) beside the same
order created directly with \`POST /api/v1/order/\` on the sandbox, from the load generator with
node:http. The runs follow ${post.warmupPairs} warm-up pairs, so both servers run JIT-optimised code, as
a server that has been up for a while does; the warm-up pairs are shown as well (the merchant
process had served only the element and \`GET\` benchmarks before them).

| path | p50 | p95 |
|---|---|---|
| paydesk \`POST /sessions\` | ${ms(post.paydeskP50)} | ${ms(post.paydeskP95)} |
| provider \`POST /api/v1/order/\` directly | ${ms(post.directP50)} | ${ms(post.directP95)} |
| added by paydesk, p50 (per run) | ${ms(post.addedP50)} | |
| warm-up: paydesk / directly / added, p50 | ${ms(post.warmupPaydeskP50)} / ${ms(post.warmupDirectP50)} / ${ms(post.warmupAddedP50)} | |

## Webhook → event delivered

The provider's signed webhook for a paid order POSTed to \`/api/paydesk/webhooks\`, until the \`order\`
event with status \`paid\` reaches a subscriber of \`GET /sessions/S/events\` (what the widget listens
to). Includes signature verification and the merchant's confirming read of the order at the provider.
${webhook.runs} runs × ${webhook.perRun} orders.

| | median of runs |
|---|---|
| p50 | ${ms(webhook.p50)} |
| p95 | ${ms(webhook.p95)} |
| max (all runs) | ${ms(webhook.max)} |
| webhook request answered, p50 | ${ms(webhook.webhookAnswerP50)} |

## Sandbox

Order listing (\`GET /api/v1/order/\`) with ${listing.orders.toLocaleString('en-US')} orders seeded over the last 23 hours
(seeding took ${listing.seedMs} ms), one request at a time, ${listing.perRun} requests per query per run, ${listing.runs} runs.

| query | matching | p50 | p95 |
|---|---|---|---|
${Object.keys(listing.p50)
  .map((q) => `| ${q} | ${listing.totals[q]!.toLocaleString('en-US')} | ${ms(listing.p50[q]!)} | ${ms(listing.p95[q]!)} |`)
  .join('\n')}

Order creation (\`POST /api/v1/order/\`, SBP, Buy): autocannon, ${creation.connections} connections, ${creation.seconds} s, ${creation.runs} runs:
**${perSecond(creation.rps)}** (p50 ${ms(creation.p50, 0)}).

## Merchant server memory

A fresh merchant process (in-memory store), after a full GC: idle, then with ${memory.sessions.toLocaleString('en-US')} sessions
(created through \`POST /sessions\` in ${memory.createSeconds.toFixed(1)} s), then with ${memory.streams.toLocaleString('en-US')} event streams open on top.

| state | heap used | RSS |
|---|---|---|
| idle | ${mb(memory.baseline.heapUsed)} | ${mb(memory.baseline.rss)} |
| ${memory.sessions.toLocaleString('en-US')} sessions | ${mb(memory.withSessions.heapUsed)} | ${mb(memory.withSessions.rss)} |
| + ${memory.streams.toLocaleString('en-US')} open streams | ${mb(memory.withStreams.heapUsed)} | ${mb(memory.withStreams.rss)} |

Per session: ${(memory.perSessionHeap / 1000).toFixed(1)} KB of heap; per open stream: ${(memory.perStreamHeap / 1000).toFixed(1)} KB of heap.

## Reconciliation sweep

\`handler.reconcile()\` over ${reconcile.sessions.toLocaleString('en-US')} pending sessions (created through \`POST /sessions\` against an
in-process sandbox in ${reconcile.createSeconds.toFixed(1)} s; memory store), ${reconcile.changed} of them paid at the provider with
their webhooks lost. The provider client talks to the sandbox's fetch (no sockets), so the time is
the sweep's own work plus the sandbox's.

| sweep | provider calls | by method | found paid | wall time |
|---|---|---|---|---|
| first (finds the paid ones) | ${reconcile.first.calls} | ${Object.entries(reconcile.first.byMethod).map(([k, v]) => `${k} ${v}`).join(', ')} | ${reconcile.first.paid} | ${ms(reconcile.first.ms, 0)} |
| second (nothing changed) | ${reconcile.second.calls} | | 0 | ${ms(reconcile.second.ms, 0)} |
| goal: one per 100 orders + one per changed order (+ the dispute listing) | ≤ ${reconcile.goal} | | | |
| one call per order, for comparison | ${reconcile.onePerOrder.toLocaleString('en-US')} | | | |

## OpenTelemetry

\`POST /sessions\` through the handler and an in-process sandbox, one request at a time, in three states
taken in turn in blocks of 50 requests, a full GC before each (${otel.runs} runs × ${otel.perState} requests per state): *absent*,
\`@opentelemetry/api\` cannot be imported (as when it is not installed); *no-op*, the API is loaded and
no SDK registered; *SDK*, a tracer provider (batch processor), the async-hooks context manager and a
meter provider registered (${otel.spans} spans exported). CPU time of the process per request (handler
and sandbox), so another process's load does not land on one state.

| state | CPU per request | ÷ absent (per run) |
|---|---|---|
| absent | ${ms(otel.absentMs)} | |
| no-op | ${ms(otel.noopMs)} | ${ratio(otel.noopRatio)} |
| SDK | ${ms(otel.sdkMs)} | ${ratio(otel.sdkRatio)} |

${storesReport(stores, STORES)}
${networkReport(network)}`;
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
