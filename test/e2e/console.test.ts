/**
 * The merchant console in a browser: the demo login, the balance, and the lists with their filters,
 * search and pages, checked against what the provider (the sandbox) itself answers; the filters in
 * the address (a reload, a shared link and Back restore them); statuses and sides in the console's
 * language; axe on every view.
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
import { axeViolations } from './page-checks.js';

interface Page_<T> {
  items: T[];
  total: number;
  page: number;
  pages: number;
}

/** What the console must show for each provider status of a payment (Buy), in each language. */
const BUY_STATUS = {
  en: { Unpaid: 'Awaiting payment', Completed: 'Paid', CanceledByTimeout: 'Expired', CanceledByService: 'Cancelled by the provider' },
  ru: { Unpaid: 'Ожидает оплаты', Completed: 'Оплачен', CanceledByTimeout: 'Истёк', CanceledByService: 'Отменён провайдером' },
} as const;
const SELL_STATUS = {
  en: { Unpaid: 'In progress', Completed: 'Paid out', CanceledByTimeout: 'Expired, money returned', CanceledByService: 'Cancelled, money returned' },
  ru: { Unpaid: 'Выполняется', Completed: 'Выплачена', CanceledByTimeout: 'Истекла, деньги возвращены', CanceledByService: 'Отменена, деньги возвращены' },
} as const;
const SIDE = { en: { Buy: 'Payment', Sell: 'Payout' }, ru: { Buy: 'Оплата', Sell: 'Выплата' } } as const;

type Status = keyof (typeof BUY_STATUS)['en'];

