/**
 * A shopper on a phone (an iPhone's user agent), the same spec in Chromium, WebKit and Gecko (drivers:
 * test/engines/driver.ts; the demo: test/engines/shop.ts). `PAYDESK_ENGINES=webkit` runs one.
 *
 *   - the bank sheet's links: "Pay in bank app" lists every SBP bank of the table, each link the
 *     bank's own scheme followed by the order's payment link (`bank110000000005://qr.nspk.ru/…`); a tap
 *     on one says so (`paydesk-bank-app`) and asks the browser for that link. What the engine then does
 *     with a scheme no app here answers is its own, and asserted as seen (no external app is opened):
 *       Chromium  asks for it (CDP's requested navigation), the page stays and loses the focus to the
 *                 protocol handler, so the element's https fallback is not opened (as when an app opens);
 *       Gecko     the scheme opens nothing and the page keeps the focus: after 1.5 s the element opens
 *                 the https payment link itself (no network here: Firefox's error page for it);
 *       WebKit    MiniBrowser navigates the page to the scheme's URL at once (its document goes, and
 *                 the fallback with it);
 *   - for a transfer by card number: Sber's link carries the card number and the amount
 *     (`sberbankonline://payments/p2p?type=card_number&…`, "Details filled in"), every other bank's
 *     just opens its app (`bank…://`), and the sheet says those open empty;
 *   - offline and back: the order is paid while the phone is offline. The checkout's endpoint is cut at
 *     the test server (its open event stream closed, every read refused) and the engine is taken
 *     offline: Chromium and Gecko by their network emulation, WebKit (no network emulation under
 *     WebDriver) by the system's network state as its GIO network monitor hears it, from a portal of
 *     ours (network-portal.ts). Each fires `offline`: the widget says the status may be out of date;
 *     on `online` it asks at once and shows "paid", and the note goes.
 *
 * One browser per engine and one demo for the file.
 */
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, test } from 'node:test';
import { BANKS, POPULAR_COUNT } from '../../src/banks/bank-table.js';
import { parseBanks } from '../../src/banks/names.js';
import { FALLBACK_MS } from '../../src/element/banks.js';
import { sandboxCall } from '../e2e/helpers.js';
import { enginesToRun, IPHONE_UA, type EnginePage } from './driver.js';
import { buy, press, readWidget, startShop, waitFor, waitForRequisites, waitForState, type Shop } from './shop.js';
import { engineSpec } from './spec.js';

const INLINE = '#inline-host paydesk-checkout';
/** An iPhone's screen (WebKit's window stays at least 447 × 806). */
const PHONE = { width: 390, height: 844, userAgent: IPHONE_UA };
/** The checkout's token endpoint: what a phone that lost its network cannot reach. */
const ENDPOINT = /^\/api\/paydesk/;

let shop: Shop;
before(async () => {
  shop = await startShop();
});
after(async () => {
  await shop?.close();
});

const store = () => `${shop.origin}/?${new URLSearchParams({ lang: 'en', theme: 'light', method: 'sbp' })}`;

