/**
 * Issue 20 in Chromium: a UZS terminal end to end (its own sandbox, the real handler, the built
 * widget) with `method-type="BankCard"` reaching the requisites in sums without minor units; and the
 * hosted form framed in the demo's modal on a 320 px phone as one card, its method list ≥ 260 px.
 * Needs `node scripts/build.mjs` first (the built widget in dist/cdn).
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { readFile } from 'node:fs/promises';
import { join, normalize } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { createProviderClient } from '../../src/provider/index.js';
import { createSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { createCheckoutHandler, toNodeListener, type CheckoutHandler } from '../../src/server/index.js';
import { launchBrowser, newShopper, openCheckout, screenshot, storefrontSuite, waitForWidgetState, widgetOrder, type TestDemo, ROOT } from './helpers.js';

const CDN = join(ROOT, 'dist', 'cdn');
const cdnFile = async (path: string): Promise<string | null> => {
  const file = normalize(join(CDN, path));
  if (!file.startsWith(CDN)) return null;
  return readFile(file, 'utf8').catch(() => null);
};

describe('a UZS terminal end to end', () => {
  const KEY = 'merchant_uzs_key_0123456789abcdef';
  let sandbox: Sandbox;
  let handler: CheckoutHandler;
  let server: Server;
  let base = '';
  let browser: Browser;

  before(async () => {
    sandbox = createSandbox({ apiKey: KEY, currency: 'UZS', seed: false, sweepIntervalMs: 0, webhookRetryDelaysMs: [] });
    const { url } = await sandbox.listen({ port: 0, host: '127.0.0.1' });
    handler = createCheckoutHandler({
      provider: { client: createProviderClient({ baseUrl: url, apiKey: KEY, maxRetries: 0 }), apiKey: KEY },
      sessionSecrets: ['e2e-uzs-session-secret-0123456789abcdef'],
      resolveOrder: () => ({ amount: '150000.00', currency: 'UZS' }),
      rateLimits: false,
    });
    const api = toNodeListener(handler);
    server = createServer((req, res) => {
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      if (path.startsWith('/api/paydesk/')) return void api(req, res);
      if (path === '/') {
        const q = new URL(req.url ?? '/', 'http://x').searchParams;
        res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
        return void res.end(`<!doctype html><html lang="uz"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><script type="module" src="/paydesk.js"></script></head><body><paydesk-checkout endpoint="/api/paydesk" order-ref="uzs-${q.get('n')}" method-type="${q.get('type')}" locale="uz"></paydesk-checkout></body></html>`);
      }
      void cdnFile(path).then((code) => {
        if (code === null) return void res.writeHead(404).end();
        res.writeHead(200, { 'Content-Type': 'text/javascript; charset=utf-8' }).end(code);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await new Promise((resolve) => server?.close(resolve));
    await handler?.close();
    await sandbox?.close();
  });

  for (const [n, type] of [[1, 'BankCard'], [2, 'TransBankCard']] as const) {
    test(`method-type="${type}" on a phone in Uzbek: the card requisites, the amount as "150 000 soʻm"`, async () => {
      const { page, context, errors } = await newShopper(browser, { width: 390, height: 844, mobile: true });
      await page.goto(`${base}/?n=${n}&type=${type}`);
      await waitForWidgetState(page, 'pay');
      const order = await widgetOrder(page);
      assert.equal(order.currency, 'UZS');
      assert.equal(order.requisites?.kind, 'card');
      const widget = page.locator('paydesk-checkout');
      await widget.locator('[part="requisites"]').waitFor();
      const text = (await widget.evaluate((el) => el.shadowRoot!.textContent!)).replace(/[\u00a0\u202f]/g, ' ');
      assert.match(text, /150 000 soʻm/);
      assert.doesNotMatch(text, /150[ ,.]000[.,]00/, 'no minor units');
      assert.doesNotMatch(text, /UZS 150,000/, 'not English digits');
      if (n === 1) await screenshot(page, 'checkout-uzs-card');
      assert.deepEqual(errors, []);
      await context.close();
    });
  }
});

describe('the hosted form framed in the modal on a 320 px phone', () => {
  let demo: TestDemo;
  const shopper = storefrontSuite((d) => (demo = d));

  test('one card (the provider page drops its own chrome inside the frame) and a method list at least 260 px wide', async () => {
    const { page, context } = await shopper();
    await page.setViewportSize({ width: 320, height: 640 });
    const order = await openCheckout(page, demo, 'pour-over-kit', { mode: 'form', display: 'modal' });
    const frameElement = page.locator('#modal paydesk-checkout iframe[part="form"]');
    assert.equal(new URL((await frameElement.getAttribute('src'))!).searchParams.get('embed'), '1');
    assert.ok(order.form_url);
    const form = page.frameLocator('#modal paydesk-checkout iframe[part="form"]');
    const methods = form.locator('paydesk-checkout [part="methods"]');
    await methods.waitFor();
    const width = (await methods.boundingBox())!.width;
    assert.ok(width >= 260, `the method list is ${width} px wide`);
    // One card: the page inside the frame has no border, shadow or background of its own.
    const inner = await form.locator('paydesk-checkout').evaluate((el) => {
      const card = getComputedStyle(el.shadowRoot!.querySelector('[part="base"]')!);
      return { border: card.borderTopWidth, shadow: card.boxShadow, background: card.backgroundColor, bodyMargin: getComputedStyle(document.body).marginLeft };
    });
    assert.deepEqual(inner, { border: '0px', shadow: 'none', background: 'rgba(0, 0, 0, 0)', bodyMargin: '0px' });
    // The frame fits the screen: no sideways scrolling.
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= 320), 'no horizontal scroll');
    await screenshot(page, 'checkout-hosted-form-320');
    await context.close();
  });
});
