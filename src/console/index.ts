/**
 * `paydesk/console`: the merchant console as one fetch handler a merchant mounts in their own server,
 * under a path of their choice — its pages at `basePath` (default `/console`) and its API at
 * `{basePath}/api` (src/console/api.ts), over their provider client and their `paydesk/server`
 * handler. Who may use it: the console's own password login, or the merchant's `authorize(request)`.
 * The pages are built into the package (dist/console/ui, src/console/ui-files.ts): no Vite at runtime.
 */
import { Hono } from 'hono';
import type { ProviderClient } from '../provider/index.js';
import type { CheckoutHandler, CheckoutStore } from '../server/index.js';
import { createConsoleApi } from './api.js';
import type { ConsoleAuthorize } from './auth.js';
import { DEFAULT_BASE_PATH } from './contract.js';
import { errorBody } from './errors.js';
import type { PayoutAuditEntry } from './payouts.js';
import type { ReceiptSource } from './receipts.js';
import type { ProductTitles } from './shop.js';
import { loadUiFiles, type UiFile, type UiFiles } from './ui-files.js';
import type { ConsoleEndpoint, WebhookTestCredentials } from './views.js';

export type { ConsoleAuthorize } from './auth.js';
export type { WebhookTestCredentials } from './views.js';
export type { WebhookTestResult } from './webhook-test-result.js';
export type { PayoutAuditEntry } from './payouts.js';
export type { RefundDue, RefundDueReason, RefundResponse, RefundsDueResponse, RefundStatus, RefundView } from './contract.js';
export { sandboxReceipts, type ReceiptInfo, type ReceiptSource } from './receipts.js';
export type { ProductTitles } from './shop.js';
export { CONSOLE_COOKIE } from './auth.js';
export { exportCsv, EXPORT_KINDS, type ExportKind, type ExportOptions } from './exports.js';
export { createAnalytics, HISTOGRAM_BOUNDS, type Analytics, type AnalyticsOptions, type AnalyticsReport, type DayRow } from './analytics.js';

/** A token endpoint of the shop besides the main one (another terminal), for its orders and webhooks. */
export interface ConsoleTokenEndpoint {
  /** Where it is mounted, e.g. `/api/paydesk-with-form` (shown beside its orders). */
  path: string;
  /** The endpoint's handler (createCheckoutHandler's; its views at least — the handler itself for "Send test webhook"). */
  handler: Pick<CheckoutHandler, 'inspect'> & Partial<Pick<CheckoutHandler, 'doublePayments'>>;
  /** The provider client of its terminal. */
  client: ProviderClient;
  /** Its terminal's dispute receipts, or null. */
  receipts?: ReceiptSource | null;
  /** What "Send test webhook" signs its delivery to this endpoint with (needs `handler` to be the handler itself). */
  webhookTest?: WebhookTestCredentials;
}

export interface ConsoleOptions {
  /** The provider client of the console's terminal: its lists, balance and payouts. */
  client: ProviderClient;
  /** The shop's `paydesk/server` handler: its sessions, hooks and webhook log beside the provider's orders. Optional. */
  handler?: CheckoutHandler | null;
  /** Where the console is mounted (default `/console`); the API is `{basePath}/api`. */
  basePath?: string;
  /** The console's own login: a password of at least 8 characters. Exactly one of `password` and `authorize`. */
  password?: string;
  /** Your own sign-in: asked on every request (pages and API); `true` lets it in. Replaces the password login. */
  authorize?: ConsoleAuthorize;
  /** The shop's name in the header (default `paydesk`). */
  title?: string;
  /** Where the header's logo and "Shop" link go (default `/`). */
  homeUrl?: string;
  /** Where `handler` is mounted, shown beside its orders (default `/api/paydesk`). */
  endpoint?: string;
  /** The dispute receipts of the terminal (the sandbox has them: `sandboxReceipts`); null (default) with a real provider. */
  receipts?: ReceiptSource | null;
  /**
   * What the webhooks page's "Send test webhook" signs its delivery to `handler` with: the webhook
   * secret the handler checks (`secret`), or the terminal's API key (`apiKey`, a handler with
   * `webhookAuth: 'api_key'`). Without it the button says there is nothing to sign with.
   */
  webhookTest?: WebhookTestCredentials;
  /** More token endpoints of the shop (other terminals), after the main one. */
  moreEndpoints?: ConsoleTokenEndpoint[];
  /** The catalog, for product titles beside order_refs. */
  products?: readonly ProductTitles[];
  /** The product an order_ref buys, when it is not a product ref itself (a cart id, say). */
  productOf?: (orderRef: string) => ProductTitles | null;
  /** Lifetime of a login (default 8 h). */
  sessionTtlSeconds?: number;
  /** Failed logins allowed per client address per minute (default 10). */
  maxFailedLoginsPerMinute?: number;
  /** The client's address (login limit, audit lines); default: the socket address paydesk/server's adapters record. */
  clientAddress?: (request: Request) => string | undefined;
  /** Where the payouts' (and refunds') create-once records and the refunds live (default: in memory). Give a durable store. */
  store?: CheckoutStore;
  /** How long a payout submit waits for another submit of its form before `409 payout_in_progress` (default 10 s). */
  payoutWaitMs?: number;
  /** How long one submit may hold the right to create its payout (default 90 s). */
  payoutLeaseMs?: number;
  /** With the sandbox: completes an order there (demos). */
  sandbox?: { complete(orderId: string): Promise<void> } | null;
  /** Where audit lines go (default: one JSON line on stdout). */
  audit?: (entry: PayoutAuditEntry) => void;
  /** Where unexpected errors go (default: console.error). */
  logError?: (message: string, err: unknown) => void;
  now?: () => number;
}

