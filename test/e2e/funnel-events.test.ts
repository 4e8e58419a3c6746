/**
 * The widget's funnel events in the demo storefront, in Chromium on a phone (issue 31, "the funnel
 * events fire once each"): a shopper picks a way to pay (SBP), copies the account, opens a bank app
 * from the bank sheet, says "I have paid", starts a receipt and sends it. A listener on the page's
 * document counts every `paydesk-method`, `paydesk-copy`, `paydesk-bank-app` and `paydesk-receipt`
 * (each reported to the test as it fires, so a navigation could not lose one) and the test checks that
 * each fired exactly once with its detail and the order's id (docs/funnel-events.md).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, BrowserContext } from 'playwright-core';
import type { OrderView } from '../../src/protocol/index.js';
import { buy, launchBrowser, screenshot, startTestDemo, storeUrl, waitForWidgetState, waitUntil, widgetOrder, type TestDemo } from './helpers.js';

/** An iPhone: the bank sheet opens the bank's app by its scheme, then (no app here) its https fallback. */
const IPHONE_UA = 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Mobile/15E148 Safari/604.1';
/** The storefront's inline checkout (the page also holds the modal display's). */
const W = '#inline-host paydesk-checkout';
const FUNNEL = ['paydesk-method', 'paydesk-copy', 'paydesk-bank-app', 'paydesk-receipt'] as const;
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC', 'base64');

interface Fired {
  type: (typeof FUNNEL)[number];
  detail: { order: OrderView | null; [key: string]: unknown };
  bubbles: boolean;
  composed: boolean;
}

