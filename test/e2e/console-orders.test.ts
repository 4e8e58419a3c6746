/**
 * The merchant console as a shop's operator uses it every day (issue 14): an order found by a piece
 * of what they know (its order_ref, client order id or amount), its page with what the shop's own
 * server saw (paid and fulfilled, and when onOrderPaid ran; paid late), the provider's order read
 * now and the webhooks received; a dispute's receipts (the image shown, the PDF linked, an HTML page
 * never taken nor served as HTML); the webhook log with a refused delivery and its reason. In
 * Chromium against the demo (sandbox, token endpoint, console), both languages, both themes, phones
 * from 320 px, axe on every page.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import type { OrderDetailResponse } from '../../src/console/contract.js';
import type { OrderView } from '../../src/protocol/index.js';
import { createSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { HTML_PAGE, makePdf, makePng } from '../node/sandbox/receipt-files.js';
import { listSettled, logIn } from './console-page.js';
import { launchBrowser, newShopper, sandboxCall, screenshot, startTestDemo, waitUntil, type Shopper, type TestDemo } from './helpers.js';
import { axeViolations, documentWidths, overflowing } from './page-checks.js';

describe('console: orders as the shop sees them, disputes with receipts, the webhook log', () => {
  let demo: TestDemo;
  let browser: Browser;
  let merchant: Shopper;
  let page: Page;
  /** Orders the tests made, for the phone checks at the end. */
  const made: { paid?: OrderView; disputed?: OrderView } = {};

  before(async () => {
    [demo, browser] = await Promise.all([startTestDemo(), launchBrowser()]);
    merchant = await newShopper(browser, { height: 1100 });
    page = merchant.page;
    await logIn(page, demo, '/console/orders');
    await listSettled(page, 'orders');
  });

  after(async () => {
    await merchant?.context.close().catch(() => undefined);
    await browser?.close();
    await demo?.close();
  });

  /** What the widget does: a session for a product of the catalog, paid by SBP in the widget. */
  async function checkout(ref: string): Promise<{ session: string; order: OrderView }> {
    const res = await fetch(`${demo.merchantUrl}${demo.endpoint}/sessions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-paydesk': '1', origin: demo.merchantUrl },
      body: JSON.stringify({ order_ref: ref, method_type: 'SBP' }),
    });
    assert.equal(res.status, 201, await res.clone().text());
    return (await res.json()) as { session: string; order: OrderView };
  }

  /** The console API's view of an order, read with the page's login. */
  async function consoleOrder(key: string): Promise<OrderDetailResponse['order']> {
    return page.evaluate(async (k) => ((await (await fetch(`/console/api/orders/${encodeURIComponent(k)}`)).json()) as OrderDetailResponse).order, key);
  }

  /** Waits until the shop's server has run onOrderPaid for the order. */
  async function fulfilled(orderId: string): Promise<OrderDetailResponse['order']> {
    return waitUntil(async () => {
      const o = await consoleOrder(orderId);
      return o.shop?.fulfilment.state === 'done' ? o : null;
    }, `onOrderPaid ran for ${orderId}`);
  }

  async function openOrder(key: string, query = 'lang=en&theme=light'): Promise<void> {
    await page.goto(`${demo.merchantUrl}/console/orders/${encodeURIComponent(key)}?${query}`);
    await page.locator('#order-body .order-summary').waitFor();
  }

  /** The text the console shows for a time with seconds (the page's own formatter, in the browser's zone). */
  const shownTime = (iso: string, lang = 'en') =>
    page.evaluate(([at, l]) => new Intl.DateTimeFormat(l === 'ru' ? 'ru-RU' : 'en-GB', { dateStyle: 'medium', timeStyle: 'medium' }).format(new Date(at!)), [iso, lang]);

  const shopCell = (row: ReturnType<Page['locator']>) => row.locator('td[data-col="shop"]');
  /** Text with the narrow and non-breaking spaces Intl puts in money and dates made plain. */
  const plain = (text: string) => text.replace(/[\u00a0\u202f]/g, ' ');

  test('an order found by a fragment of its order_ref opens its page; once the sandbox completes it, "Paid, fulfilled" with the time onOrderPaid ran', async () => {
    const { order } = await checkout('pour-over-kit');
    await checkout('coffee-beans'); // another product, which the search must leave out

    await page.locator('#f-q').fill('pour-o');
    await page.locator('#f-q').press('Enter');
    await waitUntil(() => new URL(page.url()).searchParams.get('q') === 'pour-o', 'the search in the address');
    await listSettled(page, 'orders');
    const refs = await page.locator('#list-table tbody [data-order-ref]').evaluateAll((els) => els.map((e) => e.getAttribute('data-order-ref')));
    assert.ok(refs.length >= 1 && refs.every((r) => r === 'pour-over-kit'), `only pour-over-kit orders: ${refs.join(', ')}`);
    const row = page.locator('#list-table tbody tr').filter({ has: page.locator(`[data-client-order-id="${order.client_order_id}"]`) });
    assert.equal(await row.count(), 1, 'the new order is in the results');
    assert.equal(await shopCell(row).innerText(), 'Awaiting payment');
    assert.equal(await row.locator('td[data-col="client"] a').innerText(), 'Pour-over kit', 'the product, not an opaque id');
    assert.match(await page.locator('#list-note').innerText(), /Searched the shop’s orders in full/);

    await row.locator('td[data-col="client"] a').click();
    await page.waitForURL((u) => u.pathname === `/console/orders/${order.id}`);
    await page.locator('#order-body .order-summary').waitFor();
    assert.equal(await page.locator('#view-title').innerText(), 'Order Pour-over kit');
    assert.equal(await page.locator('.order-summary .badges').innerText(), 'Awaiting payment');
    assert.equal(await page.locator('.order-summary .fulfilment').innerText(), 'Not called for');
    assert.deepEqual(await axeViolations(page), [], 'the order page, awaiting payment');

    const completing = Date.now();
    await sandboxCall(demo, `/sandbox/orders/${order.id}/complete`, { body: {} });
    const after = await fulfilled(order.id);
    assert.ok(Date.parse(after.shop!.fulfilment.at!) >= completing - 1000, 'onOrderPaid ran after the payment');
    await waitUntil(() => demo.logs.some((l) => l.includes('[shop] order pour-over-kit paid: fulfilled')), "the shop's fulfilment log line");

    await page.locator('#refresh').click();
    await page.locator('.order-summary [data-fulfilment="done"]').waitFor();
    assert.equal(await page.locator('.order-summary .badges').innerText(), 'Paid, fulfilled');
    assert.equal(await page.locator('.order-summary .fulfilment').innerText(), `Ran ${await shownTime(after.shop!.fulfilment.at!)}`);
    assert.equal(await page.locator('[data-hook="onOrderPaid"]').innerText(), `Ran ${await shownTime(after.shop!.fulfilment.at!)}`);
    const summary = plain(await page.locator('.order-summary').innerText());
    for (const text of ['Pour-over kit', 'pour-over-kit', order.client_order_id, order.id, 'RUB 3,290.00']) assert.ok(summary.includes(text), `the summary shows ${text}`);
    assert.match(summary, /Paid late\s+No/);
    // The history as the server saw it: created pending, then paid by the provider's webhook.
    assert.deepEqual(await page.locator('#order-history tbody td[data-col="status"]').allInnerTexts(), ['Awaiting payment', 'Paid']);
    assert.deepEqual(await page.locator('#order-history tbody td[data-col="via"]').allInnerTexts(), ['Order created', 'Provider’s webhook']);
    // The provider's order, read now; the webhook that told the server, verified.
    assert.match(await page.locator('#order-provider').innerText(), /Status\s+Paid/);
    const hook = page.locator('#order-webhooks tbody tr').first();
    assert.deepEqual(
      [await hook.locator('[data-col="signature"]').innerText(), await hook.locator('[data-col="outcome"]').innerText(), await hook.locator('[data-col="http"]').innerText()],
      ['Verified', 'Confirmed', '200'],
    );
    assert.deepEqual(await axeViolations(page), [], 'the order page, paid and fulfilled');
    await screenshot(page, 'console-order-desktop-light', { fullPage: true });

    // In Russian, and back in the list the search shows it fulfilled.
    await page.locator('#lang-switch input[value="ru"]').check({ force: true });
    await waitUntil(async () => (await page.locator('.order-summary .badges').innerText()) === 'Оплачен, выполнен', 'the state in Russian');
    assert.equal(await page.locator('.order-summary .fulfilment').innerText(), `Выполнен ${await shownTime(after.shop!.fulfilment.at!, 'ru')}`);
    await page.locator('#lang-switch input[value="en"]').check({ force: true });
    await page.locator('#order-back').click();
    await listSettled(page, 'orders');
    await page.locator('#f-q').fill('pour-over');
    await page.locator('#f-q').press('Enter');
    await listSettled(page, 'orders');
    await waitUntil(async () => (await shopCell(row).innerText().catch(() => '')) === 'Paid, fulfilled', 'the list shows it fulfilled');
    assert.deepEqual(await axeViolations(page), [], 'the orders searched');
    made.paid = order;
  });

  test('orders are found by a fragment of their client order id, by their amount as people type it, and the provider’s own orders by theirs', async () => {
    const { order } = await checkout('grinder');
    const search = async (q: string) => {
      await page.goto(`${demo.merchantUrl}/console/orders?q=${encodeURIComponent(q)}&size=50&lang=en&theme=light`);
      await listSettled(page, 'orders');
      return page.locator('#list-table tbody [data-client-order-id]').evaluateAll((els) => els.map((e) => e.getAttribute('data-client-order-id')));
    };
    assert.deepEqual(await search(order.client_order_id.slice(4, 16)), [order.client_order_id], 'a fragment of the client order id');
    assert.ok((await search('7 490,50')).includes(order.client_order_id), 'the amount as a Russian operator types it');
    const theirs = await sandboxCall<{ orders: { items: Array<{ client_order_id: string }> } }>(demo, '/api/v1/order/?size=100');
    const expected = theirs.orders.items.map((o) => o.client_order_id).filter((id) => id.includes('shop-10'));
    assert.ok(expected.length > 0, 'the seeded history has shop-10… orders today');
    assert.deepEqual((await search('shop-10')).sort(), expected.sort(), 'orders the shop did not make, found at the provider');
    assert.ok((await page.locator('#list-table tbody td[data-col="shop"]').allInnerTexts()).every((t) => t === 'Not from the shop'));
  });

  test('an order of the second token endpoint (order_with_form, another terminal) is found by the search and read from its own terminal', async () => {
    const res = await fetch(`${demo.merchantUrl}/api/paydesk-with-form/sessions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-paydesk': '1', origin: demo.merchantUrl },
      body: JSON.stringify({ order_ref: 'gift-card', method_type: 'SBP' }),
    });
    assert.equal(res.status, 201);
    const { order } = (await res.json()) as { order: OrderView };
    await page.goto(`${demo.merchantUrl}/console/orders?q=${encodeURIComponent(order.client_order_id)}&lang=en&theme=light`);
    await listSettled(page, 'orders');
    const row = page.locator('#list-table tbody tr').filter({ has: page.locator(`[data-client-order-id="${order.client_order_id}"]`) });
    assert.equal(await shopCell(row).innerText(), 'Awaiting payment');
    await row.locator('td[data-col="client"] a').click();
    await page.waitForURL((u) => u.pathname === `/console/orders/${order.id}`);
    await page.locator('#order-provider').waitFor();
    assert.match(await page.locator('.order-summary').innerText(), /Token endpoint\s+\/api\/paydesk-with-form[\s\S]*Integration\s+Order with the provider’s form/);
    assert.match(await page.locator('#order-provider').innerText(), /Status\s+Awaiting payment/, "read with the with-form terminal's key");
  });

  test('a late payment (expired, then completed) reads "paid late" on its page and in the list', async () => {
    const { order } = await checkout('gift-card');
    await sandboxCall(demo, `/sandbox/orders/${order.id}/expire`, { body: {} });
    await waitUntil(async () => (await consoleOrder(order.id)).shop?.status === 'expired', 'the server saw it expire');
    await sandboxCall(demo, `/sandbox/orders/${order.id}/complete`, { body: { late: true } });
    const after = await fulfilled(order.id);
    assert.equal(after.shop!.late, true);

    await openOrder(order.id);
    assert.equal(await page.locator('.order-summary .badges').innerText(), 'Paid, fulfilled\nPaid late');
    assert.match(await page.locator('.order-summary').innerText(), /Paid late\s+Yes: recognised after the order had ended/);
    const statuses = await page.locator('#order-history tbody td[data-col="status"]').allInnerTexts();
    assert.deepEqual(statuses.slice(-2), ['Expired', 'Paid'], `expired, then paid: ${statuses.join(', ')}`);
    assert.equal((await page.locator('#order-history tbody td[data-col="note"]').allInnerTexts()).at(-1), 'Paid late');
    assert.deepEqual(await axeViolations(page), [], 'the order page of a late payment');
    await screenshot(page, 'console-order-late', { fullPage: true });

    await page.goto(`${demo.merchantUrl}/console/orders?q=${encodeURIComponent(order.client_order_id)}&lang=en&theme=light`);
    await listSettled(page, 'orders');
    assert.equal(await page.locator('#list-table tbody td[data-col="shop"]').innerText(), 'Paid, fulfilled\nPaid late');
  });

  test('a dispute’s receipts: the image shown, the PDF linked, both behind the login; an HTML page is neither taken nor served as HTML', async () => {
    const { session, order } = await checkout('grinder');
    const upload = async (files: Array<{ bytes: Uint8Array; name: string; type: string }>) => {
      const form = new FormData();
      for (const f of files) form.append('files', new Blob([f.bytes as Uint8Array<ArrayBuffer>], { type: f.type }), f.name);
      return fetch(`${demo.merchantUrl}${demo.endpoint}/sessions/${encodeURIComponent(session)}/dispute`, { method: 'POST', headers: { 'x-paydesk': '1', origin: demo.merchantUrl }, body: form });
    };
    const html = await upload([{ bytes: HTML_PAGE, name: 'receipt.png', type: 'image/png' }]);
    assert.equal(html.status, 415, 'an HTML page named .png is refused at the upload');
    assert.deepEqual((await consoleOrder(order.id)).disputes, [], 'and no dispute was opened with it');
    const ok = await upload([
      { bytes: makePng(48, 64, [21, 101, 192]), name: 'receipt.png', type: 'image/png' },
      { bytes: makePdf('Receipt: 7490.50 RUB paid'), name: 'receipt.pdf', type: 'application/pdf' },
    ]);
    assert.equal(ok.status, 201, await ok.clone().text());
    const dispute = ((await ok.json()) as { order: OrderView }).order.dispute!;

    await page.goto(`${demo.merchantUrl}/console/disputes?processed=false&lang=en&theme=light`);
    await listSettled(page, 'disputes');
    const row = page.locator('#list-table tbody tr').filter({ has: page.locator(`[data-client-order-id="${order.client_order_id}"]`) });
    assert.equal(plain(await row.locator('td[data-col="amount"]').innerText()), 'RUB 7,490.50');
    assert.equal(await row.locator('td[data-col="processed"]').innerText(), 'In review');
    assert.equal(await row.locator('[data-order-ref], .ref').first().innerText(), 'grinder');
    const image = row.locator('.receipt-image img');
    await image.scrollIntoViewIfNeeded();
    await waitUntil(() => image.evaluate((img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth === 48), 'the receipt image is shown');
    assert.equal(await image.getAttribute('alt'), 'Receipt 1: receipt.png');
    const pdf = row.locator('a.receipt-file');
    assert.match(await pdf.innerText(), /^receipt\.pdf \(\d+ B\), download$/);
    assert.deepEqual(await axeViolations(page), [], 'the disputes with receipts');
    await screenshot(page, 'console-disputes-desktop-light', { fullPage: true });

    // What the browser gets for each: the type the bytes prove, never a page that could run.
    const served = await page.evaluate(
      async (urls) =>
        Promise.all(
          urls.map(async (url) => {
            // (no named helper here: the test's compiler would wrap it in a function the page does not have)
            const res = await fetch(url!);
            return {
              status: res.status,
              type: res.headers.get('content-type'),
              disposition: res.headers.get('content-disposition'),
              nosniff: res.headers.get('x-content-type-options'),
              csp: res.headers.get('content-security-policy'),
            };
          }),
        ),
      [await image.getAttribute('src'), await pdf.getAttribute('href')],
    );
    assert.deepEqual(
      served.map((s) => [s.status, s.type, s.disposition?.split(';')[0], s.nosniff]),
      [
        [200, 'image/png', 'inline', 'nosniff'],
        [200, 'application/pdf', 'attachment', 'nosniff'],
      ],
    );
    for (const s of served) assert.match(s.csp ?? '', /^default-src 'none';(?!.*script-src).*\bsandbox$/);
    const stranger = await fetch(`${demo.merchantUrl}${await image.getAttribute('src')}`);
    assert.equal(stranger.status, 401, 'not without the console login');
    assert.match(stranger.headers.get('content-type') ?? '', /^application\/json/);

    // The order's page shows the same dispute with its receipts.
    await row.locator('td[data-col="client"] a').click();
    await page.waitForURL((u) => u.pathname === `/console/orders/${order.id}`);
    const item = page.locator(`#order-disputes [data-dispute="${dispute.id}"]`);
    await item.waitFor();
    assert.match(plain(await item.innerText()), /In review[\s\S]*RUB 7,490\.50[\s\S]*Receipts uploaded by the shopper at checkout/);
    await item.locator('.receipt-image img').scrollIntoViewIfNeeded();
    await waitUntil(() => item.locator('.receipt-image img').evaluate((img) => (img as HTMLImageElement).naturalWidth === 48), 'the receipt on the order page');
    assert.equal(await item.locator('a.receipt-file').count(), 1);
    assert.equal(await page.locator('.order-summary .badges').innerText(), 'Awaiting payment\nDispute in review');
    assert.equal((await page.locator('#order-history tbody td[data-col="note"]').allInnerTexts()).at(-1), `Dispute ${dispute.id} opened`);
    assert.deepEqual(await axeViolations(page), [], 'the order page with a dispute');
    await screenshot(page, 'console-order-dispute', { fullPage: true });
    made.disputed = order;
  });

  test('the webhook log shows what the server received, newest first: a forged signature and a missing one refused, with their reasons', async () => {
    const { order } = await checkout('coffee-beans');
    const deliver = (headers: Record<string, string>) =>
      fetch(`${demo.merchantUrl}${demo.endpoint}/webhooks`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ event: 'order.status_changed', payload: { id: order.id, client_order_id: order.client_order_id, status: 'Completed' } }),
      });
    assert.equal((await deliver({ 'X-Paydesk-Signature': `t=${Math.floor(Date.now() / 1000)},v1=${'0f'.repeat(32)}` })).status, 401);
    assert.equal((await deliver({})).status, 401);

    await page.goto(`${demo.merchantUrl}/console/webhooks?lang=en&theme=light`);
    await listSettled(page, 'webhooks');
    const rows = page.locator('#list-table tbody tr');
    const cell = (i: number, key: string) => rows.nth(i).locator(`td[data-col="${key}"]`).innerText();
    assert.deepEqual(
      [await cell(0, 'signature'), await cell(0, 'outcome'), await cell(0, 'http'), await cell(0, 'reason')],
      ['Not verified', 'Refused', '401', 'No signature (X-Paydesk-Signature missing)'],
      'the newest first: the one without a signature',
    );
    assert.deepEqual(
      [await cell(1, 'signature'), await cell(1, 'outcome'), await cell(1, 'reason')],
      ['Not verified', 'Refused', 'Bad signature: it does not match the body'],
    );
    assert.equal(await rows.nth(1).locator('td[data-col="reason"]').getAttribute('title'), 'signature does not match (sign the raw body exactly as sent)', "the server's own words for developers");
    assert.equal(await rows.nth(1).locator('td[data-col="order"] a').count(), 0, 'an unverified payload names no order to open');
    const verifiedRow = rows.filter({ has: page.locator('td[data-col="signature"]', { hasText: /^Verified$/ }) }).first();
    assert.equal(await verifiedRow.locator('td[data-col="order"] a').count(), 1, 'a verified one links to its order');
    assert.match(await page.locator('#list-note').innerText(), /newest first/);
    assert.deepEqual(await axeViolations(page), [], 'the webhook log');
    await screenshot(page, 'console-webhooks-desktop-light', { fullPage: true });

    await page.locator('#f-outcome').selectOption('refused');
    await waitUntil(() => new URL(page.url()).searchParams.get('outcome') === 'refused', 'the filter in the address');
    await listSettled(page, 'webhooks');
    assert.ok((await page.locator('#list-table tbody td[data-col="outcome"]').allInnerTexts()).every((t) => t === 'Refused'));
    await page.locator('#lang-switch input[value="ru"]').check({ force: true });
    await waitUntil(async () => (await cell(1, 'reason').catch(() => '')) === 'Неверная подпись: не совпадает с телом', 'the reason in Russian');
    await page.locator('#lang-switch input[value="en"]').check({ force: true });
  });

  const SETTINGS = [
    { width: 320, height: 640, mobile: true, theme: 'dark', lang: 'ru' },
    { width: 390, height: 844, mobile: true, theme: 'light', lang: 'ru' },
    { width: 412, height: 915, mobile: true, theme: 'dark', lang: 'en' },
    { width: 1280, height: 900, mobile: false, theme: 'dark', lang: 'en' },
  ] as const;

  for (const s of SETTINGS) {
    test(`${s.width} px, ${s.theme}, ${s.lang}: the orders searched, an order, the disputes and the webhook log fit the screen, axe finds nothing`, async () => {
      assert.ok(made.paid && made.disputed, 'the orders of the tests above');
      const shopper = await newShopper(browser, { width: s.width, height: s.height, mobile: s.mobile });
      const p = shopper.page;
      const problems: string[] = [];
      const name = (what: string) => `${what}-${s.mobile ? 'phone' : 'desktop'}-${s.theme}`;
      /** A phone's screen from the page's title down; a desktop's whole page. */
      const shot = async (what: string) => {
        if (s.mobile) {
          await p.evaluate(() => {
            document.querySelector('#view-title')?.scrollIntoView({ block: 'start', behavior: 'instant' });
            window.scrollBy(0, -12);
          });
        }
        await screenshot(p, name(what), { fullPage: !s.mobile });
      };
      const check = async (label: string) => {
        const [scroll, client] = await documentWidths(p);
        if (scroll !== client) problems.push(`${label}: ${scroll} px wide on a ${client} px screen (${(await overflowing(p)).join('; ')})`);
        for (const v of await axeViolations(p)) problems.push(`${label}: ${v}`);
      };
      const settings = `lang=${s.lang}&theme=${s.theme}`;
      try {
        await logIn(p, demo, '/console/orders', settings);
        await p.goto(`${demo.merchantUrl}/console/orders?q=pour-over&${settings}`);
        await listSettled(p, 'orders');
        await check('orders searched');
        if (s.width === 390 || s.width === 1280) await shot('console-orders-search');

        for (const [label, order] of [
          ['order', made.paid],
          ['order-dispute', made.disputed],
        ] as const) {
          await p.goto(`${demo.merchantUrl}/console/orders/${order.id}?${settings}`);
          await p.locator('#order-body .order-summary').waitFor();
          await p.locator('#order-webhooks, #order-disputes').first().waitFor();
          const images = p.locator('#order-body .receipt-image img');
          for (let i = 0; i < (await images.count()); i++) {
            await images.nth(i).scrollIntoViewIfNeeded();
            await waitUntil(() => images.nth(i).evaluate((img) => (img as HTMLImageElement).naturalWidth > 0), 'a receipt image');
          }
          await check(label);
          if (label === 'order' && s.width !== 412) await shot('console-order');
        }

        await p.goto(`${demo.merchantUrl}/console/disputes?processed=false&${settings}`);
        await listSettled(p, 'disputes');
        await check('disputes');
        if (s.width === 390) await shot('console-disputes');
        await p.goto(`${demo.merchantUrl}/console/webhooks?${settings}`);
        await listSettled(p, 'webhooks');
        await check('webhooks');
        if (s.width === 1280 || s.width === 320) await shot('console-webhooks');
        if (s.mobile) {
          await p.locator('#filters-box summary').click();
          await p.locator('#f-outcome').waitFor();
          await check('webhooks, filters open');
        }
        assert.deepEqual(problems, []);
        assert.deepEqual(shopper.errors, []);
        assert.deepEqual(shopper.cspViolations, []);
      } finally {
        await shopper.context.close();
      }
    });
  }

  test('the page made no error and broke no content rule', () => {
    assert.deepEqual(merchant.errors, []);
    assert.deepEqual(merchant.cspViolations, []);
  });
});