export interface PaydeskConsole {
  /** Answers a request under `basePath` (pages, assets, API); anything else is 404. */
  fetch(request: Request): Promise<Response>;
}

const BASE_PATH = /^(\/[A-Za-z0-9._~-]+)+$/;
/** The page's Content-Security-Policy: nothing inline, nothing from elsewhere. */
export const CONSOLE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "frame-ancestors 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "object-src 'none'",
].join('; ');
/** The page's addresses: the views (the page picks one from the path). */
const VIEW_PATH = /^(\/[A-Za-z0-9._~%-]+)*\/?$/;

const noInspect: CheckoutHandler['inspect'] = { sessions: async () => [], session: async () => null, webhooks: async () => [] };

/**
 * The console as one fetch handler. Mount it with paydesk/server's adapters (`toExpressMiddleware`,
 * `toNodeListener`, `toNextRouteHandlers`) or call `fetch` from any framework that speaks `Request`.
 *
 * @example
 *   const console = createConsole({ client, handler, authorize: (req) => isStaff(req) });
 *   app.use('/console', toExpressMiddleware(console.fetch));
 */
export function createConsole(options: ConsoleOptions): PaydeskConsole {
  if (!options || typeof options.client?.getBalance !== 'function') throw new TypeError('createConsole: client must be a provider client (createProviderClient of paydesk/provider)');
  const basePath = options.basePath ?? DEFAULT_BASE_PATH;
  if (!BASE_PATH.test(basePath)) throw new RangeError(`createConsole: basePath must be a path like /console (letters, digits, . _ ~ -; no trailing slash), not ${JSON.stringify(basePath)}`);
  const endpoints: ConsoleEndpoint[] = [
    {
      path: options.endpoint ?? '/api/paydesk',
      inspect: options.handler?.inspect ?? noInspect,
      client: options.client,
      receipts: options.receipts ?? null,
      ...(options.handler && { doublePayments: () => options.handler!.doublePayments(), deliver: (request: Request) => options.handler!(request) }),
      ...(options.webhookTest && { webhookTest: options.webhookTest }),
    },
    ...(options.moreEndpoints ?? []).map((e) => ({
      path: e.path,
      inspect: e.handler.inspect,
      client: e.client,
      receipts: e.receipts ?? null,
      ...(e.handler.doublePayments && { doublePayments: () => e.handler.doublePayments!() }),
      ...(typeof e.handler === 'function' && { deliver: (request: Request) => (e.handler as unknown as (r: Request) => Promise<Response>)(request) }),
      ...(e.webhookTest && { webhookTest: e.webhookTest }),
    })),
  ];
  const { app: api, auth } = createConsoleApi({ ...options, endpoints, basePath });

  let files: Promise<UiFiles> | undefined;
  const ui = () => {
    if (!files) {
      const loading = loadUiFiles({ basePath, title: options.title ?? 'paydesk', homeUrl: options.homeUrl ?? '/' });
      files = loading;
      loading.catch(() => {
        if (files === loading) files = undefined;
      });
    }
    return files;
  };

  const app = new Hono();
  app.route(`${basePath}/api`, api);
  app.on(['GET', 'HEAD'], `${basePath}/assets/*`, async (c) => {
    const file = (await ui()).asset(new URL(c.req.url).pathname.slice(basePath.length + 1));
    if (!file) return c.json(errorBody('not_found', 'No such file.'), 404);
    return serve(c.req.raw, file, { 'Cache-Control': 'public, max-age=31536000, immutable' });
  });
  app.on(['GET', 'HEAD'], '*', async (c) => {
    const path = new URL(c.req.url).pathname;
    const rest = path.slice(basePath.length);
    if (!(path === basePath || path.startsWith(`${basePath}/`)) || !VIEW_PATH.test(rest)) return c.json(errorBody('not_found', 'Not found.'), 404);
    if (!(await auth.mayOpen(c.req.raw))) {
      return c.body('Not signed in, or not allowed to use the console.', 401, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' });
    }
    return serve(c.req.raw, (await ui()).page, { 'Cache-Control': 'no-store', 'Content-Security-Policy': CONSOLE_CSP });
  });
  app.notFound((c) => c.json(errorBody('not_found', 'Not found.'), 404));
  app.onError((err, c) => {
    (options.logError ?? ((m: string, e: unknown) => console.error(m, e)))('console error', err);
    return c.json(errorBody('internal_error', 'Something went wrong on the merchant server.', true), 500);
  });

  return {
    fetch: async (request) => {
      const response = await app.fetch(request);
      try {
        response.headers.set('X-Content-Type-Options', 'nosniff');
      } catch {
        // immutable headers (none of ours): left as they are
      }
      return response;
    },
  };
}

function serve(request: Request, file: UiFile, headers: Record<string, string>): Response {
  if (request.headers.get('if-none-match') === file.etag) return new Response(null, { status: 304, headers: { ETag: file.etag, ...headers } });
  return new Response(request.method === 'HEAD' ? null : file.body, { status: 200, headers: { 'Content-Type': file.type, ETag: file.etag, ...headers } });
}
