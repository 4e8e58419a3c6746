/**
 * `startDemo(options)`: the whole demo in one process, on loopback.
 *
 *   - the sandbox provider (unless a real provider is given) with the demo terminal;
 *   - the merchant server: the storefront, the token endpoint at `/api/paydesk` (its `resolveOrder`
 *     prices a cart — demo/carts.ts — or a product ref from `demo/catalog.json`), the webhook target
 *     (`/api/paydesk/webhooks`), the widget bundle at `/paydesk.js`, the CDN build at `/cdn/…`, the
 *     merchant console (`/console`, API under `/console/api`), and the storefront's own API
 *     (`/demo/api/…`: carts, the sandbox bar). Routes: demo/merchant-app.ts.
 *
 * With the sandbox, a second token endpoint at `/api/paydesk-with-form` talks to the sandbox's
 * `order_with_form` preset terminal, so the storefront can show all three integration modes.
 *
 * Ports may be 0 (tests): the URLs come back in the result.
 */
import { randomBytes } from 'node:crypto';
import { Hono } from 'hono';
import type { ServerType } from '@hono/node-server';
import { createProviderClient } from '../src/provider/index.js';
import { createSandbox, PRESET_KEYS, type Sandbox } from '../src/sandbox/index.js';
import {
  createCheckoutHandler,
  createMemoryStore,
  loadWidgetBundleInfo,
  loadWidgetFile,
  type CheckoutHandler,
  type CheckoutHandlerOptions,
  type CheckoutStore,
  type Logger,
} from '../src/server/index.js';
import { CART_ID, openCarts, productForRef, type Carts } from './carts.js';
import { catalogResolver, loadCatalog, type Product } from './catalog.js';
import { createConsole, sandboxReceipts, type PaydeskConsole } from '../src/console/index.js';
import { randomConsolePassword } from './console-password.js';
import { openDataDir, type DataDir } from './data-dir.js';
import { checkPort, closeServer, listen, PortInUseError, urlOf } from './http.js';
import { buildMerchantApp, CONSOLE_PATH, ENDPOINT, pageCsp, WITH_FORM_ENDPOINT } from './merchant-app.js';
import { loadDemoPages } from './pages.js';

export { PortInUseError } from './http.js';
export { buildMerchantApp, ENDPOINT, pageCsp, WITH_FORM_ENDPOINT } from './merchant-app.js';

export interface DemoOptions {
  /** Port of the merchant server (storefront, token endpoint, console). Default 3000; 0 = any free port. */
  port?: number;
  /** Port of the sandbox. Default 4010; 0 = any free port. Ignored with `provider`. */
  sandboxPort?: number;
  /** Loopback address to bind (default 127.0.0.1). */
  host?: '127.0.0.1' | 'localhost' | '::1';
  /** A real provider instead of the sandbox (`PAYDESK_PROVIDER_URL`, `PAYDESK_API_KEY`). */
  provider?: { url: string; apiKey: string } | null;
  /** The sandbox's demo terminal key (`PAYDESK_SANDBOX_API_KEY`); random when unset. */
  sandboxApiKey?: string;
  /** Origins besides its own allowed to call the token endpoint (`PAYDESK_ALLOWED_ORIGINS`). */
  allowedOrigins?: string[];
  /** The console's demo password (`PAYDESK_CONSOLE_PASSWORD`); random when unset. */
  consolePassword?: string;
  /** Secret that signs session tokens (`PAYDESK_SESSION_SECRET`, at least 32 characters); random when unset. */
  sessionSecret?: string;
  /**
   * Where the demo keeps what must survive a restart (`PAYDESK_DATA_DIR`): the stores (SQLite), the
   * session secret, console password and sandbox key drawn at the first start, and the sandbox's
   * state. null (the default here; `npm start` passes `.paydesk`): everything in memory.
   */
  dataDir?: string | null;
  /** Public URL of the webhook target, for a real provider that cannot reach loopback (`PAYDESK_WEBHOOK_URL`). */
  webhookUrl?: string | null;
  /** Products (default `demo/catalog.json`). */
  catalogPath?: string | URL;
  /** Where server-side warnings and errors go (default: console). */
  logger?: Logger;
  /**
   * How the console's provider client reaches the provider and how long it waits (default: `fetch`,
   * the client's timeouts). For tests: a provider that is slow to answer payouts.
   */
  consoleProvider?: { fetch?: typeof fetch; timeoutMs?: number; lookupWindowMs?: number };
  /** How long a payout submit waits for another submit of its form before `409 payout_in_progress` (default 10 s). */
  payoutWaitMs?: number;
  /**
   * The token endpoints' clock: the system's (default), or `'sandbox'`, the sandbox's, which
   * `POST /sandbox/clock/advance` moves (tests: a dispute's 10-minute grace passes in one call).
   * The sandbox signs its webhooks with the wall clock: once advanced more than the webhooks' 300 s
   * tolerance, they are refused and the endpoints learn of changes by their sweeps (`reconcile()`).
   * Ignored with `provider`.
   */
  checkoutClock?: 'system' | 'sandbox';
}

