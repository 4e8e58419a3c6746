/**
 * The merchant console's API: the provider's lists (balance, orders, form sessions, disputes,
 * transactions, payment methods) read by the merchant server with its own key, and payouts made
 * with it, behind a demo login. The browser gets an HttpOnly, SameSite=Strict session cookie and
 * JSON; it never sees the provider key. Shapes: demo/console-contract.ts.
 *
 *   POST /login   {"password"}        → 204 + cookie
 *   POST /logout                      → 204, cookie cleared
 *   GET  /me                          → 200 {"authenticated": true} | 401
 *   GET  /meta                        → the filter values (order statuses, form session states, method and transaction types) and `sandbox`
 *   GET  /balance                     → {"balance": {available, frozen, total, currency, id}}
 *   GET  /orders?page&size&status&order_side&payment_method_id&sort_by&sort&start_date&end_date
 *                                     → OrdersPage: the provider's list, each row with the shop's session beside it
 *        /orders?q=…&(the same filters)   search: a fragment of order_ref, client order id or order id, or an
 *                                     amount, in the shop's sessions and at the provider (demo/console-shop.ts)
 *        /orders?client_order_id=…&size   the provider's exact client order id search (one page)
 *   GET  /orders/{key}                → {"order": OrderDetail}: by order id or client order id — the shop's
 *                                     session (status history, hooks, dispute), the provider's order read now,
 *                                     the webhooks received for it, its disputes with their receipts
 *   GET  /form-sessions?page&size&state&order_id&client_order_id&session_id
 *   GET  /disputes?page&size&processed&order_id&dispute_id&start_date&end_date
 *                                     → DisputesPage: each with its order, the amount in minor units, the shop's
 *                                     view and its receipts (null with a real provider: it does not give them out)
 *   GET  /disputes/{id}/files/{index}?endpoint&download=1
 *                                     → the receipt's bytes, only as the type its content proves (JPEG, PNG, WebP,
 *                                     HEIC, PDF), nosniff, a script-free sandboxing CSP, Content-Disposition;
 *                                     404 receipts_unavailable with a real provider; 502 unsafe_receipt otherwise
 *   GET  /webhooks?page&size&outcome&verified&order_id&endpoint
 *                                     → a page of WebhookView: what the token endpoints received, newest first
 *   GET  /transactions?page&size&transaction_type&start_date&end_date
 *   GET  /payment-methods?active&method_type (repeatable)
 *   GET  /payout-methods              → {"methods": [PayoutMethod]}: active methods with a Sell range
 *   GET  /payouts?page&size&status&sort_by&sort&start_date&end_date → a page of PayoutView (Sell orders)
 *   POST /payouts {key, method_id, amount, destination, total}
 *                                     → 201 {"payout", "replayed": false} | 200 {"payout", "replayed": true}
 *   POST /payouts/{id}/sandbox-complete {client_order_id} → 200 {"payout"}   (with the sandbox only)
 * Lists answer `{"items", "total", "page", "size", "pages"}`; errors `{"error": {code, message, retryable, field?, details?}}`.
 *
 * Every request that changes something (POST) must come from the console's own page: it carries the
 * header `X-Paydesk: 1` (a cross-site form cannot set it, and a cross-origin script cannot send it
 * without a CORS preflight this API never answers), and when the browser says where it comes from
 * (`Origin`, `Sec-Fetch-Site`) that must be this server. SameSite=Strict alone is not enough: another
 * port of the same host is the same site.
 *
 * Payouts: the page generates a key per form and sends it with every submit; the payout's
 * `client_order_id` is `payout-<key>`, and it is created at most once by the server's create-once
 * rule (src/server/checkout/create-once.ts, the token endpoint's own), kept in the console's store
 * (`options.store`; durable in `npm start`'s data directory): a submit first looks that id up at the
 * provider (a second submit gets the payout the first made); one arriving while another submit of
 * the form is with the provider waits for it a while; and after a create whose outcome is unknown
 * (the provider did not answer in time: `502 payout_unconfirmed`), a submit that does not find the
 * payout answers `409 payout_in_progress` with `retry_after` and sends nothing, for as long as that
 * create may still land (CREATE_IN_FLIGHT_MS). Each attempt writes one audit line (who, when,
 * amount, masked destination, result).
 */
