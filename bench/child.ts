/**
 * A server process of the benchmarks, so that load generator, provider and merchant do not share an
 * event loop (as in production, where they are different machines).
 *
 *   node --import tsx --expose-gc bench/child.ts provider
 *     the sandbox; prints {"url", "apiKey", "webhookSecret"}
 *   PAYDESK_BENCH_PROVIDER_URL=… PAYDESK_BENCH_WEBHOOK_SECRET=… node --import tsx --expose-gc bench/child.ts merchant
 *     the token endpoint at /api/paydesk (+ /cdn/*, /bench.html, GET /__mem), a bare fetch handler through the same
 *     Node adapter, and a raw node:http handler, both answering a fixed body (POST /__bare-body sets it);
 *     prints {"url", "bareUrl", "rawUrl"}; PAYDESK_BENCH_STORE (bench/store-child.ts) picks its store
 *
 * Loopback only. Ends on SIGTERM or when stdin closes.
 */
import { createServer, type ServerResponse } from 'node:http';
import { readFile } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createSandbox } from '../src/sandbox/index.js';
import { createCheckoutHandler, toNodeListener } from '../src/server/index.js';
import { BENCH_PAGE, BENCH_PAGE_PATH } from './browser-page.js';
import { AMOUNT, API_KEY, closeServer, listen } from './stack.js';
import { benchStore } from './store-child.js';

const root = fileURLToPath(new URL('../', import.meta.url));
const role = process.argv[2];
const cleanups: (() => Promise<void>)[] = [];

function memory() {
  (globalThis as { gc?: () => void }).gc?.();
  return process.memoryUsage();
}

async function provider() {
  const sandbox = createSandbox({ apiKey: API_KEY, seed: false, sweepIntervalMs: 0 });
  const { url } = await sandbox.listen({ port: 0 });
  cleanups.push(() => sandbox.close());
  return { url, apiKey: API_KEY, webhookSecret: sandbox.webhookSecret() };
}

const TYPES: Record<string, string> = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.map': 'application/json' };

async function merchant() {
  const providerUrl = process.env.PAYDESK_BENCH_PROVIDER_URL;
  const secret = process.env.PAYDESK_BENCH_WEBHOOK_SECRET;
  if (!providerUrl || !secret) throw new Error('PAYDESK_BENCH_PROVIDER_URL and PAYDESK_BENCH_WEBHOOK_SECRET are required');
  // The store: memory unless PAYDESK_BENCH_STORE names another (bench/stores.ts), its calls counted.
  const backing = await benchStore();
  const handler = createCheckoutHandler({
    ...(backing && { store: backing.store }),
    provider: { baseUrl: providerUrl, apiKey: API_KEY },
    resolveOrder: (ref) => (/^[\w-]{1,64}$/.test(ref) ? { amount: AMOUNT } : null),
    sessionSecrets: ['benchmark-session-secret-0123456789abcdef'],
    webhookSecrets: [secret],
    // Load from one address would trip the per-address limits: the benchmarks measure the work, not the limiter.
    rateLimits: false,
  });
  const endpoint = toNodeListener(handler);
  const cdn = join(root, 'dist', 'cdn');
  const main = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path.startsWith('/api/paydesk/')) return endpoint(req, res);
    if (path === '/__mem') return void json(res, memory());
    if (path === '/__store-calls') {
      // After the handler's background work (hooks, markers), so a paid order's calls are all counted.
      void handler.idle().then(() => {
        const counts = backing?.counts ?? {};
        json(res, { ...counts });
        if (req.url?.includes('reset=1')) for (const k of Object.keys(counts)) delete counts[k];
      });
      return;
    }
    if (path === BENCH_PAGE_PATH) return void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(BENCH_PAGE);
    if (path.startsWith('/cdn/') && !path.includes('..')) {
      void readFile(join(cdn, path.slice(5))).then(
        (b) => res.writeHead(200, { 'content-type': TYPES[extname(path)] ?? 'application/octet-stream' }).end(b),
        () => res.writeHead(404).end(),
      );
      return;
    }
    res.writeHead(404).end();
  });

  // The bare handlers answer what GET /sessions/S answers, without any of its work.
  let fixed = '{}';
  const headers = { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' };
  const bare = createServer(
    toNodeListener(async (request: Request) => {
      if (request.method === 'POST') {
        fixed = await request.text();
        return new Response(null, { status: 204 });
      }
      return new Response(fixed, { status: 200, headers });
    }),
  );
  const raw = createServer((_req, res) => res.writeHead(200, headers).end(fixed));
  for (const s of [main, bare, raw]) s.keepAliveTimeout = 60_000;
  const [url, bareUrl, rawUrl] = await Promise.all([listen(main), listen(bare), listen(raw)]);
  cleanups.push(async () => {
    await handler.close();
    await Promise.all([main, bare, raw].map(closeServer));
    await backing?.close();
  });
  return { url, bareUrl, rawUrl };
}

function json(res: ServerResponse, value: unknown) {
  res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(value));
}

let stopping = false;
async function stop() {
  if (stopping) return;
  stopping = true;
  for (const c of cleanups.reverse()) await c().catch(() => {});
  process.exit(0);
}
process.on('SIGTERM', () => void stop());
process.stdin.on('end', () => void stop());
process.stdin.resume();

const ready = role === 'provider' ? await provider() : role === 'merchant' ? await merchant() : null;
if (!ready) {
  console.error('usage: bench/child.ts provider|merchant');
  process.exit(2);
}
process.stdout.write(`${JSON.stringify(ready)}\n`);
