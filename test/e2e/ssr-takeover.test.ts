/**
 * The server-rendered checkout (paydesk/ssr) in Chromium, on a bare shop: a node:http server whose
 * checkout page calls `handler.createSession` (the cart id as order_ref and Idempotency-Key) and
 * puts `renderCheckout`'s HTML in the page, with the CDN script. With JavaScript off the requisites
 * are painted from the HTML alone; with it on the element takes that order over (no POST /sessions
 * at all, one provider order), never shows a blank card or a spinner in between, follows the order
 * until paid (paydesk-paid once), and a reload shows the same order without a second paydesk-paid.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { extname, join, normalize } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { createProviderClient } from '../../src/provider/index.js';
import type { Sandbox } from '../../src/sandbox/index.js';
import { createCheckoutHandler, toNodeListener, type CheckoutHandler } from '../../src/server/index.js';
import { renderCheckout } from '../../src/ssr/index.js';
import { sandboxDeliveringTo } from '../node/server/fake-provider.js';
import { launchBrowser, newShopper, ROOT, waitForWidgetState, waitUntil, widgetOrder } from './helpers.js';

const KEY = 'merchant_ssr_e2e_key_0123456789abcdef';
const CDN = join(ROOT, 'dist', 'cdn');
const TYPES: Record<string, string> = { '.js': 'text/javascript', '.map': 'application/json' };

let browser: Browser;
let server: Server;
let origin: string;
let sandbox: Sandbox;
let handler: CheckoutHandler;
/** POST /sessions the widget sent over HTTP, and the page's in-process creates. */
const posts: string[] = [];
const creates: string[] = [];

before(async () => {
  browser = await launchBrowser();
  server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  origin = `http://127.0.0.1:${address.port}`;
  sandbox = sandboxDeliveringTo(KEY, `${origin}/api/paydesk`, () => handler);
  const client = createProviderClient({ baseUrl: 'http://sandbox.test', apiKey: KEY, fetch: (i, init) => sandbox.fetch(new Request(i, init)), maxRetries: 0 });
  handler = createCheckoutHandler({
    provider: { client, apiKey: KEY },
    sessionSecrets: ['ssr-e2e-session-secret-0123456789abcdef'],
    webhookSecrets: [sandbox.webhookSecret(KEY)],
    resolveOrder: (ref) => (/^cart-\w+$/.test(ref) ? { amount: '2490.00', client_order_id: `shop-${ref}` } : null),
    logger: { warn: () => undefined, error: () => undefined },
    reconcileIntervalSeconds: 0,
  });
  const api = toNodeListener(handler);
  server.on('request', (req, res) => {
    const url = new URL(req.url ?? '/', origin);
    if (url.pathname.startsWith('/api/paydesk/')) {
      if (req.method === 'POST' && url.pathname === '/api/paydesk/sessions') posts.push(url.pathname);
      return api(req, res);
    }
    if (url.pathname.startsWith('/cdn/')) {
      const file = normalize(join(CDN, url.pathname.slice('/cdn/'.length)));
      if (!file.startsWith(CDN)) return void res.writeHead(404).end();
      return void readFile(file).then(
        (body) => res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' }).end(body),
        () => res.writeHead(404).end(),
      );
    }
    if (url.pathname === '/checkout') {
      const cart = url.searchParams.get('cart') ?? '';
      creates.push(cart);
      const page = new Request(url, { headers: { 'idempotency-key': cart, 'user-agent': req.headers['user-agent'] ?? '' } });
      return void handler.createSession({ order_ref: cart, method_type: 'SBP' }, page).then(
        (created) => {
          const checkout = renderCheckout({ endpoint: '/api/paydesk', ...created, locale: 'ru', orderRef: cart, userAgent: req.headers['user-agent'] ?? '' });
          res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
          res.end(`<!doctype html><html lang="ru"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>Оплата</title>
<script type="module" src="/cdn/paydesk.js"></script></head><body><main><h1>Заказ</h1>${checkout}</main></body></html>`);
        },
        (e: unknown) => res.writeHead(500).end(String(e)),
      );
    }
    res.writeHead(404).end();
  });
});

after(async () => {
  await browser?.close();
  await new Promise((resolve) => server?.close(resolve));
  await handler?.close();
  await sandbox?.close();
});

