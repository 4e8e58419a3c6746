// A shop page and the paydesk token endpoint on one plain node:http server, no framework.
//
//   npm run sandbox      # terminal 1: the sandbox provider on http://127.0.0.1:4010
//   npm start            # terminal 2: http://127.0.0.1:3000/
//
// The page loads the element as an ES module from the package's CDN files (node_modules/paydesk/dist/cdn),
// served by this server under /paydesk/. Environment: PORT, PAYDESK_PROVIDER_URL, PAYDESK_API_KEY,
// PAYDESK_SESSION_SECRET, PAYDESK_WEBHOOK_URL (defaults: the sandbox of `npm run sandbox`).
//
// Two pages: / (the element creates the order from the browser) and /checkout (the order created on
// this server, the checkout rendered into the page's HTML by paydesk/ssr: the requisites show before
// and without any script; the script then takes that order over).
import { randomBytes, randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { dirname, extname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CheckoutError, createCheckoutHandler, setClientAddress, toNodeListener } from 'paydesk/server';
import { renderCheckout } from 'paydesk/ssr'; // needs @lit-labs/ssr installed

const port = Number(process.env.PORT ?? 3000);
const products = {
  'coffee-beans': { title: 'Coffee beans, 1 kg', amount: '1500.00' },
  'green-tea': { title: 'Green tea, 250 g', amount: '990.00' },
};

const handler = createCheckoutHandler({
  // The provider's root URL (the sandbox's, as `npm run sandbox` prints it), not …/api/v1.
  provider: {
    baseUrl: process.env.PAYDESK_PROVIDER_URL ?? 'http://127.0.0.1:4010',
    apiKey: process.env.PAYDESK_API_KEY ?? 'sk_sandbox_example',
  },
  // Random when unset: sessions then end with the process.
  sessionSecrets: [process.env.PAYDESK_SESSION_SECRET ?? randomBytes(32).toString('hex')],
  webhookUrl: process.env.PAYDESK_WEBHOOK_URL ?? `http://127.0.0.1:${port}/api/paydesk/webhooks`,
  resolveOrder: (orderRef) => {
    const product = products[orderRef];
    return product ? { amount: product.amount } : null;
  },
  onOrderPaid: ({ order_ref, order }) => console.log(`paid: ${order_ref} (order ${order.id})`),
});
const paydesk = toNodeListener(handler);

// The CDN files of the installed package: paydesk.js, its chunks/ and paydesk.sri.json.
const cdn = dirname(fileURLToPath(import.meta.resolve('paydesk/cdn/paydesk.js')));
const TYPES = { '.js': 'text/javascript; charset=utf-8', '.json': 'application/json', '.map': 'application/json' };

const page = (orderRef, lang, checkout) => `<!doctype html>
<html lang="${lang}">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>${products[orderRef].title}</title>
  <script type="module" src="/paydesk/paydesk.js"></script>
</head>
<body>
  <h1>${products[orderRef].title}</h1>
  ${checkout ?? `<paydesk-checkout endpoint="/api/paydesk" order-ref="${orderRef}" method-type="SBP"></paydesk-checkout>`}
  <script>
    document.addEventListener('paydesk-paid', (e) => console.log('paid', e.detail.order.id));
  </script>
</body>
</html>`;

/**
 * The server-rendered checkout: the order is created here, in process (no POST from the browser), and
 * the page's HTML carries the element with its shadow root (amount, requisites, QR, pay-by time).
 */
async function checkoutPage(req, res, ref, lang) {
  // The shopper's cart: a random id in a cookie (a real shop has one already).
  const cart = /(?:^|;\s*)cart=([\w-]{16,64})(?:;|$)/.exec(req.headers.cookie ?? '')?.[1] ?? randomUUID();
  const request = new Request(new URL(req.url, `http://${req.headers.host}`), { headers: { cookie: req.headers.cookie ?? '' } });
  setClientAddress(request, req.socket.remoteAddress); // the per-address create limit applies
  const cookie = `cart=${cart}; Path=/; HttpOnly; SameSite=Lax`;
  try {
    // One order for this purchase (cart and product): a reload, a second tab or a double submit gets
    // the same; once it has ended unpaid, the next call makes the next one.
    const created = await handler.createSession({ order_ref: ref, method_type: 'SBP' }, request, { purchase: `${cart}-${ref}` });
    const checkout = renderCheckout({ endpoint: '/api/paydesk', ...created, locale: lang, userAgent: req.headers['user-agent'] });
    // The page carries this shopper's session: never kept by a cache.
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'set-cookie': cookie, 'cache-control': 'private, no-store' }).end(page(ref, lang, checkout));
  } catch (err) {
    // e.g. 404 order_not_found, 429 rate_limited; anything else is a bug: 500.
    const status = err instanceof CheckoutError ? err.status : 500;
    if (status === 500) console.error(err);
    res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' }).end(status === 500 ? 'server error' : err.message);
  }
}

const server = createServer(async (req, res) => {
  const url = new URL(req.url ?? '/', 'http://localhost');
  if (url.pathname.startsWith('/api/paydesk/')) return paydesk(req, res);
  if (url.pathname === '/') {
    const ref = url.searchParams.get('product') ?? 'coffee-beans';
    const lang = /^[a-z]{2}$/.test(url.searchParams.get('lang') ?? '') ? url.searchParams.get('lang') : 'ru';
    if (!(ref in products)) return res.writeHead(404).end('no such product');
    return res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page(ref, lang));
  }
  if (url.pathname === '/checkout') {
    const ref = url.searchParams.get('product') ?? 'coffee-beans';
    const lang = /^[a-z]{2}$/.test(url.searchParams.get('lang') ?? '') ? url.searchParams.get('lang') : 'ru';
    if (!(ref in products)) return res.writeHead(404).end('no such product');
    return checkoutPage(req, res, ref, lang);
  }
  if (url.pathname.startsWith('/paydesk/')) {
    const file = normalize(join(cdn, url.pathname.slice('/paydesk/'.length)));
    if (!file.startsWith(cdn + sep)) return res.writeHead(400).end();
    try {
      const body = await readFile(file);
      return res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' }).end(body);
    } catch {
      return res.writeHead(404).end('not found');
    }
  }
  res.writeHead(404).end('not found');
});

server.listen(port, '127.0.0.1', () => console.log(`shop: http://127.0.0.1:${server.address().port}/`));

const stop = () => {
  server.closeAllConnections();
  server.close();
  void handler.close().then(() => process.exit(0));
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
