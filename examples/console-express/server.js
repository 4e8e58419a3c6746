// The merchant console (paydesk/console) in an Express 5 app, behind the app's own staff sign-in.
//
//   npm run sandbox      # terminal 1: the sandbox provider on http://127.0.0.1:4010
//   npm start            # terminal 2: http://127.0.0.1:3000/ (sign in, then the console)
//
// The console is one fetch handler: its pages at /admin/console and its API at /admin/console/api,
// mounted with the same adapter as the token endpoint. Who may use it is this app's business: here a
// staff cookie this app sets at /staff/login (a real app asks its own session store), checked by
// `authorize(request)` on every page and API call — the console has no login of its own then.
// Environment: PORT, PAYDESK_PROVIDER_URL, PAYDESK_API_KEY, PAYDESK_SESSION_SECRET, STAFF_PASSWORD.
import { randomBytes, timingSafeEqual, createHash } from 'node:crypto';
import express from 'express';
import { createConsole } from 'paydesk/console';
import { createProviderClient } from 'paydesk/provider';
import { createCheckoutHandler, toExpressMiddleware } from 'paydesk/server';

const port = Number(process.env.PORT ?? 3000);
const provider = { baseUrl: process.env.PAYDESK_PROVIDER_URL ?? 'http://127.0.0.1:4010', apiKey: process.env.PAYDESK_API_KEY ?? 'sk_sandbox_example' };
const staffPassword = process.env.STAFF_PASSWORD ?? 'staff-password';

const handler = createCheckoutHandler({
  provider,
  sessionSecrets: [process.env.PAYDESK_SESSION_SECRET ?? randomBytes(32).toString('hex')],
  webhookUrl: `http://127.0.0.1:${port}/api/paydesk/webhooks`,
  resolveOrder: (orderRef) => (orderRef.startsWith('cart-') ? { amount: '1500.00' } : null),
  onOrderPaid: ({ order_ref }) => console.log(`paid: ${order_ref}`),
});

// The app's own sign-in: a random token per signed-in staff member, in an HttpOnly cookie.
const staff = new Set();
const tokenOf = (cookie = '') => /(?:^|;\s*)staff=([\w-]{43})(?:;|$)/.exec(cookie)?.[1];
const digest = (s) => createHash('sha256').update(s).digest();

const paydeskConsole = createConsole({
  client: createProviderClient(provider),
  handler,
  basePath: '/admin/console',
  title: 'Example shop',
  // Called with the Web Request of every console page and API call.
  authorize: (request) => staff.has(tokenOf(request.headers.get('cookie') ?? '')),
});

const app = express();
app.use('/api/paydesk', toExpressMiddleware(handler));
app.use('/admin/console', toExpressMiddleware(paydeskConsole.fetch));

app.get('/', (_req, res) => {
  res.type('html').send(`<!doctype html><meta charset="utf-8"><title>Example shop</title>
<h1>Example shop</h1>
<form method="post" action="/staff/login"><label>Staff password <input type="password" name="password"></label> <button>Sign in</button></form>
<p><a href="/admin/console">Merchant console</a></p>`);
});
app.post('/staff/login', express.urlencoded({ extended: false }), (req, res) => {
  const password = String(req.body?.password ?? '');
  if (!timingSafeEqual(digest(password), digest(staffPassword))) return res.status(401).send('Wrong password.');
  const token = randomBytes(32).toString('base64url');
  staff.add(token);
  res.cookie('staff', token, { httpOnly: true, sameSite: 'strict', path: '/' }).redirect(303, '/admin/console');
});

app.listen(port, '127.0.0.1', () => console.log(`shop: http://127.0.0.1:${port}/`));