describe('the funnel events in the demo', () => {
  let demo: TestDemo;
  let browser: Browser;
  let context: BrowserContext;

  before(async () => {
    [demo, browser] = await Promise.all([startTestDemo(), launchBrowser()]);
  });

  after(async () => {
    await context?.close().catch(() => undefined);
    await browser?.close();
    await demo?.close();
  });

  test('a shopper on a phone: method, copy, bank app, receipt started and sent — each fires once, with its detail and the order id', async () => {
    context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2, userAgent: IPHONE_UA, locale: 'en-GB', timezoneId: 'Europe/Moscow' });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(demo.storefrontUrl).origin });
    // No bank app is installed: the sheet's https fallback (the bank's page) answers 204, so the
    // shopper stays on the checkout, as they do when they come back from the bank app.
    await context.route(
      (url) => !url.href.startsWith(demo.merchantUrl) && !url.href.startsWith(demo.sandboxUrl ?? '\0'),
      (route) => (route.request().isNavigationRequest() ? route.fulfill({ status: 204 }) : route.continue()),
    );
    let page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (err) => errors.push(err.message));
    const fired: Fired[] = [];
    await context.exposeFunction('__funnel', (json: string) => fired.push(JSON.parse(json) as Fired));
    // The merchant's listener: on the document, as docs/funnel-events.md shows.
    await context.addInitScript((names: readonly string[]) => {
      for (const name of names) {
        document.addEventListener(name, (e) => {
          const { detail, bubbles, composed } = e as CustomEvent;
          (window as unknown as { __funnel(json: string): void }).__funnel(JSON.stringify({ type: name, detail, bubbles, composed }));
        });
      }
    }, FUNNEL);
    const of = (type: Fired['type']) => fired.filter((f) => f.type === type);

    await page.goto(storeUrl(demo));
    await buy(page, 'coffee-beans');
    await waitForWidgetState(page, 'choose', W);
    let widget = page.locator(W);
    assert.equal(fired.length, 0, 'nothing before the shopper does something');

    // 1. A way to pay: SBP.
    const sbp = widget.locator('[part="method"]').filter({ hasText: /SBP|Faster Payments/ }).first();
    await sbp.click();
    await waitForWidgetState(page, 'pay', W);
    const order = await widgetOrder(page, W);
    await waitUntil(() => of('paydesk-method').length === 1, 'paydesk-method');
    const [method] = of('paydesk-method');
    assert.equal(method!.detail.order, null, 'the method choice comes before the order');
    const chosen = method!.detail.method as { id: string; type: string; bank: string | null };
    assert.equal(chosen.type, 'SBP');
    assert.match(chosen.id, /\S/);
    assert.ok(chosen.bank === null || typeof chosen.bank === 'string');

    // 2. The account copied.
    await widget.locator('button.copy[aria-label="Copy: Phone number"], button.copy[aria-label="Copy: Card number"]').first().click();
    await waitUntil(() => of('paydesk-copy').length === 1, 'paydesk-copy');
    assert.equal(of('paydesk-copy')[0]!.detail.field, 'account');
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), order.requisites?.holder_account ?? (await page.evaluate(() => navigator.clipboard.readText())));

    // 3. A bank app from the bank sheet (opening the sheet is no event).
    await widget.getByRole('button', { name: /Pay in bank app/i }).click();
    const sheet = widget.locator('dialog[open] [part="banks"]');
    await sheet.waitFor();
    assert.equal(of('paydesk-bank-app').length, 0, 'opening the sheet fires nothing');
    await widget.locator('dialog[open] .bank').filter({ hasText: 'VTB' }).first().click();
    await waitUntil(() => of('paydesk-bank-app').length === 1, 'paydesk-bank-app');
    assert.deepEqual(of('paydesk-bank-app')[0]!.detail.bank, { name: 'ВТБ', nspk_code: 'bank100000000005' });
    await screenshot(page, 'funnel-events-phone');

    // 4. "I have paid", then a receipt: started (a second tap is not a second start), then sent.
    await waitUntil(async () => (await widget.locator('dialog[open]').count()) === 0, 'the bank sheet closed');
    // Back from the bank app (which Chromium cannot open: the tab is left stuck on the app's link),
    // the shopper opens the checkout's address again: it resumes the order (the listener is on every
    // page of the context; the counts are the test's).
    const back = await context.newPage();
    back.on('pageerror', (err) => errors.push(err.message));
    await back.goto(page.url());
    await page.close();
    page = back;
    widget = page.locator(W);
    await waitForWidgetState(page, 'pay', W);
    assert.equal((await widgetOrder(page, W)).id, order.id, 'the same order resumed');
    const paidButton = widget.locator('[part="actions"] button').filter({ hasText: 'I have paid' });
    await paidButton.scrollIntoViewIfNeeded();
    await paidButton.click();
    await waitForWidgetState(page, 'confirming', W);
    const start = widget.getByRole('button', { name: /send a receipt/i });
    await start.click();
    await widget.locator('#receipt-files').waitFor({ state: 'attached' });
    await start.click({ timeout: 2000 }).catch(() => undefined); // a tap while it is open: no second start
    await widget.locator('#receipt-files').setInputFiles({ name: 'transfer.png', mimeType: 'image/png', buffer: PNG });
    await widget.getByRole('button', { name: /^send$/i }).click();
    await waitForWidgetState(page, 'dispute', W);
    await waitUntil(() => of('paydesk-receipt').length >= 2, 'paydesk-receipt sent');
    assert.deepEqual(
      of('paydesk-receipt').map((f) => f.detail.stage),
      ['started', 'sent'],
    );
    assert.equal(of('paydesk-receipt')[1]!.detail.order?.dispute?.status, 'open', 'sent: the order the server answered, its dispute open');

    // Each once — and nothing more arrives after a pause.
    await new Promise((resolve) => setTimeout(resolve, 500));
    assert.deepEqual(
      fired.map((f) => (f.type === 'paydesk-receipt' ? `${f.type}:${String(f.detail.stage)}` : f.type)),
      ['paydesk-method', 'paydesk-copy', 'paydesk-bank-app', 'paydesk-receipt:started', 'paydesk-receipt:sent'],
    );
    for (const f of fired.slice(1)) assert.equal(f.detail.order?.id, order.id, `${f.type}: detail.order.id is the order on screen`);
    assert.ok(fired.every((f) => f.bubbles && f.composed), 'each bubbles out of the shadow root');
    assert.deepEqual(errors, []);
  });
});
