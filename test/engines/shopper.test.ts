/**
 * The paths a shopper's money depends on, the same spec in each engine a shopper uses: Chromium,
 * WebKit (Safari's engine: WebKitGTK's MiniBrowser) and Gecko (Firefox ESR), against the real demo
 * (test/engines/shop.ts; drivers: test/engines/driver.ts). `PAYDESK_ENGINES=webkit` runs one.
 *
 *   - storefront "Buy" → the requisites (amount, account, holder, recipient's bank, pay-by, the
 *     countdown ticking) → the QR drawn and decoded to the order's payment link → a reload and a second
 *     window show the same order → the sandbox pays → "paid" → the shopper is sent back to the shop;
 *   - the server-rendered checkout: painted with JavaScript off; with it on, taken over with no
 *     second order;
 *   - code integrity (the CDN build, src/element/integrity.ts): a changed chunk served to the ES
 *     module (the storefront) and to the classic script (/cdn-demo) never runs — `paydesk-error`
 *     `code: "integrity"`, not retryable, the error step; an untouched page raises no alarm. Both
 *     ends of the digest chain: the element's chunk (its digest in the entry) and the pay step
 *     (its digest in the element's chunk, loaded after the paint);
 *   - paint first with a slow provider: the element's own code arrives while POST /sessions is still
 *     out; it keeps the spinner and takes the late answer (one request, one order);
 *   - at 390 px (an iPhone's width and user agent): the requisites fit, and a screenshot
 *     (test-output/screenshots/engines/; docs/requisites-<engine>-390.png with PAYDESK_DOCS_SCREENSHOTS=1).
 *     WebKit's window is never narrower than 447 px: there the page runs in a 390 px iframe.
 *
 * Needs dist/ (`node scripts/build.mjs --quiet`) and the three browsers (driver.ts says how to install).
 */
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import type { OrderView } from '../../src/protocol/index.js';
import { ROOT, sandboxCall } from '../e2e/helpers.js';
import { enginesToRun, IPHONE_UA, type EnginePage } from './driver.js';
import { buy, chunkPath, crop, decodeWidgetQr, goNoWait, readWidget, startShop, waitFor, waitForRequisites, waitForState, type Shop } from './shop.js';
import { DESKTOP, engineSpec } from './spec.js';

const SHOTS = `${ROOT}test-output/screenshots/engines/`;
const INLINE = '#inline-host paydesk-checkout';
const PHONE = { width: 390, height: 844 };

let shop: Shop;
before(async () => {
  shop = await startShop();
});
after(async () => {
  await shop?.close();
});

const store = (settings: Record<string, string> = {}) => `${shop.origin}/?${new URLSearchParams({ lang: 'en', theme: 'light', ...settings })}`;

/** The provider's orders with this client order id (exactly one, for a purchase that made no second). */
async function providerOrders(clientOrderId: string): Promise<number> {
  const body = await sandboxCall<{ orders: { total: number } }>(shop.demo, `/api/v1/order/search-by-client-order-id?id=${encodeURIComponent(clientOrderId)}`);
  return body.orders.total;
}

/** The countdown's text, from the widget's shadow root. */
const countdown = (page: EnginePage, sel: string) =>
  page.evaluate((s: string) => document.querySelector(s)?.shadowRoot?.querySelector('[part~="countdown"]')?.textContent?.trim() ?? null, sel);

function assertRequisites(text: string, order: OrderView): void {
  assert.ok(order.requisites, 'the order has requisites');
  assert.match(text, /1,500\.00/, 'the amount');
  const digits = order.requisites.holder_account.replace(/\D/g, '');
  assert.ok(text.replace(/\D/g, '').includes(digits), `the account ${digits}`);
  assert.ok(text.includes(order.requisites.holder_name), `the holder ${order.requisites.holder_name}`);
  assert.match(text, /Recipient’s bank\s*\S+/, "the recipient's bank");
}

