/**
 * Code integrity of the CDN files (issue 23, DESIGN.md "Code integrity"), in Chromium: a page with a
 * strict CSP (`script-src 'self'`, as examples/express-script-tag) loads `dist/cdn/paydesk.js` or
 * `paydesk.iife.js` from a static server of dist/cdn, with the real token endpoint and the sandbox.
 * The server hands out a changed copy of one chunk at a time, on the first paint's path (the Russian
 * first-paint table, whose digest the entry carries; the paint is the entry's own code) and after it
 * along the chain (the element's chunk; what it loads and carries the digests of: the whole Russian
 * table, the pay step; the QR encoder, whose digest the entry carries): the changed code never runs (it
 * would count itself in `window.__tampered`), the element fires `paydesk-error` with
 * `code: "integrity"` and shows its error step instead of the requisites.
 * Untouched, the same pages paint the requisites with no CSP violation.
 *
 * Needs `dist/` (npm test builds it first; alone: `node scripts/build.mjs --quiet`).
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser } from '../../chromium.js';
import { createSandbox } from '../../../src/sandbox/index.js';
import { createCheckoutHandler, toNodeListener, type CheckoutHandler } from '../../../src/server/index.js';
import { staticImports } from '../../../scripts/static-imports.mjs';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const cdn = join(root, 'dist', 'cdn');
const API_KEY = 'integrity_test_terminal';
const CSP = "script-src 'self'; object-src 'none'; base-uri 'none'";

/** The file of a chunk in a folder of dist/cdn (`pay-view` → `pay-view-<hash>.js`). */
function chunkFile(dir: string, name: string): string {
  const found = readdirSync(join(cdn, dir)).find((f) => new RegExp(`^${name}(-[0-9a-f]{8})?\\.js$`).test(f));
  assert.ok(found, `dist/cdn/${dir}/${name}-<hash>.js exists`);
  return `${dir}/${found}`;
}

/**
 * What a page loads before its requisites are painted (ES module or classic script, Russian page),
 * beside the entry, which carries the paint itself: the Russian first-paint table.
 */
function firstPaintPath(kind: 'es' | 'classic'): string[] {
  const entry = readFileSync(join(cdn, kind === 'es' ? 'paydesk.js' : 'paydesk.iife.js'), 'utf8');
  assert.ok(entry.includes('part="requisites"'), 'the entry carries the first paint');
  assert.deepEqual(staticImports(entry), [], 'the entry imports nothing statically');
  return [loaded(kind, 'ru-first')];
}

/** The file the page loads for a chunk: the classic script's copy where it has one. */
function loaded(kind: 'es' | 'classic', name: string): string {
  const copied = kind === 'classic' && readdirSync(join(cdn, 'classic', 'chunks')).some((f) => new RegExp(`^${name}-[0-9a-f]{8}\\.js$`).test(f));
  return chunkFile(copied ? 'classic/chunks' : 'chunks', name);
}

/**
 * What a page loads after its first paint, down the chain: the element's own code (its digest in the
 * entry), the whole Russian table (its digest in the Russian first-paint table, which the entry loads
 * it with, beside the element's chunk; and in the element's chunk), the pay step (in the element's chunk), the QR encoder
 * (its digest in the entry: the paint draws the QR on a desktop).
 */
function afterPaint(kind: 'es' | 'classic'): string[] {
  return ['cdn-element', 'ru', 'pay-step', 'qr'].map((name) => loaded(kind, name));
}

const LISTEN = `window.__errors = [];
window.__csp = [];
document.addEventListener('paydesk-error', (e) => window.__errors.push(e.detail));
document.addEventListener('securitypolicyviolation', (e) => window.__csp.push(e.violatedDirective + ' ' + e.blockedURI));
window.__order = null;
document.addEventListener('paydesk-session', (e) => (window.__order = e.detail.order));
`;

const page = (script: string) => `<!doctype html>
<html lang="ru"><head><meta charset="utf-8"><title>integrity</title><script src="/pages/listen.js"></script></head>
<body><paydesk-checkout endpoint="/api/paydesk" order-ref="tee" method-type="SBP"></paydesk-checkout>${script}</body></html>`;

