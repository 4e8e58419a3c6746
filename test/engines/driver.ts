/**
 * One small driver for the three engines a shopper uses, so that the same spec runs in each
 * (test/engines/*.test.ts):
 *   - chromium: /usr/bin/chromium through puppeteer-core (CDP);
 *   - gecko: /usr/bin/firefox-esr through puppeteer-core over WebDriver BiDi (no separate driver);
 *   - webkit: WebKitGTK's MiniBrowser through WebKitWebDriver (W3C WebDriver, spoken here over HTTP)
 *     under an Xvfb of its own (on a display it picks itself).
 * A page is driven through script run in it (`evaluate`): clicks are the element's `click()`, reads
 * are DOM reads, including inside the widget's shadow root. Each `newPage` is a fresh profile (its
 * own storage); `openWindow` opens a second window of the same profile (same storage), which is how
 * a shopper's second tab is tried in WebKit (a new *tab* hangs MiniBrowser under WebDriver).
 *
 * `PAYDESK_ENGINES=chromium,gecko` limits the engines; an engine whose browser is missing fails
 * its tests with how to install it (never a silent skip).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import puppeteer, { type Browser as PBrowser, type Page as PPage } from 'puppeteer-core';
import { DBUS_DAEMON, startNetworkPortal, type NetworkPortal } from './network-portal.js';

export type EngineName = 'chromium' | 'webkit' | 'gecko';
export const ENGINES: readonly EngineName[] = ['chromium', 'webkit', 'gecko'];

/** The engines this run tries: all three, or those named in `PAYDESK_ENGINES`. */
export function enginesToRun(): EngineName[] {
  const wanted = process.env.PAYDESK_ENGINES?.split(',').map((s) => s.trim()).filter(Boolean);
  if (!wanted?.length) return [...ENGINES];
  const bad = wanted.filter((w) => !ENGINES.includes(w as EngineName));
  if (bad.length) throw new Error(`PAYDESK_ENGINES: unknown engine ${bad.join(', ')} (chromium, webkit, gecko)`);
  return wanted as EngineName[];
}

const PATHS = {
  chromium: '/usr/bin/chromium',
  gecko: '/usr/bin/firefox-esr',
  webkitDriver: '/usr/bin/WebKitWebDriver',
  miniBrowser: '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser',
  xvfb: '/usr/bin/Xvfb',
};
const INSTALL: Record<EngineName, string> = {
  chromium: 'apt-get install chromium',
  gecko: 'apt-get install firefox-esr',
  webkit: 'apt-get install webkit2gtk-driver xvfb',
};

/** An iPhone's Safari, as the shopper's phone says it is (WebKit's own string names Safari already). */
export const IPHONE_UA =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.5 Mobile/15E148 Safari/604.1';

export interface PageOptions {
  /** CSS px of the window's viewport (WebKit's MiniBrowser: its window is at least 447 × 806). */
  width?: number;
  height?: number;
  /** false: the page runs without JavaScript. */
  javascript?: boolean;
  userAgent?: string;
  /**
   * `none`: WebDriver commands do not wait for a page's `load` event (WebKit's session capability
   * `pageLoadStrategy`), for a page whose load a held-back script delays; the others' `evaluate` never waits.
   */
  pageLoad?: 'normal' | 'none';
}

/** A function run in the page: its source text and JSON arguments (no closures). */
type PageFn<A extends unknown[], T> = (...args: A) => T | Promise<T>;

