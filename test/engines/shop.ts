/**
 * The demo as the engines' specs see it (test/engines/*.test.ts): the whole demo started in process
 * (test/e2e/helpers.ts), behind a small proxy of ours on another loopback port that the browsers talk
 * to. The proxy passes every request through unchanged (the live status streams), and besides:
 *   - adds to every HTML page one same-origin script, /__engines/listen.js, which records the
 *     element's `paydesk-error` events in `window.__paydeskErrors` (a page's CSP allows 'self');
 *   - serves a changed copy of a chunk when asked (`tamper`): the chunk's bytes with a first line
 *     that counts itself in `globalThis.__tampered`, the side effect that must never happen;
 *   - counts the POST /sessions that reach the token endpoint (`sessionPosts`);
 *   - serves /__engines/frame.html?src=…&width=…&height=…: the page `src` in an iframe of that size,
 *     a phone's width where the window cannot be made that narrow (WebKit's MiniBrowser: 447 px);
 *   - logs every request's method and path (`requests`);
 *   - cuts the requests whose path matches `cut` (set `shop.cut`): their connection is closed with no
 *     answer, as a lost network does, and so are those open when it is set (an event stream).
 *   - holds back the answer to a path while asked (`hold`, `release`): a chunk that arrives late;
 *   - serves /__engines/blank.html, an empty page of this origin (to navigate from by script: `goNoWait`);
 *   - serves /__engines/cdn.html?build=es|classic: one `<paydesk-checkout>` in the page's HTML and the
 *     CDN build (`/paydesk.js` as a module, or `/cdn/paydesk.iife.js` deferred), as a shop's page has them.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import type { OrderView } from '../../src/protocol/index.js';
import type { DemoOptions } from '../../demo/app.js';
import { ROOT, startTestDemo, type TestDemo } from '../e2e/helpers.js';
import type { EnginePage } from './driver.js';

export const LISTEN_JS = `window.__paydeskErrors = [];
document.addEventListener('paydesk-error', function (e) { window.__paydeskErrors.push(e.detail); }, true);
`;

export interface Shop {
  demo: TestDemo;
  /** The proxy's origin: every URL a browser opens. */
  origin: string;
  /** Path (e.g. `/chunks/cdn-element-1a2b3c4d.js`) → served changed while set. */
  tamper: Set<string>;
  /** Paths of the changed chunks actually served. */
  tamperedServed: string[];
  /** POST …/sessions that reached the token endpoint, in order. */
  sessionPosts: string[];
  /** Every request the proxy saw: method, path and query, when (ms), and whether it was cut. */
  requests: { method: string; url: string; at: number; cut: boolean }[];
  /**
   * While set, requests whose path matches are cut (the connection closed, no answer), and so are
   * the matching ones still open when it is set. null: everything passes.
   */
  cut: RegExp | null;
  /** Holds back the answers to `path` (they wait) until {@link Shop.release}. */
  hold(path: string): void;
  /** Lets the held answers to `path` go; how many requests had waited. */
  release(path: string): number;
  /** Paths asked for while held, in order. */
  heldAsked: string[];
  close(): Promise<void>;
}

/**
 * Opens `url` (of the shop's origin) from a blank page of the origin by script, without waiting for
 * its `load` event: a script it inserts that is held back (`hold`) delays that event, which every
 * engine's own navigation waits for.
 */
export async function goNoWait(page: EnginePage, origin: string, url: string): Promise<void> {
  await page.goto(`${origin}/__engines/blank.html`);
  // With `pageLoad: 'none'` the navigation returns at once: the blank page first.
  await waitFor(() => page.evaluate(() => location.pathname === '/__engines/blank.html' && document.readyState === 'complete'), 'the blank page');
  await page.evaluate((u: string) => void setTimeout(() => location.assign(u), 0), url);
}

/** The first line of every changed chunk: the side effect that shows it ran. */
export const TAMPER_LINE = 'globalThis.__tampered = (globalThis.__tampered || 0) + 1;\n';