describe('console with a real provider (no sandbox behind the demo): receipts are not available, and the page says so', () => {
  let provider: Sandbox;
  let providerUrl: string;
  let demo: TestDemo;
  let browser: Browser;

  before(async () => {
    // A provider the demo does not run itself: to the demo it is any provider at a URL, with no sandbox controls.
    provider = createSandbox({ apiKey: 'real_provider_key_for_the_console_test', sweepIntervalMs: 0 });
    providerUrl = (await provider.listen({ port: 0, host: '127.0.0.1' })).url;
    [demo, browser] = await Promise.all([startTestDemo({ provider: { url: providerUrl, apiKey: provider.apiKey } }), launchBrowser()]);
  });

  after(async () => {
    await browser?.close();
    await demo?.close();
    await provider?.close();
  });

  test('the disputes list and the order page tell that the provider does not give receipts out; the file route answers receipts_unavailable', async () => {
    const shopper = await newShopper(browser, { height: 1000 });
    const page = shopper.page;
    try {
      await logIn(page, demo, '/console/disputes');
      await listSettled(page, 'disputes');
      const dispute = (await (await fetch(`${providerUrl}/api/v1/disputes/search?size=1`, { headers: { 'X-API-Key': provider.apiKey } })).json()) as {
        data: { items: Array<{ dispute_id: string; order_id: string }> };
      };
      const first = dispute.data.items[0]!;
      assert.equal(await page.locator('#list-note').innerText(), 'Receipts are not available here: the provider does not give them out to merchants (the sandbox does).');
      assert.ok((await page.locator('#list-table tbody td[data-col="files"]').allInnerTexts()).every((t) => t === '—'));
      assert.deepEqual(await axeViolations(page), [], 'the disputes without receipts');

      const res = await page.evaluate(async (id) => {
        const r = await fetch(`/console/api/disputes/${encodeURIComponent(id)}/files/0`);
        return { status: r.status, body: (await r.json()) as { error: { code: string } } };
      }, first.dispute_id);
      assert.deepEqual([res.status, res.body.error.code], [404, 'receipts_unavailable']);

      await page.goto(`${demo.merchantUrl}/console/orders/${first.order_id}?lang=en&theme=light`);
      await page.locator(`#order-disputes [data-dispute="${first.dispute_id}"]`).waitFor();
      assert.match(await page.locator('#order-disputes').innerText(), /Receipts are not available here: the provider does not give them out/);
      assert.match(await page.locator('.order-summary').innerText(), /The shop’s server did not make this order/);
      assert.deepEqual(await axeViolations(page), [], 'an order of the provider without receipts');
      assert.deepEqual(shopper.errors, []);
    } finally {
      await shopper.context.close();
    }
  });
});