export interface EnginePage {
  goto(url: string): Promise<void>;
  reload(): Promise<void>;
  url(): Promise<string>;
  /** Runs `fn` in the page with `args` (JSON values) and returns its (awaited, JSON) result. */
  evaluate<A extends unknown[], T>(fn: PageFn<A, T>, ...args: A): Promise<T>;
  /** A PNG of the viewport. */
  screenshot(): Promise<Buffer>;
  /**
   * Sets files on the `<input type=file>` that `locate` returns (run in the page, shadow roots and
   * all), as the shopper's file picker would: through the driver (CDP / BiDi `input.setFiles` /
   * WebDriver's Element Send Keys), which fires `input` and `change`. `paths`: files on this machine.
   */
  setFiles(locate: () => Element | null | undefined, paths: string[]): Promise<void>;
  /**
   * Runs `fn` in the document of the iframe that `locate` returns (cross-origin too: the driver
   * enters the frame, as CDP/BiDi frames and WebDriver's Switch To Frame do).
   */
  evaluateInFrame<A extends unknown[], T>(locate: () => Element | null | undefined, fn: PageFn<A, T>, ...args: A): Promise<T>;
  /** A second window of the same profile (same storage and cookies) at `url`. */
  openWindow(url: string): Promise<EnginePage>;
  /**
   * Takes the page offline or back through the engine's network emulation (CDP
   * `Network.emulateNetworkConditions`; BiDi `emulation.setNetworkConditions`; WebKit: the system's
   * network state as GIO's portal monitor reports it, when launched with `networkSwitch`), which
   * fires `offline` and `online` in the page. Chromium and Gecko also fail the page's requests; WebKit
   * does not. false: WebKit launched without the switch (classic WebDriver has no command for it),
   * nothing changed.
   */
  setOffline(offline: boolean): Promise<boolean>;
  /**
   * Starts recording the URLs the page's top frame is asked to navigate to, as the engine reports
   * them before any load (CDP `Page.frameRequestedNavigation`: an app's scheme too, which never
   * loads); the function returned reads them. null: the engine reports none (Gecko, WebKit here).
   */
  watchNavigations(): Promise<(() => string[]) | null>;
  close(): Promise<void>;
}

export interface Engine {
  name: EngineName;
  /** The browser's own name and version, as it reports them. */
  version: string;
  newPage(options?: PageOptions): Promise<EnginePage>;
  close(): Promise<void>;
}

export interface LaunchOptions {
  /**
   * WebKit: its network state switchable by `setOffline` (test/engines/network-portal.ts: a portal
   * NetworkMonitor of ours on a private D-Bus, which needs `dbus-daemon`). Chromium and Gecko have
   * network emulation in any case.
   */
  networkSwitch?: boolean;
}

/** Starts the engine's browser (or driver); fails with how to install what is missing. */
export async function launchEngine(name: EngineName, options: LaunchOptions = {}): Promise<Engine> {
  const needed = name === 'webkit' ? [PATHS.webkitDriver, PATHS.miniBrowser, PATHS.xvfb, ...(options.networkSwitch ? [DBUS_DAEMON] : [])] : [PATHS[name]];
  const missing = needed.filter((p) => !existsSync(p));
  if (missing.length) throw new Error(`${name}: ${missing.join(', ')} not found; install with \`${INSTALL[name]}${missing.includes(DBUS_DAEMON) ? ' dbus-daemon' : ''}\``);
  return name === 'webkit' ? launchWebKit(options) : launchPuppeteer(name);
}

// tsx (esbuild's keepNames) wraps named functions in `__name(…)`: the page gets a `__name` of its own.
const source = (fn: PageFn<unknown[], unknown>, args: unknown[]) =>
  `((__name) => (${fn.toString()})(...${JSON.stringify(args)}))((f) => f)`;

// ---------------------------------------------------------------- chromium and gecko (puppeteer-core)

