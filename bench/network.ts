/**
 * "Real network": navigation → requisites painted under Chromium's network emulation of a slow mobile
 * network (150 ms latency, 1.6 Mbit/s down, 750 kbit/s up, cache disabled), pages served gzip, the
 * token endpoint on another origin. Side by side in one run, with the same servers and emulation:
 *
 *   baseline          one small external module script that POSTs /sessions and paints the account
 *   CDN ES module     dist/cdn/paydesk.js as <script type="module">
 *   CDN classic       dist/cdn/paydesk.iife.js as <script defer>
 *   server-rendered   the page's server creates the order (handler.createSession) and renders the element
 *                     with its shadow root into the HTML (paydesk/ssr), then dist/cdn/paydesk.js takes it over
 *   Vite app          examples/vite-react installed from the packed tarball and built by Vite
 *   React baseline    the same app without paydesk (bench/vite-baseline): React, then the bare POST
 *
 * each for a Russian page and a Kazakh one (a language table loaded on demand), plus the ES module
 * on a Kazakh page with a `<link rel="modulepreload">` of its first-paint messages (docs/page.md). Every variant gets one
 * warm-up load, then `runs` loads; each run visits every variant once, in an order rotated per run, each
 * in a fresh browser context (no cache, no open connections, no stored session). Ratios are taken to
 * the baseline of the same run, then the median over runs. The waterfall (Resource Timing: what was
 * requested when, relative to navigation start) is that of each variant's median run.
 *
 *   tsx bench/network.ts [--runs N] [--only baseline,es-ru,…]   this section alone, printed (npm run bench
 *                                    writes it to BENCHMARKS.md); --only: those pages (the baseline always)
 */
import { spawn } from 'node:child_process';
import { cp } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Browser } from 'playwright-core';
import { freePort, installExample, launchBrowser, type InstalledExample } from '../test/examples/helpers.js';
import { startChild, type ProviderInfo } from './processes.js';
import { median } from './stats.js';

const root = fileURLToPath(new URL('../', import.meta.url));

/** The emulated network (Chromium DevTools units: ms, bytes per second). */
export const NETWORK = {
  latencyMs: 150,
  downloadBitsPerSecond: 1_600_000,
  uploadBitsPerSecond: 750_000,
} as const;

interface Variant {
  id: string;
  label: string;
  path: (ref: string) => string;
}

const VARIANTS: Variant[] = [
  { id: 'baseline', label: 'baseline: small module script, `POST /sessions`, account painted', path: (r) => `/page/baseline?ref=${r}` },
  { id: 'es-ru', label: 'CDN ES module (`dist/cdn/paydesk.js`), Russian page', path: (r) => `/page/es?lang=ru&ref=${r}` },
  { id: 'iife-ru', label: 'CDN classic script (`dist/cdn/paydesk.iife.js`), Russian page', path: (r) => `/page/iife?lang=ru&ref=${r}` },
  {
    id: 'ssr-ru',
    label: 'server-rendered (`paydesk/ssr` `renderCheckout`, then `dist/cdn/paydesk.js`), Russian page',
    path: (r) => `/page/ssr?lang=ru&ref=${r}`,
  },
  { id: 'react-baseline', label: 'baseline in a Vite + React app: the example without paydesk, `POST /sessions`, account painted', path: () => `/vite-baseline/` },
  { id: 'vite-ru', label: 'Vite + React example app (`paydesk/react`), Russian page', path: () => `/vite/?lang=ru` },
  { id: 'es-kk', label: 'CDN ES module, Kazakh page', path: (r) => `/page/es?lang=kk&ref=${r}` },
  { id: 'es-kk-preload', label: 'CDN ES module, Kazakh page, `<link rel="modulepreload">` of `chunks/kk-first.js`', path: (r) => `/page/es?lang=kk&preload=1&ref=${r}` },
  { id: 'iife-kk', label: 'CDN classic script, Kazakh page', path: (r) => `/page/iife?lang=kk&ref=${r}` },
  { id: 'ssr-kk', label: 'server-rendered, Kazakh page', path: (r) => `/page/ssr?lang=kk&ref=${r}` },
  { id: 'vite-kk', label: 'Vite + React example app, Kazakh page', path: () => `/vite/?lang=kk` },
];

export interface WaterfallEntry {
  /** Path, prefixed with `api ` for the token endpoint's origin. */
  name: string;
  /** `navigation`, `script`, `fetch`, `link`, `other`, … (Resource Timing's initiatorType). */
  kind: string;
  start: number;
  end: number;
  /** Compressed bytes on the wire (same-origin only; 0 when the browser does not expose them). */
  bytes: number;
}