for (const name of enginesToRun()) {
  describe(name, () => {
    const { open } = engineSpec(name, { page: PHONE, launch: { networkSwitch: true } });
    afterEach(() => {
      shop.cut = null;
    });

    test(`${name}: the bank sheet on a phone: every SBP bank's link is its scheme + the payment link; a tap on VTB fires paydesk-bank-app and asks for bank110000000005://qr.nspk.ru/…`, async () => {
      const page = await open();
      await page.goto(store());
      await buy(page, 'coffee-beans');
      const { order } = await waitForRequisites(page, INLINE);
      const link = order!.payment_link!;
      assert.match(link, /^https:\/\/qr\.nspk\.ru\/\w+\?/, 'an SBP payment link');
      const rest = link.slice('https://'.length);

      await press(page, 'Pay in bank app');
      const shown = await waitFor(
        () =>
          page.evaluate((s: string) => {
            const anchors = [...(document.querySelector(s)?.shadowRoot?.querySelectorAll<HTMLAnchorElement>('dialog[open] [part="banks"] a.bank') ?? [])];
            return anchors.length ? anchors.map((a) => ({ name: a.querySelector('span:not(.mono):not(.tag)')?.textContent?.trim() ?? '', href: a.getAttribute('href') ?? '', target: a.getAttribute('target') })) : null;
          }, INLINE),
        'the bank sheet with its banks',
      );
      const table = parseBanks(BANKS, POPULAR_COUNT);
      assert.deepEqual(
        shown.map((b) => b.href).sort(),
        table.map((b) => `${b.scheme}://${rest}`).sort(),
        'one link per bank of the table: its scheme, then the payment link',
      );
      assert.ok(shown.every((b) => b.target === null), 'an app link opens in the page, not a new tab');
      const vtb = table.find((b) => b.name.en === 'VTB')!;
      const vtbLink = `${vtb.scheme}://${rest}`;
      assert.equal(vtbLink, `bank110000000005://${rest}`);
      assert.equal(shown.find((b) => b.name === 'VTB')?.href, vtbLink);

      // The tap. What the page hears is sent to the test server at once (a beacon outlives the page).
      const navigations = await page.watchNavigations();
      const before = await page.url();
      const tapped = Date.now();
      await page.evaluate((s: string) => {
        const report = (type: string, detail = '') => navigator.sendBeacon(`/__engines/beacon?${new URLSearchParams({ type, detail })}`);
        document.addEventListener('paydesk-bank-app', (e) => report('paydesk-bank-app', JSON.stringify((e as CustomEvent).detail.bank)));
        addEventListener('blur', () => report('blur'));
        addEventListener('pagehide', () => report('pagehide'));
        const a = [...document.querySelector(s)!.shadowRoot!.querySelectorAll<HTMLAnchorElement>('dialog[open] [part="banks"] a.bank')].find((x) => x.querySelector('span:not(.mono):not(.tag)')?.textContent?.trim() === 'VTB');
        a!.click();
      }, INLINE);
      const beacons = () =>
        shop.requests.filter((r) => r.url.startsWith('/__engines/beacon?') && r.at >= tapped).map((r) => Object.fromEntries(new URL(r.url, 'http://x').searchParams));
      const event = await waitFor(() => beacons().find((b) => b.type === 'paydesk-bank-app'), 'paydesk-bank-app');
      assert.deepEqual(JSON.parse(event.detail!), { name: 'ВТБ', nspk_code: 'bank100000000005' });

      if (name === 'chromium') {
        await waitFor(() => navigations?.().includes(vtbLink), `Chromium asked to navigate to ${vtbLink}`);
        await waitFor(() => beacons().some((b) => b.type === 'blur'), 'the page losing the focus to the protocol handler');
        // Past the fallback's delay, the page is where it was: the blur counted as the app opening.
        await new Promise((r) => setTimeout(r, FALLBACK_MS + 1000));
        assert.equal(await page.url(), before, 'the page stays: no fallback after the blur');
        assert.deepEqual(navigations!(), [vtbLink], 'only the app link was asked for');
      } else if (name === 'gecko') {
        const to = await waitFor(async () => ((await page.url()) !== before ? page.url() : null), 'the https fallback');
        const after = Date.now() - tapped;
        assert.ok(/^about:neterror\?/.test(to) ? new URL(to).searchParams.get('u') === link : to === link, `the fallback is the payment link itself: ${to}`);
        assert.ok(after >= FALLBACK_MS, `opened after the element's ${FALLBACK_MS} ms (${after} ms)`);
        assert.ok(!beacons().some((b) => b.type === 'blur'), 'the page kept the focus (no app took it)');
      } else {
        const to = await waitFor(async () => ((await page.url()) !== before ? page.url() : null), 'the navigation to the app link');
        assert.equal(to, vtbLink, 'MiniBrowser navigates the page to the app link');
      }
    });

    test(`${name}: the bank sheet for a transfer by card: Sber's link fills in the card number and the amount, every other bank's app opens empty and the sheet says so`, async () => {
      const page = await open();
      await page.goto(`${shop.origin}/?${new URLSearchParams({ lang: 'en', theme: 'light', method: 'card' })}`);
      await buy(page, 'coffee-beans');
      const { order } = await waitForRequisites(page, INLINE);
      assert.equal(order!.requisites?.kind, 'card', 'a transfer by card number');
      const pan = order!.requisites!.holder_account.replace(/\D/g, '');
      await press(page, 'Pay in bank app');
      const sheet = await waitFor(
        () =>
          page.evaluate((s: string) => {
            const dialog = document.querySelector(s)?.shadowRoot?.querySelector('dialog[open]');
            const anchors = [...(dialog?.querySelectorAll<HTMLAnchorElement>('[part="banks"] a.bank') ?? [])];
            if (!anchors.length) return null;
            return {
              note: (dialog!.querySelector('.sheet-note')?.textContent ?? '').trim(),
              banks: anchors.map((a) => ({
                name: a.querySelector('span:not(.mono):not(.tag)')?.textContent?.trim() ?? '',
                href: a.getAttribute('href') ?? '',
                filled: [...a.querySelectorAll('.tag')].some((t) => t.textContent === 'Details filled in'),
              })),
            };
          }, INLINE),
        'the bank sheet with its banks',
      );
      const table = parseBanks(BANKS, POPULAR_COUNT);
      const sber = sheet.banks.find((b) => b.name === 'Sber');
      assert.equal(sber?.href, `sberbankonline://payments/p2p?type=card_number&requisiteNumber=${pan}&amount=${encodeURIComponent(order!.amount)}`);
      assert.equal(sber?.filled, true, 'marked "Details filled in"');
      const others = sheet.banks.filter((b) => b !== sber);
      assert.equal(others.length, table.length - 1, 'every other bank of the table');
      for (const b of others) {
        const bank = table.find((t) => t.name.en === b.name)!;
        assert.equal(b.href, `${bank.scheme}://`, `${b.name} opens its app`);
        assert.equal(b.filled, false);
      }
      assert.match(sheet.note, /open empty/, 'the sheet says the other apps open without the details');
    });

    test(`${name}: offline and back: the order paid meanwhile shows once the network is back, and the note that the status may be out of date goes`, async (t) => {
      const page = await open();
      await page.goto(store());
      await buy(page, 'coffee-beans');
      const { order } = await waitForRequisites(page, INLINE);
      // The live status hears online/offline once it runs: its event stream's request says it does.
      const stream = new RegExp(`/sessions/[^/?]+/events`);
      await waitFor(() => shop.requests.some((r) => stream.test(r.url)), 'the live status (its event stream opened)');

      const offlineAt = Date.now();
      shop.cut = ENDPOINT;
      assert.equal(await page.setOffline(true), true, 'the engine can be taken offline');
      const note = () =>
        page.evaluate((s: string) => {
          const el = document.querySelector(s)?.shadowRoot?.querySelector('[part="offline"]');
          return { onLine: navigator.onLine, note: el ? (el.textContent ?? '').replace(/\s+/g, ' ').trim() : null };
        }, INLINE);
      const seen = await waitFor(async () => ((await note()).note ? note() : null), 'the offline note');
      assert.equal(seen.onLine, false);
      assert.equal(seen.note, 'No connection: the payment status will update when you are back online.');

      await sandboxCall(shop.demo, `/sandbox/orders/${order!.id}/complete`, { body: {} });
      await shop.demo.reconcile();
      // Four seconds offline: the widget's reads fail meanwhile and its polling backs off (3 s, 6 s, …);
      // nothing reaches it. (Chromium and Gecko fail the reads in the browser, WebKit's are cut here.)
      await new Promise((r) => setTimeout(r, Math.max(0, offlineAt + 4000 - Date.now())));
      const during = await readWidget(page, INLINE);
      assert.equal(during.state, 'pay', 'nothing reached the widget while offline');

      shop.cut = null;
      await page.setOffline(false);
      const back = Date.now();
      const paid = await waitForState(page, 'paid', INLINE);
      const took = Date.now() - back;
      assert.equal(paid.order?.id, order!.id);
      assert.ok(took < 5000, `paid shown ${took} ms after the network came back (asked at once on "online")`);
      assert.equal((await note()).note, null, 'the offline note is gone');
      t.diagnostic(`${name}: paid shown ${took} ms after the network came back`);
    });
  });
}
