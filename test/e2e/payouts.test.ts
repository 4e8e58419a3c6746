/**
 * Payouts from the merchant console, in a browser against the demo and its sandbox: the fee and
 * total before confirming, the balance moving available → frozen → withdrawn, one provider order
 * however often a form is submitted, the provider's refusals as clear messages (402 with the
 * available balance, 409 blacklisted, limits), the checks of every field, the audit line, and the
 * refusal of cross-site requests.
 */
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { applyFee, formatMoney, numberToDecimal, subtractAmounts, addAmounts } from '../../src/money/index.js';
import { PRESET_KEYS } from '../../src/sandbox/index.js';
import { CONSOLE_PASSWORD, launchBrowser, newShopper, sandboxCall, screenshot, startTestDemo, waitUntil, type Shopper, type TestDemo } from './helpers.js';
import { listSettled, logIn, shownBalance } from './console-page.js';
import { axeViolations } from './page-checks.js';

interface ProviderMethod {
  method_id: string;
  method_name: string;
  method_type: string;
  ranges: Array<{ fee_side: string; min_amount: number; max_amount: number; fee: number; fixed_fee: number | null }>;
}
interface ProviderOrder {
  id: string;
  client_order_id: string;
  order_side: string;
  amount: string;
  fee: string;
  status: string;
  customer_account: string | null;
  initial_method_id: string;
}
interface Balance {
  available: string;
  frozen: string;
  total: string;
}

const rub = (amount: string) => formatMoney(amount, 'RUB', 'en');