async function launchPuppeteer(name: 'chromium' | 'gecko', firefoxPrefs?: Record<string, unknown>): Promise<Engine> {
  const browser: PBrowser =
    name === 'chromium'
      ? await puppeteer.launch({
          executablePath: PATHS.chromium,
          headless: true,
          args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
        })
      : await puppeteer.launch({ browser: 'firefox', executablePath: PATHS.gecko, headless: true, ...(firefoxPrefs ? { extraPrefsFirefox: firefoxPrefs } : {}) });
  const version = await browser.version();
  const wrap = (page: PPage, options: PageOptions): EnginePage => ({
    goto: async (url) => void (await page.goto(url, { waitUntil: 'load' })),
    reload: async () => void (await page.reload({ waitUntil: 'load' })),
    url: async () => page.url(),
    // A string, not the function: the same text the WebDriver path sends, and no bundler helper names.
    evaluate: async (fn, ...args) => (await page.evaluate(source(fn as PageFn<unknown[], unknown>, args))) as never,
    screenshot: async () => Buffer.from(await page.screenshot({ type: 'png' })),
    setFiles: async (locate, paths) => {
      const handle = (await page.evaluateHandle(source(locate as PageFn<unknown[], unknown>, []))).asElement();
      if (!handle) throw new Error('setFiles: no element found');
      await (handle as import('puppeteer-core').ElementHandle<HTMLInputElement>).uploadFile(...paths);
      await handle.dispose();
    },
    evaluateInFrame: async (locate, fn, ...args) => {
      const handle = (await page.evaluateHandle(source(locate as PageFn<unknown[], unknown>, []))).asElement();
      if (!handle) throw new Error('evaluateInFrame: no frame element found');
      const frame = await (handle as import('puppeteer-core').ElementHandle<HTMLIFrameElement>).contentFrame();
      await handle.dispose();
      if (!frame) throw new Error('evaluateInFrame: the element has no frame');
      return (await frame.evaluate(source(fn as PageFn<unknown[], unknown>, args))) as never;
    },
    setOffline: async (offline) => {
      await page.setOfflineMode(offline);
      return true;
    },
    watchNavigations: async () => {
      if (name !== 'chromium') return null;
      const seen: string[] = [];
      const cdp = await page.createCDPSession();
      await cdp.send('Page.enable');
      const top = (await cdp.send('Page.getFrameTree')).frameTree.frame.id;
      cdp.on('Page.frameRequestedNavigation', (e) => {
        if (e.frameId === top) seen.push(e.url);
      });
      return () => [...seen];
    },
    openWindow: async (url) => {
      const second = await page.browserContext().newPage();
      await setUp(second, options);
      await second.goto(url, { waitUntil: 'load' });
      return wrap(second, options);
    },
    close: () => page.close(),
  });
  const setUp = async (page: PPage, options: PageOptions) => {
    await page.setViewport({ width: options.width ?? 1280, height: options.height ?? 900 });
    if (options.userAgent) await page.setUserAgent({ userAgent: options.userAgent });
    if (options.javascript === false) await page.setJavaScriptEnabled(false);
  };
  /** Firefox ESR 153's BiDi has no `emulation.setScriptingEnabled`: a page without JavaScript gets a browser of its own. */
  let noScript: Engine | undefined;
  return {
    name,
    version,
    async newPage(options = {}) {
      if (name === 'gecko' && options.javascript === false) {
        noScript ??= await launchPuppeteer(name, { 'javascript.enabled': false });
        return noScript.newPage({ ...options, javascript: true });
      }
      const context = await browser.createBrowserContext();
      const page = await context.newPage();
      await setUp(page, options);
      const wrapped = wrap(page, options);
      return { ...wrapped, close: () => context.close() };
    },
    close: async () => {
      await noScript?.close();
      await browser.close();
    },
  };
}

// ---------------------------------------------------------------- webkit (WebKitWebDriver over HTTP)

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

/** An Xvfb on a display it picks itself (`-displayfd`: no race with another server starting). */
async function startXvfb(children: ChildProcess[]): Promise<number> {
  const xvfb = spawn(PATHS.xvfb, ['-displayfd', '1', '-screen', '0', '1600x1200x24', '-nolisten', 'tcp'], { stdio: ['ignore', 'pipe', 'ignore'] });
  children.push(xvfb);
  return new Promise<number>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error('Xvfb named no display within 15 s')), 15_000);
    xvfb.stdout!.on('data', (b: Buffer) => {
      out += b.toString();
      const m = /^(\d+)\n/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(Number(m[1]));
      }
    });
    xvfb.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`Xvfb exited (${code}) before naming a display`));
    });
  });
}

