/**
 * The merchant console's API: the provider's read-only endpoints (balance, orders, form sessions,
 * disputes, transactions, payment methods) fetched by the merchant server with its own key, behind a
 * demo login. The browser gets an HttpOnly, SameSite=Strict session cookie and JSON; it never sees
 * the provider key.
 *
 *   POST /login   {"password"}        → 204 + cookie        (header X-Paydesk: 1)
 *   POST /logout                      → 204, cookie cleared  (header X-Paydesk: 1)
 *   GET  /me                          → 200 {"authenticated": true} | 401
 *   GET  /meta                        → the filter values: order statuses, form session states, method and transaction types
 *   GET  /balance                     → {"balance": {available, frozen, total, currency, id}}
 *   GET  /orders?page&size&status&order_side&payment_method_id&sort_by&sort&start_date&end_date
 *        /orders?client_order_id=…&size   (search by client order id: one page)
 *   GET  /form-sessions?page&size&state&order_id&client_order_id&session_id
 *   GET  /disputes?page&size&processed&order_id&dispute_id&start_date&end_date
 *   GET  /transactions?page&size&transaction_type&start_date&end_date
 *   GET  /payment-methods?active&method_type (repeatable)
 * Lists answer `{"items", "total", "page", "size", "pages"}`; errors `{"error": {code, message, retryable}}`.
 */
import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { Hono } from 'hono';
import type { Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { getCookie, setCookie, deleteCookie } from 'hono/cookie';
import { z } from 'zod';
import { FORM_SESSION_STATES, METHOD_TYPES, ORDER_STATUSES, TRANSACTION_TYPES } from '../src/provider/facts.js';
import { isProviderError } from '../src/provider/errors.js';
import { parseIsoDateTime } from '../src/provider/schemas.js';
import type { ProviderClient } from '../src/provider/types.js';

export const CONSOLE_COOKIE = 'paydesk_console';
/** The console's pages and API live under this path; the cookie is scoped to it. */
export const CONSOLE_PATH = '/console';
/** Largest request body the console API reads. */
const MAX_BODY_BYTES = 4 * 1024;

export interface ConsoleOptions {
  client: ProviderClient;
  /** The demo login's password (printed at start, or `PAYDESK_CONSOLE_PASSWORD`). */
  password: string;
  /** Lifetime of a login (default 8 h). */
  sessionTtlSeconds?: number;
  /** Failed logins allowed per client address per minute (default 10). */
  maxFailedLoginsPerMinute?: number;
  /** Client address for the login limit (default: a single bucket). */
  clientAddress?: (c: Context) => string;
  now?: () => number;
}

interface ErrorBody {
  error: { code: string; message: string; retryable: boolean };
}

function errorBody(code: string, message: string, retryable = false): ErrorBody {
  return { error: { code, message, retryable } };
}

const digest = (s: string) => createHash('sha256').update(s, 'utf8').digest();

/** Constant-time comparison of two strings (both hashed first, so lengths do not leak). */
export function safeEqual(a: string, b: string): boolean {
  return timingSafeEqual(digest(a), digest(b));
}

// ---------------------------------------------------------------------------------------------
// Query checks: every value the browser sends is validated before the provider sees it.

const page = z.coerce.number().int('must be a whole number').min(1, 'must be at least 1').max(100000, 'is too large');
const size = z.coerce.number().int('must be a whole number').min(1, 'must be between 1 and 100').max(100, 'must be between 1 and 100');
const id = z.string().trim().min(1, 'must not be empty').max(128, 'is too long').regex(/^[\x21-\x7e]+$/, 'must be printable ASCII without spaces');
const text = z.string().trim().min(1, 'must not be empty').max(64, 'is too long');
const isoDate = z
  .string()
  .max(40, 'is too long')
  .refine((v) => parseIsoDateTime(v) !== null, 'must be an ISO 8601 date or date-time')
  // A time without a zone is UTC, as the provider reads it (never the merchant server's local time).
  .transform((v) => new Date(parseIsoDateTime(v)!).toISOString());
const bool = z.enum(['true', 'false'], { message: 'must be true or false' }).transform((v) => v === 'true');

const OrdersQuery = z.strictObject({
  page: page.optional(),
  size: size.optional(),
  status: text.optional(),
  order_side: z.enum(['Buy', 'Sell'], { message: 'must be Buy or Sell' }).optional(),
  payment_method_id: id.optional(),
  sort_by: z.enum(['created_at', 'amount'], { message: 'must be created_at or amount' }).optional(),
  sort: z.enum(['asc', 'desc'], { message: 'must be asc or desc' }).optional(),
  start_date: isoDate.optional(),
  end_date: isoDate.optional(),
  client_order_id: z.string().trim().min(1, 'must not be empty').max(64, 'must be 1 to 64 characters').optional(),
});

const FormSessionsQuery = z.strictObject({
  page: page.optional(),
  size: size.optional(),
  state: text.optional(),
  order_id: id.optional(),
  client_order_id: z.string().trim().min(1).max(64, 'must be 1 to 64 characters').optional(),
  session_id: id.optional(),
});

const DisputesQuery = z.strictObject({
  page: page.optional(),
  size: size.optional(),
  processed: bool.optional(),
  order_id: id.optional(),
  dispute_id: id.optional(),
  start_date: isoDate.optional(),
  end_date: isoDate.optional(),
});

const TransactionsQuery = z.strictObject({
  page: page.optional(),
  size: size.optional(),
  transaction_type: z.enum(['deposit', 'withdrawal'], { message: 'must be deposit or withdrawal' }).optional(),
  start_date: isoDate.optional(),
  end_date: isoDate.optional(),
});

const MethodsQuery = z.strictObject({
  active: bool.optional(),
  method_type: z.array(text).max(10, 'at most 10 values').optional(),
});

class BadQuery extends Error {}

/** The query as an object; empty values are dropped (an empty filter field means "any"). */
function readQuery(c: Context, repeatable: readonly string[] = []): Record<string, unknown> {
  const url = new URL(c.req.url);
  const out: Record<string, unknown> = {};
  for (const key of new Set(url.searchParams.keys())) {
    const values = url.searchParams.getAll(key).filter((v) => v !== '');
    if (values.length === 0) continue;
    if (repeatable.includes(key)) out[key] = values;
    else if (values.length > 1) throw new BadQuery(`${key}: give it once`);
    else out[key] = values[0];
  }
  return out;
}

function check<T extends z.ZodType>(schema: T, value: unknown): z.output<T> {
  const r = schema.safeParse(value);
  if (r.success) return r.data;
  const issue = r.error.issues[0]!;
  const field = issue.path.length ? issue.path.join('.') : '';
  if (issue.code === 'unrecognized_keys') throw new BadQuery(`unknown filter: ${issue.keys.join(', ')}`);
  throw new BadQuery(field ? `${field}: ${issue.message}` : issue.message);
}

function dateOrder(q: { start_date?: string; end_date?: string }): void {
  if (q.start_date && q.end_date && Date.parse(q.start_date) > Date.parse(q.end_date)) {
    throw new BadQuery('start_date: must not be after end_date');
  }
}

/** Strips undefined values (the provider client sends only what is given). */
function defined<T extends Record<string, unknown>>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}