/** The demo behind the proxy. Needs dist/ built (`node scripts/build.mjs --quiet`). */
export async function startShop(options: DemoOptions = {}): Promise<Shop> {
  const tamper = new Set<string>();
  const tamperedServed: string[] = [];
  const sessionPosts: string[] = [];
  const requests: Shop['requests'] = [];
  /** Requests in flight (an event stream stays open): cut when `cut` comes to match them. */
  const open = new Map<IncomingMessage, string>();
  let cut: RegExp | null = null;
  const held = new Map<string, (() => void)[]>();
  const heldAsked: string[] = [];
  let upstream = '';
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const waiting = held.get(path);
    if (waiting) {
      heldAsked.push(path);
      req.pause();
      return void waiting.push(() => {
        req.resume();
        server.emit('request', req, res);
      });
    }
    const refused = !!cut?.test(path);
    requests.push({ method: req.method ?? 'GET', url: req.url ?? '/', at: Date.now(), cut: refused });
    if (refused) return void req.socket.destroy();
    open.set(req, path);
    res.once('close', () => open.delete(req));
    // A page's report to the test (navigator.sendBeacon), kept in `requests` with its query: it outlives the page.
    if (path === '/__engines/beacon') return void res.writeHead(204).end();
    if (path === '/__engines/listen.js') return void res.writeHead(200, { 'content-type': 'text/javascript', 'cache-control': 'no-store' }).end(LISTEN_JS);
    if (path === '/__engines/frame.html') {
      const q = new URL(req.url ?? '/', 'http://x').searchParams;
      const src = q.get('src') ?? '/';
      if (!src.startsWith('/')) return void res.writeHead(400).end('src: a path of this origin');
      const w = Number(q.get('width') ?? 390);
      const h = Number(q.get('height') ?? 844);
      return void res
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' })
        .end(`<!doctype html><html><head><meta charset="utf-8"><title>frame</title></head><body style="margin:0;background:#888">` +
          `<iframe src="${src.replace(/"/g, '&quot;')}" style="display:block;border:0;width:${w}px;height:${h}px;background:#fff"></iframe></body></html>`);
    }
    if (path === '/__engines/blank.html') {
      return void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end('<!doctype html><html><head><meta charset="utf-8"><title>blank</title></head><body></body></html>');
    }
    if (path === '/__engines/cdn.html') {
      const build = new URL(req.url ?? '/', 'http://x').searchParams.get('build');
      const script = build === 'es' ? '<script type="module" src="/paydesk.js"></script>' : '<script src="/cdn/paydesk.iife.js" defer></script>';
      return void res
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' })
        .end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>cdn</title><script src="/__engines/listen.js"></script>${script}</head>` +
          '<body><paydesk-checkout endpoint="/api/paydesk" order-ref="coffee-beans" method-type="SBP" locale="en" theme="light"></paydesk-checkout></body></html>');
    }
    if (req.method === 'POST' && /\/api\/paydesk[\w-]*\/sessions$/.test(path)) sessionPosts.push(path);
    const changed = tamper.has(path);
    const out = request(
      `${upstream}${req.url}`,
      { method: req.method, headers: { ...req.headers, host: new URL(upstream).host, 'accept-encoding': 'identity' } },
      (up: IncomingMessage) => {
        const type = String(up.headers['content-type'] ?? '');
        const headers = { ...up.headers };
        if (!changed && !type.startsWith('text/html')) {
          res.writeHead(up.statusCode ?? 502, headers);
          return void up.pipe(res);
        }
        const parts: Buffer[] = [];
        up.on('data', (b: Buffer) => parts.push(b));
        up.on('end', () => {
          let body = Buffer.concat(parts).toString('utf8');
          if (changed) {
            body = TAMPER_LINE + body;
            tamperedServed.push(path);
          } else body = body.replace(/<head>/i, '<head><script src="/__engines/listen.js"></script>');
          delete headers['content-length'];
          delete headers.etag;
          res.writeHead(up.statusCode ?? 502, headers);
          res.end(body);
        });
      },
    );
    out.on('error', () => res.writeHead(502).end());
    req.pipe(out);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const demo = await startTestDemo({ ...options, allowedOrigins: [origin] });
  upstream = demo.merchantUrl;
  // The storefront's /paydesk.js must be the CDN build (with its loader), not the in-memory bundle
  // that dist/ older than src/ would give: the integrity paths would prove nothing.
  const served = await (await fetch(`${origin}/paydesk.js`)).text();
  const built = readFileSync(join(ROOT, 'dist', 'cdn', 'paydesk.js'), 'utf8');
  if (served !== built) throw new Error('the demo does not serve dist/cdn/paydesk.js (dist/ missing or older than src/): run `node scripts/build.mjs --quiet`');
  return {
    demo,
    origin,
    tamper,
    tamperedServed,
    sessionPosts,
    requests,
    get cut() {
      return cut;
    },
    set cut(pattern: RegExp | null) {
      cut = pattern;
      if (pattern) for (const [req, path] of open) if (pattern.test(path)) req.socket.destroy();
    },
    heldAsked,
    hold: (path) => void held.set(path, held.get(path) ?? []),
    release(path) {
      const waiting = held.get(path) ?? [];
      held.delete(path);
      for (const go of waiting) go();
      return waiting.length;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await demo.close();
    },
  };
}

/** The dist/cdn file of a chunk (`cdn-element` → `chunks/cdn-element-<hash>.js`; `classic/chunks` for the classic script's copy). */
export function chunkPath(dir: 'chunks' | 'classic/chunks', name: string): string {
  const file = readdirSync(join(ROOT, 'dist', 'cdn', dir)).find((f: string) => new RegExp(`^${name}-[0-9a-f]{8}\\.js$`).test(f));
  if (!file) throw new Error(`dist/cdn/${dir}/${name}-<hash>.js is missing: run \`node scripts/build.mjs --quiet\``);
  return `${dir}/${file}`;
}