export interface Load {
  painted: number;
  waterfall: WaterfallEntry[];
}

export interface VariantFigures {
  id: string;
  label: string;
  /** Median of navigation → requisites painted, ms. */
  painted: number;
  /** Median over runs of painted ÷ the baseline's painted in the same run. */
  ratio: number;
  min: number;
  max: number;
  /** The waterfall of the median run. */
  median: Load;
  /** For the Vite app's pages: median over runs of painted ÷ the React baseline's painted in the same run. */
  ratioToReactBaseline?: number;
}

export interface NetworkFigures {
  runs: number;
  chromium: string;
  baselineScriptBytes: number;
  variants: VariantFigures[];
}

/** Runs in the page once the requisites are painted: the paint time, the painted text, the navigation and resource entries. */
const COLLECT = `function (api) {
  var name = function (u) { var url = new URL(u); return (url.origin === api ? 'api ' : '') + url.pathname; };
  var nav = performance.getEntriesByType('navigation')[0];
  var entries = [{ name: name(nav.name), kind: 'navigation', start: 0, end: nav.responseEnd, bytes: nav.encodedBodySize }];
  performance.getEntriesByType('resource').forEach(function (e) {
    entries.push({ name: name(e.name), kind: e.initiatorType, start: e.startTime, end: e.responseEnd, bytes: e.encodedBodySize });
  });
  return { painted: window.__painted, text: window.__paintedText, entries: entries };
}`;

/** One page load under emulation in a fresh context: ms from navigation start to the painted requisites, and the waterfall. */
async function load(browser: Browser, url: string, apiOrigin: string): Promise<Load> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: NETWORK.latencyMs,
      downloadThroughput: NETWORK.downloadBitsPerSecond / 8,
      uploadThroughput: NETWORK.uploadBitsPerSecond / 8,
    });
    await page.goto(url, { waitUntil: 'commit' });
    await page.waitForFunction(() => (window as unknown as { __painted?: number }).__painted, null, { timeout: 60_000 }).catch((err: Error) => {
      throw new Error(`${url}: no requisites painted (${err.message}); page errors: ${errors.join('; ') || 'none'}`);
    });
    // A string, not a function: tsx would wrap the function's inner helpers in a `__name()` the page lacks.
    const result = (await page.evaluate(`(${COLLECT})(${JSON.stringify(apiOrigin)})`)) as {
      painted: number;
      text: string;
      entries: WaterfallEntry[];
    };
    if (result.text.replace(/\D/g, '').length < 10) throw new Error(`${url}: the painted requisites show no account (${result.text})`);
    if (errors.length) throw new Error(`${url}: page errors: ${errors.join('; ')}`);
    return { painted: result.painted, waterfall: result.entries.sort((a, b) => a.start - b.start) };
  } finally {
    await context.close();
  }
}

function viteBuild(cwd: string, args: string[], apiUrl: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const child = spawn(join(cwd, 'node_modules', '.bin', 'vite'), ['build', ...args, '--logLevel', 'warn'], {
      cwd,
      env: { ...process.env, VITE_PAYDESK_ENDPOINT: `${apiUrl}/api/paydesk` },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`vite build ${args.join(' ')} exited ${code}`))));
  });
}

/**
 * Installs the Vite example from the packed tarball and builds it with the token endpoint on `apiUrl`
 * (dist/, served under /vite/), and beside it, with the same config and dependencies, the React
 * baseline of bench/vite-baseline (dist-baseline/, served under /vite-baseline/).
 */
async function buildViteApps(apiUrl: string): Promise<InstalledExample> {
  const example = await installExample('vite-react');
  await viteBuild(example.dir, ['--base', '/vite/'], apiUrl);
  await cp(join(root, 'bench', 'vite-baseline'), join(example.dir, 'baseline'), { recursive: true });
  await viteBuild(example.dir, ['baseline', '--config', 'vite.config.ts', '--base', '/vite-baseline/', '--outDir', '../dist-baseline'], apiUrl);
  return example;
}

