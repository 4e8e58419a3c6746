// The shop's server: the paydesk token endpoint at /api/paydesk and, after `npm run build`, the app in dist/.
//
//   npm run sandbox      # terminal 1: the sandbox provider on http://127.0.0.1:4010
//   npm run api          # terminal 2: this server on http://127.0.0.1:3000
//   npm run dev          # terminal 3: Vite on http://localhost:5173, /api/paydesk proxied to :3000
//
// or, after `npm run build`, `npm start` alone serves the built app and the endpoint on :3000.
// Environment: PORT, PAYDESK_PROVIDER_URL, PAYDESK_API_KEY, PAYDESK_SESSION_SECRET, PAYDESK_WEBHOOK_URL
// (defaults: the sandbox of `npm run sandbox`).
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createCheckoutHandler, toNodeListener } from 'paydesk/server';

const port = Number(process.env.PORT ?? 3000);
const prices = { 'coffee-beans': '1500.00', 'green-tea': '990.00' };

const handler = createCheckoutHandler({
  // The provider's root URL (the sandbox's, as `npm run sandbox` prints it), not …/api/v1.
  provider: {
    baseUrl: process.env.PAYDESK_PROVIDER_URL ?? 'http://127.0.0.1:4010',
    apiKey: process.env.PAYDESK_API_KEY ?? 'sk_sandbox_example',
  },
  // Random when unset: sessions then end with the process.
  sessionSecrets: [process.env.PAYDESK_SESSION_SECRET ?? randomBytes(32).toString('hex')],
  webhookUrl: process.env.PAYDESK_WEBHOOK_URL ?? `http://127.0.0.1:${port}/api/paydesk/webhooks`,
  resolveOrder: (orderRef) => (orderRef in prices ? { amount: prices[orderRef] } : null),
  onOrderPaid: ({ order_ref, order }) => console.log(`paid: ${order_ref} (order ${order.id})`),
});
const paydesk = toNodeListener(handler);

const dist = fileURLToPath(new URL('./dist/', import.meta.url));
const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
};

const server = createServer(async (req, res) => {
  const { pathname } = new URL(req.url ?? '/', 'http://localhost');
  if (pathname.startsWith('/api/paydesk/')) return paydesk(req, res);
  const file = normalize(join(dist, pathname === '/' ? 'index.html' : pathname));
  if (!file.startsWith(dist.endsWith(sep) ? dist : dist + sep)) return res.writeHead(400).end();
  try {
    const body = await readFile(file);
    res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' }).end(body);
  } catch {
    res.writeHead(404).end(pathname === '/' ? 'not built yet: run `npm run build`, or `npm run dev` for the dev server' : 'not found');
  }
});

server.listen(port, '127.0.0.1', () => console.log(`shop: http://127.0.0.1:${server.address().port}/`));

const stop = () => {
  server.closeAllConnections();
  server.close();
  void handler.close().then(() => process.exit(0));
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
