/**
 * The servers of the "real network" benchmark (bench/network.ts), in a process of their own:
 *
 *   - the shop's pages and scripts on one origin, every answer gzip-compressed (level 9, as
 *     bench/sizes.ts counts sizes), each page with the same inline probe (see PROBE):
 *       /page/baseline?ref=R          one small external module script (/baseline.js) that POSTs /sessions and paints the account
 *       /page/es?ref=R&lang=L[&preload=1]   <script type="module" src="/cdn/paydesk.js"> (+ modulepreload of chunks/L-first-<hash>.js)
 *       /page/iife?ref=R&lang=L       <script src="/cdn/paydesk.iife.js" defer>
 *       /page/ssr?ref=R&lang=L        server-rendered (paydesk/ssr): this server creates the order in process
 *                                     (handler.createSession), renders the element with its shadow root into
 *                                     the HTML (renderCheckout), and the page loads /cdn/paydesk.js, which takes it over
 *       /vite/?lang=L                 the Vite + React example app, built with its token endpoint on the API origin
 *       /vite-baseline/               the same app without paydesk (bench/vite-baseline), built the same way
 *       /cdn/…                        dist/cdn
 *   - the token endpoint (paydesk/server at /api/paydesk) on another origin (another port), with the
 *     page origin in allowedOrigins, as a merchant's CDN-hosted page has it.
 *
 * Environment: PAYDESK_BENCH_PROVIDER_URL (the sandbox), PAYDESK_BENCH_API_PORT (the API's port, fixed
 * because the Vite apps were built with it), PAYDESK_BENCH_VITE_DIST and PAYDESK_BENCH_VITE_BASELINE_DIST
(the built apps). Prints
 * {"pageUrl", "apiUrl"}; ends on SIGTERM or when stdin closes. Loopback only.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { createCheckoutHandler, toNodeListener } from '../src/server/index.js';
import { renderCheckout } from '../src/ssr/index.js';
import { AMOUNT, API_KEY, closeServer, listen } from './stack.js';

const root = fileURLToPath(new URL('../', import.meta.url));
const cdn = join(root, 'dist', 'cdn');
const providerUrl = process.env.PAYDESK_BENCH_PROVIDER_URL;
const apiPort = Number(process.env.PAYDESK_BENCH_API_PORT);
const viteDist = process.env.PAYDESK_BENCH_VITE_DIST;
const viteBaselineDist = process.env.PAYDESK_BENCH_VITE_BASELINE_DIST;
if (!providerUrl || !apiPort || !viteDist || !viteBaselineDist) {
  throw new Error('PAYDESK_BENCH_PROVIDER_URL, PAYDESK_BENCH_API_PORT, PAYDESK_BENCH_VITE_DIST and PAYDESK_BENCH_VITE_BASELINE_DIST are required');
}

/**
 * The same few hundred bytes of inline script in every page, first in <head>: on every animation frame
 * it looks for the painted requisites (the baseline's #account, or the element's [part~=requisites]
 * in its shadow root) and records the frame's time (ms since navigation start) in window.__painted.
 * A frame callback runs just before that frame is painted, so this is the first frame that shows them.
 */
const PROBE = `<script>(function(){function f(){var a=document.getElementById('account');if(a&&a.textContent)return a;var c=document.querySelector('paydesk-checkout'),r=c&&c.shadowRoot&&c.shadowRoot.querySelector('[part~="requisites"]');return r&&r.textContent.replace(/\\D/g,'').length>=10?r:null}function t(n){var e=f();if(e){window.__painted=n;window.__paintedText=e.textContent;return}requestAnimationFrame(t)}requestAnimationFrame(t)})();</script>`;

/** The baseline's one external script: the least any widget must do. */
const BASELINE_JS = `const q=new URLSearchParams(location.search);
const r=await fetch(document.body.dataset.endpoint+'/sessions',{method:'POST',headers:{'content-type':'application/json','x-paydesk':'1'},body:JSON.stringify({order_ref:q.get('ref'),method_type:'SBP'})});
const{order}=await r.json();
document.getElementById('account').textContent=order.requisites.holder_account;
`;

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.json': 'application/json',
};

const gzipped = new Map<string, Buffer>();
function send(req: IncomingMessage, res: ServerResponse, type: string, body: Buffer | string, key?: string): void {
  const raw = typeof body === 'string' ? Buffer.from(body) : body;
  const headers: Record<string, string> = { 'content-type': type, 'cache-control': 'no-store', vary: 'accept-encoding' };
  if (/\bgzip\b/.test(req.headers['accept-encoding'] ?? '')) {
    let gz = key ? gzipped.get(key) : undefined;
    if (!gz) {
      gz = gzipSync(raw, { level: 9 });
      if (key) gzipped.set(key, gz);
    }
    res.writeHead(200, { ...headers, 'content-encoding': 'gzip', 'content-length': String(gz.length) }).end(gz);
  } else {
    res.writeHead(200, { ...headers, 'content-length': String(raw.length) }).end(raw);
  }
}