describe('merchant console', () => {
  let demo: TestDemo;
  let browser: Browser;
  let merchant: Shopper;
  let page: Page;

  before(async () => {
    // A fixed terminal key: the sandbox seeds its history from it, so the history these tests read
    // (more than a page of orders, payouts among the last day's, disputes, withdrawals) is the same in
    // every run, not a draw that might, once in a while, hold no payout.
    [demo, browser] = await Promise.all([startTestDemo({ sandboxApiKey: 'sk_sandbox_console_history' }), launchBrowser()]);
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
  /** The cells of a column by its key (`data-col`). */
  const cells = async (key: string) => page.locator(`#list-table tbody td[data-col="${key}"]`).allInnerTexts();
  /** The client order id of every row (orders, disputes). */
  const clientIds = async () => page.locator('#list-table tbody td[data-col="client"] [data-client-order-id]').evaluateAll((els) => els.map((e) => e.getAttribute('data-client-order-id')));
  const query = () => new URL(page.url()).searchParams;

  /** Waits until the table shows `list` and no request is in flight. */
  async function settled(list: string) {
    await page.locator(`#list-table[data-list="${list}"]`).waitFor({ state: 'attached' });
    await waitUntil(async () => !(await page.locator('#list-panel').getAttribute('class'))?.includes('loading'), `${list} loaded`);
  }

  test('a wrong password is refused with a message, the right one opens the orders', async () => {
    await page.goto(`${demo.consoleUrl}?lang=en&theme=light`);
    await page.locator('#password').fill('not-the-password');
    await page.locator('#login-form button[type="submit"]').click();
    await page.locator('#login-error').filter({ hasText: 'Wrong password.' }).waitFor();
    assert.deepEqual(await axeViolations(page), [], 'the login page');
    await screenshot(page, 'console-login');
    assert.equal(await page.locator('#dashboard').isVisible(), false);

    await page.locator('#password').fill(CONSOLE_PASSWORD);
    await page.locator('#login-form button[type="submit"]').click();
    await page.locator('#dashboard').waitFor();
    await settled('orders');
    assert.equal(new URL(page.url()).pathname, '/console/orders', '/console opens the orders at their own address');
    assert.equal(await page.locator('#console-nav a[aria-current="page"]').getAttribute('data-list'), 'orders');
  });

  test('the balance card shows available, frozen and total as the provider says', async () => {
    const { deposit } = await sandboxCall<{ deposit: { available: string; frozen: string; total: string } }>(demo, '/api/v1/finance/balance');
    const shown = async (id: string) => (await page.locator(id).innerText()).replace(/[^\d.]/g, '');
    await waitUntil(async () => (await shown('#bal-available')) === deposit.available, 'the balance is shown');
    assert.equal(await shown('#bal-frozen'), deposit.frozen);
    assert.equal(await shown('#bal-total'), deposit.total);
  });

  test('orders: the first page, newest first, and the next page at its own address', async () => {
    const provider = await sandboxCall<{ orders: Page_<{ client_order_id: string }> }>(demo, '/api/v1/order/?size=10');
    assert.ok(provider.orders.total > 10, 'the seeded history has more than one page of orders');
    assert.equal(await rows().count(), 10);
    assert.deepEqual(await clientIds(), provider.orders.items.map((o) => o.client_order_id));
    assert.deepEqual(await axeViolations(page), [], 'the orders');
    await screenshot(page, 'console-orders', { fullPage: true });

    await page.locator('#next').click();
    await page.locator('#pager-info').filter({ hasText: `Page 2 of ${provider.orders.pages}` }).waitFor();
    assert.equal(query().get('page'), '2');
    const second = await sandboxCall<{ orders: Page_<{ client_order_id: string }> }>(demo, '/api/v1/order/?size=10&page=2');
    await settled('orders');
    assert.deepEqual(await clientIds(), second.orders.items.map((o) => o.client_order_id));
    assert.equal(await page.locator('#prev').isDisabled(), false);
    await page.goBack();
    await page.locator('#pager-info').filter({ hasText: `Page 1 of ${provider.orders.pages}` }).waitFor();
  });

  test('statuses and sides are in the console language, for payments and payouts alike', async () => {
    const provider = await sandboxCall<{ orders: Page_<{ status: Status; order_side: 'Buy' | 'Sell' }> }>(demo, '/api/v1/order/?size=50');
    for (const lang of ['ru', 'en'] as const) {
      await page.locator(`#lang-switch input[value="${lang}"]`).check({ force: true });
      await page.locator('#f-size').selectOption('50');
      await settled('orders');
      const expected = provider.orders.items.map((o) => (o.order_side === 'Sell' ? SELL_STATUS : BUY_STATUS)[lang][o.status]);
      assert.deepEqual(await cells('status'), expected, `statuses in ${lang}`);
      assert.deepEqual(await cells('side'), provider.orders.items.map((o) => SIDE[lang][o.order_side]), `sides in ${lang}`);
      assert.ok(provider.orders.items.some((o) => o.order_side === 'Sell'), 'the page has payouts too');
      const options = await page.locator('#f-status option').allInnerTexts();
      assert.ok(options.includes(BUY_STATUS[lang].CanceledByTimeout), `the status filter speaks ${lang}`);
      if (lang === 'ru') await screenshot(page, 'console-orders-ru');
    }
    assert.equal(query().get('lang'), 'en');
    await page.locator('#filters [data-reset]').click();
    await settled('orders');
  });

  test('page sizes are offered as 10, 20, 50, 100 on every paged list', async () => {
    for (const list of ['orders', 'payouts', 'disputes', 'transactions', 'form-sessions']) {
      await page.locator(`#console-nav a[data-list="${list}"]`).click();
      await settled(list);
      assert.deepEqual(await page.locator('#f-size option').allInnerTexts(), ['10', '20', '50', '100'], list);
      assert.equal(await page.locator('#f-size').inputValue(), list === 'transactions' ? '20' : '10', `${list}: the provider's default size is selected`);
    }
    await page.locator('#console-nav a[data-list="orders"]').click();
    await settled('orders');
  });

  test('filters live in the address: a reload, Back and a shared link restore them', async () => {
    await page.locator('#f-status').selectOption('Completed');
    await waitUntil(() => query().get('status') === 'Completed', 'the status in the address');
    await settled('orders');
    await page.locator('#f-sort_by').selectOption('amount');
    await waitUntil(() => query().get('sort_by') === 'amount', 'the sort in the address');
    await page.locator('#f-sort').selectOption('asc');
    await waitUntil(() => query().get('sort') === 'asc', 'the direction in the address');
    await settled('orders');
    const filtered = await cells('amount');
    const amounts = filtered.map((a) => Number(a.replace(/[^\d.]/g, '')));
    assert.deepEqual(amounts, [...amounts].sort((a, b) => a - b), 'ascending amounts');
    const statuses = await cells('status');
    assert.ok(statuses.length > 0 && statuses.every((s) => s === 'Paid' || s === 'Paid out'), `only completed orders: ${statuses.join(', ')}`);
    const filteredUrl = page.url();

    await page.reload();
    await settled('orders');
    assert.equal(await page.locator('#f-status').inputValue(), 'Completed');
    assert.equal(await page.locator('#f-sort').inputValue(), 'asc');
    assert.deepEqual(await cells('amount'), filtered, 'the same rows after a reload');

    // Away to another list, then Back: the same filters and rows.
    await page.locator('#console-nav a[data-list="disputes"]').click();
    await settled('disputes');
    await page.goBack();
    await settled('orders');
    assert.equal(page.url(), filteredUrl);
    assert.equal(await page.locator('#f-sort_by').inputValue(), 'amount');
    assert.deepEqual(await cells('amount'), filtered, 'the same rows after Back');
    // Back once more: the step before (sorted by amount, still newest first).
    await page.goBack();
    await settled('orders');
    assert.equal(query().get('sort'), 'desc');
    assert.equal(await page.locator('#f-sort').inputValue(), 'desc');

    // The link, opened by someone else (a new login), shows the same list.
    const colleague = await newShopper(browser, { height: 1100 });
    try {
      const path = new URL(filteredUrl).pathname + new URL(filteredUrl).search;
      await colleague.page.goto(`${demo.merchantUrl}${path}`);
      await colleague.page.locator('#password').fill(CONSOLE_PASSWORD);
      await colleague.page.locator('#login-form button[type="submit"]').click();
      await colleague.page.locator('#list-table[data-list="orders"] tbody tr').first().waitFor();
      await waitUntil(async () => !(await colleague.page.locator('#list-panel').getAttribute('class'))?.includes('loading'), 'loaded');
      assert.deepEqual(await colleague.page.locator('#list-table tbody td[data-col="amount"]').allInnerTexts(), filtered);
    } finally {
      await colleague.context.close();
    }

    // A value the list does not offer is ignored, not sent.
    await page.goto(`${demo.merchantUrl}/console/orders?status=%3Cscript%3E&sort=sideways&page=-3&lang=en&theme=light`);
    await settled('orders');
    assert.equal(await page.locator('#f-status').inputValue(), '');
    assert.equal(await page.locator('#list-error').isVisible(), false);
    assert.equal(await rows().count(), 10);
  });

  test('orders: a search by a whole client order id finds exactly that order', async () => {
    const provider = await sandboxCall<{ orders: Page_<{ client_order_id: string; id: string }> }>(demo, '/api/v1/order/?size=5&page=2');
    const wanted = provider.orders.items[0]!;
    await page.locator('#f-q').fill(wanted.client_order_id);
    await page.locator('#f-q').press('Enter');
    await waitUntil(async () => (await rows().count()) === 1, 'one row');
    assert.deepEqual(await clientIds(), [wanted.client_order_id]);
    assert.equal(query().get('q'), wanted.client_order_id);
    assert.equal(await page.locator('#list-table tbody td[data-col="order"]').getAttribute('title'), wanted.id);

    await page.locator('#f-q').fill('no-such-order-anywhere');
    await page.locator('#f-q').press('Enter');
    await page.locator('#list-empty').waitFor();
    await page.locator('#filters [data-reset]').click();
    await settled('orders');
  });

  test('form sessions: the state filter, states in the console language', async () => {
    await page.locator('#console-nav a[data-list="form-sessions"]').click();
    await settled('form-sessions');
    const all = await sandboxCall<Page_<{ state: string }>>(demo, '/api/v1/form/search?size=100');
    const state = all.items.find((s) => s.state === 'completed')?.state ?? all.items[0]?.state;
    assert.ok(state, 'the seeded history has form sessions');
    await page.locator('#f-state').selectOption(state);
    await settled('form-sessions');
    const states = await column(6);
    assert.equal(states.length, Math.min(10, all.items.filter((s) => s.state === state).length));
    const label = await page.locator(`#f-state option[value="${state}"]`).innerText();
    assert.notEqual(label, state, 'the state is translated');
    assert.ok(states.every((s) => s === label));
    assert.deepEqual(await axeViolations(page), [], 'the form sessions');
  });

  test('disputes: each with its order and amount, processed or not; the order link opens the order page', async () => {
    await page.locator('#console-nav a[data-list="disputes"]').click();
    await settled('disputes');
    await page.locator('#f-processed').selectOption('true');
    await settled('disputes');
    const done = await sandboxCall<{ data: Page_<{ client_order_id: string; order_id: string; dispute_id: string; amount: number }> }>(demo, '/api/v1/disputes/search?processed=true');
    assert.equal(await rows().count(), Math.min(10, done.data.total));
    assert.ok((await cells('processed')).every((s) => s === 'Processed'));
    assert.deepEqual(await clientIds(), done.data.items.slice(0, 10).map((d) => d.client_order_id));
    assert.deepEqual(
      (await cells('amount')).map((a) => a.replace(/[^\d.]/g, '')),
      done.data.items.slice(0, 10).map((d) => d.amount.toFixed(2)),
    );
    assert.deepEqual(await axeViolations(page), [], 'the disputes');
    await screenshot(page, 'console-disputes');

    const first = done.data.items[0]!;
    await page.locator('#list-table tbody tr').first().locator('td[data-col="client"] a').click();
    await page.waitForURL((url) => url.pathname === `/console/orders/${first.order_id}`);
    await page.locator('#order-provider').waitFor();
    assert.match(await page.locator('.order-summary').innerText(), new RegExp(first.client_order_id));
    assert.match(await page.locator('#order-disputes').innerText(), new RegExp(first.dispute_id));
    await page.goBack();
    await settled('disputes');

    // A period in the future has nothing.
    const future = new Date(Date.now() + 400 * 24 * 3600 * 1000).toISOString().slice(0, 10);
    await page.locator('#f-start_date').fill(future);
    await settled('disputes');
    await page.locator('#list-empty').waitFor();
  });

  test('transactions: the type filter', async () => {
    await page.locator('#console-nav a[data-list="transactions"]').click();
    await settled('transactions');
    await page.locator('#f-transaction_type').selectOption('withdrawal');
    await settled('transactions');
    const types = await column(2);
    assert.ok(types.length > 0, 'the seeded history has withdrawals');
    assert.ok(types.every((t) => t === 'Withdrawal'));
    assert.deepEqual(await axeViolations(page), [], 'the transactions');
  });

  test('payment methods: fee ranges, and the active-only and type filters', async () => {
    await page.locator('#console-nav a[data-list="payment-methods"]').click();
    await settled('payment-methods');
    const all = await sandboxCall<{ payment_methods: Array<{ method_type: string }> }>(demo, '/api/v1/finance/payment_methods');
    assert.equal(await rows().count(), all.payment_methods.length);
    assert.match(await page.locator('#list-table tbody tr .range').first().innerText(), /^(Payment|Payout): .+ – .+ · [\d.]+%/);
    assert.deepEqual(await axeViolations(page), [], 'the payment methods');
    await screenshot(page, 'console-methods', { fullPage: true });

    await page.locator('#f-method_type').selectOption('SBP');
    await settled('payment-methods');
    const types = await column(2);
    assert.ok(types.length > 0 && types.every((t) => t === 'SBP'));
    await page.locator('#f-active').check();
    await settled('payment-methods');
    const active = await sandboxCall<{ payment_methods: unknown[] }>(demo, '/api/v1/finance/payment_methods?active=true&method_type=SBP');
    assert.equal(await rows().count(), active.payment_methods.length);
    assert.equal(query().get('active'), 'true');
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
