/**
 * The merchant console's API: the provider's lists (balance, orders, form sessions, disputes,
 * transactions, payment methods) read by the merchant server with its own key, and payouts made
 * with it, behind the console's login or the merchant's own `authorize`. The browser gets an HttpOnly, SameSite=Strict session cookie and
 * JSON; it never sees the provider key. Shapes: src/console/contract.ts.
 *
 *   POST /login   {"password"}        → 204 + cookie
 *   POST /logout                      → 204, cookie cleared
 *   GET  /me                          → 200 {"authenticated": true} | 401
 *   GET  /meta                        → the filter values (order statuses, form session states, method and transaction types) and `sandbox`
 *   GET  /balance                     → {"balance": {available, frozen, total, currency, id}}
 *   GET  /orders?page&size&status&order_side&payment_method_id&sort_by&sort&start_date&end_date
 *                                     → OrdersPage: the provider's list, each row with the shop's session beside it
 *        /orders?q=…&(the same filters)   search: a fragment of order_ref, client order id or order id, or an
 *                                     amount, in the shop's sessions and at the provider (src/console/shop.ts)
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
 *   POST /webhooks/test {endpoint?}  → 200 {"result": WebhookTestResult}: a signed test delivery to the endpoint's handler (webhook-test.ts)
 *   GET  /transactions?page&size&transaction_type&start_date&end_date
 *   GET  /payment-methods?active&method_type (repeatable)
 *   GET  /payout-methods              → {"methods": [PayoutMethod]}: active methods with a Sell range
 *   GET  /payouts?page&size&status&sort_by&sort&start_date&end_date → a page of PayoutView (Sell orders)
 *   POST /payouts {key, method_id, amount, destination, total}
 *                                     → 201 {"payout", "replayed": false} | 200 {"payout", "replayed": true}
 *   POST /payouts/{id}/sandbox-complete {client_order_id} → 200 {"payout"}   (with the sandbox only)
 *   GET  /export/{orders|payouts|disputes|transactions}.csv?from&to&tz&(the list's filters) → text/csv, streamed
 *   GET  /analytics?from&to&tz        → {days, by_method, by_bank, time_to_pay} (src/console/analytics.ts)
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
 * rule (`createOnce` of paydesk/server, the token endpoint's own), kept in the console's store
 * (`options.store`; durable in `npm start`'s data directory): a submit first looks that id up at the
 * provider (a second submit gets the payout the first made); one arriving while another submit of
 * the form is with the provider waits for it a while; and after a create whose outcome is unknown
 * (the provider did not answer in time: `502 payout_unconfirmed`), a submit that does not find the
 * payout answers `409 payout_in_progress` with `retry_after` and sends nothing, for as long as the
 * records live (24 h): a provider that queues requests may make it long after, and a payout sent
 * twice pays twice. Each attempt writes one audit line (who, when, amount, masked destination,
 * result).
 */