async function sendFile(req: IncomingMessage, res: ServerResponse, dir: string, rel: string): Promise<void> {
  const file = normalize(join(dir, rel));
  if (!file.startsWith(dir.endsWith(sep) ? dir : dir + sep)) return void res.writeHead(400).end();
  let body: Buffer;
  try {
    body = await readFile(file);
  } catch {
    return void res.writeHead(404).end('not found');
  }
  send(req, res, TYPES[extname(file)] ?? 'application/octet-stream', body, file);
}

const attr = (s: string) => s.replace(/[^\w.:/-]/g, '');

const pageServer = createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://x');
  const ref = attr(url.searchParams.get('ref') ?? 'bench');
  const lang = /^[a-z]{2}$/.test(url.searchParams.get('lang') ?? '') ? url.searchParams.get('lang')! : 'ru';
  const endpoint = `${apiUrl}/api/paydesk`;
  const element = `<paydesk-checkout endpoint="${endpoint}" order-ref="${ref}" method-type="SBP"></paydesk-checkout>`;
  const page = (head: string, body: string) =>
    `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><title>bench</title>${PROBE}${head}</head><body data-endpoint="${endpoint}">${body}</body></html>`;
  switch (url.pathname) {
    case '/page/baseline':
      return send(req, res, TYPES['.html']!, page('<script type="module" src="/baseline.js"></script>', '<div id="account"></div>'));
    case '/baseline.js':
      return send(req, res, TYPES['.js']!, BASELINE_JS, 'baseline.js');
    case '/page/es': {
      // The chunk's name carries a hash of its content; a page's own preload gives its integrity value too
      // (README, "Code integrity").
      const sri = url.searchParams.has('preload') ? (JSON.parse(readFileSync(join(cdn, 'paydesk.sri.json'), 'utf8')) as Record<string, string>) : {};
      const chunk = Object.keys(sri).find((f) => new RegExp(`^chunks/${lang}-first-[0-9a-f]{8}\\.js$`).test(f));
      const preload = chunk ? `<link rel="modulepreload" href="/cdn/${chunk}" integrity="${sri[chunk]}">` : '';
      return send(req, res, TYPES['.html']!, page(`${preload}<script type="module" src="/cdn/paydesk.js"></script>`, element));
    }
    case '/page/iife':
      return send(req, res, TYPES['.html']!, page('<script src="/cdn/paydesk.iife.js" defer></script>', element));
    case '/page/ssr':
      // The order is created before the page is answered (as a shop's page server does), then painted with the HTML.
      void handler
        .createSession({ order_ref: ref, method_type: 'SBP' })
        .then((created) => {
          const checkout = renderCheckout({ endpoint, ...created, locale: lang });
          send(req, res, TYPES['.html']!, page('<script type="module" src="/cdn/paydesk.js"></script>', checkout));
        })
        .catch((err: unknown) => res.writeHead(502).end(String(err)));
      return;
  }
  for (const [prefix, dir] of [['/vite/', viteDist], ['/vite-baseline/', viteBaselineDist]] as const) {
    if (url.pathname === prefix || url.pathname === `${prefix}index.html`) {
      // The built index.html with the probe first in <head>, like every other page.
      void readFile(join(dir, 'index.html'), 'utf8').then((html) => send(req, res, TYPES['.html']!, html.replace('<head>', `<head>${PROBE}`)));
      return;
    }
    if (url.pathname.startsWith(prefix)) return void sendFile(req, res, dir, url.pathname.slice(prefix.length));
  }
  if (url.pathname.startsWith('/cdn/')) return void sendFile(req, res, cdn, url.pathname.slice('/cdn/'.length));
  res.writeHead(404).end('not found');
});
for (const s of [pageServer]) s.keepAliveTimeout = 60_000;

const pageUrl = await listen(pageServer);
const apiUrl = `http://127.0.0.1:${apiPort}`;
const handler = createCheckoutHandler({
  provider: { baseUrl: providerUrl, apiKey: API_KEY },
  resolveOrder: (ref) => (/^[\w-]{1,64}$/.test(ref) ? { amount: AMOUNT } : null),
  sessionSecrets: ['benchmark-session-secret-0123456789abcdef'],
  allowedOrigins: [pageUrl],
  rateLimits: false,
});
const apiServer = createServer(toNodeListener(handler));
apiServer.keepAliveTimeout = 60_000;
await new Promise<void>((resolve, reject) => {
  apiServer.once('error', reject);
  apiServer.listen(apiPort, '127.0.0.1', () => resolve());
});

let stopping = false;
async function stop() {
  if (stopping) return;
  stopping = true;
  await handler.close().catch(() => {});
  await Promise.all([pageServer, apiServer].map(closeServer));
  process.exit(0);
}
process.on('SIGTERM', () => void stop());
process.stdin.on('end', () => void stop());
process.stdin.resume();
process.stdout.write(`${JSON.stringify({ pageUrl, apiUrl })}\n`);
