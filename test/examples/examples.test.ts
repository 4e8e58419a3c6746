/**
 * The example apps in examples/, each installed from the packed tarball into a temp copy
 * (`npm install <tarball>`, as a user installs paydesk), built where they have a build, started against
 * the sandbox from the installed package (`paydesk-sandbox`), and used in Chromium: the requisites of
 * a new order are painted, the sandbox completes the order, and the page shows it paid (provider
 * webhook → example server → event stream → element).
 */
import assert from 'node:assert/strict';
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import {
  EXAMPLES,
  WAIT_MS,
  freePort,
  installExample,
  launchBrowser,
  npm,
  startExampleServer,
  startProcess,
  startSandbox,
  waitForOutput,
  type InstalledExample,
  type Running,
} from './helpers.js';
import { buy as buyIn, buyServerRendered, elementPaid, type Purchase } from './shopper.js';

let browser: Browser;

before(async () => {
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
});

/** A purchase in a fresh browser context of this suite's browser (test/examples/shopper.ts). */
const buy = (url: string, sandboxUrl: string, beforePaying?: (page: Page) => Promise<void>, together: RegExp[] = []): Promise<Purchase> =>
  buyIn(browser, url, sandboxUrl, beforePaying, together);

interface Stack {
  example: InstalledExample;
  sandbox: Running;
  /** The example's `node server.js` (started in `before` unless `server: false`). */
  server: Running;
}

/** Installs an example, starts the sandbox (and the example's server) before the suite's tests; stops and removes them after. */
function exampleStack(name: string, { server = true } = {}): Stack {
  const s = {} as Stack;
  before(async () => {
    s.example = await installExample(name);
    s.sandbox = await startSandbox(s.example.dir);
    if (server) s.server = await startExampleServer(s.example.dir, s.sandbox.url);
  });
  after(async () => {
    await s.server?.stop();
    await s.sandbox?.stop();
    await s.example?.remove();
  });
  return s;
}

/** Before paying: the heading is the Kazakh table's (imported from `chunkUrl` to read it). */
/** The installed package's Kazakh table: `chunks/kk-<hash>.js` (chunk names carry a hash of their content). */
const kazakhChunk = async (dir: string) =>
  `chunks/${(await readdir(join(dir, 'node_modules', 'paydesk', 'dist', 'cdn', 'chunks'))).find((f) => /^kk-[0-9a-f]{8}\.js$/.test(f))}`;

const kazakhHeading = (chunkUrl: string) => async (page: Page) => {
  const title = await page.evaluate(async (url) => ((await import(url)) as { default: { payTitle: string } }).default.payTitle, chunkUrl);
  assert.ok(title, 'the Kazakh table has payTitle');
  await page.locator('paydesk-checkout [part~="heading"]', { hasText: title }).first().waitFor({ timeout: WAIT_MS });
};

describe('examples/node-http: plain node:http server, the CDN ES module from the package', () => {
  const s = exampleStack('node-http');

  test('a purchase: requisites painted, completed in the sandbox, the element shows it paid', async () => {
    const { page, orderId, requests, errors } = await buy(`${s.server.url}/`, s.sandbox.url);
    await elementPaid(page);
    assert.ok(requests.includes('/paydesk/paydesk.js'), 'the page loaded the ES module from the package');
    // onOrderPaid runs on the server once the order is confirmed, around the time the page shows it.
    await waitForOutput(s.server, new RegExp(`paid: coffee-beans \\(order ${orderId}\\)`), 'onOrderPaid on the server');
    assert.deepEqual(errors, []);
    await page.context().close();
  });

  test('a lazily loaded language: ?lang=kk fetches the Kazakh table from chunks/ beside the module', async () => {
    // No waterfall: the create and the table's first-paint messages go out in one round trip (the first
    // paint's code is the module's own); the whole table follows with the element's own code.
    const kk = `/paydesk/${await kazakhChunk(s.example.dir)}`;
    const { page, requests, errors } = await buy(`${s.server.url}/?lang=kk&product=green-tea`, s.sandbox.url, kazakhHeading(kk), [
      /^POST \/.*\/sessions$/,
      /^GET \/paydesk\/chunks\/kk-first-[0-9a-f]{8}\.js$/,
    ]);
    await elementPaid(page);
    assert.ok(requests.includes(kk), `kk.js was fetched: ${requests.join(' ')}`);
    assert.deepEqual(errors, []);
    await page.context().close();
  });

  test('/checkout, server-rendered (paydesk/ssr): requisites without JavaScript, one order, taken over, same order on reload, paid', async () => {
    const { orderId, errors } = await buyServerRendered(browser, `${s.server.url}/checkout`, s.sandbox.url, /1 500/);
    await waitForOutput(s.server, new RegExp(`paid: coffee-beans \\(order ${orderId}\\)`), 'onOrderPaid on the server');
    assert.deepEqual(errors, []);
  });
});

