/**
 * The merchant server's routes: the token endpoints, the widget bundle and the CDN build, the
 * storefront's own API (`/demo/api/…`: config, carts, the sandbox bar), the console's API and the
 * built pages under a strict Content-Security-Policy.
 */
import { readFile, stat } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { Context } from 'hono';
import type { PaydeskConsole } from '../src/console/index.js';
import { loadWidgetBundleInfo, setClientAddress, toHonoHandler, type CheckoutHandler, type Logger } from '../src/server/index.js';
import { registerCartRoutes, type Carts } from './carts.js';
import { registerCheckoutPage } from './checkout-page.js';
import type { Product } from './catalog.js';
import { errorJson, remoteAddress } from './http.js';
import { CONTENT_TYPES, type DemoPages } from './pages.js';
import { registerSandboxBar } from './sandbox-bar.js';

export const ENDPOINT = '/api/paydesk';
export const WITH_FORM_ENDPOINT = '/api/paydesk-with-form';
/** Where the demo mounts the merchant console (paydesk/console). */
export const CONSOLE_PATH = '/console';
/** Largest body the demo's own routes (carts, the sandbox bar) read. */
const DEMO_MAX_BODY_BYTES = 4 * 1024;

const CDN_DIR = fileURLToPath(new URL('../dist/cdn/', import.meta.url));

/** Pages served under friendly paths. */
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

export interface MerchantAppParts {
  main: CheckoutHandler;
  withForm: CheckoutHandler | null;
  /** The merchant console (paydesk/console), mounted at CONSOLE_PATH. */
  console: PaydeskConsole;
  /** The built pages (demo/pages.ts). */
  pages: DemoPages;
  products: readonly Product[];
  /** The storefront's carts (demo/carts.ts). */
  carts: Carts;
  csp: string;
  /** Sandbox URL and the terminal key behind each endpoint; null with a real provider. */
  sandbox: { url: string; keys: Record<string, string> } | null;
  merchantUrl: string;
  logger: Logger;
}

/** The merchant server's routes (exported for in-process tests through `app.request`). */
export function buildMerchantApp(parts: MerchantAppParts): Hono {
  const { main, withForm, pages, products, csp, sandbox, merchantUrl } = parts;
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

  registerWidgetFiles(app);

  app.get('/demo/api/config', async (c) => {
    c.header('Cache-Control', 'no-store');
    return c.json({
      sandbox: sandbox !== null,
      endpoints: { h2h: ENDPOINT, form: ENDPOINT, order_with_form: withForm ? WITH_FORM_ENDPOINT : null },
      products: products.map((p) => ({ ref: p.ref, title: p.title, title_en: p.title_en, amount: p.amount, image: p.image })),
      cdn: await cdnInfo(),
    });
  });
  registerCartRoutes(app, parts.carts);
  // The server-rendered checkout page (/checkout/{cart}): the H2H endpoint creates its order in process.
  registerCheckoutPage(app, { handler: main, endpoint: ENDPOINT, carts: parts.carts, pages, csp });
  registerSandboxBar(app, { handlers, defaultEndpoint: ENDPOINT, sandbox, merchantUrl });

  // The merchant console (paydesk/console): its pages and API, its own login (cookie scoped to /console).
  const mounted = (c: Context) => {
    setClientAddress(c.req.raw, remoteAddress(c));
    return parts.console.fetch(c.req.raw);
  };
  app.all(CONSOLE_PATH, mounted);
  app.all(`${CONSOLE_PATH}/*`, mounted);

  app.get('/healthz', (c) => c.json({ ok: true }));

  // The built pages and their assets (demo/pages.ts): HTML with the strict CSP, never cached;
  // content-hashed assets cached for good.
  app.get('*', (c) => {
    const path = new URL(c.req.url).pathname;
    const file = pages.get(PAGES[path] ?? path);
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

/**
 * The widget bundle (the element's ES module) at /paydesk.js, also what the sandbox's hosted form
 * loads; the CDN build (`npm run build`), when present: /cdn/paydesk.js, /cdn/paydesk.iife.js, their
 * maps, the SRI values, the chunks and the classic script's classic/ folder (its copies of the
 * chunks). /chunks/… serves the chunks of /paydesk.js when that is the built file.
 */
function registerWidgetFiles(app: Hono): void {
  app.get('/paydesk.js', async (c) => {
    const bundle = await loadWidgetBundleInfo();
    if (c.req.header('if-none-match') === bundle.etag) return c.body(null, 304, { ETag: bundle.etag });
    return c.body(bundle.code, 200, { 'Content-Type': 'text/javascript; charset=utf-8', ETag: bundle.etag, 'Cache-Control': 'no-cache' });
  });
  const cdnFile = async (c: Context, file: string) => {
    if (!/^(paydesk(\.iife)?\.js(\.map)?|paydesk\.sri\.json|(classic\/)?chunks\/[A-Za-z0-9_-]+\.js(\.map)?)$/.test(file)) {
      return errorJson(c, 404, 'not_found', 'No such file.');
    }
    const body = await readFile(join(CDN_DIR, file)).catch(() => null);
    if (!body) return errorJson(c, 404, 'not_found', 'The CDN build is missing: run `npm run build`.');
    return c.body(new Uint8Array(body), 200, { 'Content-Type': CONTENT_TYPES[extname(file)] ?? 'application/octet-stream', 'Cache-Control': 'no-cache' });
  };
  app.get('/cdn/*', (c) => cdnFile(c, new URL(c.req.url).pathname.slice('/cdn/'.length)));
  app.get('/chunks/*', (c) => cdnFile(c, new URL(c.req.url).pathname.slice(1)));
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