import { Hono } from 'hono';
import type { Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { isProviderError, type ProviderClient } from '../provider/index.js';
import { createMemoryStore, type CheckoutStore } from '../server/index.js';
import { getRecordedClientAddress } from '../server/http.js';
import { registerAuth, type ConsoleAuth, type ConsoleAuthorize } from './auth.js';
import { ConsoleHttpError, errorBody, readError } from './errors.js';
import { registerPayouts, type PayoutAuditEntry } from './payouts.js';
import { doubleStates, registerRefunds } from './refunds.js';
import { registerDisputes } from './disputes.js';
import { registerProviderLists, type ReadContext } from './lists.js';
import { registerOrders } from './orders.js';
import { registerReports } from './reports.js';
import { ShopRecords, type ConsoleEndpoint, type ProductTitles } from './shop.js';
import { registerWebhookTest } from './webhook-test.js';
import { registerWebhooks } from './webhooks.js';

export { CONSOLE_COOKIE } from './auth.js';
export { payoutView, type PayoutAuditEntry } from './payouts.js';
/** Largest request body the console API reads. */
const MAX_BODY_BYTES = 4 * 1024;

/** What the console's API needs (createConsole's options, resolved: src/console/index.ts). */
export interface ConsoleApiOptions {
  /** The provider client of the console's terminal (the first endpoint's). */
  client: ProviderClient;
  /**
   * The shop's token endpoints, the console's own terminal first: each one's `handler.inspect`, the
   * provider client of its terminal and its dispute receipts (null with a real provider).
   */
  endpoints: ConsoleEndpoint[];
  /** Where the console lives, e.g. `/console` (the API is `{basePath}/api`). */
  basePath: string;
  /** The catalog, for the product titles of order_refs. */
  products?: readonly ProductTitles[] | undefined;
  /** The product an order_ref buys, when it is not a product ref itself (the storefront's carts). */
  productOf?: ((orderRef: string) => ProductTitles | null) | undefined;
  /** The console's own login's password; or `authorize` (exactly one). */
  password?: string | undefined;
  authorize?: ConsoleAuthorize | undefined;
  /** Lifetime of a login (default 8 h). */
  sessionTtlSeconds?: number | undefined;
  /** Failed logins allowed per client address per minute (default 10). */
  maxFailedLoginsPerMinute?: number | undefined;
  /** Client address for the login limit and the audit lines (default: the address an adapter recorded). */
  clientAddress?: ((request: Request) => string | undefined) | undefined;
  now?: (() => number) | undefined;
  /**
   * With the sandbox: completes an order there (the trader's "paid out"), for demos. Resolves, or
   * rejects with the sandbox's message. Without it the sandbox route answers 404.
   */
  sandbox?: { complete(orderId: string): Promise<void> } | null | undefined;
  /** Where audit lines go (default: one JSON line on stdout). */
  audit?: ((entry: PayoutAuditEntry) => void) | undefined;
  /** Where unexpected errors go (default: console.error). */
  logError?: ((message: string, err: unknown) => void) | undefined;
  /**
   * Where the payouts' create-once records live (default: in memory). A durable store keeps "this
   * payout may still land" across a restart.
   */
  store?: CheckoutStore | undefined;
  /** How long a submit waits for another submit of the same form that is with the provider, before `409 payout_in_progress` (default 10 s). */
  payoutWaitMs?: number | undefined;
  /** How long one submit may hold the right to create its payout (default 90 s; a crashed holder's ends then). */
  payoutLeaseMs?: number | undefined;
}

/** The console API as a Hono app, to mount at `{basePath}/api` (createConsole does). */
export function createConsoleApi(options: ConsoleApiOptions): { app: Hono; auth: ConsoleAuth } {
  const { client } = options;
  const shops = new ShopRecords(options.endpoints, options.products, options.productOf, `${options.basePath}/api`);
  const now = options.now ?? Date.now;
  const addressOf = (c: Context) => options.clientAddress?.(c.req.raw) ?? getRecordedClientAddress(c.req.raw) ?? 'any';
  const audit = options.audit ?? ((entry: PayoutAuditEntry) => console.log(`[audit] console payout ${JSON.stringify(entry)}`));
  const logError = options.logError ?? ((message: string, err: unknown) => console.error(message, err));

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

  // The same-origin check, /login and /logout; everything registered after needs a login.
  const auth = registerAuth(app, {
    password: options.password,
    authorize: options.authorize,
    basePath: options.basePath,
    sessionTtlSeconds: options.sessionTtlSeconds,
    maxFailedLoginsPerMinute: options.maxFailedLoginsPerMinute,
    now,
    clientAddress: addressOf,
  });

  const store = options.store ?? createMemoryStore({ now });
  const payoutWaitMs = options.payoutWaitMs ?? 10_000;
  const payoutLeaseMs = options.payoutLeaseMs ?? 90_000;
  const doublePayments = options.endpoints.flatMap((e) => (e.doublePayments ? [{ endpoint: e.path, list: e.doublePayments }] : []));
  const refunds = registerRefunds(app, { client, store, now, logError, payoutWaitMs, payoutLeaseMs, shops, doublePayments });
  const doubles = (shown?: ReadonlySet<string>) => doubleStates(doublePayments, refunds, shown);
  const read: ReadContext = { client, shops, sandbox: Boolean(options.sandbox), logError, refunds, doubles };
  registerProviderLists(app, read);
  registerOrders(app, read);
  registerDisputes(app, read);
  registerWebhooks(app, read);
  registerWebhookTest(app, { shops, now, logError });
  registerReports(app, read);
  registerPayouts(app, {
    client,
    store,
    now,
    payoutWaitMs,
    payoutLeaseMs,
    who: (c: Context) => ({ login: auth.loginOf(c) ?? 'unknown', address: addressOf(c) }),
    audit,
    logError,
    sandbox: options.sandbox ?? null,
  });

  app.notFound((c) => c.json(errorBody('not_found', 'No such console endpoint.'), 404));
  return { app, auth };
}
