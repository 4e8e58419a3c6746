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
import { assertSectionsOnAPhone, sectionsOnScreen } from '../e2e/console-page.js';
import { CONSOLE_PASSWORD, sandboxCall } from '../e2e/helpers.js';
import { enginesToRun, IPHONE_UA, type EnginePage, type PageOptions } from './driver.js';
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

/** Sell orders the console asked the provider for, by client order id (a refund's is `refund-<order id>-…`). */
const sellsAsked: string[] = [];
const countingFetch: typeof fetch = async (input, init) => {
  const req = new Request(input, init);
  if (req.method === 'POST' && new URL(req.url).pathname === '/api/v1/order/') {
    const body = JSON.parse(await req.clone().text()) as { order_side?: string; client_order_id?: string };
    if (body.order_side === 'Sell') sellsAsked.push(String(body.client_order_id));
  }
  return fetch(req);
};

let shop: Shop;
before(async () => {
  shop = await startShop({ consoleProvider: { fetch: countingFetch } });
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

    test(`${name}: the console on a phone (390 and 320 px): the sections one row with the current one in view, the list's title in the upper half; the Refund form of a phone refund asks for the shopper's bank, sends nothing without it, and with VTB chosen makes one Sell order by VTB's SBP method`, async () => {
      // A paid SBP order made at the provider (its requisites a phone), so the order's page has a Refund form.
      const made = await sandboxCall<{ id: string }>(shop.demo, '/api/v1/order/', {
        body: { client_order_id: `engines-refund-${name}-${Date.now()}`, order_side: 'Buy', amount: 2500, method_type: 'SBP' },
      });
      await sandboxCall(shop.demo, `/sandbox/orders/${made.id}/complete`, { method: 'POST' });
      const refundsAsked = () => sellsAsked.filter((id) => id.startsWith(`refund-${made.id}-`));
      const query = 'lang=en&theme=light';

      for (const [width, height, sends] of [[390, 844, false], [320, 640, true]] as const) {
        const at = `${width} px`;
        const { page, run, go } = await phoneConsole(open, name, width, height, `/console/orders?${query}`);
        const settled = (list: string) =>
          waitFor(
            () =>
              run((l: string) => {
                const table = document.querySelector(`#list-table[data-list="${l}"]`);
                return !!table && !document.querySelector('#list-panel')?.classList.contains('loading') && !!table.querySelector('tbody tr');
              }, list),
            `${at}: the ${list} list`,
          );
        await settled('orders');
        assertSectionsOnAPhone(await run(sectionsOnScreen), `${name}, ${at}, orders`);
        // The last list's tab, out of the row's view at first on a phone: brought into it when it is the current one.
        await run(() => document.querySelector<HTMLElement>('#console-nav a[data-list="payment-methods"]')!.click());
        await settled('payment-methods');
        const methods = await run(sectionsOnScreen);
        assert.equal(methods.current, 'Payment methods');
        assertSectionsOnAPhone(methods, `${name}, ${at}, payment methods`);

        // The order's page: a phone without the shopper's bank is refused on the page, nothing sent.
        await go(`/console/orders/${made.id}?${query}`);
        await waitFor(
          () =>
            run(() => {
              const account = document.querySelector<HTMLInputElement>('#refund-account');
              if (!account) return false;
              account.focus();
              account.value = '+7 999 123-45-67';
              account.dispatchEvent(new Event('input', { bubbles: true }));
              // The bank's choices come with the payout methods.
              return (document.querySelector('#refund-bank')?.querySelectorAll('option').length ?? 0) > 1;
            }),
          `${at}: the Refund form with the shopper's banks`,
        );
        await run(() => document.querySelector<HTMLButtonElement>('#refund-continue')!.click());
        const refused = await waitFor(
          () =>
            run(() => {
              const error = document.querySelector<HTMLElement>('#refund-bank-error');
              if (!error || error.hidden) return null;
              const bank = document.querySelector<HTMLSelectElement>('#refund-bank')!;
              const box = bank.getBoundingClientRect();
              return {
                error: (error.textContent ?? '').trim(),
                invalid: bank.getAttribute('aria-invalid'),
                focused: document.activeElement === bank,
                confirmHidden: document.querySelector<HTMLElement>('#refund-confirm')!.hidden,
                choices: [...bank.options].map((o) => o.textContent ?? ''),
                onScreen: box.left >= 0 && box.right <= document.documentElement.clientWidth,
                fits: document.documentElement.scrollWidth <= document.documentElement.clientWidth,
                // What sticks out on the right, for the failure's message.
                widths: `select ${Math.round(box.left)}–${Math.round(box.right)} px, page ${document.documentElement.scrollWidth} px on a ${document.documentElement.clientWidth} px screen; ${[
                  ...document.querySelectorAll('body *'),
                ]
                  .filter((e) => e.getBoundingClientRect().right > document.documentElement.clientWidth + 0.5 && e.getClientRects().length > 0)
                  .slice(0, 6)
                  .map((e) => `${e.tagName.toLowerCase()}${e.id ? `#${e.id}` : ''}.${[...e.classList].join('.')} ${Math.round(e.getBoundingClientRect().right)}`)
                  .join(', ')}`,
              };
            }),
          `${at}: the bank refused`,
        );
        assert.match(refused.error, /Choose the shopper’s bank/, `${at}: ${refused.error}`);
        assert.deepEqual(refused.choices, ['Choose the bank…', 'Sber', 'T-Bank', 'VTB', 'Alfa-Bank'], 'the banks that pay out by SBP');
        assert.deepEqual([refused.invalid, refused.focused, refused.confirmHidden], ['true', true, true], `${at}: the select marked and focused, no confirm step`);
        assert.ok(refused.onScreen && refused.fits, `${at}: the form fits the screen (${refused.widths})`);
        assert.deepEqual(refundsAsked(), [], `${at}: nothing sent`);
        if (!sends) {
          await page.close();
          continue;
        }

        // VTB chosen: the confirm step names it, and the refund goes by VTB's SBP method.
        await run(() => {
          const bank = document.querySelector<HTMLSelectElement>('#refund-bank')!;
          bank.value = [...bank.options].find((o) => o.textContent === 'VTB')!.value;
          bank.dispatchEvent(new Event('change', { bubbles: true }));
          document.querySelector<HTMLButtonElement>('#refund-continue')!.click();
        });
        const chosen = await waitFor(
          () => run(() => (document.querySelector<HTMLElement>('#refund-confirm')?.hidden === false ? (document.querySelector('#refund-bank-chosen')?.textContent ?? '') : null)),
          `${at}: the confirm step`,
        );
        assert.equal(chosen, 'VTB');
        await run(() => document.querySelector<HTMLButtonElement>('#refund-submit')!.click());
        await waitFor(() => run(() => !!document.querySelector('#refunds-table tbody tr')), `${at}: the refund listed on the order`);
        assert.equal(refundsAsked().length, 1, 'one payout asked for');
        const { payment_methods } = await sandboxCall<{ payment_methods: Array<{ method_id: string; method_type: string; nspk_code: string | null }> }>(shop.demo, '/api/v1/finance/payment_methods');
        const vtb = payment_methods.find((m) => m.method_type === 'SBP' && m.nspk_code === 'bank100000000005');
        assert.ok(vtb, "VTB's SBP method at the sandbox");
        const sells = (await sandboxCall<{ orders: { items: Array<{ client_order_id: string; method_id: string; customer_account: string | null }> } }>(shop.demo, '/api/v1/order/?order_side=Sell&size=100')).orders.items.filter((o) =>
          o.client_order_id.startsWith(`refund-${made.id}-`),
        );
        assert.deepEqual(
          sells.map((o) => [o.method_id, o.customer_account]),
          [[vtb.method_id, '+79991234567']],
          "one Sell order at the sandbox, by VTB's SBP method",
        );
        await page.close();
      }
    });
  });
}

