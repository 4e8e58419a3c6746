/**
 * The merchant console in the three engines (drivers: test/engines/driver.ts; the demo:
 * test/engines/shop.ts). `PAYDESK_ENGINES=webkit` runs one: a shopper's order made on the storefront,
 * then the console's login (password typed, the form submitted), the orders list with that order,
 * and its page (the provider's view of it, its client order id); and a payout: the form filled in
 * (method chosen, amount and card number typed), the fee and total shown before confirming, "Confirm
 * payout" → "Payout created", one Sell order at the provider, and the payouts list showing it.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { applyFee, formatMoney, numberToDecimal } from '../../src/money/index.js';
import { CONSOLE_PASSWORD, sandboxCall } from '../e2e/helpers.js';
import { enginesToRun, type EnginePage } from './driver.js';
import { buy, startShop, waitFor, waitForRequisites, type Shop } from './shop.js';
import { engineSpec } from './spec.js';


/** The console on the merchant's own origin (its login checks the request's Origin against its host), logged in at `path`. */
async function logIn(page: EnginePage, path = '/console'): Promise<void> {
  await page.goto(`${shop.demo.merchantUrl}${path}?lang=en&theme=light`);
  await waitFor(
    () =>
      page.evaluate((pw: string) => {
        const input = document.querySelector<HTMLInputElement>('#password');
        const submit = document.querySelector<HTMLButtonElement>('#login-form button[type="submit"]');
        if (!input || !submit) return false;
        input.focus();
        input.value = pw;
        input.dispatchEvent(new Event('input', { bubbles: true }));
        submit.click();
        return true;
      }, CONSOLE_PASSWORD),
    'the login form',
  );
  await waitFor(
    () => page.evaluate(() => { const d = document.querySelector<HTMLElement>('#dashboard'); return !!d && !d.hidden && d.getBoundingClientRect().height > 0; }),
    'the console after login',
  );
}

interface SellMethod {
  method_id: string;
  method_type: string;
  ranges: Array<{ fee_side: string; min_amount: number; max_amount: number; fee: number; fixed_fee: number | null }>;
}

/** The text of the element `selector` when it is shown (not hidden, laid out), else null. */
const shownText = (page: EnginePage, selector: string) =>
  page.evaluate((sel: string) => {
    const el = document.querySelector<HTMLElement>(sel);
    return el && !el.closest('[hidden]') && el.getClientRects().length > 0 ? (el.textContent ?? '').replace(/\s+/g, ' ').trim() : null;
  }, selector);

let shop: Shop;
before(async () => {
  shop = await startShop();
});
after(async () => {
  await shop?.close();
});