for (const name of enginesToRun()) {
  describe(name, () => {
    const spec = engineSpec(name);
    const { open } = spec;

    test(`${name}: "Buy" → requisites, countdown ticking, QR of the payment link → reload and a second window, same order → the sandbox pays → paid → back to the shop`, async (t) => {
      const page = await open(DESKTOP);
      t.diagnostic(`${name}: ${spec.engine.version}`);
      await page.goto(store({ method: 'sbp' }));
      await buy(page, 'coffee-beans');
      const shown = await waitForRequisites(page, INLINE);
      const order = shown.order!;
      assert.equal(order.amount, '1500.00');
      assertRequisites(shown.text, order);
      assert.match(shown.text, /Pay by \d{1,2}:\d{2}/, 'the pay-by time');
      const first = await countdown(page, INLINE);
      assert.match(first ?? '', /^\d{1,2}:\d{2}$/, `the countdown: ${first}`);
      await waitFor(async () => (await countdown(page, INLINE)) !== first, `the countdown ticking on from ${first}`, 5_000);
      assert.ok(order.payment_link, 'an SBP order has a payment link');
      assert.equal(await waitFor(() => decodeWidgetQr(page, INLINE), 'a decodable QR', 10_000), order.payment_link);

      await page.reload();
      const again = await waitForRequisites(page, INLINE);
      assert.equal(again.order?.id, order.id, 'the reload shows the same order');
      // The purchase's address in a second window of the same browser (WebKit: a window, as a tab hangs MiniBrowser).
      const second = await page.openWindow(await page.url());
      const there = await waitForRequisites(second, INLINE);
      assert.equal(there.order?.id, order.id, 'a second window shows the same order');
      await second.close();
      assert.equal(await providerOrders(order.client_order_id), 1, 'one order at the provider');

      await sandboxCall(shop.demo, `/sandbox/orders/${order.id}/complete`, { body: {} });
      const paid = await waitForState(page, 'paid', INLINE);
      assert.deepEqual(paid.errors, [], 'no paydesk-error');
      assert.equal(paid.tampered, null);
      await waitFor(async () => new URL(await page.url()).pathname === '/thanks', 'the redirect to /thanks', 30_000);
    });

    test(`${name}: the server-rendered checkout with JavaScript off shows the requisites (an iPhone's width and user agent)`, async () => {
      const res = await fetch(`${shop.origin}/demo/api/carts`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-paydesk': '1' },
        body: JSON.stringify({ product: 'coffee-beans' }),
      });
      assert.equal(res.status, 201);
      const { cart } = (await res.json()) as { cart: string };
      const page = await open({ ...PHONE, userAgent: IPHONE_UA, javascript: false });
      await page.goto(`${shop.origin}/checkout/${cart}?lang=en&theme=light&method=sbp`);
      const seen = await page.evaluate(() => {
        const el = document.querySelector('paydesk-checkout');
        return {
          defined: !!customElements.get('paydesk-checkout'),
          session: el?.getAttribute('session') ?? null,
          text: (el?.shadowRoot?.textContent ?? '').replace(/\s+/g, ' '),
          requisitesHeight: el?.shadowRoot?.querySelector('[part~="requisites"]')?.getBoundingClientRect().height ?? 0,
        };
      });
      assert.equal(seen.defined, false, 'no script ran');
      assert.ok(seen.session, 'the page carries the session its server created');
      const session = (await (await fetch(`${shop.demo.merchantUrl}${shop.demo.endpoint}/sessions/${encodeURIComponent(seen.session)}`)).json()) as { order: OrderView };
      assertRequisites(seen.text, session.order);
      assert.ok(seen.requisitesHeight > 0, 'the requisites are painted');
    });

    test(`${name}: the server-rendered checkout with JavaScript on is taken over: the same order, no second one`, async () => {
      const page = await open(DESKTOP);
      await page.goto(store({ display: 'server', method: 'sbp' }));
      const posts = shop.sessionPosts.length;
      await buy(page, 'coffee-beans');
      await waitFor(async () => /\/checkout\/cart_[\w-]{16}$/.test(new URL(await page.url()).pathname), 'the server checkout page');
      const shown = await waitForRequisites(page);
      const order = shown.order!;
      assertRequisites(shown.text, order);
      const attribute = await page.evaluate(() => document.querySelector('paydesk-checkout')?.getAttribute('session') ?? null);
      assert.ok(attribute, 'the element took over the session of the page');
      assert.deepEqual(shop.sessionPosts.slice(posts), [], 'the browser created no session');
      assert.equal(await providerOrders(order.client_order_id), 1, 'one order at the provider');
      assert.deepEqual(shown.errors, []);
    });

    for (const build of ['es', 'classic'] as const) {
      const where = build === 'es' ? 'the storefront (ES module /paydesk.js)' : '/cdn-demo (classic script /cdn/paydesk.iife.js)';
      /** The URL of a chunk as the page loads it: the classic script's copy where it has one. */
      const chunk = (name: string) => {
        if (build === 'es') return `/${chunkPath('chunks', name)}`;
        try {
          return `/cdn/${chunkPath('classic/chunks', name)}`;
        } catch {
          return `/cdn/${chunkPath('chunks', name)}`;
        }
      };
      const show = async (page: EnginePage) => {
        if (build === 'es') {
          await page.goto(store({ method: 'sbp' }));
          await buy(page, 'coffee-beans');
        } else await page.goto(`${shop.origin}/cdn-demo`);
      };
      const sel = build === 'es' ? INLINE : 'paydesk-checkout';

      test(`${name}: ${build}: untouched, ${where} paints the requisites with no alarm`, async () => {
        const page = await open(DESKTOP);
        await show(page);
        const shown = await waitForRequisites(page, sel);
        assert.deepEqual(shown.errors, [], 'no paydesk-error');
        assert.equal(shown.tampered, null);
      });

      // The element's own code (the entry carries its digest; the first paint is the entry's own code) and,
      // down the chain, the pay step (the element's chunk carries its digest): anything painted gives way
      // to the error.
      for (const changed of ['cdn-element', 'pay-step'] as const) {
        test(`${name}: ${build}: a changed ${changed} chunk never runs: paydesk-error "integrity" (not retryable) and the error step`, async () => {
          const path = chunk(changed);
          shop.tamper.add(path);
          try {
            const page = await open(DESKTOP);
            await show(page);
            await waitFor(async () => ((await readWidget(page, sel)).errors.length > 0 ? true : null), 'an error');
            assert.ok(shop.tamperedServed.includes(path), `the changed ${path} was served`);
            // Its script, had it run, would have counted itself by now; give a late one time to show.
            await new Promise((r) => setTimeout(r, 500));
            const after = await readWidget(page, sel);
            assert.equal(after.tampered, null, 'the changed code never ran');
            assert.equal(after.requisites, false);
            assert.deepEqual(after.errors.map((e) => [e.code, e.retryable]), [['integrity', false]], 'one paydesk-error, code "integrity", not retryable');
            assert.equal(after.state, 'error');
            assert.ok(after.text.trim().length > 0, 'the error step says something');
            assert.doesNotMatch(after.text, /1,500\.00/, 'no amount to pay');
          } finally {
            shop.tamper.delete(path);
          }
        });
      }
    }

    for (const build of ['es', 'classic'] as const) {
      test(`${name}: ${build}: paint first: the requisites are on screen before the element's own code has arrived; the element then takes them over with the same order`, async () => {
        const element = build === 'es' ? `/${chunkPath('chunks', 'cdn-element')}` : `/cdn/${chunkPath('classic/chunks', 'cdn-element')}`;
        const posts = shop.sessionPosts.length;
        shop.hold(element);
        const page = await open({ ...DESKTOP, pageLoad: 'none' });
        let painted;
        try {
          // The held chunk delays the page's `load` event, which a navigation waits for: opened by script.
          await goNoWait(page, shop.origin, `${shop.origin}/__engines/cdn.html?build=${build}`);
          painted = await waitFor(async () => {
            const w = await readWidget(page);
            return w.requisites && /1,500\.00/.test(w.text) ? w : null;
          }, 'the requisites painted before the element');
          assert.equal(painted.state, null, 'the element is not defined yet: this is the first paint');
          assert.equal(await page.evaluate(() => customElements.get('paydesk-checkout') === undefined), true);
          await waitFor(() => shop.heldAsked.includes(element), `the element's code (${element}) asked for after the paint`);
          assert.match(painted.text, /Pay by \d{1,2}:\d{2}/, 'the pay-by time');
          assert.match(await countdown(page, 'paydesk-checkout') ?? '', /^\d{1,2}:\d{2}$/, 'the countdown');
          // From here every animation frame records whether the requisites are on screen: the take-over must show none without.
          await page.evaluate(() => {
            const w = window as unknown as { __frames: boolean[] };
            const el = document.querySelector('paydesk-checkout');
            w.__frames = [];
            const frame = () => {
              w.__frames.push(!!el?.shadowRoot?.querySelector('[part~="requisites"]'));
              if (w.__frames.length < 2000) requestAnimationFrame(frame);
            };
            requestAnimationFrame(frame);
          });
        } finally {
          shop.release(element);
        }
        const shown = await waitForRequisites(page);
        await new Promise((r) => setTimeout(r, 300));
        const frames = await page.evaluate(() => (window as unknown as { __frames: boolean[] }).__frames);
        assert.ok(frames.length > 2, `frames were recorded (${frames.length})`);
        assert.equal(frames.indexOf(false), -1, `no frame without the requisites while the element took over (${frames.length} frames)`);
        const order = shown.order!;
        assertRequisites(painted.text, order);
        assertRequisites(shown.text, order);
        assert.deepEqual(shop.sessionPosts.slice(posts), ['/api/paydesk/sessions'], 'one POST /sessions: the element took the first answer over');
        assert.equal(await providerOrders(order.client_order_id), 1, 'one order at the provider');
        assert.equal(await waitFor(() => decodeWidgetQr(page, 'paydesk-checkout'), 'a decodable QR', 10_000), order.payment_link);
        assert.deepEqual(shown.errors, []);
        assert.equal(shown.tampered, null);
      });
    }

    // A slow provider during paint-first: the paint's code is there, and src/cdn.ts brings the element's
    // own code 1 s after it at the latest, while POST /sessions is still out (held back at the proxy).
    test(`${name}: paint first with a slow provider: the element's code arrives while POST /sessions is still out; it keeps the spinner, then takes the late answer: the requisites, one order`, async () => {
      const create = '/api/paydesk/sessions';
      const posts = shop.sessionPosts.length;
      shop.hold(create);
      const page = await open();
      let waiting;
      let spinner = false;
      let held = 0;
      try {
        await page.goto(`${shop.origin}/__engines/cdn.html?build=es`);
        await waitFor(() => shop.heldAsked.includes(create), 'the first POST /sessions, held back');
        await waitFor(() => page.evaluate(() => customElements.get('paydesk-checkout') !== undefined), "the element's own code defined while the answer is awaited");
        // The provider is slower still: another second with the element in charge and no answer.
        await new Promise((r) => setTimeout(r, 1000));
        waiting = await readWidget(page);
        spinner = await page.evaluate(() => !!document.querySelector('paydesk-checkout')?.shadowRoot?.querySelector('.spinner'));
      } finally {
        held = shop.release(create);
      }
      assert.equal(held, 1, 'one POST /sessions was held: the element sent no second one');
      assert.equal(waiting.state, 'searching', "the element waits for the first request's answer");
      assert.equal(waiting.requisites, false);
      assert.equal(spinner, true, 'the spinner');
      assert.deepEqual(waiting.errors, [], 'no paydesk-error while it waits');
      const shown = await waitForRequisites(page);
      const order = shown.order!;
      assertRequisites(shown.text, order);
      assert.deepEqual(shop.sessionPosts.slice(posts), [create], 'one POST /sessions: the element took the late answer');
      assert.equal(await providerOrders(order.client_order_id), 1, 'one order at the provider');
      assert.deepEqual(shown.errors, []);
    });

    test(`${name}: paint first on a phone (iPhone user agent, 390 px): the requisites and the bank-app button before the element's own code; then the element takes over, one order`, async () => {
      // WebKit's window is at least 447 px wide: the page runs in a 390 × 844 iframe of a page of ours.
      const framed = name === 'webkit';
      const element = `/${chunkPath('chunks', 'cdn-element')}`;
      const posts = shop.sessionPosts.length;
      shop.hold(element);
      const page = await open(framed ? { width: 480, height: 900, userAgent: IPHONE_UA, pageLoad: 'none' } : { ...PHONE, userAgent: IPHONE_UA });
      const src = '/__engines/cdn.html?build=es';
      let painted;
      try {
        await goNoWait(page, shop.origin, framed ? `${shop.origin}/__engines/frame.html?width=${PHONE.width}&height=${PHONE.height}&src=${encodeURIComponent(src)}` : `${shop.origin}${src}`);
        painted = await waitFor(async () => {
          const w = await readWidget(page, 'paydesk-checkout', framed);
          return w.requisites && /Pay in bank app/.test(w.text) ? w : null;
        }, 'the requisites and the bank-app button painted before the element');
        assert.equal(painted.state, null, 'the element is not defined yet: this is the first paint');
        assert.match(painted.text, /1,500\.00/, 'the amount');
        assert.doesNotMatch(painted.text, /Pay from your phone/, 'a phone gets the bank apps, not the QR');
      } finally {
        shop.release(element);
      }
      const shown = await waitForRequisites(page, 'paydesk-checkout', framed);
      assertRequisites(painted.text, shown.order!);
      assert.match(shown.text, /Pay in bank app/);
      assert.deepEqual(shop.sessionPosts.slice(posts), ['/api/paydesk/sessions'], 'one POST /sessions');
      assert.equal(await providerOrders(shown.order!.client_order_id), 1, 'one order at the provider');
      assert.deepEqual(shown.errors, []);
    });

    test(`${name}: at 390 px with an iPhone's user agent: the requisites fit the screen (screenshot)`, async () => {
      // WebKit's window is at least 447 px wide: the storefront runs in a 390 × 844 iframe of a page of ours.
      const framed = name === 'webkit';
      const page = await open(framed ? { width: 480, height: 900, userAgent: IPHONE_UA } : { ...PHONE, userAgent: IPHONE_UA });
      const url = store({ method: 'sbp' });
      await page.goto(framed ? `${shop.origin}/__engines/frame.html?width=${PHONE.width}&height=${PHONE.height}&src=${encodeURIComponent(url.slice(shop.origin.length))}` : url);
      await buy(page, 'coffee-beans', framed);
      const shown = await waitForRequisites(page, INLINE, framed);
      assertRequisites(shown.text, shown.order!);
      const layout = await page.evaluate(
        (sel: string, inFrame: boolean) => {
          const w = inFrame ? (document.querySelector('iframe') as HTMLIFrameElement).contentWindow! : window;
          const el = w.document.querySelector(sel)!;
          const requisites = el.shadowRoot!.querySelector('[part~="requisites"]')!;
          requisites.scrollIntoView({ block: 'center' });
          const r = requisites.getBoundingClientRect();
          return { viewport: w.innerWidth, scrollWidth: w.document.documentElement.scrollWidth, left: r.left, right: r.right, dpr: window.devicePixelRatio };
        },
        INLINE,
        framed,
      );
      assert.equal(layout.viewport, PHONE.width, 'the page is 390 px wide');
      assert.ok(layout.scrollWidth <= PHONE.width, `nothing wider than the screen (${layout.scrollWidth} px)`);
      assert.ok(layout.left >= 0 && layout.right <= PHONE.width, `the requisites within the screen (${layout.left}–${layout.right})`);
      await new Promise((r) => setTimeout(r, 300)); // the scroll painted
      const png = crop(await page.screenshot(), PHONE.width, PHONE.height, layout.dpr);
      mkdirSync(SHOTS, { recursive: true });
      const file = `${SHOTS}requisites-${name === 'gecko' ? 'gecko' : name}-390.png`;
      writeFileSync(file, png);
      if (process.env.PAYDESK_DOCS_SCREENSHOTS === '1') copyFileSync(file, `${ROOT}docs/requisites-${name}-390.png`);
    });
  });
}
