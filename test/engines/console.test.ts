/**
 * The merchant console in the three engines (drivers: test/engines/driver.ts; the demo:
 * test/engines/shop.ts). `PAYDESK_ENGINES=webkit` runs one: a shopper's order made on the storefront,
 * then the console's login (password typed, the form submitted), the orders list with that order,
 * and its page (the provider's view of it, its client order id).
 */
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, test } from 'node:test';
import { CONSOLE_PASSWORD } from '../e2e/helpers.js';
import { enginesToRun, launchEngine, type Engine, type EnginePage } from './driver.js';
import { buy, startShop, waitFor, waitForRequisites, type Shop } from './shop.js';

const DESKTOP = { width: 1280, height: 900 };

let shop: Shop;
before(async () => {
  shop = await startShop();
});
after(async () => {
  await shop?.close();
});

for (const name of enginesToRun()) {
  describe(name, () => {
    let engine: Engine;
    const pages: EnginePage[] = [];
    before(async () => {
      engine = await launchEngine(name);
    });
    afterEach(async () => {
      for (const p of pages.splice(0)) await p.close().catch(() => undefined);
    });
    after(async () => {
      await engine?.close();
    });

    test(`${name}: the console: login → the orders list shows the shopper's order → its page opens`, async () => {
      const page = await engine.newPage(DESKTOP);
      pages.push(page);
      await page.goto(`${shop.origin}/?lang=en&theme=light&method=sbp`);
      await buy(page, 'grinder');
      const order = (await waitForRequisites(page, '#inline-host paydesk-checkout')).order!;

      // The console on the merchant's own origin (its login checks the request's Origin against its host).
      await page.goto(`${shop.demo.merchantUrl}/console?lang=en&theme=light`);
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
  });
}