async function waitFor(check: () => Promise<boolean> | boolean, what: string, ms = 15_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await Promise.resolve().then(check).catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`timed out: ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

class WebDriverError extends Error {}

async function launchWebKit(options: LaunchOptions): Promise<Engine> {
  const children: ChildProcess[] = [];
  let portal: NetworkPortal | undefined;
  const stop = async () => {
    for (const c of children.reverse()) if (c.exitCode === null && c.signalCode === null) c.kill('SIGTERM');
    void portal?.close();
    process.off('exit', stopNow);
  };
  // A run that ends without closing the engine (a test file cut off) leaves no Xvfb or driver behind.
  const stopNow = () => void stop();
  process.once('exit', stopNow);
  try {
    const display = await startXvfb(children);
    if (options.networkSwitch) portal = await startNetworkPortal();
    const port = await freePort();
    const driver = spawn(PATHS.webkitDriver, [`--port=${port}`], { stdio: 'ignore', env: { ...process.env, ...portal?.env, DISPLAY: `:${display}` } });
    children.push(driver);
    const base = `http://127.0.0.1:${port}`;
    await waitFor(async () => (await fetch(`${base}/status`)).ok, 'WebKitWebDriver answering');
    const call = async <T>(method: string, path: string, body?: unknown, timeoutMs = 90_000): Promise<T> => {
      if (process.env.PAYDESK_ENGINES_DEBUG) console.error(`webdriver ${new Date().toISOString()} ${method} ${path}`);
      const started = Date.now();
      const res = await fetch(`${base}${path}`, {
        method,
        // A command that hangs (a browser that stopped answering) fails its test instead of the whole run.
        signal: AbortSignal.timeout(timeoutMs),
        headers: { 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      }).catch((err: Error) => {
        // Name the command that was not answered (WebKit, about one run in eight: a stalled command).
        throw new WebDriverError(`WebDriver ${method} ${path}: no answer after ${Date.now() - started} ms (${err.message})`);
      });
      const json = (await res.json()) as { value: T & { error?: string; message?: string } };
      if (!res.ok) throw new WebDriverError(`WebDriver ${method} ${path}: ${json.value?.error} ${json.value?.message ?? ''}`);
      return json.value;
    };
    let version = '';
    const sessions = new Set<string>();

    const windowPage = (session: string, handle: string, options: PageOptions): EnginePage => {
      const s = `/session/${session}`;
      const focus = () => call('POST', `${s}/window`, { handle });
      let closed = false;
      return {
        goto: async (url) => void (await focus(), await call('POST', `${s}/url`, { url })),
        reload: async () => void (await focus(), await call('POST', `${s}/refresh`, {})),
        url: async () => (await focus(), call<string>('GET', `${s}/url`)),
        evaluate: async (fn, ...args) => {
          await focus();
          const script =
            `const done = arguments[arguments.length - 1];` +
            `Promise.resolve().then(() => ${source(fn as PageFn<unknown[], unknown>, args)})` +
            `.then((v) => done({ ok: v === undefined ? null : v }), (e) => done({ error: String(e && e.stack || e) }));`;
          const r = await call<{ ok?: unknown; error?: string }>('POST', `${s}/execute/async`, { script, args: [] });
          if (r && typeof r === 'object' && 'error' in r && r.error) throw new Error(`in the page: ${r.error}`);
          return (r as { ok: unknown }).ok as never;
        },
        screenshot: async () => (await focus(), Buffer.from(await call<string>('GET', `${s}/screenshot`), 'base64')),
        setFiles: async (locate, paths) => {
          await focus();
          const ref = await call<Record<string, string> | null>('POST', `${s}/execute/sync`, { script: `return ${source(locate as PageFn<unknown[], unknown>, [])};`, args: [] });
          const id = ref && ref['element-6066-11e4-a52e-4f735466cecf'];
          if (!id) throw new Error('setFiles: no element found');
          // A file input takes the paths, one a line (WebDriver's Element Send Keys).
          await call('POST', `${s}/element/${id}/value`, { text: paths.join('\n') });
        },
        evaluateInFrame: async (locate, fn, ...args) => {
          await focus();
          const ref = await call<Record<string, string> | null>('POST', `${s}/execute/sync`, { script: `return ${source(locate as PageFn<unknown[], unknown>, [])};`, args: [] });
          if (!ref?.['element-6066-11e4-a52e-4f735466cecf']) throw new Error('evaluateInFrame: no frame element found');
          await call('POST', `${s}/frame`, { id: ref });
          try {
            const script =
              `const done = arguments[arguments.length - 1];` +
              `Promise.resolve().then(() => ${source(fn as PageFn<unknown[], unknown>, args)})` +
              `.then((v) => done({ ok: v === undefined ? null : v }), (e) => done({ error: String(e && e.stack || e) }));`;
            const r = await call<{ ok?: unknown; error?: string }>('POST', `${s}/execute/async`, { script, args: [] });
            if (r && typeof r === 'object' && 'error' in r && r.error) throw new Error(`in the frame: ${r.error}`);
            return (r as { ok: unknown }).ok as never;
          } finally {
            await call('POST', `${s}/frame`, { id: null }).catch(() => undefined);
          }
        },
        // WebKit's network process asks the portal again at its signal, then WebKit tells the pages.
        setOffline: async (offline) => {
          if (!portal) return false;
          await portal.setAvailable(!offline);
          return true;
        },
        watchNavigations: async () => null,
        openWindow: async (url) => {
          await focus();
          const { handle: second } = await call<{ handle: string }>('POST', `${s}/window/new`, { type: 'window' });
          const page = windowPage(session, second, options);
          await call('POST', `${s}/window`, { handle: second });
          await call('POST', `${s}/window/rect`, { width: options.width ?? 1280, height: options.height ?? 900 }).catch(() => undefined);
          await page.goto(url);
          return page;
        },
        close: async () => {
          if (closed) return;
          closed = true;
          await focus().catch(() => undefined);
          await call('DELETE', `${s}/window`).catch(() => undefined);
        },
      };
    };

    return {
      name: 'webkit',
      get version() {
        return version;
      },
      async newPage(options = {}) {
        const args = ['--automation'];
        if (options.userAgent) args.push(`--user-agent=${options.userAgent}`);
        if (options.javascript === false) args.push('--enable-javascript=false');
        const capabilities = {
          alwaysMatch: {
            'webkitgtk:browserOptions': { binary: PATHS.miniBrowser, args },
            timeouts: { script: 60_000, pageLoad: 60_000 },
            ...(options.pageLoad === 'none' ? { pageLoadStrategy: 'none' } : {}),
          },
        };
        type Created = { sessionId: string; capabilities: { browserName: string; browserVersion: string } };
        // A MiniBrowser that never connects leaves its new session unanswered (seen about once in
        // four WebKit runs of the suite, at a test's start, before any page of it): a second
        // MiniBrowser is asked for after 30 s, once, rather than failing the test at 90 s.
        const created = await call<Created>('POST', '/session', { capabilities }, 30_000).catch((err: unknown) => {
          if (!(err instanceof WebDriverError) || !/no answer after/.test(err.message)) throw err;
          console.error(`webkit: ${err.message}; asking for a new session once more`);
          return call<Created>('POST', '/session', { capabilities });
        });
        const session = created.sessionId;
        sessions.add(session);
        version ||= `${created.capabilities.browserName} ${created.capabilities.browserVersion}`;
        await call('POST', `/session/${session}/window/rect`, { width: options.width ?? 1280, height: options.height ?? 900 }).catch(() => undefined);
        const handle = await call<string>('GET', `/session/${session}/window`);
        const page = windowPage(session, handle, options);
        return {
          ...page,
          close: async () => {
            if (!sessions.delete(session)) return;
            await call('DELETE', `/session/${session}`).catch(() => undefined);
          },
        };
      },
      async close() {
        for (const session of sessions) await call('DELETE', `/session/${session}`).catch(() => undefined);
        sessions.clear();
        await stop();
      },
    };
  } catch (err) {
    await stop();
    throw err;
  }
}
