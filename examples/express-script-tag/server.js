// An Express 5 shop with the paydesk token endpoint and the element as a classic script tag.
//
//   npm run sandbox      # terminal 1: the sandbox provider on http://127.0.0.1:4010
//   npm start            # terminal 2: http://127.0.0.1:3000/
//
// The page loads dist/cdn/paydesk.iife.js from the installed package (served under /assets/paydesk/)
// with its sha384 integrity value from paydesk.sri.json, so it runs under
// Content-Security-Policy: script-src 'self'. Environment: PORT, PAYDESK_PROVIDER_URL, PAYDESK_API_KEY,
// PAYDESK_SESSION_SECRET, PAYDESK_WEBHOOK_URL (defaults: the sandbox of `npm run sandbox`).
//
// Two pages: / (the element creates the order from the browser) and /checkout (the order created on
// this server, the checkout rendered into the page's HTML by paydesk/ssr: the requisites show before
// and without any script; the script then takes that order over).
import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import express from 'express';
import { CheckoutError, createCheckoutHandler, setClientAddress, toExpressMiddleware } from 'paydesk/server';
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
    return product ? { amount: product.amount, redirect_url: `http://127.0.0.1:${port}/thanks` } : null;
  },
  onOrderPaid: ({ order_ref, order }) => console.log(`paid: ${order_ref} (order ${order.id})`),
});

// The CDN files of the installed package and their integrity values.
const cdn = dirname(fileURLToPath(import.meta.resolve('paydesk/cdn/paydesk.iife.js')));
const integrity = JSON.parse(readFileSync(join(cdn, 'paydesk.sri.json'), 'utf8'));

const app = express();
// Before any body parser: webhook signatures need the raw body.
app.use('/api/paydesk', toExpressMiddleware(handler));
app.use('/assets/paydesk', express.static(cdn, { maxAge: '1h' }));

/** The product of `?product=` and the page language of `?lang=` (the element speaks it: ?lang=kk loads the Kazakh table from chunks/ beside the script). */
function productOf(req) {
  const ref = typeof req.query.product === 'string' ? req.query.product : 'coffee-beans';
  const lang = typeof req.query.lang === 'string' && /^[a-z]{2}$/.test(req.query.lang) ? req.query.lang : 'ru';
  return { ref, product: products[ref], lang };
}

/** A shop page with the checkout in it, under a strict script-src (the classic script pinned by its integrity). */
function sendPage(res, { product, lang }, checkout) {
  res.set('content-security-policy', "script-src 'self'; object-src 'none'; base-uri 'none'");
  res.type('html').send(`<!doctype html>
<html lang="${lang}">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>${product.title}</title>
  <script src="/assets/paydesk/paydesk.iife.js" integrity="${integrity['paydesk.iife.js']}" crossorigin="anonymous" defer></script>
</head>
<body>
  <h1>${product.title}</h1>
  ${checkout}
</body>
</html>`);
}

app.get('/', (req, res) => {
  const page = productOf(req);
  if (!page.product) return res.status(404).send('no such product');
  sendPage(res, page, `<paydesk-checkout endpoint="/api/paydesk" order-ref="${page.ref}" method-type="SBP"></paydesk-checkout>`);
});

// The shopper's cart: a random id in a cookie (a real shop has one already).
function cartOf(req, res) {
  const cart = /(?:^|;\s*)cart=([\w-]{16,64})(?:;|$)/.exec(req.headers.cookie ?? '')?.[1] ?? randomUUID();
  res.cookie('cart', cart, { httpOnly: true, sameSite: 'lax' });
  return cart;
}

// The server-rendered checkout: the order is created here, in process (no POST from the browser),
// and the page's HTML carries the element with its shadow root (amount, requisites, QR, pay-by time).
app.get('/checkout', async (req, res) => {
  const page = productOf(req);
  if (!page.product) return res.status(404).send('no such product');
  const request = new Request(new URL(req.originalUrl, `http://${req.headers.host}`), { headers: { cookie: req.headers.cookie ?? '' } });
  setClientAddress(request, req.socket.remoteAddress); // the per-address create limit applies
  let checkout;
  try {
    // One order for this purchase (cart and product): a reload, a second tab or a double submit gets
    // the same; once it has ended unpaid, the next call makes the next one.
    const created = await handler.createSession({ order_ref: page.ref, method_type: 'SBP' }, request, { purchase: `${cartOf(req, res)}-${page.ref}` });
    checkout = renderCheckout({ endpoint: '/api/paydesk', ...created, locale: page.lang, userAgent: req.get('user-agent') });
  } catch (err) {
    if (!(err instanceof CheckoutError)) throw err;
    return res.status(err.status).type('text').send(err.message); // e.g. 404 order_not_found, 429
  }
  res.set('cache-control', 'private, no-store'); // the page carries this shopper's session
  sendPage(res, page, checkout);
});
app.get('/thanks', (req, res) => res.type('html').send('<!doctype html><html lang="ru"><meta charset="utf-8"><title>Thanks</title><h1>Thank you!</h1></html>'));

const server = app.listen(port, '127.0.0.1', () => console.log(`shop: http://127.0.0.1:${server.address().port}/`));

const stop = () => {
  server.closeAllConnections();
  server.close();
  void handler.close().then(() => process.exit(0));
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
