/**
 * `startDemo(options)`: the whole demo in one process, on loopback.
 *
 *   - the sandbox provider (unless a real provider is given) with the demo terminal;
 *   - the merchant server: the storefront, the token endpoint at `/api/paydesk` (its `resolveOrder`
 *     reads `demo/catalog.json`), the webhook target (`/api/paydesk/webhooks`), the widget bundle at
 *     `/paydesk.js`, the CDN build at `/cdn/…`, the merchant console (`/console`, API under
 *     `/console/api`), and the sandbox controls the storefront's banner uses (`/demo/api/sandbox/…`).
 *
 * With the sandbox, a second token endpoint at `/api/paydesk-with-form` talks to the sandbox's
 * `order_with_form` preset terminal, so the storefront can show all three integration modes.
 *
 * Ports may be 0 (tests): the URLs come back in the result.
 */
import { randomBytes } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve, type ServerType } from '@hono/node-server';
import { getConnInfo } from '@hono/node-server/conninfo';
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { Context } from 'hono';
import { loadWidgetBundleInfo, loadWidgetFile } from '../src/bundle/widget-bundle.js';
import { createProviderClient } from '../src/provider/client.js';
import { createSandbox, PRESET_KEYS, type Sandbox } from '../src/sandbox/index.js';
import { createCheckoutHandler, toHonoHandler, type CheckoutHandler, type CheckoutHandlerOptions, type Logger } from '../src/server/index.js';
import { catalogResolver, loadCatalog, type Product } from './catalog.js';
import { CONSOLE_PAGE, CONSOLE_PATH, createConsoleApi, randomConsolePassword } from './console.js';
import { sandboxReceipts } from './console-receipts.js';
import type { ConsoleEndpoint } from './console-shop.js';
import { openDataDir } from './data-dir.js';
import { CONTENT_TYPES, loadDemoPages, type DemoPages } from './pages.js';

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

/** A port is taken: the message names the port and the variable that changes it. */
export class PortInUseError extends Error {
  constructor(
    readonly port: number,
    readonly variable: 'PORT' | 'SANDBOX_PORT',
  ) {
    super(`port ${port} is already in use; set ${variable} to a free port (e.g. ${variable}=${port + 1})`);
    this.name = 'PortInUseError';
  }
}

export const ENDPOINT = '/api/paydesk';
export const WITH_FORM_ENDPOINT = '/api/paydesk-with-form';
/** Largest body the demo's own routes (the sandbox bar) read. */
const DEMO_MAX_BODY_BYTES = 4 * 1024;
const SANDBOX_ACTIONS = ['complete', 'expire', 'dispute', 'accept', 'reject'] as const;
type SandboxAction = (typeof SANDBOX_ACTIONS)[number];

const CDN_DIR = fileURLToPath(new URL('../dist/cdn/', import.meta.url));

/** Pages served under friendly paths (the console's views: CONSOLE_PAGE). */
const PAGES: Record<string, string> = {
  '/': '/index.html',
  '/thanks': '/thanks.html',
  '/support': '/support.html',
  '/cdn-demo': '/cdn.html',
};

/** Content-Security-Policy of every demo page: no inline script or style, same-origin only, frames from the provider. */
export function pageCsp(frameOrigin: string | null): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "connect-src 'self'",
    `frame-src ${frameOrigin ?? "'none'"}`,
    "frame-ancestors 'self'",
    "base-uri 'none'",
    "form-action 'self'",
    "object-src 'none'",
  ].join('; ');
}

function listen(app: Hono, port: number, host: string, variable: 'PORT' | 'SANDBOX_PORT'): Promise<ServerType> {
  return new Promise((resolve, reject) => {
    const server = serve({ fetch: app.fetch, port, hostname: host }, () => resolve(server));
    server.once('error', (err: NodeJS.ErrnoException) => {
      reject(err.code === 'EADDRINUSE' ? new PortInUseError(port, variable) : err);
    });
  });
}

function closeServer(server: ServerType): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    (server as { closeAllConnections?: () => void }).closeAllConnections?.();
  });
}