import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { Hono } from 'hono';
import type { Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { getCookie, setCookie, deleteCookie } from 'hono/cookie';
import { z } from 'zod';
import { addAmounts, compareAmounts, currencyDigits, MoneyError, parseAmount } from '../src/money/index.js';
import { DISPUTE_MAX_FILES } from '../src/protocol/index.js';
import { FORM_SESSION_STATES, METHOD_TYPES, ORDER_STATUSES, orderOutcome, TRANSACTION_TYPES } from '../src/provider/facts.js';
import { isProviderError, type ProviderError } from '../src/provider/errors.js';
import { parseIsoDateTime, type DecimalAmount, type Order } from '../src/provider/schemas.js';
import type { ProviderClient } from '../src/provider/types.js';
import { CREATE_IN_FLIGHT_MS, createOnce } from '../src/server/checkout/create-once.js';
import { createMemoryStore, type CheckoutStore } from '../src/server/store.js';
import {
  CONSOLE_PATH,
  type ConsoleErrorCode,
  type CreatePayoutRequest,
  type DisputesPage,
  type ListPage,
  type OrderDetailResponse,
  type OrdersPage,
  type PayoutResponse,
  type PayoutView,
  WEBHOOK_OUTCOMES,
} from './console-contract.js';
import { ConsoleHttpError, errorBody, invalid, rateLimited, readError } from './console-errors.js';
import { receiptResponse } from './console-receipts.js';
import { mapLimit, ShopRecords, type ConsoleEndpoint, type ProductTitles } from './console-shop.js';
import {
  destinationKindOf,
  maskDestination,
  normalizeDestination,
  PAYOUT_KEY,
  payoutClientOrderId,
  payoutLimits,
  payoutMethodOf,
  quotePayout,
  type DestinationProblem,
  type PayoutMethod,
} from './payout-rules.js';

export { CONSOLE_PATH } from './console-contract.js';
export const CONSOLE_COOKIE = 'paydesk_console';
/** Largest request body the console API reads. */
const MAX_BODY_BYTES = 4 * 1024;

/** The console's pages (served as console.html; the page picks the view from the path), the order page `/console/orders/{key}` among them. */
export const CONSOLE_PAGE = /^\/console(?:\/(?:orders(?:\/[^/]+)?|payouts|payouts\/new|form-sessions|disputes|transactions|payment-methods|webhooks))?\/?$/;

/** One line per payout attempt. */
export interface PayoutAuditEntry {
  at: string;
  /** The console login (an id given at login, never the cookie) and the client's address. */
  who: { login: string; address: string };
  action: 'create' | 'sandbox-complete';
  result: 'created' | 'replayed' | 'refused' | 'completed';
  /** The error code when refused. */
  code?: ConsoleErrorCode;
  client_order_id?: string;
  order_id?: string;
  method?: string;
  amount?: string;
  fee?: string;
  total?: string;
  currency?: string;
  /** Masked. */
  destination?: string;
  status?: string;
}

export interface ConsoleOptions {
  /** The provider client of the console's terminal (the first endpoint's). */
  client: ProviderClient;
  /**
   * The shop's token endpoints, the console's own terminal first: each one's `handler.inspect`, the
   * provider client of its terminal and its dispute receipts (null with a real provider).
   */
  endpoints: ConsoleEndpoint[];
  /** The catalog, for the product titles of order_refs. */
  products?: readonly ProductTitles[];
  /** The demo login's password (printed at start, or `PAYDESK_CONSOLE_PASSWORD`). */
  password: string;
  /** Lifetime of a login (default 8 h). */
  sessionTtlSeconds?: number;
  /** Failed logins allowed per client address per minute (default 10). */
  maxFailedLoginsPerMinute?: number;
  /** Client address for the login limit and the audit lines (default: a single bucket). */
  clientAddress?: (c: Context) => string;
  now?: () => number;
  /**
   * With the sandbox: completes an order there (the trader's "paid out"), for demos. Resolves, or
   * rejects with the sandbox's message. Without it the sandbox route answers 404.
   */
  sandbox?: { complete(orderId: string): Promise<void> } | null;
  /** Where audit lines go (default: one JSON line on stdout). */
  audit?: (entry: PayoutAuditEntry) => void;
  /** Where unexpected errors go (default: console.error). */
  logError?: (message: string, err: unknown) => void;
  /**
   * Where the payouts' create-once records live (default: in memory). A durable store (the demo's
   * data directory) keeps "this payout may still land" across a restart.
   */
  store?: CheckoutStore;
  /** How long a submit waits for another submit of the same form that is with the provider, before `409 payout_in_progress` (default 10 s). */
  payoutWaitMs?: number;
  /** How long one submit may hold the right to create its payout (default 90 s; a crashed holder's ends then). */
  payoutLeaseMs?: number;
}

/** How long a payout's create-once records are kept. */
const PAYOUT_RECORD_TTL_MS = 24 * 3600 * 1000;

const digest = (s: string) => createHash('sha256').update(s, 'utf8').digest();

/** Constant-time comparison of two strings (both hashed first, so lengths do not leak). */
export function safeEqual(a: string, b: string): boolean {
  return timingSafeEqual(digest(a), digest(b));
}

// ---------------------------------------------------------------------------------------------
// Checks: every value the browser sends is validated before the provider sees it.

const page = z.coerce.number().int('must be a whole number').min(1, 'must be at least 1').max(100000, 'is too large');
const size = z.coerce.number().int('must be a whole number').min(1, 'must be between 1 and 100').max(100, 'must be between 1 and 100');
const id = z.string().trim().min(1, 'must not be empty').max(128, 'is too long').regex(/^[\x21-\x7e]+$/, 'must be printable ASCII without spaces');
const text = z.string().trim().min(1, 'must not be empty').max(64, 'is too long');
const clientOrderId = z.string().trim().min(1, 'must not be empty').max(64, 'must be 1 to 64 characters');
// eslint-disable-next-line no-control-regex
const searchText = z.string().trim().min(1, 'must not be empty').max(64, 'must be 1 to 64 characters').regex(/^[^\u0000-\u001f\u007f]+$/, 'must not contain control characters');
const isoDate = z
  .string()
  .max(40, 'is too long')
  .refine((v) => parseIsoDateTime(v) !== null, 'must be an ISO 8601 date or date-time')
  // A time without a zone is UTC, as the provider reads it (never the merchant server's local time).
  .transform((v) => new Date(parseIsoDateTime(v)!).toISOString());
const bool = z.enum(['true', 'false'], { message: 'must be true or false' }).transform((v) => v === 'true');
const sortBy = z.enum(['created_at', 'amount'], { message: 'must be created_at or amount' });
const sortDir = z.enum(['asc', 'desc'], { message: 'must be asc or desc' });

const OrdersQuery = z.strictObject({
  page: page.optional(),
  size: size.optional(),
  status: text.optional(),
  order_side: z.enum(['Buy', 'Sell'], { message: 'must be Buy or Sell' }).optional(),
  payment_method_id: id.optional(),
  sort_by: sortBy.optional(),
  sort: sortDir.optional(),
  start_date: isoDate.optional(),
  end_date: isoDate.optional(),
  client_order_id: clientOrderId.optional(),
  q: searchText.optional(),
});

const PayoutsQuery = z.strictObject({
  page: page.optional(),
  size: size.optional(),
  status: text.optional(),
  sort_by: sortBy.optional(),
  sort: sortDir.optional(),
  start_date: isoDate.optional(),
  end_date: isoDate.optional(),
});

const FormSessionsQuery = z.strictObject({
  page: page.optional(),
  size: size.optional(),
  state: text.optional(),
  order_id: id.optional(),
  client_order_id: clientOrderId.optional(),
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

const decimalText = z.string().trim().min(1, 'is required').max(32, 'is too long');
const CreatePayoutBody = z.strictObject({
  key: z.string().regex(PAYOUT_KEY, 'must be 16 to 48 characters from A-Z, a-z, 0-9, _ and - (one per payout form)'),
  method_id: id,
  amount: decimalText,
  destination: z.string().trim().min(1, 'is required').max(64, 'is too long'),
  total: decimalText,
});

const WebhooksQuery = z.strictObject({
  page: page.optional(),
  size: size.optional(),
  outcome: z.enum(WEBHOOK_OUTCOMES as [string, ...string[]], { message: `must be one of ${WEBHOOK_OUTCOMES.join(', ')}` }).optional(),
  verified: bool.optional(),
  order_id: id.optional(),
  endpoint: text.optional(),
});

const ReceiptQuery = z.strictObject({
  endpoint: text.optional(),
  download: z.literal('1', { message: 'must be 1 (or left out)' }).optional(),
});

const SandboxCompleteBody = z.strictObject({ client_order_id: clientOrderId });

/** The query as an object; empty values are dropped (an empty filter field means "any"). */
function readQuery(c: Context, repeatable: readonly string[] = []): Record<string, unknown> {
  const url = new URL(c.req.url);
  const out: Record<string, unknown> = {};
  for (const key of new Set(url.searchParams.keys())) {
    const values = url.searchParams.getAll(key).filter((v) => v !== '');
    if (values.length === 0) continue;
    if (repeatable.includes(key)) out[key] = values;
    else if (values.length > 1) throw invalid(key, 'give it once');
    else out[key] = values[0];
  }
  return out;
}

/** A JSON object body, or a 400 that says what to send. */
async function readJson(c: Context, example: string): Promise<unknown> {
  try {
    return await c.req.json();
  } catch {
    throw new ConsoleHttpError(400, 'bad_request', `send a JSON body ${example}`);
  }
}

function check<T extends z.ZodType>(schema: T, value: unknown, what: 'filter' | 'field' = 'filter'): z.output<T> {
  const r = schema.safeParse(value);
  if (r.success) return r.data;
  const issue = r.error.issues[0]!;
  if (issue.code === 'unrecognized_keys') {
    throw new ConsoleHttpError(400, 'validation_failed', `unknown ${what}: ${issue.keys.join(', ')}`, { field: issue.keys[0] ?? '' });
  }
  if (issue.path.length === 0) throw new ConsoleHttpError(400, 'bad_request', `expected a JSON object: ${issue.message}`);
  throw invalid(issue.path.join('.'), issue.message);
}

/** A path parameter checked by `schema`. */
function param<T extends z.ZodType>(schema: T, value: string, name: string): z.output<T> {
  const r = schema.safeParse(value);
  if (!r.success) throw invalid(name, r.error.issues[0]!.message);
  return r.data;
}

function dateOrder(q: { start_date?: string; end_date?: string }): void {
  if (q.start_date && q.end_date && Date.parse(q.start_date) > Date.parse(q.end_date)) throw invalid('start_date', 'must not be after end_date');
}

/** Strips undefined values (the provider client sends only what is given). */
function defined<T extends Record<string, unknown>>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}

const DESTINATION_PROBLEMS: Record<DestinationProblem, string> = {
  empty: 'is required',
  card_format: 'must be a card number of 16 to 19 digits',
  card_checksum: 'is not a valid card number (its check digit is wrong)',
  phone_format: 'must be a phone number such as +79991234567',
  account_format: 'must be an account number of 20 digits',
};

// ---------------------------------------------------------------------------------------------
// Same-origin check of state-changing requests

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Null when the request may change something, else the refusal. */
function crossSiteRefusal(c: Context): ConsoleHttpError | null {
  if (c.req.header('x-paydesk') !== '1') {
    return new ConsoleHttpError(403, 'missing_protocol_header', 'POST requests need the header X-Paydesk: 1');
  }
  const site = c.req.header('sec-fetch-site');
  if (site !== undefined && site !== 'same-origin' && site !== 'none') {
    return new ConsoleHttpError(403, 'cross_site_request', `refused: the request came from another site or origin (Sec-Fetch-Site: ${site})`);
  }
  const origin = c.req.header('origin');
  if (origin !== undefined) {
    const host = (c.req.header('host') ?? new URL(c.req.url).host).toLowerCase();
    let from: string | null = null;
    try {
      from = origin === 'null' ? null : new URL(origin).host.toLowerCase();
    } catch {
      from = null;
    }
    if (from !== host) return new ConsoleHttpError(403, 'cross_site_request', `refused: the request came from ${origin}, not from this console`);
  }
  return null;
}

// ---------------------------------------------------------------------------------------------

/** A Sell order as the console shows it (destination masked). */
export function payoutView(o: Order): PayoutView {
  const kind = destinationKindOf(o.method_type, o.customer_account ?? '');
  return {
    id: o.id,
    client_order_id: o.client_order_id,
    status: o.status,
    outcome: orderOutcome(o.status),
    amount: o.amount,
    fee: o.fee,
    total: addAmounts(o.amount, o.fee, currencyDigits(o.currency)),
    currency: o.currency,
    method: { id: o.method_id, name: o.method_name, type: o.method_type },
    destination_kind: kind,
    destination: maskDestination(kind, o.customer_account),
    created_at: o.created_at,
    updated_at: o.updated_at,
    expires_at: o.expires_at,
  };
}

/** What a submit of the payout form asks for, to tell a repeat of it from another payout under the same key. */
interface PayoutIntent {
  method_id: string;
  amount: string;
  /** As typed (normalised against the method's kind where it is compared). */
  destination: string;
}

function sameIntent(order: Order, intent: PayoutIntent): boolean {
  const kind = destinationKindOf(order.method_type, order.customer_account ?? '');
  const dest = normalizeDestination(kind, intent.destination, order.method_type);
  return (
    order.order_side === 'Sell' &&
    (order.initial_method_id === intent.method_id || order.method_id === intent.method_id) &&
    compareAmounts(order.amount, intent.amount) === 0 &&
    dest.ok &&
    dest.value === order.customer_account
  );
}

/**
 * The console API as a Hono app, to mount at `/console/api`.
 *
 * @example
 *   app.route('/console/api', createConsoleApi({ client, password }));
 */
export function createConsoleApi(options: ConsoleOptions): Hono {
  const { client } = options;
  const shops = new ShopRecords(options.endpoints, options.products);
  if (typeof options.password !== 'string' || options.password.length < 8) {
    throw new Error('createConsoleApi: password must be at least 8 characters');
  }
  const now = options.now ?? Date.now;
  const ttlMs = (options.sessionTtlSeconds ?? 8 * 3600) * 1000;
  const maxFailed = options.maxFailedLoginsPerMinute ?? 10;
  const addressOf = options.clientAddress ?? (() => 'any');
  const audit = options.audit ?? ((entry: PayoutAuditEntry) => console.log(`[audit] console payout ${JSON.stringify(entry)}`));
  const logError = options.logError ?? ((message: string, err: unknown) => console.error(message, err));
  /** sha256(token) → the login; the token itself is only in the browser's cookie. */
  const sessions = new Map<string, { expires: number; login: string }>();
  const failed = new Map<string, number[]>();
  /** The payouts' create-once records (see the file comment). */
  const store = options.store ?? createMemoryStore({ now });
  const payoutWaitMs = options.payoutWaitMs ?? 10_000;
  const payoutLeaseMs = options.payoutLeaseMs ?? 90_000;

  const tokenKey = (token: string) => digest(token).toString('base64url');

  function loginOf(c: Context): string | null {
    const token = getCookie(c, CONSOLE_COOKIE);
    if (!token || token.length > 128) return null;
    const key = tokenKey(token);
    const session = sessions.get(key);
    if (session === undefined) return null;
    if (session.expires <= now()) {
      sessions.delete(key);
      return null;
    }
    return session.login;
  }

  const who = (c: Context) => ({ login: loginOf(c) ?? 'unknown', address: addressOf(c) });
  const secure = (c: Context) => new URL(c.req.url).protocol === 'https:';

  const app = new Hono();

  app.onError((err, c) => {
    if (err instanceof ConsoleHttpError) {
      for (const [name, value] of Object.entries(err.extra.headers ?? {})) c.header(name, value);
      return c.json(err.body(), err.status as 400);
    }
    if (isProviderError(err)) {
      const mapped = readError(err);
      return c.json(mapped.body(), mapped.status as 400);
    }
    logError('console API error', err);
    return c.json(errorBody('internal_error', 'Something went wrong on the merchant server.', true), 500);
  });

  // A login body is a password and a payout a few fields: anything bigger is refused before it is read.
  app.use(
    '*',
    bodyLimit({ maxSize: MAX_BODY_BYTES, onError: (c) => c.json(errorBody('payload_too_large', `The request body is larger than ${MAX_BODY_BYTES} bytes.`), 413) }),
  );

  // Every request that changes something comes from the console's own page (see the file comment).
  app.use('*', async (c, next) => {
    c.header('Cache-Control', 'no-store');
    if (!SAFE_METHODS.has(c.req.method)) {
      const refusal = crossSiteRefusal(c);
      if (refusal) return c.json(refusal.body(), 403);
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
    const body = await readJson(c, '{"password": "…"}');
    const password = (body as { password?: unknown } | null)?.password;
    if (typeof password !== 'string' || password.length === 0 || password.length > 256) {
      throw invalid('password', 'required, at most 256 characters');
    }
    if (!safeEqual(password, options.password)) {
      recent.push(t);
      failed.set(addr, recent);
      return c.json(errorBody('unauthorized', 'Wrong password.'), 401);
    }
    failed.delete(addr);
    for (const [k, s] of sessions) if (s.expires <= t) sessions.delete(k);
    const token = randomBytes(32).toString('base64url');
    sessions.set(tokenKey(token), { expires: t + ttlMs, login: randomBytes(6).toString('hex') });
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
    if (loginOf(c) === null) return c.json(errorBody('unauthorized', 'Log in to the console first.'), 401);
    await next();
  });

  app.get('/me', (c) => c.json({ authenticated: true }));

  app.get('/meta', (c) =>
    c.json({
      order_statuses: ORDER_STATUSES,
      form_session_states: FORM_SESSION_STATES,
      method_types: METHOD_TYPES,
      transaction_types: TRANSACTION_TYPES,
      webhook_outcomes: WEBHOOK_OUTCOMES,
      endpoints: shops.endpoints.map((e) => e.path),
      receipts: shops.receiptsAvailable,
      sandbox: Boolean(options.sandbox),
    }),
  );

  app.get('/balance', async (c) => {
    const res = await client.getBalance();
    return c.json({ balance: res });
  });

  /** The provider's page of orders, each row with the shop's session beside it. */
  const ordersPage = async (orders: { items: Order[]; total: number; page: number; size: number; pages: number }): Promise<OrdersPage> => ({
    items: await shops.rows(orders.items),
    total: orders.total,
    page: orders.page,
    size: orders.size,
    pages: orders.pages,
    search: null,
  });

  app.get('/orders', async (c) => {
    const q = check(OrdersQuery, readQuery(c));
    dateOrder(q);
    const { q: search, client_order_id: exact, page: pageNumber, size: pageSize, ...filters } = q;
    if (search !== undefined && exact !== undefined) throw invalid('q', 'give q or client_order_id, not both');
    if (search !== undefined) {
      return c.json((await shops.search(search, defined(filters), pageNumber ?? 1, pageSize ?? 10)) satisfies OrdersPage);
    }
    if (exact !== undefined) {
      const res = await client.searchOrdersByClientOrderId(defined({ id: exact, size: pageSize }));
      return c.json(await ordersPage(res));
    }
    const res = await client.listOrders(defined({ ...filters, page: pageNumber, size: pageSize }));
    return c.json(await ordersPage(res));
  });

  app.get('/orders/:key', async (c) => {
    const key = param(id, c.req.param('key'), 'key');
    const order = await shops.order(key);
    if (!order) throw new ConsoleHttpError(404, 'not_found', `neither the shop's sessions nor the provider have an order ${key}`);
    return c.json({ order } satisfies OrderDetailResponse);
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
    const { items, total, page: pageNumber, size: pageSize, pages } = res;
    const views = await mapLimit(items, 8, (d) => shops.disputeView(shops.main, d));
    return c.json({ items: views, total, page: pageNumber, size: pageSize, pages, receipts_available: shops.receiptsAvailable } satisfies DisputesPage);
  });

  // A dispute's receipt: proxied from the sandbox, served only as what its bytes prove (console-receipts.ts).
  app.get('/disputes/:id/files/:index', async (c) => {
    const disputeId = param(id, c.req.param('id'), 'id');
    const indexText = c.req.param('index');
    if (!/^\d{1,2}$/.test(indexText) || Number(indexText) >= DISPUTE_MAX_FILES) {
      throw invalid('index', `must be a whole number from 0 to ${DISPUTE_MAX_FILES - 1}`);
    }
    const q = check(ReceiptQuery, readQuery(c));
    const endpoint = shops.endpoint(q.endpoint);
    if (!endpoint) throw invalid('endpoint', `must be one of ${shops.endpoints.map((e) => e.path).join(', ')}`);
    if (!endpoint.receipts) {
      throw new ConsoleHttpError(404, 'receipts_unavailable', 'the provider does not give dispute receipts out to merchants; the console has them only with the sandbox');
    }
    let file: Awaited<ReturnType<NonNullable<ConsoleEndpoint['receipts']>['read']>>;
    try {
      file = await endpoint.receipts.read(disputeId, Number(indexText));
    } catch (err) {
      logError('reading a dispute receipt failed', err);
      throw new ConsoleHttpError(502, 'provider_error', `the receipt could not be read: ${err instanceof Error ? err.message : String(err)}`, { retryable: true });
    }
    if (!file) throw new ConsoleHttpError(404, 'not_found', `dispute ${disputeId} has no receipt ${indexText}`);
    const res = receiptResponse(file.bytes, file.name, { download: q.download === '1' });
    if (!res) {
      logError('a dispute receipt is not a JPEG, PNG, WebP, HEIC or PDF by its content; it is not served', new Error(`dispute ${disputeId}, receipt ${indexText}`));
      throw new ConsoleHttpError(502, 'unsafe_receipt', 'this file is not a JPEG, PNG, WebP, HEIC or PDF by its content, so it is not served');
    }
    return res;
  });

  app.get('/webhooks', async (c) => {
    const q = check(WebhooksQuery, readQuery(c));
    if (q.endpoint !== undefined && !shops.endpoint(q.endpoint)) throw invalid('endpoint', `must be one of ${shops.endpoints.map((e) => e.path).join(', ')}`);
    const { page: pageNumber = 1, size: pageSize = 20, ...filters } = q;
    return c.json(await shops.webhooks(defined(filters) as Parameters<ShopRecords['webhooks']>[0], pageNumber, pageSize));
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
    return c.json({ methods: res });
  });

  // ---------------------------------------------------------------------------------------------
  // Payouts

  async function payoutMethods(): Promise<PayoutMethod[]> {
    const res = await client.listPaymentMethods({ active: true });
    return res.map(payoutMethodOf).filter((m): m is PayoutMethod => m !== null);
  }

  app.get('/payout-methods', async (c) => c.json({ methods: await payoutMethods() }));

  app.get('/payouts', async (c) => {
    const q = check(PayoutsQuery, readQuery(c));
    dateOrder(q);
    const res = await client.listOrders(defined({ ...q, order_side: 'Sell' as const }));
    const { items, ...envelope } = res;
    return c.json({ ...envelope, items: items.map(payoutView) } satisfies ListPage<PayoutView>);
  });

  type PayoutOutcome = { order: Order; replayed: boolean; method: PayoutMethod | null };

  /** What the form asked for when its payout was sent: a submit of the same key asking for another payout is refused. */
  const intentKey = (clientOrderId: string) => `payout-intent:${clientOrderId}`;
  const intentText = (intent: PayoutIntent) =>
    JSON.stringify([intent.method_id, intent.amount, intent.destination.replace(/[\s\-().\u00a0]/g, '')]);
  const keyReused = (detail: string) =>
    new ConsoleHttpError(409, 'idempotency_key_reused', `this payout form ${detail}; open a new form for another payout`);

  /** The payout is not found and an earlier submit's create may still land: nothing is sent. */
  function inProgress(retryAfterMs: number): ConsoleHttpError {
    const seconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
    return new ConsoleHttpError(
      409,
      'payout_in_progress',
      `an earlier submission of this payout is still being confirmed by the provider; nothing was sent, so it is not paid twice: check again in ${seconds} s`,
      { retryable: true, details: { retry_after: seconds }, headers: { 'Retry-After': String(seconds) } },
    );
  }

  /** Looks the form's payout up, and creates it when there is none, at most once (see the file comment). */
  async function createPayout(req: CreatePayoutRequest, amount: string, clientOrderId: string): Promise<PayoutOutcome> {
    const intent: PayoutIntent = { method_id: req.method_id, amount, destination: req.destination };
    /** Set once the form's figures are checked, for the provider's refusals. */
    let checked: { method: PayoutMethod; quote: { total: string; currency: string } } | null = null;
    try {
      const { value, found } = await createOnce<{ order: Order; method: PayoutMethod | null }>(
        clientOrderId,
        {
          store,
          now,
          leaseMs: payoutLeaseMs,
          waitMs: payoutWaitMs,
          ttlMs: PAYOUT_RECORD_TTL_MS,
          inProgress,
          log: (message, fields) => logError(message, fields),
        },
        {
          find: async (earlier) => {
            const items = (await client.searchOrdersByClientOrderId({ id: clientOrderId, size: 10 })).items;
            if (items.length > 0) {
              const same = items.find((o) => sameIntent(o, intent));
              if (!same) throw keyReused('already made a different payout');
              return { order: same, method: null };
            }
            if (earlier) {
              // Not found, but an earlier create may still land: it must be this very payout.
              const sent = await store.get(intentKey(clientOrderId));
              if (sent && sent.value !== intentText(intent)) throw keyReused('sent a different payout that the provider has not confirmed yet');
            }
            return undefined;
          },
          prepare: async () => {
            const method = (await payoutMethods()).find((m) => m.id === req.method_id);
            if (!method) {
              throw new ConsoleHttpError(409, 'method_unavailable', 'this payment method makes no payouts now (inactive, or no Sell range); pick another', {
                field: 'method_id',
              });
            }
            const destination = normalizeDestination(method.kind, req.destination, method.type);
            if (!destination.ok) throw invalid('destination', DESTINATION_PROBLEMS[destination.problem]);
            const quoted = quotePayout(method, amount);
            if (!quoted.ok) {
              throw new ConsoleHttpError(409, 'amount_out_of_limits', `amount: this method pays out from ${quoted.min} to ${quoted.max} ${method.currency}`, {
                field: 'amount',
                details: { min: quoted.min, max: quoted.max, currency: method.currency },
              });
            }
            const { quote } = quoted;
            if (compareAmounts(quote.total, req.total) !== 0) {
              throw new ConsoleHttpError(409, 'quote_changed', `the fee changed: the total is now ${quote.total} ${quote.currency}; confirm again`, {
                details: { fee: quote.fee, total: quote.total, currency: quote.currency },
              });
            }
            checked = { method, quote };
            await store.set(intentKey(clientOrderId), intentText(intent), PAYOUT_RECORD_TTL_MS);
            return async (signal) => {
              const order = await client.createOrder(
                { client_order_id: clientOrderId, order_side: 'Sell', payment_method_id: method.id, amount: amount as DecimalAmount, customer_account: destination.value },
                { signal },
              );
              return { order, method };
            };
          },
        },
      );
      return { order: value.order, replayed: found, method: value.method };
    } catch (err) {
      const sent = checked as { method: PayoutMethod; quote: { total: string; currency: string } } | null;
      if (sent && isProviderError(err, 'insufficient_funds')) {
        const balance = await client.getBalance().then(
          (b) => b,
          () => null,
        );
        throw new ConsoleHttpError(402, 'insufficient_funds', 'the balance is lower than the payout and its fee', {
          details: { needed: sent.quote.total, currency: sent.quote.currency, ...(balance && { available: balance.available, currency: balance.currency }) },
        });
      }
      if (sent && isProviderError(err, 'amount_out_of_limits')) {
        throw new ConsoleHttpError(409, 'amount_out_of_limits', `the provider refused the amount: ${err.providerMessage ?? err.message}`, {
          field: 'amount',
          details: { ...payoutLimits(sent.method), currency: sent.method.currency },
        });
      }
      if (err instanceof DOMException && err.name === 'TimeoutError') {
        // The console's own bound on one create ended it: the provider may still make the payout.
        throw unconfirmed(err.message);
      }
      throw err;
    }
  }

  app.post('/payouts', async (c) => {
    const line: PayoutAuditEntry = { at: new Date(now()).toISOString(), who: who(c), action: 'create', result: 'refused' };
    try {
      const body = check(CreatePayoutBody, await readJson(c, '{"key", "method_id", "amount", "destination", "total"}'), 'field');
      let amount: string;
      try {
        amount = parseAmount(body.amount, { field: 'amount' });
      } catch (err) {
        throw invalid('amount', err instanceof MoneyError ? err.message.replace(/^amount /, '') : 'must be a decimal such as 1500.00');
      }
      const clientOrderId = payoutClientOrderId(body.key);
      Object.assign(line, { client_order_id: clientOrderId, method: body.method_id, amount, destination: maskDestination('', body.destination) });

      const outcome = await createPayout(body, amount, clientOrderId);
      const replayed = outcome.replayed;
      const payout = payoutView(outcome.order);
      Object.assign(line, {
        result: replayed ? 'replayed' : 'created',
        order_id: payout.id,
        method: `${payout.method.name} (${payout.method.type})`,
        amount: payout.amount,
        fee: payout.fee,
        total: payout.total,
        currency: payout.currency,
        destination: payout.destination,
        status: payout.status,
      } satisfies Partial<PayoutAuditEntry>);
      return c.json({ payout, replayed } satisfies PayoutResponse, replayed ? 200 : 201);
    } catch (err) {
      const mapped = err instanceof ConsoleHttpError ? err : isProviderError(err) ? createError(err) : null;
      line.code = mapped?.code ?? 'internal_error';
      if (mapped) return c.json(mapped.body(), mapped.status as 400, mapped.extra.headers);
      throw err;
    } finally {
      audit(line);
    }
  });

  app.post('/payouts/:id/sandbox-complete', async (c) => {
    const sandbox = options.sandbox;
    if (!sandbox) throw new ConsoleHttpError(404, 'not_found', 'completing payouts exists only when the demo runs against the sandbox');
    const param = id.safeParse(c.req.param('id'));
    if (!param.success) throw invalid('id', param.error.issues[0]!.message);
    const orderId = param.data;
    const line: PayoutAuditEntry = { at: new Date(now()).toISOString(), who: who(c), action: 'sandbox-complete', result: 'refused', order_id: orderId };
    try {
      const body = check(SandboxCompleteBody, await readJson(c, '{"client_order_id": "…"}'), 'field');
      line.client_order_id = body.client_order_id;
      const find = async () =>
        (await client.searchOrdersByClientOrderId({ id: body.client_order_id, size: 10 })).items.find((o) => o.id === orderId && o.order_side === 'Sell');
      const order = await find();
      if (!order) throw new ConsoleHttpError(404, 'not_found', 'no payout with this id and client_order_id');
      if (order.status !== 'Unpaid') throw new ConsoleHttpError(409, 'payout_not_pending', `the payout is ${order.status}, not in progress`);
      try {
        await sandbox.complete(order.id);
      } catch (err) {
        throw new ConsoleHttpError(409, 'sandbox_refused', `the sandbox refused: ${err instanceof Error ? err.message : String(err)}`);
      }
      const payout = payoutView((await find()) ?? order);
      Object.assign(line, { result: 'completed', amount: payout.amount, fee: payout.fee, total: payout.total, currency: payout.currency, destination: payout.destination, status: payout.status } satisfies Partial<PayoutAuditEntry>);
      return c.json({ payout });
    } catch (err) {
      line.code = err instanceof ConsoleHttpError ? err.code : isProviderError(err) ? readError(err).code : 'internal_error';
      throw err;
    } finally {
      audit(line);
    }
  });

  app.notFound((c) => c.json(errorBody('not_found', 'No such console endpoint.'), 404));

  return app;
}

/** A provider error while creating a payout, as the console answers it. */
function createError(err: ProviderError): ConsoleHttpError {
  const said = err.providerMessage ?? err.message;
  switch (err.code) {
    case 'customer_blacklisted':
      return new ConsoleHttpError(409, 'customer_blacklisted', `the provider refused the destination: ${said}`, { field: 'destination' });
    case 'payment_method_not_found':
      return new ConsoleHttpError(409, 'method_unavailable', `the provider does not know this method: ${said}`, { field: 'method_id' });
    case 'no_traders':
      return new ConsoleHttpError(503, 'no_traders', `the provider has no trader for this payout now: ${said}`, { retryable: true });
    case 'rate_limited':
      return rateLimited(err);
    case 'customer_account_required':
    case 'no_payment_method':
    case 'invalid_request':
      return new ConsoleHttpError(400, 'validation_failed', `the provider refused the payout: ${said}`, { ...(err.field && { field: err.field }) });
    case 'network':
    case 'timeout':
    case 'invalid_response':
      // The answer was lost and the client's lookup could not tell whether the order exists.
      return unconfirmed(err.message);
    default:
      if (err.status !== null && err.status >= 400 && err.status < 500 && err.status !== 401 && err.status !== 403) {
        return new ConsoleHttpError(400, 'validation_failed', `the provider refused the payout: ${said}`);
      }
      return readError(err);
  }
}

/** The provider did not say whether the payout was made: the same form, submitted again, finds it or is told to wait. */
function unconfirmed(why: string): ConsoleHttpError {
  return new ConsoleHttpError(
    502,
    'payout_unconfirmed',
    `the provider did not confirm the payout (${why}); it may exist or still land: submit the same form again, which finds it, ` +
      `or answers payout_in_progress while it may still land (up to ${CREATE_IN_FLIGHT_MS / 1000} s), instead of paying twice`,
    { retryable: true },
  );
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