export interface RunningDemo {
  /** The storefront, e.g. `http://127.0.0.1:3000/`. */
  storefrontUrl: string;
  consoleUrl: string;
  /** Origin of the merchant server, e.g. `http://127.0.0.1:3000`. */
  merchantUrl: string;
  /** The sandbox's URL, or null with a real provider. */
  sandboxUrl: string | null;
  /** The demo terminal's key, or null with a real provider. */
  sandboxApiKey: string | null;
  /** The data directory (absolute), or null when everything is in memory. */
  dataDir: string | null;
  consolePassword: string;
  /** The token endpoint's mount path. */
  endpoint: string;
  /** The sandbox itself (clock, webhooks), or null with a real provider. */
  sandbox: Sandbox | null;
  products: readonly Product[];
  /** Runs a reconciliation sweep of every token endpoint now (each also sweeps by itself every minute). */
  reconcile(): Promise<void>;
  /** Stops both servers, open event streams and the sandbox's timers. */
  close(): Promise<void>;
}


const quietConsole: Logger = { warn: (m, f) => console.warn(m, f ?? ''), error: (m, f) => console.error(m, f ?? '') };

/** The options checked, with the secrets from the options, the data directory or drawn now. */
function settle(options: DemoOptions) {
  const host = options.host ?? '127.0.0.1';
  if (!['127.0.0.1', 'localhost', '::1'].includes(host)) throw new RangeError('the demo binds loopback only (127.0.0.1, localhost or ::1)');
  const port = checkPort(options.port, 3000, 'PORT');
  const sandboxPort = checkPort(options.sandboxPort, 4010, 'SANDBOX_PORT');
  const products = loadCatalog(options.catalogPath);
  const logger = options.logger ?? quietConsole;
  const data = options.dataDir ? openDataDir(options.dataDir) : null;
  const consolePassword = options.consolePassword || data?.secrets.console_password || randomConsolePassword();
  if (consolePassword.length < 8) throw new RangeError('the console password must be at least 8 characters');
  const sessionSecret = options.sessionSecret || data?.secrets.session_secret || randomBytes(32).toString('base64url');
  if (sessionSecret.length < 32) throw new RangeError('the session secret must be at least 32 characters');
  const sandboxApiKey = options.sandboxApiKey || data?.secrets.sandbox_api_key;
  const real = options.provider ?? null;
  if (real) {
    let u: URL;
    try {
      u = new URL(real.url);
    } catch {
      throw new RangeError(`PAYDESK_PROVIDER_URL is not a URL: ${real.url}`);
    }
    if (u.protocol !== 'https:' && u.protocol !== 'http:') throw new RangeError('PAYDESK_PROVIDER_URL must be an http(s) URL');
    if (!real.apiKey) throw new RangeError('PAYDESK_API_KEY is required with PAYDESK_PROVIDER_URL');
  }
  return { host, port, sandboxPort, products, logger, data, consolePassword, sessionSecret, sandboxApiKey, real };
}