const PAGES: Record<string, string> = {
  'es.html': page('<script type="module" src="/cdn/paydesk.js"></script>'),
  'classic.html': page('<script src="/cdn/paydesk.iife.js" defer></script>'),
  'trusted-types.html': page('<script type="module" src="/cdn/paydesk.js"></script>'),
  'trusted-types-refused.html': page('<script type="module" src="/cdn/paydesk.js"></script>'),
};
/** The Trusted Types page: a script's URL only from a policy (the loader's `paydesk`; Lit's own `lit-html`). */
const TT_CSP = `${CSP}; require-trusted-types-for 'script'; trusted-types paydesk lit-html`;
/** A Trusted Types page that allows Lit's policy but not paydesk's. */
const TT_REFUSED_CSP = `${CSP}; require-trusted-types-for 'script'; trusted-types lit-html`;

describe('code integrity of the CDN files (Chromium, strict CSP)', () => {
  let server: Server;
  let base = '';
  let browser: Browser;
  let handler: CheckoutHandler;
  let sandbox: ReturnType<typeof createSandbox>;
  /** dist/cdn path → the text served instead. */
  const tampered = new Map<string, string>();
  const served = new Set<string>();

  before(async () => {
    if (!existsSync(join(cdn, 'paydesk.iife.js'))) throw new Error('dist/ is missing: run `node scripts/build.mjs --quiet` first');
    sandbox = createSandbox({ apiKey: API_KEY, seed: false });
    const provider = await sandbox.listen({ port: 0 });
    let endpoint: ReturnType<typeof toNodeListener> | undefined;
    server = createServer((req, res) => {
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      if (path.startsWith('/api/paydesk/')) return void endpoint!(req, res);
      const headers = { 'cache-control': 'no-store', 'content-security-policy': CSP };
      if (path === '/pages/listen.js') return void res.writeHead(200, { ...headers, 'content-type': 'text/javascript' }).end(LISTEN);
      const html = PAGES[path.slice('/pages/'.length)];
      const csp = path.endsWith('/trusted-types.html')
        ? { 'content-security-policy': TT_CSP }
        : path.endsWith('/trusted-types-refused.html')
          ? { 'content-security-policy': TT_REFUSED_CSP }
          : {};
      if (path.startsWith('/pages/') && html) return void res.writeHead(200, { ...headers, ...csp, 'content-type': 'text/html; charset=utf-8' }).end(html);
      const file = path.startsWith('/cdn/') && !path.includes('..') ? path.slice('/cdn/'.length) : null;
      if (!file) return void res.writeHead(404).end();
      served.add(file);
      const type = file.endsWith('.map') ? 'application/json' : 'text/javascript; charset=utf-8';
      const swap = tampered.get(file);
      if (swap !== undefined) return void res.writeHead(200, { ...headers, 'content-type': type }).end(swap);
      readFile(join(cdn, file)).then(
        (body) => res.writeHead(200, { ...headers, 'content-type': type }).end(body),
        () => res.writeHead(404).end(),
      );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    handler = createCheckoutHandler({
      provider: { baseUrl: provider.url, apiKey: API_KEY },
      resolveOrder: (ref) => (ref === 'tee' ? { amount: '1500.00' } : null),
      sessionSecrets: ['integrity-test-session-secret-0123456789abcdef'],
      webhookUrl: `${base}/api/paydesk/webhooks`,
      webhookSecrets: [sandbox.webhookSecret()],
    });
    endpoint = toNodeListener(handler);
    browser = await launchBrowser();
  });

  after(async () => {
    await browser?.close();
    server?.closeAllConnections();
    server?.close();
    await handler?.close();
    await sandbox?.close();
  });

  async function open(kind: 'es' | 'classic'): Promise<{ page: Page; pageErrors: string[] }> {
    const p = await browser.newPage();
    const pageErrors: string[] = [];
    p.on('pageerror', (e) => pageErrors.push(e.message));
    await p.goto(`${base}/pages/${kind}.html`);
    return { page: p, pageErrors };
  }

  test('es, on a page that enforces Trusted Types: the chunks load through the loader\'s policy, the requisites are painted', async () => {
    tampered.clear();
    const p = await browser.newPage();
    const pageErrors: string[] = [];
    p.on('pageerror', (e) => pageErrors.push(e.message));
    await p.goto(`${base}/pages/trusted-types.html`);
    await p.locator('paydesk-checkout [part~="requisites"]').waitFor({ state: 'visible', timeout: 20_000 });
    assert.equal(await p.evaluate(() => typeof (window as unknown as { trustedTypes?: unknown }).trustedTypes), 'object', 'the page has Trusted Types');
    assert.deepEqual(await p.evaluate(() => (window as unknown as { __errors: unknown[] }).__errors), []);
    assert.deepEqual(await p.evaluate(() => (window as unknown as { __csp: string[] }).__csp), []);
    assert.deepEqual(pageErrors, []);
    await p.close();
  });

  // The first-paint messages load through the same policy as every chunk: refused, nothing is painted
  // (and the paint's HTML, which needs it too, is never written).
  test('es, on a page whose Trusted Types do not allow paydesk\'s policy: nothing is painted first, no empty shadow root is left', async () => {
    tampered.clear();
    const p = await browser.newPage();
    await p.goto(`${base}/pages/trusted-types-refused.html`);
    // The entry ran (its first request went out), and its paint did not take the element.
    await p.waitForFunction(() => (window as unknown as { __csp: string[] }).__csp.length > 0 || performance.getEntriesByType('resource').some((e) => e.name.includes('/sessions')), null, { timeout: 20_000 });
    await new Promise((r) => setTimeout(r, 1000));
    assert.equal(await p.evaluate(() => document.querySelector('paydesk-checkout')!.shadowRoot), null, 'no shadow root: the page\'s own content stays');
    assert.equal(await p.locator('paydesk-checkout [part~="requisites"]').count(), 0);
    await p.close();
  });

  for (const kind of ['es', 'classic'] as const) {
    test(`${kind}: untouched, the requisites are painted under script-src 'self', every chunk checked`, async () => {
      tampered.clear();
      served.clear();
      const { page: p, pageErrors } = await open(kind);
      await p.locator('paydesk-checkout [part~="requisites"]').waitFor({ state: 'visible', timeout: 20_000 });
      await p.waitForFunction(() => (window as unknown as { __order: unknown }).__order);
      const state = await p.evaluate(() => ({
        errors: (window as unknown as { __errors: unknown[] }).__errors,
        csp: (window as unknown as { __csp: string[] }).__csp,
        preloads: [...document.querySelectorAll('script[type="module"][integrity]')].map((l) => [
          new URL((l as HTMLScriptElement).src).pathname,
          (l as HTMLScriptElement).integrity,
        ]),
      }));
      assert.deepEqual(state.errors, []);
      assert.deepEqual(state.csp, []);
      assert.deepEqual(pageErrors, []);
      const sri = JSON.parse(await readFile(join(cdn, 'paydesk.sri.json'), 'utf8')) as Record<string, string>;
      for (const file of firstPaintPath(kind)) {
        assert.ok(served.has(file), `${file} was loaded`);
        const link = state.preloads.find(([path]) => path === `/cdn/${file}`);
        assert.deepEqual(link, [`/cdn/${file}`, sri[file]], `${file} was loaded with its integrity value`);
      }
      await p.close();
    });

    // What comes after the first paint, changed: the painted requisites give way to the error.
    for (const file of [...firstPaintPath(kind), ...afterPaint(kind)]) {
      test(`${kind}: a changed ${file} never runs; paydesk-error "integrity" and the error step instead of the requisites`, async () => {
        tampered.clear();
        tampered.set(file, `globalThis.__tampered = (globalThis.__tampered || 0) + 1;\n${await readFile(join(cdn, file), 'utf8')}`);
        served.clear();
        const { page: p } = await open(kind);
        // Whichever comes first: an error event, or the requisites (which a changed chunk must never reach).
        await p.waitForFunction(
          () =>
            (window as unknown as { __errors: unknown[] }).__errors.length > 0 ||
            !!document.querySelector('paydesk-checkout')?.shadowRoot?.querySelector('[part~="requisites"]'),
          null,
          { timeout: 20_000 },
        );
        const widget = p.locator('paydesk-checkout');
        // The error step in place of anything painted before (a first paint gives way once the element has the error).
        await p.waitForFunction(() => {
          const el = document.querySelector('paydesk-checkout') as (HTMLElement & { state: string }) | null;
          return el?.state === 'error' && !el.shadowRoot?.querySelector('[part~="requisites"]');
        });
        assert.ok(served.has(file), `the changed ${file} was served`);
        assert.equal(await p.evaluate(() => (globalThis as { __tampered?: number }).__tampered), undefined, 'the changed code did not run');
        assert.deepEqual(
          (await p.evaluate(() => (window as unknown as { __errors: { code: string }[] }).__errors)).map((e) => e.code),
          ['integrity'],
          'one paydesk-error, code "integrity"',
        );
        assert.equal(await widget.locator('[part~="requisites"]').count(), 0, 'no requisites');
        assert.equal(await widget.locator('[part~="amount"]').count(), 0);
        assert.notEqual((await widget.locator('[part="base"] p').first().innerText()).trim(), '', 'the error step says why');
        assert.deepEqual(await p.evaluate(() => (window as unknown as { __csp: string[] }).__csp), []);
        await p.close();
      });
    }
  }
});
