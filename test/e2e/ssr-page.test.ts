/**
 * The storefront's server-rendered checkout page (demo/checkout-page.ts, `paydesk/ssr`): with
 * JavaScript off the page's HTML alone shows what the shopper needs to pay (amount, account, holder,
 * the recipient's bank, the QR as SVG); with JavaScript on the element takes that order over (no
 * second `POST /sessions`), the sandbox completes it, "paid" shows; a reload is the same order.
 */
import assert from 'node:assert/strict';
import { copyFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import type { OrderView } from '../../src/protocol/index.js';
import {
  CONSOLE_PASSWORD,
  decodeQr,
  IPHONE,
  ROOT,
  SCREENSHOTS,
  screenshot,
  storefrontSuite,
  storeUrl,
  waitForWidgetState,
  waitUntil,
  widgetOrder,
  type TestDemo,
} from './helpers.js';

/** Opens a cart for `product` the way the storefront's "Buy" does: its id. */
async function openCart(demo: TestDemo, product: string): Promise<string> {
  const res = await fetch(`${demo.merchantUrl}/demo/api/carts`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-paydesk': '1' },
    body: JSON.stringify({ product }),
  });
  assert.equal(res.status, 201);
  return ((await res.json()) as { cart: string }).cart;
}

/** The order of a session, as the token endpoint answers it. */
async function sessionOrder(demo: TestDemo, session: string): Promise<OrderView> {
  const res = await fetch(`${demo.merchantUrl}${demo.endpoint}/sessions/${encodeURIComponent(session)}`);
  assert.equal(res.status, 200);
  return ((await res.json()) as { order: OrderView }).order;
}

