/**
 * "Send test webhook" on the demo console's webhooks page, in Chromium: the button sends a signed
 * test delivery to the main token endpoint's handler; the page says it was verified and answered
 * {"test": true}, and the log below shows the delivery with the outcome "test" (its order id
 * `paydesk_test_{request_id}`). Then in Russian, dark, on a 390 px phone, to the with-form endpoint:
 * the same, nothing wider than the screen, no axe violation.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { IPHONE, launchBrowser, newShopper, screenshot, startTestDemo, type Shopper, type TestDemo } from './helpers.js';
import { listSettled, logIn } from './console-page.js';
import { axeViolations } from './page-checks.js';

interface WebhookRow {
  order_id: string | null;
  endpoint: string;
  outcome: string;
  verified: boolean;
  http_status: number;
}

describe('console: Send test webhook', () => {
  let demo: TestDemo;
  let browser: Browser;
  const opened: Shopper[] = [];

  before(async () => {
    [demo, browser] = await Promise.all([startTestDemo(), launchBrowser()]);
  });

  after(async () => {
    await Promise.all(opened.map((s) => s.context.close().catch(() => undefined)));
    await browser?.close();
    await demo?.close();
  });

  /** Presses the button; resolves with the request_id the server answered and the shown sentence. */
  async function press(page: Page): Promise<{ requestId: string; endpoint: string; text: string }> {
    const answered = page.waitForResponse((r) => r.url().endsWith('/console/api/webhooks/test') && r.request().method() === 'POST');
    await page.locator('#webhook-test').click();
    const res = await answered;
    assert.equal(res.status(), 200);
    assert.equal(res.request().headers()['x-paydesk'], '1', 'a console POST carries X-Paydesk: 1');
    const { result } = (await res.json()) as { result: { request_id: string; endpoint: string; ok: boolean; status: number } };
    assert.equal(result.ok, true, JSON.stringify(result));
    assert.equal(result.status, 200);
    const shown = page.locator('#webhook-test-result[data-ok="true"]');
    await shown.waitFor();
    return { requestId: result.request_id, endpoint: result.endpoint, text: await shown.innerText() };
  }

  /** The log's row of the delivery, as the console's API lists it, and as the page shows it. */
  async function loggedRow(page: Page, requestId: string): Promise<WebhookRow> {
    const orderId = `paydesk_test_${requestId}`;
    const listed = await page.request.get(`${demo.merchantUrl}/console/api/webhooks?outcome=test&size=100`);
    assert.equal(listed.status(), 200);
    const row = ((await listed.json()) as { items: WebhookRow[] }).items.find((w) => w.order_id === orderId);
    assert.ok(row, `${orderId} is in the webhook log`);
    return row;
  }

  test('desktop, English, light: the delivery is verified and appears in the log as a test', async () => {
    const merchant = await newShopper(browser, { height: 1000 });
    opened.push(merchant);
    const { page } = merchant;
    await logIn(page, demo, '/console/webhooks');
    await listSettled(page, 'webhooks');
    assert.match(await page.locator('#webhook-test').innerText(), /Send test webhook/);
    const { requestId, endpoint, text } = await press(page);
    assert.equal(endpoint, '/api/paydesk');
    assert.match(text, /\/api\/paydesk verified the test delivery and answered 200/);
    const row = await loggedRow(page, requestId);
    assert.deepEqual({ ...row, order_id: undefined }, { ...row, order_id: undefined, endpoint: '/api/paydesk', outcome: 'test', verified: true, http_status: 200 });
    // The log below was reloaded and shows it first, as a test delivery.
    await listSettled(page, 'webhooks');
    const first = page.locator('#list-table tbody tr').first();
    await page.waitForFunction(() => /Test delivery/.test(document.querySelector('#list-table tbody tr')?.textContent ?? ''));
    assert.match(await first.innerText(), /Verified/);
    assert.deepEqual(merchant.errors, []);
    assert.deepEqual(merchant.cspViolations, []);
    await screenshot(page, 'console-webhook-test-desktop-light');
  });

  test('a 390 px phone, Russian, dark, the with-form endpoint: the same, and it fits', async () => {
    const merchant = await newShopper(browser, IPHONE);
    opened.push(merchant);
    const { page } = merchant;
    await logIn(page, demo, '/console/webhooks', 'lang=ru&theme=dark');
    await listSettled(page, 'webhooks');
    assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), 'dark');
    assert.match(await page.locator('#webhook-test').innerText(), /Отправить тестовый вебхук/);
    await page.locator('#webhook-test-endpoint').selectOption('/api/paydesk-with-form');
    const { requestId, endpoint, text } = await press(page);
    assert.equal(endpoint, '/api/paydesk-with-form');
    assert.match(text, /проверил тестовую доставку и ответил 200/);
    const row = await loggedRow(page, requestId);
    assert.equal(row.endpoint, '/api/paydesk-with-form');
    assert.equal(row.outcome, 'test');
    const widths = await page.evaluate(() => ({
      doc: document.documentElement.scrollWidth,
      view: innerWidth,
      button: document.querySelector('#webhook-test')!.getBoundingClientRect().right,
      result: document.querySelector('#webhook-test-result')!.getBoundingClientRect().right,
    }));
    assert.ok(widths.doc <= widths.view, `the page is not wider than the phone: ${JSON.stringify(widths)}`);
    assert.ok(widths.button <= widths.view && widths.result <= widths.view, JSON.stringify(widths));
    assert.deepEqual(await axeViolations(page), []);
    assert.deepEqual(merchant.errors, []);
    await screenshot(page, 'console-webhook-test-phone-dark', { fullPage: true });
  });
});