describe('examples/express-script-tag: Express 5 middleware, the classic script with its integrity value', () => {
  const s = exampleStack('express-script-tag');

  test('the page carries the integrity value of the installed paydesk.iife.js and a strict script-src', async () => {
    const res = await fetch(`${s.server.url}/`);
    const html = await res.text();
    const sri = JSON.parse(
      await readFile(join(s.example.dir, 'node_modules', 'paydesk', 'dist', 'cdn', 'paydesk.sri.json'), 'utf8'),
    ) as Record<string, string>;
    assert.ok(html.includes(`integrity="${sri['paydesk.iife.js']}"`), 'the script tag has the integrity value');
    assert.match(res.headers.get('content-security-policy') ?? '', /script-src 'self'/);
  });

  test('a purchase: requisites painted, completed in the sandbox, the element shows it paid', async () => {
    const { page, orderId, requests, errors } = await buy(`${s.server.url}/`, s.sandbox.url);
    await elementPaid(page);
    assert.ok(requests.includes('/assets/paydesk/paydesk.iife.js'), 'the page loaded the classic script');
    // onOrderPaid runs on the server once the order is confirmed, around the time the page shows it.
    await waitForOutput(s.server, new RegExp(`paid: coffee-beans \\(order ${orderId}\\)`), 'onOrderPaid on the server');
    assert.deepEqual(errors, []);
    await page.context().close();
  });

  test('a Kazakh page: the deferred classic script fetches chunks/kk.js from beside its own URL', async () => {
    const kk = `/assets/paydesk/${await kazakhChunk(s.example.dir)}`;
    const { page, requests, errors } = await buy(`${s.server.url}/?lang=kk`, s.sandbox.url, kazakhHeading(kk), [
      /^POST \/.*\/sessions$/,
      /^GET \/assets\/paydesk\/(classic\/)?chunks\/kk-first-[0-9a-f]{8}\.js$/,
    ]);
    await elementPaid(page);
    assert.ok(requests.includes(kk), `kk.js was fetched: ${requests.join(' ')}`);
    assert.deepEqual(errors, []);
    await page.context().close();
  });

  test('/checkout, server-rendered (paydesk/ssr) under the same strict script-src: requisites without JavaScript, one order, taken over, same order on reload, paid', async () => {
    const res = await fetch(`${s.server.url}/checkout?product=green-tea`);
    assert.match(res.headers.get('content-security-policy') ?? '', /script-src 'self'/);
    assert.match(await res.text(), /<paydesk-checkout [^>]*session="[^"]+"[^>]*><template shadowrootmode="open">/, 'the element and its shadow root are in the HTML');
    const { orderId, errors } = await buyServerRendered(browser, `${s.server.url}/checkout?product=green-tea`, s.sandbox.url, /990/);
    await waitForOutput(s.server, new RegExp(`paid: green-tea \\(order ${orderId}\\)`), 'onOrderPaid on the server');
    assert.deepEqual(errors, []);
  });
});

describe('examples/vite-react: Vite + React with paydesk/react', () => {
  const s = exampleStack('vite-react', { server: false });

  /** Pays in the React app and waits for the app's own "Paid" line (set from onPaydeskPaid). */
  async function buyInApp(url: string, together: RegExp[] = []): Promise<Purchase> {
    const purchase = await buy(url, s.sandbox.url, undefined, together);
    await purchase.page.locator('#paid', { hasText: purchase.orderId }).waitFor({ timeout: WAIT_MS });
    return purchase;
  }

  test('npm run build: type-checks (tsc) and bundles with Vite', async () => {
    await npm(['run', 'build'], s.example.dir, 180_000);
    const assets = await readdir(join(s.example.dir, 'dist', 'assets'));
    assert.ok(assets.some((f) => /^index-.*\.js$/.test(f)), `an entry bundle: ${assets.join(' ')}`);
  });

  test('the built app (npm start): a purchase through paydesk/react, onPaydeskPaid updates React state', async () => {
    assert.ok(s.example, 'installed');
    const server = await startExampleServer(s.example.dir, s.sandbox.url);
    try {
      const { page, errors } = await buyInApp(`${server.url}/`);
      assert.deepEqual(errors, []);
      await page.context().close();
      // Vite's own preloading: the create, the requisites' step (pay-step, with the pay view) and the Kazakh table in one round trip.
      const kk = await buyInApp(`${server.url}/?lang=kk&product=green-tea`, [/^POST \/.*\/sessions$/, /^GET \/assets\/pay-step-[\w-]+\.js$/, /^GET \/assets\/kk-[\w-]+\.js$/]);
      assert.ok(
        kk.requests.some((p) => /^\/assets\/kk-[\w-]+\.js$/.test(p)),
        `the Kazakh table was fetched as its own chunk: ${kk.requests.join(' ')}`,
      );
      assert.deepEqual(kk.errors, []);
      await kk.page.context().close();
    } finally {
      await server.stop();
    }
  });

  test('the Vite dev server (npm run dev) proxies /api/paydesk to the API server: a purchase', async () => {
    const api = await startExampleServer(s.example.dir, s.sandbox.url);
    try {
      const port = await freePort();
      const vite = await startProcess(join(s.example.dir, 'node_modules', '.bin', 'vite'), ['--host', '127.0.0.1', '--port', String(port), '--strictPort'], {
        cwd: s.example.dir,
        env: { PAYDESK_API_ORIGIN: api.url },
        ready: /Local:\s+(http:\/\/127\.0\.0\.1:\d+)\//,
        label: 'vite dev server',
      });
      try {
        const { page, errors } = await buyInApp(`${vite.url}/`);
        assert.deepEqual(errors, []);
        await page.context().close();
      } finally {
        await vite.stop();
      }
    } finally {
      await api.stop();
    }
  });
});

test('every folder of examples/ is exercised by this suite', async () => {
  const folders = (await readdir(EXAMPLES, { withFileTypes: true })).filter((d) => d.isDirectory()).map((d) => d.name);
  // next-app: test/examples/next-app.test.ts; console-express: test/examples/console-express.test.ts.
  assert.deepEqual(folders.sort(), ['console-express', 'express-script-tag', 'next-app', 'node-http', 'vite-react']);
});