describe('payouts in the console', () => {
  let demo: TestDemo;
  let browser: Browser;
  let merchant: Shopper;
  let page: Page;
  /** The aggregate card method (a Sell range, pays to cards) and the bank account method, as the provider lists them. */
  let card: ProviderMethod;
  let account: ProviderMethod;
  let sbpBank: ProviderMethod;

  before(async () => {
    [demo, browser] = await Promise.all([startTestDemo(), launchBrowser()]);
    merchant = await newShopper(browser, { height: 1100 });
    page = merchant.page;
    const { payment_methods } = await sandboxCall<{ payment_methods: ProviderMethod[] }>(demo, '/api/v1/finance/payment_methods?active=true');
    const sells = payment_methods.filter((m) => m.ranges.some((r) => r.fee_side === 'Sell'));
    card = sells.find((m) => m.method_type === 'BankCard')!;
    account = sells.find((m) => m.method_type === 'BankAccount')!;
    sbpBank = sells.find((m) => m.method_type === 'SBP')!;
    assert.ok(card && account && sbpBank, 'the sandbox has card, account and SBP methods that make payouts');
    // The seeded history's unpaid payouts expire within 30 minutes, each unfreezing its money: let
    // them all expire now, so the balance moves only with what this file does.
    await sandboxCall(demo, '/sandbox/clock/advance', { body: { seconds: 31 * 60 } });
    await logIn(page, demo, '/console/payouts/new');
  });

  after(async () => {
    await merchant?.context.close().catch(() => undefined);
    await browser?.close();
    await demo?.close();
  });

  const balance = async (): Promise<Balance> => {
    const { available, frozen, total } = (await sandboxCall<{ deposit: Balance }>(demo, '/api/v1/finance/balance')).deposit;
    return { available, frozen, total };
  };
  const ordersOf = async (clientOrderId: string) =>
    (await sandboxCall<{ orders: { items: ProviderOrder[] } }>(demo, `/api/v1/order/search-by-client-order-id?id=${encodeURIComponent(clientOrderId)}`)).orders.items;
  /** The fee and total of a payout as the provider's Sell range gives them (computed here, apart from the console). */
  function expectedQuote(method: ProviderMethod, amount: string) {
    const range = method.ranges.find((r) => r.fee_side === 'Sell' && Number(amount) >= r.min_amount && Number(amount) <= r.max_amount)!;
    return applyFee(amount, { percent: numberToDecimal(range.fee), fixed: range.fixed_fee }, 'RUB');
  }
  const sellLimits = (method: ProviderMethod) => method.ranges.find((r) => r.fee_side === 'Sell')!;

  /** A new payout form, filled in. */
  async function fillForm(method: ProviderMethod, amount: string, destination: string) {
    await page.goto(`${demo.merchantUrl}/console/payouts/new?lang=en&theme=light`);
    await page.locator(`#payout-method option[value="${method.method_id}"]`).waitFor({ state: 'attached' });
    await page.locator('#payout-method').selectOption(method.method_id);
    await page.locator('#payout-amount').fill(amount);
    await page.locator('#payout-destination').fill(destination);
  }

  async function confirmStep() {
    await page.locator('#payout-form button[type="submit"]').click();
    await page.locator('#payout-confirm').waitFor();
  }

  /** A POST to the console API from the logged-in page (same origin, with the protocol header). */
  function postFromPage(path: string, body: unknown): Promise<{ status: number; body: any }> {
    return page.evaluate(
      async ([p, b]) => {
        const res = await fetch(`/console/api${p}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-paydesk': '1' }, body: JSON.stringify(b) });
        return { status: res.status, body: await res.json().catch(() => null) };
      },
      [path, body] as const,
    );
  }

  test('a payout from the form: fee and total before confirming, the balance moves available → frozen → withdrawn', async () => {
    const before = await balance();
    const amount = '2500.00';
    const quote = expectedQuote(card, amount);
    await fillForm(card, '2 500', '4111 1111 1111 1112');
    await page.locator('#payout-quote').filter({ hasText: rub(quote.total) }).waitFor();
    assert.match(await page.locator('#payout-quote').innerText(), new RegExp(`Fee\\s+${rub(quote.fee).replace(/[.$]/g, '\\$&')}`));
    assert.match(await page.locator('#payout-method-hint').innerText(), /Pays to a card/);

    // A card number with a wrong check digit is caught before anything is sent.
    await page.locator('#payout-form button[type="submit"]').click();
    await page.locator('#payout-destination-error').filter({ hasText: 'not a valid card number' }).waitFor();
    assert.equal(await page.locator('#payout-destination').getAttribute('aria-invalid'), 'true');
    assert.equal(await page.locator('#payout-confirm').isVisible(), false);
    assert.deepEqual(await axeViolations(page), [], 'the form with an error');

    await page.locator('#payout-destination').fill('4111 1111 1111 1111');
    await confirmStep();
    const summary = await page.locator('#payout-summary').innerText();
    assert.match(summary, /4111 1111 1111 1111/);
    assert.ok(summary.includes(rub(amount)) && summary.includes(rub(quote.fee)) && summary.includes(rub(quote.total)), summary);
    assert.deepEqual(await axeViolations(page), [], 'the confirmation');
    await screenshot(page, 'console-payout-confirm');
    const sellTo = async (account: string) =>
      (await sandboxCall<{ orders: { items: ProviderOrder[] } }>(demo, '/api/v1/order/?order_side=Sell&size=100')).orders.items.filter((o) => o.customer_account === account);
    assert.deepEqual(await sellTo('4111111111111111'), [], 'nothing at the provider before confirming');

    await page.locator('#payout-submit').click();
    await page.locator('#payout-done-title').filter({ hasText: 'Payout created' }).waitFor();
    const id = (await page.locator('#payout-done-summary .mono dd').last().innerText()).trim();
    const list = await sandboxCall<{ orders: { items: ProviderOrder[] } }>(demo, '/api/v1/order/?order_side=Sell&size=5');
    const order = list.orders.items.find((o) => o.id === id)!;
    assert.ok(order, 'the provider has the payout');
    assert.equal(order.order_side, 'Sell');
    assert.equal(order.amount, amount);
    assert.equal(order.fee, quote.fee, 'the fee shown is the fee the provider charged');
    assert.equal(order.customer_account, '4111111111111111');
    assert.equal(order.status, 'Unpaid');
    assert.match(await page.locator('#payout-done-summary').innerText(), /In progress/);

    // Frozen: the total left "available" for "frozen"; the total balance is unchanged.
    const frozen = await balance();
    assert.equal(frozen.available, subtractAmounts(before.available, quote.total));
    assert.equal(frozen.frozen, addAmounts(before.frozen, quote.total));
    assert.equal(frozen.total, before.total);
    await waitUntil(async () => JSON.stringify(await shownBalance(page)) === JSON.stringify(frozen), 'the balance card shows the frozen amount');
    await screenshot(page, 'console-payout-done');

    // The sandbox pays it out: frozen → withdrawn.
    await page.locator('#payout-complete').click();
    await page.locator('#payout-done-summary').filter({ hasText: 'Paid out' }).waitFor();
    const after = await balance();
    assert.equal(after.frozen, before.frozen);
    assert.equal(after.available, subtractAmounts(before.available, quote.total));
    assert.equal(after.total, subtractAmounts(before.total, quote.total));
    await waitUntil(async () => JSON.stringify(await shownBalance(page)) === JSON.stringify(after), 'the balance card shows the withdrawal');
    const withdrawals = await sandboxCall<{ items: Array<{ amount: string; client_description: string }> }>(demo, '/api/v1/finance/transactions?transaction_type=withdrawal&size=5');
    assert.ok(withdrawals.items.some((t) => t.client_description.includes(order.client_order_id) && t.amount.replace(/^-/, '') === quote.total), 'a withdrawal of the total');

    // The list of payouts shows it, paid out.
    await page.locator('#payout-done a[href="/console/payouts"]').click();
    await listSettled(page, 'payouts');
    const row = page.locator('#list-table tbody tr').filter({ hasText: order.client_order_id });
    assert.match(await row.innerText(), /Paid out/);
    assert.match(await row.innerText(), /4111 11•• •••• 1111/);
    assert.deepEqual(await axeViolations(page), [], 'the payouts list');
    await screenshot(page, 'console-payouts');

    // One audit line per action: who, when, amount, masked destination, result; never the full number.
    const lines = demo.logs.filter((l) => l.includes('console payout') && l.includes(order.client_order_id));
    assert.equal(lines.length, 2, lines.join('\n'));
    assert.match(lines[0]!, /"action":"create","result":"created"/);
    assert.match(lines[0]!, /"who":\{"login":"[0-9a-f]{12}","address":"127\.0\.0\.1"\}/);
    assert.match(lines[0]!, /"at":"\d{4}-\d\d-\d\dT/);
    assert.match(lines[0]!, /"amount":"2500\.00"/);
    assert.match(lines[0]!, /"destination":"4111 11•• •••• 1111"/);
    assert.match(lines[1]!, /"action":"sandbox-complete","result":"completed"/);
    assert.ok(!demo.logs.some((l) => l.includes('4111111111111111')), 'the card number is never logged in full');
  });

  test('a double-submitted payout makes one provider order', async () => {
    // In the page: a double click on "Confirm payout".
    await fillForm(card, '1200', '5555 5555 5555 4444');
    await confirmStep();
    await page.locator('#payout-submit').dblclick();
    await page.locator('#payout-done').waitFor();
    const id = (await page.locator('#payout-done-summary .mono dd').last().innerText()).trim();
    const mine = (await sandboxCall<{ orders: { items: ProviderOrder[] } }>(demo, '/api/v1/order/?order_side=Sell&size=20')).orders.items.filter(
      (o) => o.customer_account === '5555555555554444',
    );
    assert.deepEqual(mine.map((o) => o.id), [id], 'one order for the double click');

    // The same form sent twice at once, then once more later: one order, the others are its replays.
    const key = 'e2e-double-submit-key-0001';
    const quote = expectedQuote(card, '1300.00');
    const body = { key, method_id: card.method_id, amount: '1300', destination: '5105105105105100', total: quote.total };
    const [a, b] = await Promise.all([postFromPage('/payouts', body), postFromPage('/payouts', body)]);
    assert.deepEqual([a.status, b.status].sort(), [200, 201]);
    assert.equal(a.body.payout.id, b.body.payout.id);
    assert.deepEqual([a.body.replayed, b.body.replayed].sort(), [false, true]);
    const later = await postFromPage('/payouts', body);
    assert.equal(later.status, 200);
    assert.equal(later.body.replayed, true);
    assert.equal(later.body.payout.id, a.body.payout.id);
    assert.equal((await ordersOf(`payout-${key}`)).length, 1, 'one provider order for three submits');

    // The same key for another payout is refused, and makes nothing.
    const other = await postFromPage('/payouts', { ...body, amount: '1400', total: expectedQuote(card, '1400.00').total });
    assert.equal(other.status, 409);
    assert.equal(other.body.error.code, 'idempotency_key_reused');
    assert.equal((await ordersOf(`payout-${key}`)).length, 1);
    const replays = demo.logs.filter((l) => l.includes(`payout-${key}`));
    assert.deepEqual(
      replays.map((l) => /"result":"(\w+)"/.exec(l)?.[1]).sort(),
      ['created', 'refused', 'replayed', 'replayed'],
      'an audit line per submit',
    );
  });

  test('409: a blacklisted card is refused with a clear message, and nothing moves', async () => {
    const before = await balance();
    await fillForm(card, '1500', '4000 0000 0000 0002');
    await confirmStep();
    await page.locator('#payout-submit').click();
    await page.locator('#payout-error').filter({ hasText: 'refuses payouts to this card or phone number' }).waitFor();
    assert.equal(await page.locator('#payout-done').isVisible(), false);
    assert.deepEqual(await balance(), before);
    assert.deepEqual(await axeViolations(page), [], 'the confirmation with an error');
    await screenshot(page, 'console-payout-blacklisted');
  });

  test('limits: an amount outside the method’s Sell range is caught in the form and by the server', async () => {
    const limits = sellLimits(account);
    await fillForm(account, String(limits.min_amount - 1), '40817810000000000001');
    await page.locator('#payout-form button[type="submit"]').click();
    await page.locator('#payout-amount-error').filter({ hasText: `This method pays out from ${rub(numberToDecimal(limits.min_amount))}` }).waitFor();

    const res = await postFromPage('/payouts', {
      key: 'e2e-limits-key-000000001',
      method_id: account.method_id,
      amount: String(limits.min_amount - 1),
      destination: '40817810000000000001',
      total: '1.00',
    });
    assert.equal(res.status, 409);
    assert.equal(res.body.error.code, 'amount_out_of_limits');
    assert.equal(res.body.error.details.min, numberToDecimal(limits.min_amount));
    assert.equal((await ordersOf('payout-e2e-limits-key-000000001')).length, 0);
  });

  test('a total that no longer matches the provider’s fee is refused with the new total', async () => {
    const quote = expectedQuote(card, '3000.00');
    const res = await postFromPage('/payouts', { key: 'e2e-quote-key-0000000001', method_id: card.method_id, amount: '3000', destination: '4111111111111111', total: '3000.00' });
    assert.equal(res.status, 409);
    assert.equal(res.body.error.code, 'quote_changed');
    assert.equal(res.body.error.details.total, quote.total);
    assert.equal((await ordersOf('payout-e2e-quote-key-0000000001')).length, 0);
  });

  test('every field is checked: clear 400s, never a crash', async () => {
    const good = { key: 'e2e-fields-key-00000001', method_id: card.method_id, amount: '1500', destination: '4111111111111111', total: expectedQuote(card, '1500.00').total };
    const cases: Array<[unknown, string, RegExp]> = [
      [{ ...good, key: 'short' }, 'key', /16 to 48 characters/],
      [{ ...good, amount: '1e3' }, 'amount', /plain decimal/],
      [{ ...good, amount: '-5' }, 'amount', /plain decimal/],
      [{ ...good, amount: '10.005' }, 'amount', /fractional digits/],
      [{ ...good, amount: 1500 }, 'amount', /expected string/i],
      [{ ...good, destination: '4111 1111 1111 1112' }, 'destination', /check digit/],
      [{ ...good, destination: '' }, 'destination', /is required/],
      [{ ...good, method_id: sbpBank.method_id, destination: '12345', total: expectedQuote(sbpBank, '1500.00').total }, 'destination', /phone number/],
      [{ ...good, colour: 'red' }, 'colour', /unknown field: colour/],
    ];
    for (const [body, field, message] of cases) {
      const res = await postFromPage('/payouts', body);
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.equal(res.body.error.code, 'validation_failed', JSON.stringify(body));
      assert.equal(res.body.error.field, field, JSON.stringify(body));
      assert.match(res.body.error.message, message, JSON.stringify(body));
    }
    const notJson = await page.evaluate(async () => {
      const res = await fetch('/console/api/payouts', { method: 'POST', headers: { 'content-type': 'application/json', 'x-paydesk': '1' }, body: '{"key":' });
      return { status: res.status, code: ((await res.json()) as { error: { code: string } }).error.code };
    });
    assert.deepEqual(notJson, { status: 400, code: 'bad_request' });
    const unknownMethod = await postFromPage('/payouts', { ...good, method_id: '00000000-0000-0000-0000-000000000000' });
    assert.equal(unknownMethod.status, 409);
    assert.equal(unknownMethod.body.error.code, 'method_unavailable');
    const list = await page.evaluate(async () => (await fetch('/console/api/payouts?size=1000&status=')).status);
    assert.equal(list, 400);
    assert.equal((await ordersOf('payout-e2e-fields-key-00000001')).length, 0);
  });

  test('402: not enough money is shown with the available balance (a terminal with an empty balance)', async () => {
    // A second merchant server on the same sandbox, with the terminal whose balance is 0.00.
    const empty = await startTestDemo({ provider: { url: demo.sandboxUrl!, apiKey: PRESET_KEYS.emptyBalance } });
    const other = await newShopper(browser, { height: 1000 });
    try {
      const quote = expectedQuote(card, '1500.00');
      await logIn(other.page, empty, '/console/payouts/new');
      await other.page.locator(`#payout-method option[value="${card.method_id}"]`).waitFor({ state: 'attached' });
      await other.page.locator('#payout-method').selectOption(card.method_id);
      await other.page.locator('#payout-amount').fill('1500');
      await other.page.locator('#payout-destination').fill('4111111111111111');
      await other.page.locator('#payout-form button[type="submit"]').click();
      await other.page.locator('#payout-low-balance').filter({ hasText: rub('0.00') }).waitFor();
      await other.page.locator('#payout-submit').click();
      const error = other.page.locator('#payout-error');
      await error.filter({ hasText: 'Not enough money' }).waitFor();
      assert.equal(await error.innerText(), `Not enough money: the payout needs ${rub(quote.total)}, the available balance is ${rub('0.00')}. Top up the balance or pay out less.`);
      assert.equal(await other.page.locator('#payout-complete').count() > 0 && (await other.page.locator('#payout-complete').isVisible()), false);
      await screenshot(other.page, 'console-payout-402');
      assert.ok(empty.logs.some((l) => /"result":"refused".*"code":"insufficient_funds"|"code":"insufficient_funds".*"result":"refused"/.test(l)), 'the refusal is audited');
      assert.deepEqual(other.errors, []);
    } finally {
      await other.context.close();
      await empty.close();
    }
  });

  test('429: the provider’s request limit is answered 429 with when to try again (a rate-limited terminal)', async () => {
    // A merchant server on the sandbox's terminal that takes 5 requests a minute. A payout costs
    // three (the look-up of its key, the methods, the creation): the second one's creation is refused.
    const limited = await startTestDemo({ provider: { url: demo.sandboxUrl!, apiKey: PRESET_KEYS.rateLimited } });
    try {
      const login = await fetch(`${limited.merchantUrl}/console/api/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-paydesk': '1' },
        body: JSON.stringify({ password: CONSOLE_PASSWORD }),
      });
      const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0]!;
      const pay = (key: string) =>
        fetch(`${limited.merchantUrl}/console/api/payouts`, {
          method: 'POST',
          headers: { cookie, 'content-type': 'application/json', 'x-paydesk': '1' },
          body: JSON.stringify({ key, method_id: card.method_id, amount: '1500', destination: '4111111111111111', total: expectedQuote(card, '1500.00').total }),
        });
      assert.equal((await pay('e2e-rate-limit-key-000001')).status, 201);
      const refused = await pay('e2e-rate-limit-key-000002');
      assert.equal(refused.status, 429);
      const body = (await refused.json()) as { error: { code: string; retryable: boolean; details: { retry_after: number } } };
      assert.equal(body.error.code, 'rate_limited');
      assert.equal(body.error.retryable, true);
      assert.ok(body.error.details.retry_after >= 1 && body.error.details.retry_after <= 60, String(body.error.details.retry_after));
      assert.equal(refused.headers.get('retry-after'), String(body.error.details.retry_after));
    } finally {
      await limited.close();
    }
  });

  test('CSRF: a cross-site POST to the console API is refused, even with the login cookie', async () => {
    // The cookie of a login, for requests that spoof what a browser would never send cross-site.
    const login = await fetch(`${demo.merchantUrl}/console/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-paydesk': '1' },
      body: JSON.stringify({ password: CONSOLE_PASSWORD }),
    });
    const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0]!;
    const key = 'e2e-csrf-key-0000000001';
    const body = JSON.stringify({ key, method_id: card.method_id, amount: '1500', destination: '4111111111111111', total: expectedQuote(card, '1500.00').total });
    const post = (headers: Record<string, string>) =>
      fetch(`${demo.merchantUrl}/console/api/payouts`, { method: 'POST', headers: { cookie, 'content-type': 'application/json', ...headers }, body });
    const spoofed: Array<Record<string, string>> = [
      { 'x-paydesk': '1', origin: 'http://evil.example' },
      { 'x-paydesk': '1', origin: 'null' },
      { 'x-paydesk': '1', 'sec-fetch-site': 'cross-site' },
      { 'x-paydesk': '1', 'sec-fetch-site': 'same-site', origin: `http://127.0.0.1:${new URL(demo.sandboxUrl!).port}` },
    ];
    for (const headers of spoofed) {
      const res = await post(headers);
      assert.equal(res.status, 403, JSON.stringify(headers));
      assert.equal(((await res.json()) as { error: { code: string } }).error.code, 'cross_site_request', JSON.stringify(headers));
    }
    const noHeader = await post({ origin: demo.merchantUrl });
    assert.equal(noHeader.status, 403);
    assert.equal(((await noHeader.json()) as { error: { code: string } }).error.code, 'missing_protocol_header');
    // A request from the console's own origin with the header passes the check (it is the real thing).
    const own = await post({ 'x-paydesk': '1', origin: demo.merchantUrl, 'sec-fetch-site': 'same-origin' });
    assert.equal(own.status, 201);
    assert.equal((await ordersOf(`payout-${key}`)).length, 1);

    // In a browser logged in to the console, a page of another origin on the same host (the cookie
    // is SameSite=Strict, but another port is the same site, so the browser sends it) tries twice.
    const attackKey = 'e2e-csrf-attack-000000001';
    const target = `${demo.merchantUrl}/console/api/payouts`;
    const payload = { key: attackKey, method_id: card.method_id, amount: '1500', destination: '4111111111111111', total: expectedQuote(card, '1500.00').total };
    const evil = await evilServer({
      '/form': `<!doctype html><form id="f" method="post" action="${target}" enctype="text/plain"><input name='${JSON.stringify(payload).slice(0, -1)},"x":"' value='"}'></form><script>document.getElementById('f').submit()</script>`,
      '/fetch': `<!doctype html><title>waiting</title><script>fetch(${JSON.stringify(target)}, {method: 'POST', credentials: 'include', headers: {'content-type': 'application/json', 'x-paydesk': '1'}, body: ${JSON.stringify(JSON.stringify(payload))}}).then((r) => { document.title = 'answered ' + r.status; }, () => { document.title = 'blocked'; });</script>`,
    });
    try {
      const statuses: number[] = [];
      page.on('response', (r) => {
        if (r.url() === target && r.request().method() === 'POST') statuses.push(r.status());
      });
      await page.goto(`${evil.url}/form`);
      await waitUntil(() => statuses.length === 1, 'the form post was answered');
      assert.deepEqual(statuses, [403]);
      assert.match(await page.content(), /missing_protocol_header/);

      await page.goto(`${evil.url}/fetch`);
      await waitUntil(async () => (await page.title()) !== 'waiting', 'the cross-origin fetch settled');
      assert.equal(await page.title(), 'blocked', 'the browser does not send a cross-origin POST with a custom header (no CORS)');
      assert.equal((await ordersOf(`payout-${attackKey}`)).length, 0, 'no payout was made');
    } finally {
      await evil.close();
    }
    // The console itself still works in that browser.
    await page.goto(`${demo.merchantUrl}/console/payouts?lang=en`);
    await listSettled(page, 'payouts');
    assert.deepEqual(merchant.cspViolations, []);
  });
});

/** A tiny server of another origin (another port of 127.0.0.1) serving the given pages. */
async function evilServer(pages: Record<string, string>): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    const html = pages[req.url ?? ''];
    res.writeHead(html ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' }).end(html ?? 'not found');
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
