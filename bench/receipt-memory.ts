/**
 * Server memory of concurrent receipt uploads (issue 19, point 7): ten uploads of ~19 MiB at once to
 * one session, over Node http (toNodeListener) on loopback, against the in-process sandbox. Prints
 * the answers and how far the process's memory rose above its idle level while they ran (peak RSS,
 * peak heap + array buffers, sampled every 5 ms).
 *
 *   node --expose-gc --import tsx bench/receipt-memory.ts [uploads, default 10]
 *
 * Only one of the ten can be taken; the others should cost (almost) nothing.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createProviderClient } from '../src/provider/index.js';
import { createSandbox } from '../src/sandbox/index.js';
import { createCheckoutHandler, toNodeListener } from '../src/server/index.js';

const KEY = 'bench_receipts_key_0123456789abcdef';
const UPLOADS = Number(process.argv[2] ?? 10);
const FILE_BYTES = Math.floor(9.5 * 1024 * 1024);
const MiB = 1024 * 1024;

const sandbox = createSandbox({ apiKey: KEY, seed: false, sweepIntervalMs: 0 });
const client = createProviderClient({ baseUrl: 'http://sandbox.test', apiKey: KEY, fetch: async (i, init) => sandbox.fetch(new Request(i, init)), maxRetries: 0 });
const handler = createCheckoutHandler({
  provider: { client, apiKey: KEY },
  sessionSecrets: ['bench-receipts-secret-0123456789abcdef0123'],
  resolveOrder: () => ({ amount: '1500.00' }),
  rateLimits: false,
  reconcileIntervalSeconds: 0,
  logger: { warn: () => undefined, error: () => undefined },
});
const server = http.createServer(toNodeListener(handler));
await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/paydesk`;

const created = await fetch(`${base}/sessions`, {
  method: 'POST',
  headers: { 'content-type': 'application/json', 'x-paydesk': '1' },
  body: JSON.stringify({ order_ref: 'tee', method_type: 'SBP' }),
});
const { session } = (await created.json()) as { session: string };

// One multipart body (two ~9.5 MiB PNG receipts), shared by every upload: the client holds it once.
const png = new Uint8Array(FILE_BYTES);
png.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
const form = new FormData();
form.append('files', new Blob([png], { type: 'image/png' }), 'a.png');
form.append('files', new Blob([png], { type: 'image/png' }), 'b.png');
const framed = new Response(form);
const contentType = framed.headers.get('content-type')!;
const body = Buffer.from(await framed.arrayBuffer());

function upload(): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${base}/sessions/${session}/dispute`, {
      method: 'POST',
      headers: { 'content-type': contentType, 'content-length': body.byteLength, 'x-paydesk': '1' },
    });
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    // A refused upload is answered before its body is sent in full; the server may then close.
    req.on('error', (err) => ((err as NodeJS.ErrnoException).code === 'EPIPE' || (err as NodeJS.ErrnoException).code === 'ECONNRESET' ? undefined : reject(err)));
    req.end(body);
  });
}

const gc = (globalThis as { gc?: () => void }).gc;
gc?.();
gc?.();
const idle = process.memoryUsage();
let peakRss = idle.rss;
let peakBuffers = idle.heapUsed + idle.arrayBuffers;
const sampler = setInterval(() => {
  const m = process.memoryUsage();
  peakRss = Math.max(peakRss, m.rss);
  peakBuffers = Math.max(peakBuffers, m.heapUsed + m.arrayBuffers);
}, 5);

const started = performance.now();
const statuses = await Promise.all(Array.from({ length: UPLOADS }, upload));
const ms = performance.now() - started;
clearInterval(sampler);

const counts = statuses.reduce<Record<number, number>>((acc, s) => ({ ...acc, [s]: (acc[s] ?? 0) + 1 }), {});
console.log(`${UPLOADS} concurrent uploads of ${(body.byteLength / MiB).toFixed(1)} MiB to one session in ${ms.toFixed(0)} ms`);
console.log(`answers: ${JSON.stringify(counts)}`);
console.log(`peak RSS above idle:                  +${((peakRss - idle.rss) / MiB).toFixed(0)} MiB`);
console.log(`peak heap + array buffers above idle: +${((peakBuffers - idle.heapUsed - idle.arrayBuffers) / MiB).toFixed(0)} MiB`);

await handler.close();
await sandbox.close();
server.close();