/** The shop's sessions whose order_ref is `cart` (the console's order search over every token endpoint). */
async function sessionsOfCart(demo: TestDemo, cart: string): Promise<number> {
  const login = await fetch(`${demo.merchantUrl}/console/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-paydesk': '1' },
    body: JSON.stringify({ password: CONSOLE_PASSWORD }),
  });
  assert.ok(login.ok, `console login: HTTP ${login.status}`);
  const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0]!;
  const res = await fetch(`${demo.merchantUrl}/console/api/orders?q=${encodeURIComponent(cart)}`, { headers: { cookie } });
  assert.equal(res.status, 200);
  const page = (await res.json()) as { search: { shop_matches: number } | null };
  return page.search!.shop_matches;
}

/** The text of the checkout's shadow root (the element's own, or the server's declarative one). */
const shadowText = (page: import('playwright-core').Page) =>
  page.evaluate(() => (document.querySelector('paydesk-checkout')?.shadowRoot?.textContent ?? '').replace(/\s+/g, ' '));

describe('the server-rendered checkout page', () => {
  let demo: TestDemo;
  const shopper = storefrontSuite((d) => (demo = d));

  test('with JavaScript off, the page HTML shows amount, account, holder, recipient bank and the SBP QR as SVG', async () => {
    const cart = await openCart(demo, 'coffee-beans');
    const browser = (await shopper()).context.browser()!;
    const IPHONE_UA = 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Mobile/15E148 Safari/604.1';
    for (const { name, phone } of [
      { name: 'ssr-nojs-desktop', phone: false },
      { name: 'ssr-nojs-phone', phone: true },
    ]) {
      const noJs = await browser.newContext({
        javaScriptEnabled: false,
        viewport: phone ? { width: IPHONE.width, height: IPHONE.height } : { width: 1280, height: 900 },
        ...(phone ? { isMobile: true, hasTouch: true, deviceScaleFactor: 2, userAgent: IPHONE_UA } : {}),
        locale: 'en-GB',
        timezoneId: 'Europe/Moscow',
      });
      try {
        const p = await noJs.newPage();
        const res = await p.goto(`${demo.merchantUrl}/checkout/${cart}?lang=en&theme=light&method=sbp`);
        assert.equal(res?.status(), 200);
        // No script ran: the element is not defined (what shows is the HTML alone).
        assert.equal(await p.locator('paydesk-checkout:defined').count(), 0);

        const session = await p.locator('paydesk-checkout').getAttribute('session');
        assert.ok(session, 'the element carries the session the server created');
        const order = await sessionOrder(demo, session);
        assert.ok(order.requisites, 'an SBP order has requisites');
        const text = await p.locator('paydesk-checkout [part="requisites"]').innerText();
        assert.match(await p.locator('paydesk-checkout [part="amount"]').innerText(), /1,500\.00/);
        const digits = order.requisites.holder_account.replace(/\D/g, '');
        assert.ok(text.replace(/\D/g, '').includes(digits), `the account ${digits} is shown: ${text}`);
        assert.ok(text.includes(order.requisites.holder_name), `the holder is shown: ${text}`);
        // The recipient's bank, by its name in the page's language (the element's bank table: "Sber" for Сбербанк).
        assert.ok(order.requisites.bank_name, 'the order names the recipient bank');
        assert.match(await p.locator('paydesk-checkout [part="requisites"] .recipient-bank').innerText(), /Recipient’s bank\s+\S+/);
        assert.equal(await p.locator('paydesk-checkout [part="requisites"]').isVisible(), true);
        // Buttons that need a script are not shown without one, nor is the sandbox bar.
        assert.equal(await p.locator('#sandbox-bar').isVisible(), false);
        assert.equal(await p.locator('paydesk-checkout button').first().isVisible(), false);
        if (phone) {
          // A phone's layout: the bank apps instead of the QR (they need the script): the account is what to pay to.
          assert.equal(await p.locator('paydesk-checkout [part="requisites"]').isVisible(), true);
        } else {
          const qr = p.locator('paydesk-checkout [part="qr"] svg');
          assert.equal(await qr.getAttribute('role'), 'img');
          assert.equal(await qr.isVisible(), true);
          // Styled by the shadow root's own <style>, which the page's CSP allows by its hash (blocked, the SVG would fill the card).
          assert.equal(Math.round((await qr.boundingBox())!.width), 176);
          assert.equal(await decodeQr(qr), order.payment_link);
        }
        await p.locator('paydesk-checkout [part="requisites"]').scrollIntoViewIfNeeded();
        await screenshot(p, name, { fullPage: !phone });
      } finally {
        await noJs.close();
      }
    }
    // docs/ssr-nojs-*.png (README) are these: PAYDESK_DOCS_SCREENSHOTS=1 copies them there.
    if (process.env.PAYDESK_DOCS_SCREENSHOTS === '1') {
      for (const name of ['ssr-nojs-desktop', 'ssr-nojs-phone']) copyFileSync(`${SCREENSHOTS}${name}.png`, `${ROOT}docs/${name}.png`);
    }
  });

  test('with JavaScript on: "Buy" on the server page, one session only, the element takes it over, paid after the sandbox completes it; a reload is the same order', async () => {
    const { page, errors, cspViolations } = await shopper();
    const posts: string[] = [];
    page.on('request', (r) => {
      if (r.method() === 'POST' && new URL(r.url()).pathname.endsWith('/sessions')) posts.push(r.url());
    });
    await page.goto(storeUrl(demo, { display: 'server', method: 'sbp' }));
    await page.locator('[data-buy="coffee-beans"]').click();
    await page.waitForURL(/\/checkout\/cart_[\w-]{16}\?/);
    const cart = new URL(page.url()).pathname.split('/').pop()!;

    // The server's paint, then the element's own step for the same order.
    await page.locator('paydesk-checkout [part="requisites"]').waitFor();
    await waitForWidgetState(page, 'pay');
    const order = await widgetOrder(page);
    assert.equal(order.amount, '1500.00');
    assert.match(await shadowText(page), new RegExp(order.requisites!.holder_name));

    // A reload: the same order (the cart is the Idempotency-Key), never a second one.
    await page.reload();
    await waitForWidgetState(page, 'pay');
    assert.equal((await widgetOrder(page)).id, order.id);
    assert.match(await page.locator('paydesk-checkout [part="order"]').innerText(), new RegExp(order.client_order_id ?? order.id));

    // The sandbox bar completes the order: the element shows it paid.
    const complete = page.locator('#sandbox-bar [data-sandbox="complete"]');
    await waitUntil(() => complete.isEnabled(), 'the sandbox bar is usable');
    await complete.click();
    await waitForWidgetState(page, 'paid');
    await page.locator('paydesk-checkout h2').filter({ hasText: 'Payment received' }).waitFor();

    // Exactly one session for the purchase: none from the browser, one from the page's server.
    assert.deepEqual(posts, []);
    assert.equal(await sessionsOfCart(demo, cart), 1);

    // The page of the same cart after the payment: the shop's record says it is paid, with the order
    // number; no checkout, no new order.
    const html = await (await fetch(`${demo.merchantUrl}/checkout/${cart}?lang=en&method=sbp`)).text();
    assert.match(html, /This purchase is paid/);
    assert.ok(html.includes(order.client_order_id ?? order.id));
    assert.doesNotMatch(html, /<paydesk-checkout/);
    assert.equal(await sessionsOfCart(demo, cart), 1);
    assert.deepEqual(errors, []);
    assert.deepEqual(cspViolations, []);
  });

  test('a cart that is unknown, or a purchase asked again with other payment settings, is a clear page, never a second order', async () => {
    const gone = await fetch(`${demo.merchantUrl}/checkout/cart_AAAAAAAAAAAAAAAA?lang=en`);
    assert.equal(gone.status, 404);
    assert.match(await gone.text(), /expired or is unknown/);
    const cart = await openCart(demo, 'grinder');
    assert.equal((await fetch(`${demo.merchantUrl}/checkout/${cart}?lang=en&method=sbp`)).status, 200);
    const other = await fetch(`${demo.merchantUrl}/checkout/${cart}?lang=en&method=card`);
    assert.equal(other.status, 409);
    assert.match(await other.text(), /other payment settings/);
    assert.equal(await sessionsOfCart(demo, cart), 1);
  });
});