/** The sandbox with the demo terminal, listening (its state in the data directory, when there is one). */
async function startSandbox(apiKey: string | undefined, data: DataDir | null, port: number, host: string): Promise<{ sandbox: Sandbox; url: string }> {
  const sandbox = createSandbox({
    ...(apiKey ? { apiKey } : {}),
    ...(data && { stateFile: data.sandboxStateFile }),
    merchantName: 'Obzharka coffee roasters',
    widgetScript: async () => (await loadWidgetBundleInfo()).code,
    widgetFile: loadWidgetFile,
  });
  try {
    return { sandbox, url: (await sandbox.listen({ port, host })).url };
  } catch (err) {
    await sandbox.close();
    if ((err as NodeJS.ErrnoException).code === 'EADDRINUSE') throw new PortInUseError(port, 'SANDBOX_PORT');
    throw err;
  }
}

/** The demo's provider: the sandbox's URL and terminal, or the real one's. */
interface ProviderSide {
  url: string;
  key: string;
  sandbox: Sandbox | null;
}

type Settled = ReturnType<typeof settle>;

/** The token endpoints: `/api/paydesk` (h2h and form) and, with the sandbox, `/api/paydesk-with-form`. */
async function createHandlers(s: Settled, p: ProviderSide, merchantUrl: string, carts: Carts, options: DemoOptions, handlers: CheckoutHandler[]): Promise<void> {
  const { sandbox } = p;
  if (sandbox) {
    // The terminal's own webhook URL, as a merchant sets it in the provider's dashboard: orders the
    // hosted form creates carry no webhook_url of ours, so their notifications go here.
    const res = await sandbox.fetch(
      new Request(`${p.url}/sandbox/terminal`, {
        method: 'POST',
        headers: { 'X-API-Key': sandbox.apiKey, 'Content-Type': 'application/json' },
        body: JSON.stringify({ webhook_url: `${merchantUrl}${ENDPOINT}/webhooks` }),
      }),
    );
    if (!res.ok) throw new Error(`the sandbox refused the terminal's webhook URL: HTTP ${res.status} ${await res.text()}`);
  }
  // The price comes from the catalog: of the cart's product, or of a product ref (older links).
  const byCatalog = catalogResolver(s.products, {
    redirectUrl: (product) => `${merchantUrl}/thanks?ref=${encodeURIComponent(product.ref)}`,
    returnUrl: () => `${merchantUrl}/`,
    supportUrl: `${merchantUrl}/support`,
  });
  // A paid cart is never priced again (404 order_not_found): no new order, and no replay of an older
  // create either (a key whose create failed or lapsed would make one). A status read, a reload's
  // resume or a receipt (…/sessions/S…) does not ask resolveOrder: the browser that paid still shows it.
  const resolveOrder = async (orderRef: string) => {
    const product = productForRef(carts, s.products, orderRef);
    if (!product) return null;
    if (CART_ID.test(orderRef) && !(await carts.mayCreate(orderRef))) return null;
    return byCatalog(product.ref);
  };
  const common = {
    resolveOrder,
    allowedOrigins: options.allowedOrigins ?? [],
    sessionSecrets: [s.sessionSecret],
    ...shopHooks(s.logger, carts),
    logger: s.logger,
    ...(sandbox && options.checkoutClock === 'sandbox' && { now: () => sandbox.clock.now() }),
  };
  const main = createCheckoutHandler({
    ...common,
    provider: { baseUrl: p.url, apiKey: p.key },
    mode: 'h2h',
    modes: ['h2h', 'form'],
    webhookUrl: s.real ? (options.webhookUrl ?? null) : `${merchantUrl}${ENDPOINT}/webhooks`,
    ...(sandbox ? { webhookAuth: 'signature' as const, webhookSecrets: [sandbox.webhookSecret()] } : { webhookAuth: 'api_key' as const }),
    ...(s.data && { store: s.data.store('paydesk') }),
  });
  handlers.push(main);
  if (!sandbox) return;
  const withForm = createCheckoutHandler({
    ...common,
    provider: { baseUrl: p.url, apiKey: PRESET_KEYS.withForm },
    mode: 'order_with_form',
    webhookUrl: `${merchantUrl}${WITH_FORM_ENDPOINT}/webhooks`,
    webhookAuth: 'signature',
    webhookSecrets: [sandbox.webhookSecret(PRESET_KEYS.withForm)],
    ...(s.data && { store: s.data.store('paydesk-with-form') }),
  });
  handlers.push(withForm);
}