function urlOf(host: string, port: number): string {
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}

function checkPort(value: number | undefined, fallback: number, name: string): number {
  const port = value ?? fallback;
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new RangeError(`${name} must be an integer from 0 to 65535, got ${String(value)}`);
  return port;
}

const quietConsole: Logger = { warn: (m, f) => console.warn(m, f ?? ''), error: (m, f) => console.error(m, f ?? '') };

export async function startDemo(options: DemoOptions = {}): Promise<RunningDemo> {
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
  // The pages (built by Vite when demo/dist is missing or stale) load while the servers start.
  const pagesLoading = loadDemoPages();
  pagesLoading.catch(() => undefined); // awaited below

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

  // 1. The sandbox (unless a real provider is used).
  let sandbox: Sandbox | null = null;
  let sandboxUrl: string | null = null;
  if (!real) {
    sandbox = createSandbox({
      ...(sandboxApiKey ? { apiKey: sandboxApiKey } : {}),
      ...(data && { stateFile: data.sandboxStateFile }),
      merchantName: 'Obzharka coffee roasters',
      widgetScript: async () => (await loadWidgetBundleInfo()).code,
      widgetFile: loadWidgetFile,
    });
    try {
      sandboxUrl = (await sandbox.listen({ port: sandboxPort, host })).url;
    } catch (err) {
      await sandbox.close();
      if ((err as NodeJS.ErrnoException).code === 'EADDRINUSE') throw new PortInUseError(sandboxPort, 'SANDBOX_PORT');
      throw err;
    }
  }
  const providerUrl = real ? real.url.replace(/\/+$/, '') : sandboxUrl!;
  const providerKey = real ? real.apiKey : sandbox!.apiKey;

  // 2. The merchant server: listening first (its URL goes into webhook and redirect URLs), routes after.
  let app: Hono | null = null;
  const front = new Hono();
  front.all('*', (c) => (app ? app.fetch(c.req.raw, c.env) : c.text('starting', 503)));
  let server: ServerType;
  try {
    server = await listen(front, port, host, 'PORT');
  } catch (err) {
    await sandbox?.close();
    throw err;
  }
  const merchantUrl = urlOf(host, (server.address() as AddressInfo).port);

  const handlers: CheckoutHandler[] = [];
  const consoleStore = data ? data.store('console') : null;
  try {
    if (sandbox) {
      // The terminal's own webhook URL, as a merchant sets it in the provider's dashboard: orders the
      // hosted form creates carry no webhook_url of ours, so their notifications go here.
      const res = await sandbox.fetch(
        new Request(`${sandboxUrl}/sandbox/terminal`, {
          method: 'POST',
          headers: { 'X-API-Key': sandbox.apiKey, 'Content-Type': 'application/json' },
          body: JSON.stringify({ webhook_url: `${merchantUrl}${ENDPOINT}/webhooks` }),
        }),
      );
      if (!res.ok) throw new Error(`the sandbox refused the terminal's webhook URL: HTTP ${res.status} ${await res.text()}`);
    }
    const resolveOrder = catalogResolver(products, {
      redirectUrl: (p) => `${merchantUrl}/thanks?ref=${encodeURIComponent(p.ref)}`,
      returnUrl: () => `${merchantUrl}/`,
      supportUrl: `${merchantUrl}/support`,
    });
    const allowedOrigins = options.allowedOrigins ?? [];

    const main = createCheckoutHandler({
      provider: { baseUrl: providerUrl, apiKey: providerKey },
      resolveOrder,
      mode: 'h2h',
      modes: ['h2h', 'form'],
      webhookUrl: real ? (options.webhookUrl ?? null) : `${merchantUrl}${ENDPOINT}/webhooks`,
      ...(sandbox ? { webhookAuth: 'signature' as const, webhookSecrets: [sandbox.webhookSecret()] } : { webhookAuth: 'api_key' as const }),
      allowedOrigins,
      sessionSecrets: [sessionSecret],
      ...(data && { store: data.store('paydesk') }),
      ...shopHooks(logger),
      logger,
    });
    handlers.push(main);

    let withForm: CheckoutHandler | null = null;
    if (sandbox) {
      withForm = createCheckoutHandler({
        provider: { baseUrl: providerUrl, apiKey: PRESET_KEYS.withForm },
        resolveOrder,
        mode: 'order_with_form',
        webhookUrl: `${merchantUrl}${WITH_FORM_ENDPOINT}/webhooks`,
        webhookAuth: 'signature',
        webhookSecrets: [sandbox.webhookSecret(PRESET_KEYS.withForm)],
        allowedOrigins,
        sessionSecrets: [sessionSecret],
        ...(data && { store: data.store('paydesk-with-form') }),
        ...shopHooks(logger),
        logger,
      });
      handlers.push(withForm);
    }

    const client = createProviderClient({ baseUrl: providerUrl, apiKey: providerKey, ...options.consoleProvider });
    // The console reads each token endpoint's sessions and webhook log, with the provider client of its
    // terminal; dispute receipts come from the sandbox (the provider does not give them out).
    const receiptsOf = (apiKey: string) => (sandbox ? sandboxReceipts({ url: sandboxUrl!, apiKey, fetch: (r) => sandbox!.fetch(r) }) : null);
    const endpoints: ConsoleEndpoint[] = [{ path: ENDPOINT, inspect: main.inspect, client, receipts: receiptsOf(providerKey) }];
    if (withForm) {
      endpoints.push({
        path: WITH_FORM_ENDPOINT,
        inspect: withForm.inspect,
        client: createProviderClient({ baseUrl: providerUrl, apiKey: PRESET_KEYS.withForm }),
        receipts: receiptsOf(PRESET_KEYS.withForm),
      });
    }
    const consoleApi = createConsoleApi({
      client,
      // The payouts' create-once records: in the data directory, "this payout may still land" survives a restart.
      ...(consoleStore && { store: consoleStore }),
      ...(options.payoutWaitMs !== undefined && { payoutWaitMs: options.payoutWaitMs }),
      endpoints,
      products,
      password: consolePassword,
      clientAddress: (c) => remoteAddress(c) ?? 'local',
      sandbox: sandbox ? { complete: (orderId) => sandboxControl(sandbox!, `${sandboxUrl}/sandbox/orders/${encodeURIComponent(orderId)}/complete`) } : null,
      ...(logger.info && { audit: (entry) => logger.info!('console payout', { ...entry }) }),
      logError: (message, err) => logger.error(message, { err }),
    });
    const pages = await pagesLoading;

    const frameOrigin = new URL(providerUrl).origin;
    const csp = pageCsp(frameOrigin);
    app = buildMerchantApp({
      main,
      withForm,
      consoleApi,
      pages,
      products,
      csp,
      sandbox: sandbox && sandboxUrl ? { url: sandboxUrl, keys: { [ENDPOINT]: sandbox.apiKey, [WITH_FORM_ENDPOINT]: PRESET_KEYS.withForm } } : null,
      merchantUrl,
      logger,
    });
  } catch (err) {
    await closeServer(server);
    await Promise.all(handlers.map((h) => h.close()));
    await consoleStore?.close();
    await sandbox?.close();
    throw err;
  }

  let closed: Promise<void> | null = null;
  return {
    storefrontUrl: `${merchantUrl}/`,
    consoleUrl: `${merchantUrl}${CONSOLE_PATH}`,
    merchantUrl,
    sandboxUrl,
    sandboxApiKey: sandbox?.apiKey ?? null,
    dataDir: data?.path ?? null,
    consolePassword,
    endpoint: ENDPOINT,
    sandbox,
    products,
    async reconcile() {
      await Promise.all(handlers.map((h) => h.reconcile()));
    },
    close() {
      closed ??= (async () => {
        await Promise.all(handlers.map((h) => h.close()));
        await closeServer(server);
        await consoleStore?.close();
        await sandbox?.close();
      })();
      return closed;
    },
  };
}