// ---------------------------------------------------------------------------------------------

/**
 * The console API as a Hono app, to mount at `/console/api`.
 *
 * @example
 *   app.route('/console/api', createConsoleApi({ client, password }));
 */
export function createConsoleApi(options: ConsoleOptions): Hono {
  const { client } = options;
  if (typeof options.password !== 'string' || options.password.length < 8) {
    throw new Error('createConsoleApi: password must be at least 8 characters');
  }
  const now = options.now ?? Date.now;
  const ttlMs = (options.sessionTtlSeconds ?? 8 * 3600) * 1000;
  const maxFailed = options.maxFailedLoginsPerMinute ?? 10;
  const addressOf = options.clientAddress ?? (() => 'any');
  /** sha256(token) → expiry; the token itself is only in the browser's cookie. */
  const sessions = new Map<string, number>();
  const failed = new Map<string, number[]>();

  const tokenKey = (token: string) => digest(token).toString('base64url');

  function loggedIn(c: Context): boolean {
    const token = getCookie(c, CONSOLE_COOKIE);
    if (!token || token.length > 128) return false;
    const key = tokenKey(token);
    const expires = sessions.get(key);
    if (expires === undefined) return false;
    if (expires <= now()) {
      sessions.delete(key);
      return false;
    }
    return true;
  }

  function secure(c: Context): boolean {
    return new URL(c.req.url).protocol === 'https:';
  }

  const app = new Hono();

  app.onError((err, c) => {
    if (err instanceof BadQuery) return c.json(errorBody('validation_failed', err.message), 400);
    if (isProviderError(err)) {
      const status = err.code === 'rate_limited' ? 429 : err.code === 'timeout' ? 504 : 502;
      const message =
        err.code === 'invalid_request'
          ? `the provider client refused the request: ${err.message}`
          : err.code === 'unauthorized'
            ? 'the provider refused the merchant key (check PAYDESK_API_KEY)'
            : `the provider did not answer as expected: ${err.message}`;
      return c.json(errorBody(err.code === 'invalid_request' ? 'validation_failed' : err.code, message, err.retryable), err.code === 'invalid_request' ? 400 : status);
    }
    console.error('console API error', err);
    return c.json(errorBody('internal_error', 'Something went wrong on the merchant server.', true), 500);
  });

  // A login body is a password: anything bigger is refused before it is read.
  app.use(
    '*',
    bodyLimit({ maxSize: MAX_BODY_BYTES, onError: (c) => c.json(errorBody('payload_too_large', `The request body is larger than ${MAX_BODY_BYTES} bytes.`), 413) }),
  );

  // Every POST carries the protocol header (a cross-site form cannot set it).
  app.use('*', async (c, next) => {
    c.header('Cache-Control', 'no-store');
    if (c.req.method === 'POST' && c.req.header('x-paydesk') !== '1') {
      return c.json(errorBody('missing_protocol_header', 'POST requests need the header X-Paydesk: 1'), 403);
    }
    await next();
  });

  app.post('/login', async (c) => {
    const addr = addressOf(c);
    const t = now();
    const recent = (failed.get(addr) ?? []).filter((at) => at > t - 60_000);
    if (recent.length >= maxFailed) {
      c.header('Retry-After', '60');
      return c.json(errorBody('rate_limited', 'Too many wrong passwords. Wait a minute and try again.', true), 429);
    }
    let body: unknown;
    try {
      body = await c.req.json();
    } catch {
      return c.json(errorBody('bad_request', 'send a JSON body {"password": "…"}'), 400);
    }
    const password = (body as { password?: unknown } | null)?.password;
    if (typeof password !== 'string' || password.length === 0 || password.length > 256) {
      return c.json(errorBody('validation_failed', 'password: required, at most 256 characters'), 400);
    }
    if (!safeEqual(password, options.password)) {
      recent.push(t);
      failed.set(addr, recent);
      return c.json(errorBody('unauthorized', 'Wrong password.'), 401);
    }
    failed.delete(addr);
    for (const [k, exp] of sessions) if (exp <= t) sessions.delete(k);
    const token = randomBytes(32).toString('base64url');
    sessions.set(tokenKey(token), t + ttlMs);
    setCookie(c, CONSOLE_COOKIE, token, {
      httpOnly: true,
      sameSite: 'Strict',
      secure: secure(c),
      path: CONSOLE_PATH,
      maxAge: Math.floor(ttlMs / 1000),
    });
    return c.body(null, 204);
  });

  app.post('/logout', (c) => {
    const token = getCookie(c, CONSOLE_COOKIE);
    if (token) sessions.delete(tokenKey(token));
    deleteCookie(c, CONSOLE_COOKIE, { path: CONSOLE_PATH, httpOnly: true, sameSite: 'Strict', secure: secure(c) });
    return c.body(null, 204);
  });

  // Everything below needs a login.
  app.use('*', async (c, next) => {
    if (!loggedIn(c)) return c.json(errorBody('unauthorized', 'Log in to the console first.'), 401);
    await next();
  });

  app.get('/me', (c) => c.json({ authenticated: true }));

  app.get('/meta', (c) =>
    c.json({
      order_statuses: ORDER_STATUSES,
      form_session_states: FORM_SESSION_STATES,
      method_types: METHOD_TYPES,
      transaction_types: TRANSACTION_TYPES,
    }),
  );

  app.get('/balance', async (c) => {
    const res = await client.getBalance();
    return c.json({ balance: res.deposit });
  });

  app.get('/orders', async (c) => {
    const q = check(OrdersQuery, readQuery(c));
    dateOrder(q);
    if (q.client_order_id !== undefined) {
      const res = await client.searchOrdersByClientOrderId(defined({ id: q.client_order_id, size: q.size }));
      return c.json(res.orders);
    }
    const { client_order_id: _unused, ...rest } = q;
    const res = await client.listOrders(defined(rest));
    return c.json(res.orders);
  });

  app.get('/form-sessions', async (c) => {
    const q = check(FormSessionsQuery, readQuery(c));
    const res = await client.searchFormSessions(defined(q));
    return c.json({ items: res.items, total: res.total, page: res.page, size: res.size, pages: res.pages });
  });

  app.get('/disputes', async (c) => {
    const q = check(DisputesQuery, readQuery(c));
    dateOrder(q);
    const res = await client.searchDisputes(defined(q));
    return c.json(res.data);
  });

  app.get('/transactions', async (c) => {
    const q = check(TransactionsQuery, readQuery(c));
    dateOrder(q);
    const res = await client.listTransactions(defined(q));
    return c.json({ items: res.items, total: res.total, page: res.page, size: res.size, pages: res.pages });
  });

  app.get('/payment-methods', async (c) => {
    const q = check(MethodsQuery, readQuery(c, ['method_type']));
    const res = await client.listPaymentMethods(defined(q));
    return c.json({ methods: res.payment_methods });
  });

  app.notFound((c) => c.json(errorBody('not_found', 'No such console endpoint.'), 404));

  return app;
}

/** A readable random password for the demo console, e.g. `demo-k3v9-q2tx-8mzn`. */
export function randomConsolePassword(): string {
  const alphabet = 'abcdefghjkmnpqrstuvwxyz23456789';
  let s = '';
  for (let i = 0; i < 12; i++) {
    s += alphabet[randomInt(alphabet.length)];
    if (i % 4 === 3 && i < 11) s += '-';
  }
  return `demo-${s}`;
}