/**
 * The console logged in at `path` on a phone's screen, `width` × `height`, with an iPhone's user agent:
 * the engine's window that size, or (WebKit, whose MiniBrowser window is never narrower than 447 px)
 * an iframe that size in a console page of the merchant's own origin (`frame-ancestors 'self'`).
 * `run` runs a function in the console's document; `go` opens another path of the console there.
 */
async function phoneConsole(open: (o?: PageOptions) => Promise<EnginePage>, name: string, width: number, height: number, path: string) {
  const framed = name === 'webkit';
  const page = await open(framed ? { width: 480, height: 900, userAgent: IPHONE_UA } : { width, height, userAgent: IPHONE_UA });
  await logIn(page, path.split('?')[0]);
  const frame = () => document.querySelector('iframe#phone');
  if (framed) {
    await page.evaluate(
      (src: string, w: number, h: number) => {
        const f = document.createElement('iframe');
        f.id = 'phone';
        f.width = String(w);
        f.height = String(h);
        f.style.border = '0';
        f.style.display = 'block';
        f.src = src;
        document.body.replaceChildren(f);
      },
      path,
      width,
      height,
    );
  }
  const run = <A extends unknown[], T>(fn: (...args: A) => T, ...args: A): Promise<T> => (framed ? page.evaluateInFrame(frame, fn, ...args) : page.evaluate(fn, ...args));
  const go = async (to: string) => {
    if (framed) await page.evaluate((src: string) => void (document.querySelector<HTMLIFrameElement>('iframe#phone')!.src = src), to);
    else await page.goto(`${shop.demo.merchantUrl}${to}`);
  };
  return { page, run, go };
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
