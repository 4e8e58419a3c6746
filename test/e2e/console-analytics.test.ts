/**
 * The console's analytics page and CSV exports in Chromium (demo, sandbox): the page's numbers for
 * 30 days agree with a count made from the provider's own order and dispute lists, in the browser's
 * time zone (Europe/Moscow); the orders list's "Export CSV" downloads, for its filters and period,
 * the provider's list row for row, and a list without dates its last 24 hours; the page on a 390 px phone; axe; both themes. With
 * PAYDESK_DOCS_SCREENSHOTS=1 the screenshots are copied to docs/console-analytics-*.png.
 */
import assert from 'node:assert/strict';
import { copyFileSync, readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { IPHONE, ROOT, SCREENSHOTS, launchBrowser, newShopper, sandboxCall, screenshot, startTestDemo, waitUntil, type Shopper, type TestDemo } from './helpers.js';
import { listSettled, logIn } from './console-page.js';
import { axeViolations } from './page-checks.js';
import { methodTypeLabel } from '../../src/console/ui/labels.js';

interface ProviderOrder {
  id: string;
  status: string;
  order_side: string;
  method_type: string;
  created_at: string;
  updated_at: string;
  expires_at: string;
}
interface ProviderPage<T> {
  items: T[];
  pages: number;
}

const TZ = 'Europe/Moscow';
const dayOf = new Intl.DateTimeFormat('en-CA', { timeZone: TZ, year: 'numeric', month: '2-digit', day: '2-digit' });
/** `YYYY-MM-DD` in Moscow, `days` days before now. */
const moscowDate = (daysBack: number) => dayOf.format(new Date(Date.now() - daysBack * 86400_000));
/** The instant a Moscow date starts (+03:00 all year). */
const moscowStart = (date: string) => Date.parse(`${date}T00:00:00+03:00`);

async function providerList<T>(demo: TestDemo, path: string, query: Record<string, string>): Promise<T[]> {
  const out: T[] = [];
  for (let page = 1; ; page++) {
    const q = new URLSearchParams({ ...query, page: String(page), size: '100' });
    const body = await sandboxCall<Record<string, unknown>>(demo, `${path}?${q}`);
    const res = (body.orders ?? body.data ?? body) as ProviderPage<T>;
    out.push(...res.items);
    if (page >= res.pages || res.items.length === 0) return out;
  }
}

describe('console analytics and exports', () => {
  let demo: TestDemo;
  let browser: Browser;
  let merchant: Shopper;
  let page: Page;

  before(async () => {
    [demo, browser] = await Promise.all([startTestDemo({ sandboxApiKey: 'sk_sandbox_console_history' }), launchBrowser()]);
    merchant = await newShopper(browser, { height: 1200 });
    page = merchant.page;
    await logIn(page, demo);
  });

  after(async () => {
    await merchant?.context.close().catch(() => undefined);
    await browser?.close();
    await demo?.close();
  });

  async function openAnalytics(p: Page, query: string) {
    await p.goto(`${demo.merchantUrl}/console/analytics?${query}`);
    await p.locator('.analytics-body:not([aria-busy])').waitFor();
    await p.locator('[data-chart="days"] canvas').first().waitFor();
  }

  test("30 days: the page's numbers are a count made from the provider's order and dispute lists", async () => {
    await openAnalytics(page, 'period=30d&lang=en&theme=light');
    assert.equal(await page.locator('.analytics .zone').innerText(), `Days in your time zone, ${TZ}. Payments only (payouts are not counted).`);
    const first = moscowDate(29);
    const last = moscowDate(0);
    const from = new Date(moscowStart(first)).toISOString();
    const to = new Date(moscowStart(last) + 86400_000 - 1).toISOString();
    const orders = await providerList<ProviderOrder>(demo, '/api/v1/order/', { start_date: from, end_date: to, order_side: 'Buy' });
    const disputes = await providerList<{ order_id: string }>(demo, '/api/v1/disputes/search', { start_date: from, end_date: new Date().toISOString() });
    const disputed = new Set(disputes.map((d) => d.order_id));
    assert.ok(orders.length > 20, 'the seeded history has a month of payments');
    const expected = new Map<string, number[]>();
    for (const o of orders) {
      const row = expected.get(dayOf.format(new Date(o.created_at))) ?? [0, 0, 0, 0, 0];
      row[0]!++;
      if (o.status === 'Completed') row[1]!++;
      if (o.status === 'CanceledByTimeout') row[2]!++;
      if (o.status === 'Completed' && Date.parse(o.updated_at) > Date.parse(o.expires_at)) row[3]!++;
      if (disputed.has(o.id)) row[4]!++;
      expected.set(dayOf.format(new Date(o.created_at)), row);
    }
    const shown = await page.locator('[data-numbers="days"] tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.children].map((c) => c.textContent ?? '')));
    assert.equal(shown.length, 30);
    assert.equal(shown[0]![0], first);
    assert.equal(shown.at(-1)![0], last);
    for (const [date, ...counts] of shown) assert.deepEqual(counts.map(Number), expected.get(date!) ?? [0, 0, 0, 0, 0], date);
    const kpi = (name: string) => page.locator(`[data-kpi="${name}"] dd`).innerText();
    assert.equal(await kpi('created'), String(orders.length));
    assert.equal(await kpi('paid'), String(orders.filter((o) => o.status === 'Completed').length));
    // Conversion by method: the provider's method types (by the console's names for them), created and paid.
    const methods = await page.locator('[data-numbers="methods"] tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.children].slice(0, 3).map((c) => c.textContent ?? '')));
    for (const [method, created, paid] of methods) {
      const of = orders.filter((o) => methodTypeLabel('en', o.method_type) === method);
      assert.deepEqual([Number(created), Number(paid)], [of.length, of.filter((o) => o.status === 'Completed').length], method);
    }
    assert.equal(
      methods.reduce((s, m) => s + Number(m[1]), 0),
      orders.length,
    );
    assert.deepEqual(await axeViolations(page), []);
    assert.deepEqual(merchant.cspViolations, [], 'uPlot draws within the console CSP');
    assert.deepEqual(merchant.errors, []);
    await screenshot(page, 'console-analytics-desktop-light', { fullPage: true });
  });

  test('the period picker: today, and two dates of your own, kept in the address', async () => {
    await page.locator('label[for="a-period-today"]').click();
    await waitUntil(async () => new URL(page.url()).searchParams.get('period') === 'today', 'today in the address');
    await page.locator('.analytics-body:not([aria-busy]) [data-numbers="days"]').waitFor();
    assert.equal(await page.locator('[data-numbers="days"] tbody tr').count(), 1);
    await page.locator('label[for="a-period-custom"]').click();
    await page.locator('#a-from').fill(moscowDate(3));
    await page.locator('#a-to').fill(moscowDate(1));
    await page.locator('.custom-period button[type="submit"]').click();
    await waitUntil(async () => new URL(page.url()).searchParams.get('from') === moscowDate(3), 'the custom period in the address');
    await page.locator('.analytics-body:not([aria-busy]) [data-numbers="days"]').waitFor();
    assert.deepEqual(await page.locator('[data-numbers="days"] tbody th').allInnerTexts(), [moscowDate(3), moscowDate(2), moscowDate(1)]);
    await page.goBack();
    await waitUntil(async () => new URL(page.url()).searchParams.get('period') === 'today', 'Back restores today');
  });

  test("Export CSV of the orders list downloads the provider's list of its period row for row", async () => {
    const start = moscowDate(20);
    const end = moscowDate(0);
    await page.goto(`${demo.merchantUrl}/console/orders?start_date=${start}&end_date=${end}&status=Completed&lang=en&theme=light`);
    await listSettled(page, 'orders');
    const link = page.locator('a[data-export="orders"]');
    const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
    assert.match(download.suggestedFilename(), new RegExp(`^orders_${start}_${end}\\.csv$`));
    const bytes = readFileSync((await download.path())!);
    assert.deepEqual([...bytes.subarray(0, 3)], [0xef, 0xbb, 0xbf]);
    const lines = bytes.subarray(3).toString('utf8').split('\r\n').filter(Boolean);
    const header = lines[0]!.split(',');
    const ids = lines.slice(1).map((l) => l.split(',')[header.indexOf('id')]);
    const listed = await providerList<ProviderOrder>(demo, '/api/v1/order/', {
      start_date: new Date(moscowStart(start)).toISOString(),
      end_date: new Date(moscowStart(end) + 86400_000 - 1).toISOString(),
      status: 'Completed',
      sort_by: 'created_at',
      sort: 'desc',
    });
    assert.ok(listed.length > 5);
    assert.deepEqual(ids, listed.map((o) => o.id));
    assert.ok(lines.slice(1).every((l) => l.includes(',Completed,')));
    assert.match(lines[1]!, /\+03:00/, 'times in the browser zone');
  });

  test('Export CSV of a list without dates downloads what the list shows: the last 24 hours', async () => {
    await page.goto(`${demo.merchantUrl}/console/payouts?lang=en&theme=light`);
    await listSettled(page, 'payouts');
    const [download] = await Promise.all([page.waitForEvent('download'), page.locator('a[data-export="payouts"]').click()]);
    const text = readFileSync((await download.path())!).subarray(3).toString('utf8');
    const ids = text.split('\r\n').filter(Boolean).slice(1).map((l) => l.split(',')[0]);
    // The provider's list without dates: its default period, the last 24 hours.
    const listed = await providerList<ProviderOrder>(demo, '/api/v1/order/', { order_side: 'Sell', sort_by: 'created_at', sort: 'desc' });
    assert.ok(listed.length > 0, 'the seeded last day has payouts');
    assert.deepEqual(ids, listed.map((o) => o.id));
  });

  test('light and dark, desktop and a 390 px phone', async () => {
    await openAnalytics(page, 'period=30d&lang=ru&theme=dark');
    assert.equal(await page.locator('#view-title').innerText(), 'Аналитика');
    assert.deepEqual(await axeViolations(page), []);
    await screenshot(page, 'console-analytics-desktop-dark', { fullPage: true });
    const phone = await newShopper(browser, IPHONE);
    try {
      await logIn(phone.page, demo, '/console/analytics', 'period=30d&lang=ru&theme=light');
      await phone.page.locator('.analytics-body:not([aria-busy]) [data-chart="days"] canvas').first().waitFor();
      const overflow = await phone.page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      assert.ok(overflow <= 0, `nothing scrolls sideways on a phone (${overflow} px)`);
      const chartWidth = await phone.page.locator('[data-chart="days"] canvas').first().evaluate((c) => c.getBoundingClientRect().width);
      assert.ok(chartWidth > 250 && chartWidth <= 390, `the chart fits the phone (${chartWidth} px)`);
      // Methods by the console's own names (here in Russian), never the API's (TransBankCard, BankAccount).
      const methodNames = await phone.page.locator('[data-numbers="methods"] tbody th').allInnerTexts();
      assert.ok(methodNames.length > 0 && methodNames.every((n) => !/^(BankCard|TransBankCard|SBP|TransSBP|BankAccount|NSPKLink)$/.test(n)), methodNames.join(', '));
      assert.deepEqual(await axeViolations(phone.page), []);
      await screenshot(phone.page, 'console-analytics-phone-light', { fullPage: true });
      await phone.page.locator('label:has(input[name="theme"][value="dark"])').first().click();
      await waitUntil(async () => (await phone.page.evaluate(() => document.documentElement.dataset.theme)) === 'dark', 'dark theme');
      await phone.page.locator('[data-chart="days"] canvas').first().waitFor();
      await screenshot(phone.page, 'console-analytics-phone-dark', { fullPage: true });
      assert.deepEqual(phone.errors, []);
    } finally {
      await phone.context.close();
    }
    if (process.env.PAYDESK_DOCS_SCREENSHOTS === '1') {
      for (const name of ['desktop-light', 'desktop-dark', 'phone-light', 'phone-dark']) {
        copyFileSync(`${SCREENSHOTS}console-analytics-${name}.png`, `${ROOT}docs/console-analytics-${name}.png`);
      }
    }
  });
});
