/**
 * The other ways a checkout goes: expiry (the sandbox clock moved past the order's lifetime, and the
 * banner's "Expire"), the provider's "no available traders" as a friendly retry, the hosted form,
 * and `order_with_form`.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { LANGUAGES } from '../../src/element/i18n/index.js';
import { PRESET_KEYS } from '../../src/sandbox/index.js';
import {
  buy,
  providerOrder,
  sandboxCall,
  screenshot,
  showShop,
  storeUrl,
  waitForWidgetState,
  waitUntil,
  widgetOrder,
  widgetState,
  type TestDemo,
  storefrontSuite,
  openCheckout,
} from './helpers.js';

describe('checkout outcomes', () => {
  let demo: TestDemo;
  const shopper = storefrontSuite((d) => (demo = d));

  test('the provider\'s "no available traders" is shown as a friendly retry, and retrying asks again', async () => {
    const { page } = await shopper();
    await page.goto(storeUrl(demo, { method: 'sbp' }));
    const errors: Array<{ code: string; retryable: boolean }> = [];
    await page.exposeFunction('__paydeskError', (detail: { code: string; retryable: boolean }) => errors.push(detail));
    await page.evaluate(() =>
      document.addEventListener('paydesk-error', (e) => (window as unknown as { __paydeskError(d: unknown): void }).__paydeskError((e as CustomEvent).detail)),
    );
    await buy(page, 'no-traders-demo');
    await waitForWidgetState(page, 'error');
    const widget = page.locator('#inline-host paydesk-checkout');
    const text = await widget.locator('[part="base"]').innerText();
    assert.match(text, /No payment details are available right now/i);
    assert.doesNotMatch(text, /traders|500|Internal/i, 'no provider jargon or status codes for the shopper');
    await showShop(page);
    await screenshot(page, 'checkout-no-traders');
    await waitUntil(() => errors.length >= 1, 'a paydesk-error event');
    assert.deepEqual({ code: errors[0]!.code, retryable: errors[0]!.retryable }, { code: 'no_traders', retryable: true });

    const retry = widget.getByRole('button', { name: /try again/i });
    await retry.click();
    await waitUntil(() => errors.length >= 2, 'a second attempt that fails the same way');
    await waitForWidgetState(page, 'error');
    await retry.waitFor();
  });

  test('the pay step whose code cannot be fetched: the network error, then "try again" fetches it and shows the requisites', async () => {
    const widgetCode = await (await fetch(new URL('/paydesk.js', demo.storefrontUrl))).text();
    // Chunk names carry a hash of their content. The requisites' templates are the entry's own (its first
    // paint); the element's pay step (form mode, the QR, the bank apps' retries) is a chunk it loads.
    const payStep = /\/chunks\/pay-step-[0-9a-f]{8}\.js$/;
    assert.match(widgetCode, /chunks\/cdn-element-[0-9a-f]{8}\.js/, 'the demo serves the built widget (npm run build), whose element is a chunk');
    const { page } = await shopper();
    let refused = 0;
    await page.route(payStep, (route) => {
      refused++;
      return route.abort('internetdisconnected');
    });
    await openCheckout(page, demo, 'coffee-beans', { method: 'sbp' });
    const widget = page.locator('#inline-host paydesk-checkout');
    await widget.getByText('No connection. Check your internet and try again.').waitFor();
    assert.ok(refused >= 1, 'the pay step was asked for and refused');
    assert.equal(await widget.locator('[part="amount"]').count(), 0);

    await page.unroute(payStep);
    await widget.getByRole('button', { name: /try again/i }).click();
    await widget.locator('[part="amount"]').waitFor();
    await widget.locator('[part="requisites"]').waitFor();
    assert.equal(await widget.getByText('No connection').count(), 0);
    assert.equal(await widgetState(page), 'pay', 'the same order, never an error state');
  });

  test('an order expires when the sandbox clock passes its lifetime', async () => {
    const { page } = await shopper();
    const order = await openCheckout(page, demo, 'coffee-beans', { method: 'card' });

    // 30 minutes and a second of sandbox time: the order times out and its webhook goes out.
    await sandboxCall(demo, '/sandbox/clock/advance', { body: { seconds: 30 * 60 + 1 } });
    await waitForWidgetState(page, 'expired');
    assert.equal((await providerOrder(demo, order.client_order_id)).status, 'CanceledByTimeout');
    assert.equal((await widgetOrder(page)).status, 'expired');
    await showShop(page);
    await screenshot(page, 'checkout-expired');
  });

  test('the sandbox bar\'s "Expire" ends the order on screen', async () => {
    const { page } = await shopper();
    const order = await openCheckout(page, demo, 'pour-over-kit', { method: 'sbp' });
    await page.locator('#sandbox-bar [data-sandbox="expire"]').click();
    await waitForWidgetState(page, 'expired');
    assert.equal((await providerOrder(demo, order.client_order_id)).status, 'CanceledByTimeout');
  });

  test('"Open dispute" opens a dispute on the order at the provider', async () => {
    const { page } = await shopper();
    const order = await openCheckout(page, demo, 'grinder', { method: 'sbp' });
    await page.locator('#sandbox-bar [data-sandbox="dispute"]').click();
    await page.locator('#toast').filter({ hasText: /dispute was opened/i }).waitFor();
    const disputes = await sandboxCall<{ data: { items: Array<{ order_id: string; processed: boolean }> } }>(
      demo,
      `/api/v1/disputes/search?order_id=${encodeURIComponent(order.id)}`,
    );
    assert.equal(disputes.data.items.length, 1);
    assert.equal(disputes.data.items[0]!.processed, false);
  });

  test('the hosted form: the widget embeds the provider\'s page, the shopper pays there, and the shop sees it paid', async () => {
    const { page } = await shopper();
    const order = await openCheckout(page, demo, 'pour-over-kit', { mode: 'form' });
    assert.ok(order.form_url?.startsWith(`${demo.sandboxUrl}/pay?session_id=`), `form_url on the sandbox, got ${order.form_url}`);
    const frameElement = page.locator('#inline-host paydesk-checkout iframe[part="form"]');
    // The element passes its language and theme on to the provider's page.
    assert.equal(await frameElement.getAttribute('src'), `${order.form_url}&lang=en&theme=light&embed=1`);

    // Inside the provider's page: the same widget, talking to the sandbox.
    const form = page.frameLocator('#inline-host paydesk-checkout iframe[part="form"]');
    assert.equal(await form.locator('html').getAttribute('lang'), 'en');
    await form.locator('paydesk-checkout [part="method"]').first().click();
    await form.locator('paydesk-checkout [part="requisites"]').waitFor();
    await showShop(page);
    await screenshot(page, 'checkout-hosted-form');

    await page.locator('#sandbox-bar [data-sandbox="complete"]').click();
    await waitForWidgetState(page, 'paid');
    const paid = await widgetOrder(page);
    assert.ok(paid.id, 'the session now knows the provider order');
    assert.equal((await providerOrder(demo, paid.client_order_id)).status, 'Completed');
  });

  test('the hosted form speaks the language of ?lang= on form_url (the sandbox serves its table), else the browser\'s', async () => {
    const created = await sandboxCall<{ form_data: { form_url: string } }>(demo, '/api/v1/form/create', {
      body: { order_data: { client_order_id: `lang-${Date.now()}`, order_side: 'Buy', amount: '1500.00' } },
    });
    const { page } = await shopper(); // an en-GB browser
    const chunks: string[] = [];
    page.on('response', (r) => {
      if (r.url().includes('/pay/chunks/')) chunks.push(`${r.status()} ${new URL(r.url()).pathname}`);
    });
    await page.goto(`${created.form_data.form_url}&lang=kk`);
    assert.equal(await page.locator('html').getAttribute('lang'), 'kk');
    const widget = page.locator('paydesk-checkout');
    assert.equal(await widget.getAttribute('locale'), 'kk');
    await widget.locator('[part="method"]').first().waitFor();
    await waitUntil(async () => /Төлем тәсілін таңдаңыз/.test(await widget.locator('[part="base"]').innerText()), 'the Kazakh title');
    // The built widget loads the table from /pay/chunks/kk.js (and the code of the steps it reaches from
    // /pay/chunks/); the in-memory bundle (sources newer than dist) has everything inside.
    assert.ok(chunks.every((c) => c.startsWith('200 ')), `chunk requests: ${chunks.join(', ')}`);
    const languages = chunks.filter((c) => LANGUAGES.some((lang) => c.endsWith(`/chunks/${lang}.js`)));
    assert.ok(languages.every((c) => c === '200 /pay/chunks/kk.js'), `language chunk requests: ${languages.join(', ')}`);

    await page.goto(created.form_data.form_url);
    assert.equal(await page.locator('html').getAttribute('lang'), 'en', 'Accept-Language of the en-GB browser');
    await widget.locator('[part="method"]').first().waitFor();
    assert.match(await widget.locator('[part="base"]').innerText(), /Choose how to pay/);
  });

  test('order_with_form: the widget shows the requisites at once and links the provider\'s form for the same order', async () => {
    const { page, context } = await shopper();
    const order = await openCheckout(page, demo, 'gift-card', { mode: 'order_with_form', method: 'sbp' });
    assert.ok(order.requisites, 'requisites come with the H2H order');
    assert.ok(order.form_url?.startsWith(`${demo.sandboxUrl}/pay?session_id=`), `form_url on the sandbox, got ${order.form_url}`);
    const provider = await providerOrder(demo, order.client_order_id, PRESET_KEYS.withForm);
    assert.equal(provider.form_url, order.form_url);
    const link = page.locator('#inline-host paydesk-checkout a[href^="http"]').filter({ hasText: /payment page/i });
    assert.equal(await link.getAttribute('href'), order.form_url);
    await showShop(page);
    await screenshot(page, 'checkout-order-with-form');

    // The provider's form shows the same requisites.
    const formPage = await context.newPage();
    await formPage.goto(order.form_url!);
    const requisites = formPage.locator('paydesk-checkout [part="requisites"]');
    await requisites.waitFor();
    const digits = order.requisites.holder_account.replace(/\D/g, '').slice(-4);
    assert.match((await requisites.innerText()).replace(/\D/g, ''), new RegExp(digits));
    await formPage.close();

    await page.locator('#sandbox-bar [data-sandbox="complete"]').click();
    await waitForWidgetState(page, 'paid');
  });
});