/**
 * The merchant console (paydesk/console), mounted at /console as any merchant would: over the main
 * token endpoint's handler and the provider client of its terminal, with the with-form endpoint's
 * orders beside, the demo password login, the storefront's carts (product titles) and, with the
 * sandbox, its dispute receipts and "complete in the sandbox".
 */
function mountConsole(s: Settled, p: ProviderSide, handlers: CheckoutHandler[], carts: Carts, consoleStore: CheckoutStore | null, options: DemoOptions): PaydeskConsole {
  const { sandbox } = p;
  const client = createProviderClient({ baseUrl: p.url, apiKey: p.key, ...options.consoleProvider });
  // Dispute receipts come from the sandbox (the provider does not give them out).
  const receiptsOf = (apiKey: string) => (sandbox ? sandboxReceipts({ url: p.url, apiKey, fetch: (r) => sandbox.fetch(r) }) : null);
  const logger = s.logger;
  return createConsole({
    client,
    handler: handlers[0]!,
    endpoint: ENDPOINT,
    receipts: receiptsOf(p.key),
    // "Send test webhook": signed as the main handler checks (the sandbox's secret; with a real provider, api_key mode).
    webhookTest: sandbox ? { secret: sandbox.webhookSecret() } : { apiKey: p.key },
    ...(handlers[1] && {
      moreEndpoints: [
        {
          path: WITH_FORM_ENDPOINT,
          handler: handlers[1],
          client: createProviderClient({ baseUrl: p.url, apiKey: PRESET_KEYS.withForm }),
          receipts: receiptsOf(PRESET_KEYS.withForm),
          ...(sandbox && { webhookTest: { secret: sandbox.webhookSecret(PRESET_KEYS.withForm) } }),
        },
      ],
    }),
    basePath: CONSOLE_PATH,
    title: 'Obzharka',
    homeUrl: '/',
    // The payouts' create-once records and the refunds: in the data directory, "this payout may still land" survives a restart.
    ...(consoleStore && { store: consoleStore }),
    ...(options.payoutWaitMs !== undefined && { payoutWaitMs: options.payoutWaitMs }),
    products: s.products,
    productOf: (orderRef) => productForRef(carts, s.products, orderRef),
    password: s.consolePassword,
    sandbox: sandbox ? { complete: (orderId) => sandboxControl(sandbox, `${p.url}/sandbox/orders/${encodeURIComponent(orderId)}/complete`) } : null,
    ...(logger.info && { audit: (entry) => logger.info!('console payout', { ...entry }) }),
    logError: (message, err) => logger.error(message, { err }),
  });
}

export async function startDemo(options: DemoOptions = {}): Promise<RunningDemo> {
  const s = settle(options);
  // The pages (built by Vite when demo/dist is missing or stale) load while the servers start.
  const pagesLoading = loadDemoPages();
  pagesLoading.catch(() => undefined); // awaited below

  // 1. The sandbox (unless a real provider is used).
  const started = s.real ? null : await startSandbox(s.sandboxApiKey, s.data, s.sandboxPort, s.host);
  const sandbox = started?.sandbox ?? null;
  const p: ProviderSide = s.real ? { url: s.real.url.replace(/\/+$/, ''), key: s.real.apiKey, sandbox } : { url: started!.url, key: sandbox!.apiKey, sandbox };

  // 2. The merchant server: listening first (its URL goes into webhook and redirect URLs), routes after.
  let app: Hono | null = null;
  const front = new Hono();
  front.all('*', (c) => (app ? app.fetch(c.req.raw, c.env) : c.text('starting', 503)));
  let server: ServerType;
  try {
    server = await listen(front, s.port, s.host, 'PORT');
  } catch (err) {
    await sandbox?.close();
    throw err;
  }
  const merchantUrl = urlOf(s.host, server);

  const handlers: CheckoutHandler[] = [];
  const consoleStore = s.data ? s.data.store('console') : null;
  const cartStore = s.data ? s.data.store('carts') : createMemoryStore();
  try {
    const carts = await openCarts(cartStore, s.products);
    await createHandlers(s, p, merchantUrl, carts, options, handlers);
    const paydeskConsole = mountConsole(s, p, handlers, carts, consoleStore, options);
    app = buildMerchantApp({
      main: handlers[0]!,
      withForm: handlers[1] ?? null,
      console: paydeskConsole,
      pages: await pagesLoading,
      products: s.products,
      carts,
      csp: pageCsp(new URL(p.url).origin),
      sandbox: sandbox ? { url: p.url, keys: { [ENDPOINT]: sandbox.apiKey, [WITH_FORM_ENDPOINT]: PRESET_KEYS.withForm } } : null,
      merchantUrl,
      logger: s.logger,
    });
  } catch (err) {
    await closeServer(server);
    await Promise.all(handlers.map((h) => h.close()));
    await consoleStore?.close();
    await cartStore.close();
    await sandbox?.close();
    throw err;
  }

  let closed: Promise<void> | null = null;
  return {
    storefrontUrl: `${merchantUrl}/`,
    consoleUrl: `${merchantUrl}${CONSOLE_PATH}`,
    merchantUrl,
    sandboxUrl: started?.url ?? null,
    sandboxApiKey: sandbox?.apiKey ?? null,
    dataDir: s.data?.path ?? null,
    consolePassword: s.consolePassword,
    endpoint: ENDPOINT,
    sandbox,
    products: s.products,
    async reconcile() {
      await Promise.all(handlers.map((h) => h.reconcile()));
    },
    close() {
      closed ??= (async () => {
        await Promise.all(handlers.map((h) => h.close()));
        await closeServer(server);
        await consoleStore?.close();
        await cartStore.close();
        await sandbox?.close();
      })();
      return closed;
    },
  };
}

