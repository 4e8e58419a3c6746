/**
 * Every screen of every mode on an iPhone, a Pixel, the smallest phone and a desktop (viewport and
 * user agent): nothing wider than the element (scrollWidth = clientWidth inside it, the bank sheet
 * too), and axe finds nothing.
 */
import { expect, waitUntil } from '@open-wc/testing';
import { setViewport } from '@web/test-runner-commands';
import { byText, mount, type Harness } from './helpers/mount.js';
import { FakeEndpoint } from './helpers/fake-endpoint.js';
import { FakeClock } from './helpers/fake-clock.js';
import { orderView } from './helpers/orders.js';
import { detectPlatform } from '../../src/element/platform.js';
import type { OrderView } from '../../src/protocol/index.js';

const DEVICES = [
  { name: 'iPhone 13', width: 390, height: 844, ua: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1', locale: 'en' },
  { name: 'Pixel 7', width: 412, height: 915, ua: 'Mozilla/5.0 (Linux; Android 14; Pixel 7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Mobile Safari/537.36', locale: 'ru' },
  { name: 'a 320 px phone (Kazakh, long words)', width: 320, height: 640, ua: 'Mozilla/5.0 (Linux; Android 10; SM-A105F) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Mobile Safari/537.36', locale: 'kk' },
  { name: 'desktop', width: 1280, height: 900, ua: navigator.userAgent, locale: 'en' },
] as const;

type Device = (typeof DEVICES)[number];
const NSPK_LINK = { method: { id: 'm-qr', name: 'QR-код НСПК', type: 'NSPKLink' }, requisites: { holder_name: '', holder_account: 'AS1000670LSS7DN18SJQDNP4B05KLJL2', kind: 'link' as const } };
const CARD = { payment_link: null, requisites: { holder_name: 'Константинопольский Константин Константинович', holder_account: '4627100101654724', kind: 'card' as const }, amount: '1500123.45', requested_amount: '1500000.00' };
const FORM = { requisites: null, payment_link: null, form_url: 'https://pay.example/pay?session_id=1' };

interface Screen {
  name: string;
  props?: Record<string, string>;
  order?: Partial<OrderView>;
  reach(h: Harness): Promise<void>;
}

const dispute = (status: 'open' | 'closed') => ({ dispute: { id: 'dsp-1', status, created_at: new Date().toISOString(), outcome: status === 'open' ? null : ('unconfirmed' as const) } });
const push = (h: Harness, patch: Partial<OrderView>) => h.server.update(h.server.session, patch);

const SCREENS: Screen[] = [
  { name: 'choose', reach: (h) => h.until('choose') },
  {
    name: 'choose, card bank step',
    reach: async (h) => {
      await h.until('choose');
      h.root.querySelector<HTMLElement>('summary')?.click();
      await h.el.updateComplete;
    },
  },
  { name: 'searching', props: { paymentMethodId: 'm-sbp' }, reach: async (h) => h.until('searching') },
  { name: 'pay, SBP', props: { paymentMethodId: 'm-sbp' }, reach: (h) => h.until('pay') },
  { name: 'pay, NSPK link', props: { paymentMethodId: 'm-sbp' }, order: NSPK_LINK, reach: (h) => h.until('pay') },
  { name: 'pay, card with a changed amount and a long name', props: { paymentMethodId: 'm-card' }, order: CARD, reach: (h) => h.until('pay') },
  { name: 'pay, form mode', props: { mode: 'form' }, order: FORM, reach: (h) => h.until('pay') },
  { name: 'pay, order_with_form', props: { mode: 'order_with_form', paymentMethodId: 'm-sbp' }, order: { form_url: 'https://pay.example/pay?session_id=2' }, reach: (h) => h.until('pay') },
  {
    name: 'bank sheet',
    props: { paymentMethodId: 'm-sbp' },
    reach: async (h) => {
      await h.until('pay');
      h.root.querySelector<HTMLButtonElement>('button[aria-haspopup="dialog"]')!.click();
      await waitUntil(() => h.root.querySelector('dialog[open] [part="banks"]'), 'the sheet', { timeout: 6000 });
      await h.el.updateComplete;
    },
  },
  {
    name: 'confirming, details open',
    props: { paymentMethodId: 'm-sbp' },
    reach: async (h) => {
      await h.until('pay');
      h.root.querySelector<HTMLButtonElement>('[part="actions"] button')!.click();
      await h.until('confirming');
      h.root.querySelector<HTMLElement>('summary')!.click();
      await h.el.updateComplete;
    },
  },
  {
    name: 'receipt form with files and an error',
    props: { paymentMethodId: 'm-sbp' },
    reach: async (h) => {
      await h.until('pay');
      h.root.querySelector<HTMLButtonElement>('[part="actions"] button')!.click();
      await h.until('confirming');
      h.root.querySelector<HTMLButtonElement>('[part="actions"] button')!.click();
      await waitUntil(() => h.root.querySelector('#receipt-files'));
      const dt = new DataTransfer();
      dt.items.add(new File(['x'], 'a-very-long-file-name-of-a-bank-receipt-screenshot-2026-03-02.gif', { type: 'image/gif' }));
      const input = h.root.querySelector<HTMLInputElement>('#receipt-files')!;
      input.files = dt.files;
      input.dispatchEvent(new Event('change'));
      await h.el.updateComplete;
    },
  },
  {
    name: 'dispute open',
    props: { paymentMethodId: 'm-sbp' },
    reach: async (h) => {
      await h.until('pay');
      push(h, dispute('open'));
      await h.until('dispute');
    },
  },
  {
    name: 'dispute closed, expired',
    props: { paymentMethodId: 'm-sbp' },
    reach: async (h) => {
      await h.until('pay');
      push(h, { status: 'expired', ...dispute('closed') });
      await h.until('dispute');
    },
  },
  {
    name: 'paid',
    props: { paymentMethodId: 'm-sbp' },
    reach: async (h) => {
      await h.until('pay');
      push(h, { status: 'paid' });
      await h.until('paid');
    },
  },
  {
    name: 'paid late',
    props: { paymentMethodId: 'm-sbp' },
    reach: async (h) => {
      await h.until('pay');
      push(h, { status: 'expired' });
      await h.until('expired');
      push(h, { status: 'paid', late: true });
      await h.until('paid');
    },
  },
  {
    name: 'expired',
    props: { paymentMethodId: 'm-sbp' },
    reach: async (h) => {
      await h.until('pay');
      push(h, { status: 'expired' });
      await h.until('expired');
    },
  },
  {
    name: 'cancelled',
    props: { paymentMethodId: 'm-sbp' },
    reach: async (h) => {
      await h.until('pay');
      push(h, { status: 'cancelled' });
      await h.until('cancelled');
    },
  },
  {
    name: 'session gone',
    props: { paymentMethodId: 'm-sbp' },
    reach: async (h) => {
      await h.until('pay');
      h.server.sessions.delete(h.server.session);
      h.page.pageshow();
      await h.until('gone');
    },
  },
  {
    name: 'error (unknown order)',
    props: { supportUrl: 'https://shop.example/help' },
    reach: async (h) => {
      await h.until('error');
    },
  },
];

async function open(device: Device, screen: Screen): Promise<Harness> {
  const server = new FakeEndpoint();
  const clock = new FakeClock(Date.now());
  server.serverNow = () => clock.now();
  server.makeOrder = (_b, n) => orderView({ id: `ord-${n}`, client_order_id: 'order-2026-03-02-000123456', ...screen.order }, clock.now());
  if (screen.name === 'searching') server.hold('create');
  if (screen.name.startsWith('error')) server.failNext('methods', { status: 404, body: { error: { code: 'order_not_found', message: 'x', retryable: false } } });
  const platform = detectPlatform(device.ua, device.name === 'desktop' ? 0 : 5);
  const h = await mount({ locale: device.locale, ...screen.props }, { server, clock, env: { platform } });
  await screen.reach(h);
  await h.el.updateComplete;
  return h;
}

/** Elements inside the element (and its open sheet) that are wider than their box. */
function overflowing(h: Harness): string[] {
  const out: string[] = [];
  const check = (el: Element | null, what: string) => {
    if (el && el.scrollWidth > el.clientWidth + 0.5) out.push(`${what}: ${el.scrollWidth} > ${el.clientWidth}`);
  };
  check(h.el, 'element');
  check(h.root.querySelector('[part="base"]'), 'card');
  const dialog = h.root.querySelector('dialog[open]');
  check(dialog, 'bank sheet');
  check(dialog?.querySelector('.list') ?? null, 'bank list');
  for (const el of h.root.querySelectorAll('[part="base"] *')) {
    const box = el.getBoundingClientRect();
    const card = h.root.querySelector('[part="base"]')!.getBoundingClientRect();
    if (box.width > 0 && box.right > card.right + 0.5 && !el.closest('.sr')) out.push(`${el.tagName.toLowerCase()}.${el.className}: right ${Math.round(box.right)} > card ${Math.round(card.right)}`);
  }
  return out;
}

for (const device of DEVICES) {
  describe(`every screen on ${device.name} (${device.width} px)`, () => {
    const original = Object.getOwnPropertyDescriptor(Navigator.prototype, 'userAgent')!;
    before(async () => {
      await setViewport({ width: device.width, height: device.height });
      Object.defineProperty(navigator, 'userAgent', { configurable: true, get: () => device.ua });
    });
    after(async () => {
      Object.defineProperty(navigator, 'userAgent', original);
      delete (navigator as { userAgent?: string }).userAgent;
      await setViewport({ width: 800, height: 600 });
    });

    it('the viewport and the user agent are the device\'s; the overflow check catches what is too wide', async () => {
      expect(window.innerWidth).to.equal(device.width);
      const h = await open(device, SCREENS[0]!);
      expect(overflowing(h)).to.deep.equal([]);
      const wide = document.createElement('span');
      wide.textContent = 'W'.repeat(300);
      h.root.querySelector('[part="methods"]')!.append(wide);
      expect(overflowing(h).length).to.be.greaterThan(0);
      h.el.remove();
    });

    it('the user agent gives the platform', () => {
      expect(detectPlatform(navigator.userAgent, device.name === 'desktop' ? 0 : 5)).to.equal(
        device.name === 'desktop' ? 'desktop' : device.ua.includes('iPhone') ? 'ios' : 'android',
      );
    });

    for (const screen of SCREENS) {
      if (screen.name === 'bank sheet' && device.name === 'desktop') continue; // the desktop's sheet: below
      it(`${screen.name}: nothing wider than the element, axe finds nothing`, async () => {
        const h = await open(device, screen);
        expect(overflowing(h)).to.deep.equal([]);
        await expect(h.el).to.be.accessible();
        h.el.remove();
      });
    }

    if (device.name === 'desktop') {
      // Support asks for the order number: it is on every screen of an order, and its button copies it.
      const WITH_NUMBER = ['pay, SBP', 'pay, card with a changed amount and a long name', 'confirming, details open', 'dispute open', 'paid', 'paid late', 'expired', 'cancelled'];
      for (const name of WITH_NUMBER) {
        it(`${name}: the order number, and its copy button copies it`, async () => {
          const h = await open(device, SCREENS.find((x) => x.name === name)!);
          const box = h.root.querySelector('[part="order"]');
          expect(box, 'the order number').to.exist;
          expect(box!.textContent).to.include('order-2026-03-02-000123456');
          box!.querySelector<HTMLButtonElement>('button.copy')!.click();
          await waitUntil(() => h.copies.includes('order-2026-03-02-000123456'), 'copied', { timeout: 3000 });
          h.el.remove();
        });
      }

      it('the online banks sheet: nothing wider than the element, axe finds nothing', async () => {
        const h = await open(device, { name: 'pay', props: { paymentMethodId: 'm-sbp' }, reach: (x) => x.until('pay') });
        byText(h.root, 'Pay in your online bank').click();
        await waitUntil(() => h.root.querySelector('dialog[open] [part="banks"]'), 'the sheet', { timeout: 6000 });
        await h.el.updateComplete;
        expect(overflowing(h)).to.deep.equal([]);
        await expect(h.el).to.be.accessible();
        h.el.remove();
      });
    }
  });
}