async function providerOrders(cart: string): Promise<{ id: string; status: string }[]> {
  const res = await sandbox.fetch(new Request('http://sandbox.test/api/v1/order/?size=100', { headers: { 'X-API-Key': KEY } }));
  const items = ((await res.json()) as { orders: { items: { id: string; status: string; client_order_id: string }[] } }).orders.items;
  return items.filter((o) => o.client_order_id === `shop-${cart}`);
}

describe('server-rendered checkout (paydesk/ssr) in Chromium', () => {
  test('with JavaScript off, the page alone shows the amount, the requisites, the recipient bank, the pay-by time and the QR', async () => {
    const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 1280, height: 900 }, locale: 'ru-RU' });
    try {
      const page = await context.newPage();
      await page.goto(`${origin}/checkout?cart=cart-nojs`);
      const [order] = await providerOrders('cart-nojs');
      assert.ok(order, 'the page made the order');
      const card = page.locator('paydesk-checkout section.card');
      await card.waitFor();
      const text = (await card.innerText()).replace(/\s+/g, ' ');
      assert.match(text, /2 490,00 ₽/);
      assert.match(text, /Сделайте перевод/);
      assert.match(text, /Оплатите до \d\d:\d\d/);
      assert.match(text, /Получатель/);
      assert.match(text, /shop-cart-nojs/);
      const qr = page.locator('paydesk-checkout figure[part=qr] svg');
      const box = await qr.boundingBox();
      assert.ok(box && box.width === 176 && box.height === 176, `the QR is painted 176×176 (${JSON.stringify(box)})`);
      // Without the script nothing would work: no button is shown.
      assert.equal(await page.locator('paydesk-checkout button').filter({ visible: true }).count(), 0);
    } finally {
      await context.close();
    }
  });

  test('with JavaScript on, the element takes the order over: no POST /sessions, one order, never a blank card; paid shows; a reload shows the same order', async () => {
    const { context, page, errors } = await newShopper(browser);
    try {
      // Every change of the element's shadow root: is a card with an amount on screen?
      // (A string: tsx names the functions of a test's source with a helper the page does not have.)
      await context.addInitScript({
        content: `
          const seen = (window.__seen = []);
          const watch = (root) => {
            // A card with the amount, and the QR drawn (the server's SVG, or the element's canvas once drawn).
            const look = () => {
              const qr = root.querySelector('[part=qr] svg, [part=qr] canvas[data-text]');
              seen.push(root.querySelectorAll('section.card .amount').length === 1 && qr ? 'card' : 'blank: ' + root.innerHTML.slice(0, 80));
            };
            new MutationObserver(look).observe(root, { childList: true, subtree: true, characterData: true });
          };
          // From the first frame on: once the element is parsed (its declarative shadow root attached), every change.
          const find = () => {
            const root = document.querySelector('paydesk-checkout')?.shadowRoot;
            if (root) watch(root);
            else requestAnimationFrame(find);
          };
          requestAnimationFrame(find);
          // The shop's own listener: how often this page load hears "paid".
          window.__paid = 0;
          document.addEventListener('paydesk-paid', () => window.__paid++);`,
      });
      const paidHeard = () => page.evaluate(() => (globalThis as unknown as { __paid: number }).__paid);
      posts.length = 0;
      creates.length = 0;
      await page.goto(`${origin}/checkout?cart=cart-js`);
      await waitForWidgetState(page, 'pay');
      const order = await widgetOrder(page);
      const provider = await providerOrders('cart-js');
      assert.equal(provider.length, 1, 'one order at the provider');
      assert.equal(order.id, provider[0]!.id, 'the element shows the order the page made');
      assert.deepEqual(posts, [], 'the element made no POST /sessions');
      // The server's paint goes away once the element shows the same step (its view's code loaded): its
      // <style> leaves with it, and the element's adopted styles stand. The state is 'pay' before that
      // (the machine has the order while the view's chunk may still be on its way), so wait for it.
      await waitUntil(
        () => page.evaluate(() => document.querySelector('paydesk-checkout')!.shadowRoot!.querySelectorAll('style').length === 0),
        "the take-over: the server's <style> left with its paint",
      );
      const shadow = await page.evaluate(() => {
        const root = document.querySelector('paydesk-checkout')!.shadowRoot!;
        return { cards: root.querySelectorAll('section.card').length, styles: root.querySelectorAll('style').length, seen: (globalThis as unknown as { __seen: string[] }).__seen };
      });
      assert.equal(shadow.cards, 1, 'one card: the server\'s and the element\'s never side by side');
      assert.equal(shadow.styles, 0);
      assert.ok(shadow.seen.length > 0, 'the take-over was watched');
      assert.deepEqual(
        shadow.seen.filter((s) => s !== 'card'),
        [],
        'every change of the shadow root left a card with the amount on screen',
      );
      // Live: the sandbox completes the order; the webhook reaches the handler; the element shows paid.
      const done = await sandbox.fetch(new Request(`http://sandbox.test/sandbox/orders/${encodeURIComponent(order.id)}/complete`, { method: 'POST', headers: { 'X-API-Key': KEY } }));
      assert.equal(done.status, 200);
      await waitForWidgetState(page, 'paid');
      assert.equal(await paidHeard(), 1, 'paydesk-paid once');
      // A reload renders the same order (same Idempotency-Key): no second order, no POST, and the
      // page's listener does not hear "paid" again (once per order, README).
      await page.reload();
      await waitForWidgetState(page, 'paid');
      assert.equal((await widgetOrder(page)).id, order.id);
      assert.equal(await paidHeard(), 0, 'no second paydesk-paid for the same order');
      assert.equal((await providerOrders('cart-js')).length, 1);
      assert.deepEqual(posts, []);
      assert.deepEqual(creates, ['cart-js', 'cart-js']);
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
    }
  });

  test('a phone: the server paints the phone layout (no QR) and the element takes it over with the bank apps', async () => {
    const phone = {
      userAgent: 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36',
      viewport: { width: 390, height: 844 },
      isMobile: true,
      hasTouch: true,
      locale: 'ru-RU',
    };
    const bare = await browser.newContext({ ...phone, javaScriptEnabled: false });
    try {
      const page = await bare.newPage();
      await page.goto(`${origin}/checkout?cart=cart-phone`);
      const text = (await page.locator('paydesk-checkout section.card').innerText()).replace(/\s+/g, ' ');
      assert.match(text, /2 490,00 ₽/);
      assert.equal(await page.locator('paydesk-checkout figure[part=qr]').count(), 0, 'no QR to scan on the phone that would have to scan it');
    } finally {
      await bare.close();
    }
    const context = await browser.newContext(phone);
    try {
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      posts.length = 0;
      await page.goto(`${origin}/checkout?cart=cart-phone`);
      await waitForWidgetState(page, 'pay');
      const bankApps = page.locator('paydesk-checkout button[aria-haspopup=dialog]');
      await bankApps.waitFor({ state: 'visible' });
      assert.match(await bankApps.innerText(), /Оплатить в приложении банка/);
      assert.equal((await providerOrders('cart-phone')).length, 1);
      assert.deepEqual(posts, []);
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
    }
  });

  test("reset() during the take-over: the server's paint leaves and the idle step (start) shows, as on any page", async () => {
    const { context, page, errors } = await newShopper(browser);
    try {
      // The session's GET waits until the element was reset.
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      await page.route(/\/api\/paydesk\/sessions\/[^/]+(\?|$)/, async (route) => {
        await held;
        await route.continue();
      });
      await page.goto(`${origin}/checkout?cart=cart-reset`);
      await waitUntil(() => page.evaluate(() => (document.querySelector('paydesk-checkout') as Element & { state?: string } | null)?.state === 'loading'), 'the take-over under way');
      await page.evaluate(() => (document.querySelector('paydesk-checkout') as Element & { reset(): void }).reset());
      release();
      // The server's paint has a (hidden) "I have paid" button too: wait for its <style> to leave, then
      // for the element's own start button.
      await waitUntil(
        () =>
          page.evaluate(() => {
            const root = document.querySelector('paydesk-checkout')!.shadowRoot!;
            return root.querySelectorAll('style').length === 0 && (root.querySelector('section.card button.primary')?.textContent?.trim() ?? '');
          }),
        "the server's paint gone and the start button shown",
      );
      const shadow = await page.evaluate(() => {
        const root = document.querySelector('paydesk-checkout')!.shadowRoot!;
        return { state: (root.host as Element & { state: string }).state, cards: root.querySelectorAll('section.card').length, amounts: root.querySelectorAll('.amount').length };
      });
      assert.deepEqual(shadow, { state: 'idle', cards: 1, amounts: 0 });
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
    }
  });
});