/**
 * The demo shop's fulfilment: a log line per paid order (a real shop marks it paid and ships). A cart
 * is fulfilled once: its first paid order is recorded with the cart (demo/carts.ts); another paid
 * order of the same cart (the cart paid again from a second browser, or an expired order paid late
 * after the shopper paid its renewal) is a double payment, logged at error level with both provider
 * order ids for a refund, and listed by `GET /demo/api/carts/{id}`. The handler records when each hook
 * ran; the console shows it per order.
 */
function shopHooks(logger: Logger, carts: Carts): Pick<CheckoutHandlerOptions, 'onOrderPaid' | 'onOrderFlagged'> {
  const say = logger.info?.bind(logger) ?? ((m: string, f?: Record<string, unknown>) => console.log(m, f ?? ''));
  return {
    onOrderPaid: async (e) => {
      const fields = {
        client_order_id: e.client_order_id,
        order_id: e.provider_order_id,
        ...(e.dispute_id && { dispute_id: e.dispute_id }),
      };
      const paid = e.order_ref !== null && CART_ID.test(e.order_ref) ? await carts.markPaid(e.order_ref, { order_id: e.provider_order_id, client_order_id: e.client_order_id }) : ({ outcome: 'fulfil' } as const);
      if (paid.outcome === 'already') return say(`[shop] order ${e.order_ref} paid again by the same order: already fulfilled`, fields);
      if (paid.outcome === 'double') {
        return logger.error(
          `[shop] double payment: cart ${e.order_ref} was already paid by order ${paid.paid.order_id}; order ${e.provider_order_id} paid it again${e.late ? ' (late)' : ''} — not fulfilled, refund it`,
          { ...fields, cart: e.order_ref, paid_order_id: paid.paid.order_id, refund_order_id: e.provider_order_id },
        );
      }
      say(`[shop] order ${e.order_ref} paid${e.late ? ' late' : ''}: fulfilled`, fields);
    },
    onOrderFlagged: (e) => {
      logger.error(`[shop] order needs a person: ${e.reason}`, { order_ref: e.order_ref, client_order_id: e.client_order_id, order_id: e.provider_order_id });
    },
  };
}

/** A scenario control of the sandbox (in process), with the demo terminal's key; rejects with the sandbox's message. */
async function sandboxControl(sandbox: Sandbox, url: string): Promise<void> {
  const res = await sandbox.fetch(new Request(url, { method: 'POST', headers: { 'X-API-Key': sandbox.apiKey, 'Content-Type': 'application/json' }, body: '{}' }));
  if (!res.ok) throw new Error(((await res.json().catch(() => null)) as { message?: string } | null)?.message ?? `HTTP ${res.status}`);
}
