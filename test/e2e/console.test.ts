/**
 * The merchant console in a browser: the demo login, the balance, and the lists with their filters,
 * search and pages, checked against what the provider (the sandbox) itself answers.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import {
  CONSOLE_PASSWORD,
  launchBrowser,
  newShopper,
  sandboxCall,
  screenshot,
  startTestDemo,
  waitUntil,
  type Shopper,
  type TestDemo,
} from './helpers.js';

interface Page_<T> {
  items: T[];
  total: number;
  page: number;
  pages: number;
}

describe('merchant console', () => {
  let demo: TestDemo;
  let browser: Browser;
  let merchant: Shopper;
  let page: Page;

  before(async () => {
    [demo, browser] = await Promise.all([startTestDemo(), launchBrowser()]);
    merchant = await newShopper(browser, { height: 1100 });
    page = merchant.page;
  });

  after(async () => {
    await merchant?.context.close().catch(() => undefined);
    await browser?.close();
    await demo?.close();
  });

  const rows = () => page.locator('#list-table tbody tr');
  const column = async (index: number) => page.locator(`#list-table tbody tr td:nth-child(${index})`).allInnerTexts();

  /** Waits until the table shows `list` and no request is in flight. */
  async function settled(list: string) {
    await page.locator(`#list-table[data-list="${list}"]`).waitFor();
    await waitUntil(async () => !(await page.locator('#list-panel').getAttribute('class'))?.includes('loading'), `${list} loaded`);
  }

  test('a wrong password is refused with a message, the right one opens the dashboard', async () => {
    await page.goto(`${demo.consoleUrl}?lang=en&theme=light`);
    await page.locator('#password').fill('not-the-password');
    await page.locator('#login-form button[type="submit"]').click();
    await page.locator('#login-error').filter({ hasText: 'Wrong password.' }).waitFor();
    await screenshot(page, 'console-login');
    assert.equal(await page.locator('#dashboard').isVisible(), false);

    await page.locator('#password').fill(CONSOLE_PASSWORD);
    await page.locator('#login-form button[type="submit"]').click();
    await page.locator('#dashboard').waitFor();
    await settled('orders');
  });

  test('the balance card shows the provider balance', async () => {
    const { deposit } = await sandboxCall<{ deposit: { available: string; frozen: string; total: string } }>(demo, '/api/v1/finance/balance');
    const shown = (await page.locator('#bal-available').innerText()).replace(/[^\d.]/g, '');
    assert.equal(shown, deposit.available);
    assert.equal((await page.locator('#bal-total').innerText()).replace(/[^\d.]/g, ''), deposit.total);
  });

  test('orders: the first page, newest first, and the next page', async () => {
    const provider = await sandboxCall<{ orders: Page_<{ client_order_id: string }> }>(demo, '/api/v1/order/?size=10');
    assert.ok(provider.orders.total > 10, 'the seeded history has more than one page of orders');
    assert.equal(await rows().count(), 10);
    assert.deepEqual(await column(2), provider.orders.items.map((o) => o.client_order_id));
    await screenshot(page, 'console-orders', { fullPage: true });

    await page.locator('#next').click();
    await page.locator('#pager-info').filter({ hasText: `Page 2 of ${provider.orders.pages}` }).waitFor();
    const second = await sandboxCall<{ orders: Page_<{ client_order_id: string }> }>(demo, '/api/v1/order/?size=10&page=2');
    await settled('orders');
    assert.deepEqual(await column(2), second.orders.items.map((o) => o.client_order_id));
    assert.equal(await page.locator('#prev').isDisabled(), false);
  });

  test('orders: the status filter and sorting by amount', async () => {
    await page.locator('#f-status').selectOption('Completed');
    await page.locator('#pager-info').filter({ hasText: 'Page 1 of' }).waitFor();
    await settled('orders');
    const statuses = await column(8);
    assert.ok(statuses.length > 0);
    assert.ok(statuses.every((s) => s === 'Completed'), `only Completed, got ${statuses.join(', ')}`);

    await page.locator('#f-sort_by').selectOption('amount');
    await page.locator('#f-sort').selectOption('asc');
    await settled('orders');
    const amounts = (await column(6)).map((a) => Number(a.replace(/[^\d.]/g, '')));
    assert.deepEqual(amounts, [...amounts].sort((a, b) => a - b), 'ascending amounts');
    await page.locator('#filters button[type="button"]').click(); // reset
    await settled('orders');
  });

  test('orders: search by client order id finds exactly that order', async () => {
    const provider = await sandboxCall<{ orders: Page_<{ client_order_id: string; id: string }> }>(demo, '/api/v1/order/?size=5&page=2');
    const wanted = provider.orders.items[0]!;
    await page.locator('#f-client_order_id').fill(wanted.client_order_id);
    await page.locator('#f-client_order_id').press('Enter');
    await waitUntil(async () => (await rows().count()) === 1, 'one row');
    assert.deepEqual(await column(2), [wanted.client_order_id]);
    assert.equal(await page.locator('#list-table tbody tr td:nth-child(3)').getAttribute('title'), wanted.id);

    await page.locator('#f-client_order_id').fill('no-such-order-anywhere');
    await page.locator('#f-client_order_id').press('Enter');
    await page.locator('#list-empty').waitFor();
    await page.locator('#filters button[type="button"]').click();
    await settled('orders');
  });

  test('form sessions: the state filter', async () => {
    await page.locator('[data-list="form-sessions"]').click();
    await settled('form-sessions');
    const all = await sandboxCall<Page_<{ state: string }>>(demo, '/api/v1/form/search?size=100');
    const state = all.items[0]?.state;
    assert.ok(state, 'the seeded history has form sessions');
    await page.locator('#f-state').selectOption(state);
    await settled('form-sessions');
    const states = await column(6);
    assert.equal(states.length, Math.min(10, all.items.filter((s) => s.state === state).length));
    assert.ok(states.every((s) => s === state));
  });

  test('disputes: the processed filter and a period', async () => {
    await page.locator('[data-list="disputes"]').click();
    await settled('disputes');
    await page.locator('#f-processed').selectOption('true');
    await settled('disputes');
    const done = await sandboxCall<{ data: Page_<unknown> }>(demo, '/api/v1/disputes/search?processed=true');
    assert.equal(await rows().count(), Math.min(10, done.data.total));
    assert.ok((await column(6)).every((s) => s === 'completed'));
    await screenshot(page, 'console-disputes');

    // A period in the future has nothing.
    const future = new Date(Date.now() + 400 * 24 * 3600 * 1000).toISOString().slice(0, 10);
    await page.locator('#f-start_date').fill(future);
    await settled('disputes');
    await page.locator('#list-empty').waitFor();
  });

  test('transactions: the type filter', async () => {
    await page.locator('[data-list="transactions"]').click();
    await settled('transactions');
    await page.locator('#f-transaction_type').selectOption('withdrawal');
    await settled('transactions');
    const types = await column(2);
    assert.ok(types.length > 0, 'the seeded history has withdrawals');
    assert.ok(types.every((t) => t === 'withdrawal'));
  });

  test('payment methods: fee ranges, and the active-only and type filters', async () => {
    await page.locator('[data-list="payment-methods"]').click();
    await settled('payment-methods');
    const all = await sandboxCall<{ payment_methods: Array<{ method_type: string }> }>(demo, '/api/v1/finance/payment_methods');
    assert.equal(await rows().count(), all.payment_methods.length);
    assert.match(await page.locator('#list-table tbody tr .range').first().innerText(), /^(Buy|Sell): .+ – .+ · [\d.]+%/);
    await screenshot(page, 'console-methods', { fullPage: true });

    await page.locator('#f-method_type').selectOption('SBP');
    await settled('payment-methods');
    const types = await column(2);
    assert.ok(types.length > 0 && types.every((t) => t === 'SBP'));
    await page.locator('#f-active').check();
    await settled('payment-methods');
    const active = await sandboxCall<{ payment_methods: unknown[] }>(demo, '/api/v1/finance/payment_methods?active=true&method_type=SBP');
    assert.equal(await rows().count(), active.payment_methods.length);
  });

  test('logging out closes the console', async () => {
    await page.locator('#logout').click();
    await page.locator('#login-view').waitFor();
    const res = await page.evaluate(async () => (await fetch('/console/api/balance')).status);
    assert.equal(res, 401);
    assert.deepEqual(merchant.cspViolations, []);
    assert.deepEqual(merchant.errors, []);
  });
});