/** Polls `check` until it returns a truthy value; fails with `what` (and the last value seen) after `ms`. */
export async function waitFor<T>(check: () => Promise<T> | T, what: string, ms = 30_000): Promise<NonNullable<T>> {
  const deadline = Date.now() + ms;
  let last: unknown;
  for (;;) {
    try {
      const v = await check();
      if (v) return v as NonNullable<T>;
      last = v;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what} (last: ${last instanceof Error ? last.message : JSON.stringify(last)})`);
    await new Promise((r) => setTimeout(r, 150));
  }
}

/** What a spec reads of the widget: its step, its order, its shadow text, the errors it fired. */
export interface WidgetView {
  state: string | null;
  order: OrderView | null;
  text: string;
  /** The requisites are on screen (painted by the entry, or by the element). */
  requisites: boolean;
  errors: { code: string; retryable: boolean; message: string }[];
  tampered: number | null;
  url: string;
}

/** Reads the widget `selector` (in the iframe of a frame page when `frame`). */
export function readWidget(page: EnginePage, selector = 'paydesk-checkout', frame = false): Promise<WidgetView> {
  return page.evaluate(
    (sel: string, inFrame: boolean) => {
      const w = (inFrame ? (document.querySelector('iframe') as HTMLIFrameElement).contentWindow! : window) as Window & {
        __paydeskErrors?: unknown[];
        __tampered?: number;
      };
      const el = w.document.querySelector(sel) as (HTMLElement & { state?: string; order?: unknown }) | null;
      return {
        state: el?.state ?? null,
        order: (el?.order ?? null) as never,
        text: (el?.shadowRoot?.textContent ?? el?.textContent ?? '').replace(/\s+/g, ' '),
        requisites: !!el?.shadowRoot?.querySelector('[part~="requisites"]'),
        errors: (w.__paydeskErrors ?? []) as never,
        tampered: w.__tampered ?? null,
        url: w.location.href,
      };
    },
    selector,
    frame,
  );
}

/** Waits for the widget's step `state`; fails early with what it shows if it reaches `error`. */
export async function waitForState(page: EnginePage, state: string, selector = 'paydesk-checkout', frame = false): Promise<WidgetView> {
  let seen: WidgetView | undefined;
  try {
    return await waitFor(async () => {
      seen = await readWidget(page, selector, frame);
      if (seen.state === 'error' && state !== 'error') throw new Error(`the widget shows an error: ${seen.text.slice(0, 200)} ${JSON.stringify(seen.errors)}`);
      return seen.state === state ? seen : null;
    }, `widget state "${state}"`);
  } catch (err) {
    // What the widget last showed, and the page's last toast: a timeout alone says too little to mend.
    const toast = await page.evaluate(() => document.querySelector('#toast')?.textContent ?? null).catch(() => null);
    const last = seen ? `state ${JSON.stringify(seen.state)}, order ${JSON.stringify(seen.order?.status ?? null)}, text "${seen.text.slice(0, 160)}"` : 'nothing read';
    throw new Error(`${(err as Error).message}; last seen: ${last}; toast: ${JSON.stringify(toast)}`, { cause: err });
  }
}

/** Waits for the requisites on screen: the step `pay` with the pay view painted (its chunk may come after the step). */
export async function waitForRequisites(page: EnginePage, selector = 'paydesk-checkout', frame = false): Promise<WidgetView> {
  await waitForState(page, 'pay', selector, frame);
  return waitFor(async () => {
    const w = await readWidget(page, selector, frame);
    return w.state === 'pay' && w.requisites ? w : null;
  }, 'the requisites painted');
}

/**
 * The QR code the widget drew, decoded: its canvas copied with a white margin (a quiet zone) into a
 * PNG in the page, decoded here with jsQR.
 */
export async function decodeWidgetQr(page: EnginePage, selector = 'paydesk-checkout'): Promise<string> {
  const dataUrl = await page.evaluate((sel: string) => {
    const canvas = document.querySelector(sel)?.shadowRoot?.querySelector('[part~="qr"] canvas') as HTMLCanvasElement | null;
    if (!canvas || canvas.width === 0) return null;
    const pad = 24;
    const out = document.createElement('canvas');
    out.width = canvas.width + 2 * pad;
    out.height = canvas.height + 2 * pad;
    const g = out.getContext('2d')!;
    g.fillStyle = '#fff';
    g.fillRect(0, 0, out.width, out.height);
    g.drawImage(canvas, pad, pad);
    return out.toDataURL('image/png');
  }, selector);
  if (!dataUrl) throw new Error('the widget has drawn no QR canvas');
  const png = PNG.sync.read(Buffer.from(dataUrl.slice(dataUrl.indexOf(',') + 1), 'base64'));
  // jsqr is CommonJS: its function is the default export's default under node's interop.
  const decode = jsQR.default;
  const code = decode(new Uint8ClampedArray(png.data.buffer, png.data.byteOffset, png.data.length), png.width, png.height);
  if (!code) throw new Error('no QR code could be decoded from the canvas');
  return code.data;
}

/** The top-left `width` × `height` CSS px of a viewport screenshot (`scale` device px per CSS px). */
export function crop(png: Buffer, width: number, height: number, scale = 1): Buffer {
  const src = PNG.sync.read(png);
  const w = Math.min(src.width, Math.round(width * scale));
  const h = Math.min(src.height, Math.round(height * scale));
  const out = new PNG({ width: w, height: h });
  PNG.bitblt(src, out, 0, 0, w, h, 0, 0);
  return PNG.sync.write(out);
}

/** Presses "Buy" on a product (its button is rendered once the page has applied its settings). */
export async function buy(page: EnginePage, ref: string, frame = false): Promise<void> {
  await waitFor(
    () =>
      page.evaluate(
        (r: string, inFrame: boolean) => {
          const d = inFrame ? (document.querySelector('iframe') as HTMLIFrameElement).contentDocument : document;
          const b = d?.querySelector<HTMLButtonElement>(`[data-buy="${r}"]`);
          if (!b) return false;
          b.click();
          return true;
        },
        ref,
        frame,
      ),
    `the "Buy" button of ${ref}`,
  );
}

/** Presses the widget's button whose text is `label` (a shopper's tap: the element's `click()`). */
export async function press(page: EnginePage, label: string, sel = '#inline-host paydesk-checkout'): Promise<void> {
  await waitFor(
    () =>
      page.evaluate(
        (s: string, l: string) => {
          const root = document.querySelector(s)?.shadowRoot;
          const b = [...(root?.querySelectorAll<HTMLElement>('button, a.btn') ?? [])].find((e) => e.textContent?.trim() === l && !(e as HTMLButtonElement).disabled);
          if (!b) return false;
          b.click();
          return true;
        },
        sel,
        label,
      ),
    `the button "${label}"`,
  );
}