for (const name of enginesToRun()) {
  describe(name, () => {
    const { open } = engineSpec(name);

    test(`${name}: the console: login → the orders list shows the shopper's order → its page opens`, async () => {
      const page = await open();
      await page.goto(`${shop.origin}/?lang=en&theme=light&method=sbp`);
      await buy(page, 'grinder');
      const order = (await waitForRequisites(page, '#inline-host paydesk-checkout')).order!;

      await logIn(page);
      assert.equal(new URL(await page.url()).pathname, '/console/orders', 'the console opens on the orders');
      // The orders searched by the client order id, as an operator looking for a shopper's order would.
      await page.goto(`${shop.demo.merchantUrl}/console/orders?q=${encodeURIComponent(order.client_order_id)}&lang=en&theme=light`);
      const row = await waitFor(
        () =>
          page.evaluate((id: string) => {
            const table = document.querySelector('#list-table[data-list="orders"]');
            const cell = table?.querySelector(`tbody td[data-col="order"][title="${id}"]`);
            const tr = cell?.closest('tr');
            if (!tr) (globalThis as { __seen?: string }).__seen = String(!!table) + ' ' + (document.querySelector('#list-panel')?.textContent ?? '').replace(/\s+/g, ' ').slice(0, 600) + ' ' + location.href;
            return tr ? { text: (tr.textContent ?? '').replace(/\s+/g, ' '), link: tr.querySelector<HTMLAnchorElement>('td[data-col="client"] a')?.getAttribute('href') ?? null } : null;
          }, order.id),
        "the shopper's order in the list",
      ).catch(async (e: Error) => {
        throw new Error(`${e.message}; the list: ${await page.evaluate(() => (globalThis as { __seen?: string }).__seen ?? '')}`);
      });
      assert.ok(row.text.includes(order.client_order_id), `the row names ${order.client_order_id}: ${row.text}`);
      const amount = Number(order.amount).toLocaleString('en', { minimumFractionDigits: 2 });
      assert.ok(row.text.includes(amount), `the amount ${amount}: ${row.text}`);
      assert.match(row.text, /Hand grinder/, 'the product');
      assert.match(row.text, /Awaiting payment/, 'its state');
      await page.evaluate((id: string) => {
        const tr = document.querySelector(`#list-table tbody td[data-col="order"][title="${id}"]`)!.closest('tr')!;
        tr.querySelector<HTMLAnchorElement>('td[data-col="client"] a')!.click();
      }, order.id);
      await waitFor(async () => new URL(await page.url()).pathname === `/console/orders/${order.id}`, "the order's page");
      const summary = await waitFor(
        () => page.evaluate(() => (document.querySelector('#order-provider') ? (document.querySelector('.order-summary')?.textContent ?? '').replace(/\s+/g, ' ') : null)),
        "the order's page painted",
      );
      assert.ok(summary.includes(order.client_order_id), `the page names ${order.client_order_id}`);
    });

    test(`${name}: the console's payouts: the form (method, amount, card number) → fee and total → "Confirm payout" → "Payout created", one Sell order at the provider → listed on the payouts page`, async () => {
      const page = await open();
      const { payment_methods } = await sandboxCall<{ payment_methods: SellMethod[] }>(shop.demo, '/api/v1/finance/payment_methods?active=true');
      const card = payment_methods.find((m) => m.method_type === 'BankCard' && m.ranges.some((r) => r.fee_side === 'Sell'));
      assert.ok(card, 'the sandbox has a card method that pays out');
      const range = card.ranges.find((r) => r.fee_side === 'Sell' && r.min_amount <= 2500 && 2500 <= r.max_amount)!;
      const quote = applyFee('2500.00', { percent: numberToDecimal(range.fee), fixed: range.fixed_fee }, 'RUB');
      // As the page's text is read (its no-break spaces as spaces).
      const rub = (amount: string) => formatMoney(amount, 'RUB', 'en').replace(/\s+/g, ' ');
      // A card number unique to this engine's run (the Luhn digit computed), to find its order among the others.
      const pan = luhn(`4000${String(Date.now()).slice(-11)}`);

      await logIn(page, '/console/payouts/new');
      await waitFor(
        () =>
          page.evaluate(
            (id: string, amount: string, destination: string) => {
              const select = document.querySelector<HTMLSelectElement>('#payout-method');
              if (!select?.querySelector(`option[value="${id}"]`)) return false;
              select.value = id;
              select.dispatchEvent(new Event('change', { bubbles: true }));
              for (const [sel, value] of [['#payout-amount', amount], ['#payout-destination', destination]] as const) {
                const input = document.querySelector<HTMLInputElement>(sel)!;
                input.focus();
                input.value = value;
                input.dispatchEvent(new Event('input', { bubbles: true }));
              }
              return true;
            },
            card.method_id,
            '2 500',
            pan.replace(/(\d{4})(?=\d)/g, '$1 '),
          ),
        'the payout form with its methods',
      );
      const quoted = await waitFor(async () => {
        const text = await shownText(page, '#payout-quote');
        return text?.includes(rub(quote.total)) ? text : null;
      }, `the total ${rub(quote.total)} before confirming`);
      assert.ok(quoted.includes(rub(quote.fee)), `the fee ${rub(quote.fee)}: ${quoted}`);
      await page.evaluate(() => document.querySelector<HTMLButtonElement>('#payout-form button[type="submit"]')!.click());
      const summary = await waitFor(() => shownText(page, '#payout-summary'), 'the confirmation step');
      assert.ok(summary.includes(rub('2500.00')) && summary.includes(rub(quote.total)), summary);
      await page.evaluate(() => document.querySelector<HTMLButtonElement>('#payout-submit')!.click());
      await waitFor(async () => (await shownText(page, '#payout-done-title')) === 'Payout created', '"Payout created"');
      const id = await page.evaluate(() => [...document.querySelectorAll('#payout-done-summary .mono dd')].at(-1)?.textContent?.trim() ?? '');
      const sells = await sandboxCall<{ orders: { items: Array<{ id: string; client_order_id: string; order_side: string; amount: string; fee: string; customer_account: string | null }> } }>(
        shop.demo,
        '/api/v1/order/?order_side=Sell&size=100',
      );
      const mine = sells.orders.items.filter((o) => o.customer_account === pan);
      assert.equal(mine.length, 1, 'one Sell order at the provider');
      const order = mine[0]!;
      assert.equal(order.id, id, 'the page names the provider order');
      assert.equal(order.amount, '2500.00');
      assert.equal(order.fee, quote.fee, 'the fee shown is the fee the provider charged');

      // The payouts page (the done step's link, as the merchant follows it) lists it.
      await page.evaluate(() => document.querySelector<HTMLAnchorElement>('#payout-done a[href="/console/payouts"]')!.click());
      const row = await waitFor(
        () =>
          page.evaluate((client: string) => {
            const table = document.querySelector('#list-table[data-list="payouts"]');
            if (!table || document.querySelector('#list-panel')?.classList.contains('loading')) return null;
            const tr = [...table.querySelectorAll('tbody tr')].find((r) => r.textContent?.includes(client));
            return tr ? (tr.textContent ?? '').replace(/\s+/g, ' ') : null;
          }, order.client_order_id),
        'the payout in the payouts list',
      );
      assert.equal(new URL(await page.url()).pathname, '/console/payouts');
      assert.ok(row.includes(`${pan.slice(0, 4)} ${pan.slice(4, 6)}•• •••• ${pan.slice(-4)}`), `the masked card: ${row}`);
      assert.ok(row.includes(rub('2500.00')) || row.includes(rub(quote.total)), `the amount: ${row}`);
      assert.match(row, /In progress/);
    });
  });
}

/** `prefix` (15 digits) with its Luhn check digit. */
function luhn(prefix: string): string {
  let sum = 0;
  for (let i = 0; i < prefix.length; i++) {
    let d = Number(prefix[prefix.length - 1 - i]);
    if (i % 2 === 0) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return prefix + String((10 - (sum % 10)) % 10);
}