/**
 * The demo shop's fulfilment: a log line per paid order (a real shop marks it paid and ships). The
 * handler records when each hook ran; the console shows it per order.
 */
function shopHooks(logger: Logger): Pick<CheckoutHandlerOptions, 'onOrderPaid' | 'onOrderFlagged'> {
  const say = logger.info?.bind(logger) ?? ((m: string, f?: Record<string, unknown>) => console.log(m, f ?? ''));
  return {
    onOrderPaid: (e) => {
      say(`[shop] order ${e.order_ref} paid${e.late ? ' late' : ''}: fulfilled`, {
        client_order_id: e.client_order_id,
        order_id: e.provider_order_id,
        ...(e.dispute_id && { dispute_id: e.dispute_id }),
      });
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

function remoteAddress(c: Context): string | undefined {
  try {
    return getConnInfo(c).remote.address;
  } catch {
    return undefined; // in-process requests have no socket
  }
}

interface MerchantAppParts {
  main: CheckoutHandler;
  withForm: CheckoutHandler | null;
  consoleApi: Hono;
  /** The built pages (demo/pages.ts). */
  pages: DemoPages;
  products: readonly Product[];
  csp: string;
  /** Sandbox URL and the terminal key behind each endpoint; null with a real provider. */
  sandbox: { url: string; keys: Record<string, string> } | null;
  merchantUrl: string;
  logger: Logger;
}

function errorJson(c: Context, status: number, code: string, message: string, retryable = false) {
  return c.json({ error: { code, message, retryable } }, status as 400);
}

/** The merchant server's routes (exported for in-process tests through `app.request`). */
export function buildMerchantApp(parts: MerchantAppParts): Hono {
  const { main, withForm, consoleApi, pages, products, csp, sandbox, merchantUrl } = parts;
  const app = new Hono();
  const handlers: Record<string, CheckoutHandler> = { [ENDPOINT]: main, ...(withForm ? { [WITH_FORM_ENDPOINT]: withForm } : {}) };

  app.use('*', async (c, next) => {
    await next();
    c.header('X-Content-Type-Options', 'nosniff');
    c.header('Referrer-Policy', 'strict-origin-when-cross-origin');
  });

  // Small JSON bodies only on the demo's own POST routes (the token endpoint and the console have their own limits).
  app.use(
    '/demo/api/*',
    bodyLimit({ maxSize: DEMO_MAX_BODY_BYTES, onError: (c) => errorJson(c, 413, 'payload_too_large', `The request body is larger than ${DEMO_MAX_BODY_BYTES} bytes.`) }),
  );

  // The token endpoints (and their webhook targets).
  app.all(`${ENDPOINT}/*`, toHonoHandler(main));
  if (withForm) app.all(`${WITH_FORM_ENDPOINT}/*`, toHonoHandler(withForm));

  // The widget bundle (the element's ES module), also what the sandbox's hosted form loads.
  app.get('/paydesk.js', async (c) => {
    const bundle = await loadWidgetBundleInfo();
    if (c.req.header('if-none-match') === bundle.etag) return c.body(null, 304, { ETag: bundle.etag });
    return c.body(bundle.code, 200, { 'Content-Type': 'text/javascript; charset=utf-8', ETag: bundle.etag, 'Cache-Control': 'no-cache' });
  });

  // The CDN build (`npm run build`), when present: /cdn/paydesk.js, /cdn/paydesk.iife.js, their maps,
  // the SRI values, the chunks and the classic script's classic/ folder (its copies of the chunks).
  // /chunks/… serves the chunks of /paydesk.js when that is the built file.
  const cdnFile = async (c: Context, file: string) => {
    if (!/^(paydesk(\.iife)?\.js(\.map)?|paydesk\.sri\.json|(classic\/)?chunks\/[A-Za-z0-9_-]+\.js(\.map)?|classic\/paydesk-[0-9a-f]{8}\.js)$/.test(file)) {
      return errorJson(c, 404, 'not_found', 'No such file.');
    }
    const body = await readFile(join(CDN_DIR, file)).catch(() => null);
    if (!body) return errorJson(c, 404, 'not_found', 'The CDN build is missing: run `npm run build`.');
    return c.body(new Uint8Array(body), 200, { 'Content-Type': CONTENT_TYPES[extname(file)] ?? 'application/octet-stream', 'Cache-Control': 'no-cache' });
  };
  app.get('/cdn/*', (c) => cdnFile(c, new URL(c.req.url).pathname.slice('/cdn/'.length)));
  app.get('/chunks/*', (c) => cdnFile(c, new URL(c.req.url).pathname.slice(1)));

  app.get('/demo/api/config', async (c) => {
    c.header('Cache-Control', 'no-store');
    return c.json({
      sandbox: sandbox !== null,
      endpoints: { h2h: ENDPOINT, form: ENDPOINT, order_with_form: withForm ? WITH_FORM_ENDPOINT : null },
      products: products.map((p) => ({ ref: p.ref, title: p.title, title_en: p.title_en, amount: p.amount, image: p.image })),
      cdn: await cdnInfo(),
    });
  });

  // The sandbox bar: complete / expire / dispute the order of a session this browser holds, and accept or
  // reject its open dispute. "dispute" opens one per order: while one is open it answers that one.
  app.post('/demo/api/sandbox/:action', async (c) => {
    if (!sandbox) return errorJson(c, 404, 'not_found', 'The sandbox controls exist only when the demo runs against the sandbox.');
    if (c.req.header('x-paydesk') !== '1') return errorJson(c, 403, 'missing_protocol_header', 'POST requests need the header X-Paydesk: 1');
    const action = c.req.param('action') as SandboxAction;
    if (!SANDBOX_ACTIONS.includes(action)) return errorJson(c, 404, 'not_found', `Unknown action; use one of ${SANDBOX_ACTIONS.join(', ')}.`);
    let body: unknown;
    try {
      body = await c.req.json();
    } catch {
      return errorJson(c, 400, 'bad_request', 'Send a JSON body {"session": "…", "endpoint": "/api/paydesk"}.');
    }
    const { session, endpoint = ENDPOINT } = (body ?? {}) as { session?: unknown; endpoint?: unknown };
    if (typeof session !== 'string' || session.length === 0 || session.length > 4096 || !/^[\x21-\x7e]+$/.test(session)) {
      return errorJson(c, 400, 'validation_failed', 'session: the session token of the order on screen is required.');
    }
    // Own keys only: "__proto__", "constructor" or "toString" name no endpoint.
    if (typeof endpoint !== 'string' || !Object.hasOwn(handlers, endpoint)) {
      return errorJson(c, 400, 'validation_failed', `endpoint: one of ${Object.keys(handlers).join(', ')}.`);
    }
    // The order behind the session, as the token endpoint knows it (re-read from the provider).
    const read = await handlers[endpoint]!(new Request(`${merchantUrl}${endpoint}/sessions/${encodeURIComponent(session)}?refresh=1`));
    const readBody = (await read.json().catch(() => null)) as { order?: { id?: string }; error?: { code: string; message: string } } | null;
    if (!read.ok) {
      return errorJson(c, read.status, readBody?.error?.code ?? 'session_invalid', readBody?.error?.message ?? 'This payment session is not valid.');
    }
    const orderId = readBody?.order?.id;
    if (!orderId) {
      return errorJson(c, 409, 'no_order_yet', 'There is no order yet: pick a payment method on the hosted form first.', true);
    }
    const key = sandbox.keys[endpoint]!;
    const call = (path: string, method = 'POST', payload: unknown = {}) =>
      fetch(`${sandbox.url}${path}`, {
        method,
        headers: { 'X-API-Key': key, 'Content-Type': 'application/json' },
        ...(method === 'POST' ? { body: JSON.stringify(payload) } : {}),
      });
    // The order's dispute in work, if any: "dispute" opens at most one, "accept"/"reject" decide it.
    const openDispute = async (): Promise<string | null> => {
      const list = await call(`/api/v1/disputes/search?order_id=${encodeURIComponent(orderId)}&processed=false&size=1`, 'GET');
      const page = (await list.json().catch(() => null)) as { data?: { items?: Array<{ dispute_id?: unknown }> } } | null;
      const id = list.ok ? page?.data?.items?.[0]?.dispute_id : undefined;
      return typeof id === 'string' ? id : null;
    };
    let res: Response;
    let disputeId: string | null = null;
    if (action === 'dispute') {
      disputeId = await openDispute();
      if (disputeId) return c.json({ ok: true, action, order_id: orderId, dispute: { id: disputeId, status: 'open' }, already_open: true, message: 'A dispute is already open for this order.' });
      res = await call(`/sandbox/orders/${encodeURIComponent(orderId)}/dispute`);
    } else if (action === 'accept' || action === 'reject') {
      disputeId = await openDispute();
      if (!disputeId) return errorJson(c, 409, 'no_open_dispute', 'There is no open dispute for this order: open one first.');
      res = await call(`/sandbox/disputes/${encodeURIComponent(disputeId)}/process`, 'POST', { accepted: action === 'accept' });
    } else {
      res = await call(`/sandbox/orders/${encodeURIComponent(orderId)}/${action}`);
    }
    const answer = (await res.json().catch(() => null)) as { message?: string; dispute?: { dispute_id?: unknown } } | null;
    if (!res.ok) {
      return errorJson(c, res.status === 404 ? 404 : 409, 'sandbox_refused', `The sandbox refused: ${answer?.message ?? `HTTP ${res.status}`}`);
    }
    if (action === 'dispute' && typeof answer?.dispute?.dispute_id === 'string') disputeId = answer.dispute.dispute_id;
    const dispute = disputeId ? { id: disputeId, status: action === 'dispute' ? 'open' : action === 'accept' ? 'accepted' : 'rejected' } : null;
    return c.json({ ok: true, action, order_id: orderId, ...(dispute ? { dispute } : {}), message: answer?.message ?? null });
  });

  // The merchant console's API (its own login, cookie scoped to /console).
  app.route(`${CONSOLE_PATH}/api`, consoleApi);

  app.get('/healthz', (c) => c.json({ ok: true }));

  // The built pages and their assets (demo/pages.ts): HTML with the strict CSP, never cached;
  // content-hashed assets cached for good.
  app.get('*', (c) => {
    const path = new URL(c.req.url).pathname;
    const file = pages.get(CONSOLE_PAGE.test(path) ? '/console.html' : (PAGES[path] ?? path));
    if (!file) return errorJson(c, 404, 'not_found', 'Not found.');
    if (file.type.startsWith('text/html')) {
      return c.body(file.body, 200, { 'Content-Type': file.type, 'Cache-Control': 'no-store', 'Content-Security-Policy': csp });
    }
    const headers = { ETag: file.etag, 'Cache-Control': file.immutable ? 'public, max-age=31536000, immutable' : 'no-cache' };
    if (c.req.header('if-none-match') === file.etag) return c.body(null, 304, headers);
    return c.body(file.body, 200, { ...headers, 'Content-Type': file.type });
  });

  app.notFound((c) => errorJson(c, 404, 'not_found', 'Not found.'));
  app.onError((err, c) => {
    parts.logger.error('demo server error', { err });
    return errorJson(c, 500, 'internal_error', 'Something went wrong on the merchant server.', true);
  });
  return app;
}

async function cdnInfo(): Promise<{ available: boolean; integrity: string | null }> {
  const ok = await stat(join(CDN_DIR, 'paydesk.iife.js')).then(
    (s) => s.isFile(),
    () => false,
  );
  if (!ok) return { available: false, integrity: null };
  try {
    const sri = JSON.parse(await readFile(join(CDN_DIR, 'paydesk.sri.json'), 'utf8')) as Record<string, unknown>;
    const value = sri['paydesk.iife.js'];
    return { available: true, integrity: typeof value === 'string' && value.startsWith('sha') ? value : null };
  } catch {
    return { available: true, integrity: null };
  }
}