export async function benchNetwork(runs: number, log: (msg: string) => void = () => {}, only?: readonly string[]): Promise<NetworkFigures> {
  const unknown = only?.filter((id) => !VARIANTS.some((v) => v.id === id)) ?? [];
  if (unknown.length > 0) throw new Error(`unknown page ${unknown.join(', ')}; pages: ${VARIANTS.map((v) => v.id).join(', ')}`);
  const variants = only ? VARIANTS.filter((v) => v.id === 'baseline' || only.includes(v.id)) : [...VARIANTS];
  const withVite = variants.some((v) => v.id.startsWith('vite') || v.id === 'react-baseline');
  if (withVite && !variants.some((v) => v.id === 'react-baseline')) variants.push(VARIANTS.find((v) => v.id === 'react-baseline')!);
  const apiPort = await freePort();
  const apiUrl = `http://127.0.0.1:${apiPort}`;
  let vite: InstalledExample | null = null;
  if (withVite) {
    log('real network: packing paydesk, installing and building examples/vite-react');
    vite = await buildViteApps(apiUrl);
  }
  // Without the Vite pages, their directories are the CDN's (served, never asked for).
  const viteDir = vite?.dir ?? join(root, 'dist');
  const provider = await startChild<ProviderInfo>('provider');
  const server = spawn(process.execPath, ['--import', 'tsx', 'bench/network-server.ts'], {
    cwd: root,
    env: {
      ...process.env,
      PAYDESK_BENCH_PROVIDER_URL: provider.info.url,
      PAYDESK_BENCH_API_PORT: String(apiPort),
      PAYDESK_BENCH_VITE_DIST: join(viteDir, vite ? 'dist' : 'cdn'),
      PAYDESK_BENCH_VITE_BASELINE_DIST: join(viteDir, vite ? 'dist-baseline' : 'cdn'),
    },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  let browser: Browser | undefined;
  try {
    const { pageUrl } = await new Promise<{ pageUrl: string; apiUrl: string }>((resolve, reject) => {
      server.once('exit', (code) => reject(new Error(`bench/network-server.ts exited (${code})`)));
      createInterface({ input: server.stdout! }).once('line', (line) => resolve(JSON.parse(line) as { pageUrl: string; apiUrl: string }));
    });
    const baselineScriptBytes = (await (await fetch(`${pageUrl}/baseline.js`, { headers: { 'accept-encoding': 'identity' } })).arrayBuffer()).byteLength;

    browser = await launchBrowser();

    let n = 0;
    const ref = () => `net-${process.pid}-${n++}`;
    log(`real network: warm-up (${variants.length} pages)`);
    for (const v of variants) await load(browser, `${pageUrl}${v.path(ref())}`, apiUrl);
    log(`real network: ${variants.length} pages × ${runs} runs`);

    const loads = new Map<string, Load[]>(variants.map((v) => [v.id, []]));
    for (let run = 0; run < runs; run++) {
      for (let k = 0; k < variants.length; k++) {
        const v = variants[(run + k) % variants.length]!;
        loads.get(v.id)!.push(await load(browser, `${pageUrl}${v.path(ref())}`, apiUrl));
      }
    }
    const baseline = loads.get('baseline')!;
    const reactBaseline = loads.get('react-baseline') ?? [];
    const figures = variants.map((v): VariantFigures => {
      const own = loads.get(v.id)!;
      const times = own.map((l) => l.painted);
      const sorted = [...own].sort((a, b) => a.painted - b.painted);
      return {
        id: v.id,
        label: v.label,
        painted: median(times),
        ratio: median(own.map((l, i) => l.painted / baseline[i]!.painted)),
        min: Math.min(...times),
        max: Math.max(...times),
        median: sorted[(sorted.length - 1) >> 1]!,
        ...(v.id.startsWith('vite-') && { ratioToReactBaseline: median(own.map((l, i) => l.painted / reactBaseline[i]!.painted)) }),
      };
    });
    return { runs, chromium: browser.version(), baselineScriptBytes, variants: figures };
  } finally {
    await browser?.close();
    if (server.exitCode === null) {
      const exited = new Promise((resolve) => server.once('exit', resolve));
      server.kill('SIGTERM');
      await exited;
    }
    await provider.stop();
    await vite?.remove();
  }
}

const ms0 = (v: number) => `${Math.round(v)} ms`;
const kb = (bytes: number) => (bytes ? `${(bytes / 1000).toFixed(1)} KB` : '');

/** The waterfall of one load as a markdown table: requests in the order they started, and the paint. */
export function waterfallTable(l: Load): string {
  const rows = l.waterfall
    .filter((e) => e.start <= l.painted)
    .map((e) => `| ${e.name} | ${e.kind} | ${ms0(e.start)} | ${ms0(e.end)} | ${kb(e.bytes)} |`);
  return ['| request | kind | start | end | gzip |', '|---|---|---|---|---|', ...rows, `| **requisites painted** | | ${ms0(l.painted)} | | |`].join('\n');
}

/** Compressed bytes received until the paint: the page and the same-origin files that had arrived. */
export function paintBytes(l: Load): number {
  return l.waterfall.filter((e) => e.end <= l.painted).reduce((sum, e) => sum + e.bytes, 0);
}

/** One line per load: each request as start→end, for the table's "waterfall" summary. */
export function waterfallLine(l: Load): string {
  return l.waterfall
    .filter((e) => e.start <= l.painted && e.kind !== 'navigation')
    .map((e) => `${e.name.replace(/^\/(cdn|vite|vite-baseline)\/(chunks\/|assets\/)?/, '')} ${Math.round(e.start)}→${Math.round(e.end)}`)
    .join(', ');
}

export function networkReport(f: NetworkFigures): string {
  const byId = new Map(f.variants.map((v) => [v.id, v]));
  const base = byId.get('baseline')!;
  return `## Real network (emulated slow mobile network)

Navigation → requisites painted in headless Chromium ${f.chromium} under its network emulation
(Chrome DevTools Protocol \`Network.emulateNetworkConditions\`): ${NETWORK.latencyMs} ms latency,
${NETWORK.downloadBitsPerSecond / 1e6} Mbit/s down, ${NETWORK.uploadBitsPerSecond / 1e3} kbit/s up, cache disabled. One page server
serves every page, script and the CDN files gzip-compressed (level 9); the token endpoint
(\`paydesk/server\` at \`/api/paydesk\`, against the sandbox) is on another origin, so each
\`POST /sessions\` is preceded by its CORS preflight, for the baseline too. The *baseline* is the least
any widget must do: one external module script of ${f.baselineScriptBytes} bytes that POSTs \`/sessions\` and writes the
account into the page. The Vite app is examples/vite-react installed from the packed tarball and built by
Vite (its own chunking and preloading), with the endpoint on the other origin. "Painted" is the first
animation frame that shows the requisites (an identical inline probe in every page). Each page is loaded
once to warm up, then ${f.runs} times, each in a fresh browser context, all pages side by side in every run (order
rotated); ÷ baseline is the median of per-run ratios. The emulation delays each request by the latency
but models no connection set-up, so \`preconnect\` gains nothing here (on a real network it saves the
DNS, TCP and TLS round trips to the endpoint's origin); and it adds the latency once to a POST and its
CORS preflight together (the baseline's POST takes one latency, not two), so on a real network every
page's first cross-origin POST costs one round trip more than shown, the baseline's too.

| page | median | min–max | ÷ baseline | ÷ React baseline | gzip until painted |
|---|---|---|---|---|---|
${f.variants
  .map(
    (v) =>
      `| ${v.label} | ${ms0(v.painted)} | ${ms0(v.min)}–${ms0(v.max)} | ${(v.id === 'baseline' ? 1 : v.ratio).toFixed(2)} | ${v.ratioToReactBaseline?.toFixed(2) ?? ''} | ${kb(paintBytes(v.median))} |`,
  )
  .join('\n')}

*gzip until painted*: the page and every same-origin file it had received when the requisites were
painted (the median run's waterfall). Each KB takes ${ms0((1000 * 8 * 1000) / NETWORK.downloadBitsPerSecond)} to arrive at ${NETWORK.downloadBitsPerSecond / 1e6} Mbit/s, on top
of the round trips: 1.2× of this run's baseline leaves ${ms0(base.painted * 0.2)} for everything a page does beyond
it, the transfer of its code included (${kb((base.painted * 0.2 * NETWORK.downloadBitsPerSecond) / 8000)} at most, with no other cost), while the baseline
itself receives ${kb(paintBytes(base.median))}.

The React baseline is the Vite app's page without paydesk (bench/vite-baseline: React renders, then
the same bare \`POST /sessions\`), built with the example's Vite config and dependencies: what React
itself costs on this network. *÷ React baseline* is then what paydesk adds inside a React app.

Waterfall summary of the median run (ms from navigation start, start→end of each request until the
paint; \`api\` = the token endpoint's origin):

${f.variants.map((v) => `- ${v.id} (painted ${ms0(v.median.painted)}): ${waterfallLine(v.median)}`).join('\n')}

<details><summary>Full waterfalls (median run of each page)</summary>

${f.variants.map((v) => `#### ${v.label}\n\n${waterfallTable(v.median)}`).join('\n\n')}

</details>

Baseline median: ${ms0(base.painted)}.
`;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const i = process.argv.indexOf('--runs');
  const runs = i > 0 ? Number(process.argv[i + 1]) : 5;
  const o = process.argv.indexOf('--only');
  const only = o > 0 ? (process.argv[o + 1] ?? '').split(',').filter(Boolean) : undefined;
  const figures = await benchNetwork(runs, (m) => console.log(`[bench ${new Date().toISOString().slice(11, 19)}] ${m}`), only);
  console.log(networkReport(figures));
}
