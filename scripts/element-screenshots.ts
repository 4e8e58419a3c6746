/**
 * The phone screens of `<paydesk-checkout>` for docs/ (README, "The checkout on a phone"):
 *
 *   npx tsx scripts/element-screenshots.ts
 *
 * Chromium (playwright-core) as an iPhone 13 (390 × 844, its user agent, 2× pixels), the widget as
 * paydesk serves it (src/bundle/widget-bundle.ts), and a token endpoint answered inside the page's
 * requests (the widget protocol, DESIGN.md) so every step can be reached: the ways to pay, the
 * requisites, the bank sheet, "checking your payment" with the receipt upload, a late payment, and a
 * lost session. Writes docs/phone-*.png.
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { chromium, type Page, type Route } from 'playwright-core';
import { loadWidgetBundle, loadWidgetFile } from '../src/bundle/widget-bundle.js';
import type { OrderView, PaymentMethodView } from '../src/protocol/index.js';
import { orderView } from '../test/browser/helpers/orders.js';

const ORIGIN = 'https://shop.example';
const DOCS = fileURLToPath(new URL('../docs/', import.meta.url));
const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';

const METHODS: PaymentMethodView[] = [
  { id: 'sbp', name: 'СБП', type: 'SBP', bank: null, fee: '0.00', fixed_fee: null, total: '1500.00' },
  { id: 'card', name: 'Банковская карта', type: 'BankCard', bank: null, fee: '0.00', fixed_fee: null, total: '1500.00' },
  ...(['sberbank', 'tinkoff', 'vtb', 'alfabank'] as const).map((bank) => ({ id: `card-${bank}`, name: `Карта — ${bank}`, type: 'BankCard', bank, fee: '0.00', fixed_fee: null, total: '1500.00' })),
  { id: 'account', name: 'Банковский счёт', type: 'BankAccount', bank: null, fee: '30.00', fixed_fee: null, total: '1530.00' },
  { id: 'qr', name: 'QR-код НСПК', type: 'NSPKLink', bank: null, fee: '0.00', fixed_fee: null, total: '1500.00' },
];

/** The test fixtures' pending SBP order, as a shop would name it, created four minutes ago. */
function order(patch: Partial<OrderView> = {}): OrderView {
  return orderView(
    {
      id: 'ord-7Q2X',
      client_order_id: 'coffee-2026-0429-0042',
      fee: '0.00',
      method: { id: 'sbp', name: 'СБП', type: 'SBP' },
      redirect_url: `${ORIGIN}/thanks`,
      support_url: `${ORIGIN}/support`,
      return_url: `${ORIGIN}/cart`,
      ...patch,
    },
    Date.now() - 4 * 60_000,
  );
}

/** A token endpoint for one scenario: what the session answers. */
interface Scenario {
  name: string;
  /** Attributes of the element. */
  attrs: Record<string, string>;
  /** The session's order (GET and the event stream); null: the session is gone. */
  session: OrderView | null;
  /** Steps in the page before the picture. */
  act?(page: Page): Promise<void>;
  alt: string;
}

async function answer(route: Route, s: Scenario): Promise<void> {
  const url = new URL(route.request().url());
  const path = url.pathname.replace(/^\/api\/paydesk/, '');
  const json = (status: number, body: unknown) => route.fulfill({ status, contentType: 'application/json', body: JSON.stringify(body) });
  const time = new Date().toISOString();
  if (path === '/methods') return json(200, { methods: METHODS, amount: '1500.00', currency: 'RUB' });
  if (path === '/sessions') return json(201, { session: 'S1', order: s.session, server_time: time });
  if (path.endsWith('/events')) {
    if (!s.session) return json(404, { error: { code: 'session_not_found', message: 'unknown session', retryable: false } });
    return route.fulfill({ status: 200, contentType: 'text/event-stream', body: `event: order\ndata: ${JSON.stringify(s.session)}\n\n` });
  }
  if (path.startsWith('/sessions/')) {
    return s.session ? json(200, { order: s.session, server_time: time }) : json(404, { error: { code: 'session_not_found', message: 'unknown session', retryable: false } });
  }
  return json(404, { error: { code: 'not_found', message: 'not found', retryable: false } });
}

const page = (attrs: Record<string, string>) => `<!doctype html><html lang="ru"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="/page.css"><script type="module" src="/paydesk.js"></script></head>
<body><paydesk-checkout ${Object.entries(attrs).map(([k, v]) => `${k}="${v}"`).join(' ')}></paydesk-checkout></body></html>`;

const CSS = 'body{margin:0;padding:16px 12px;background:#eef1f6;font-family:system-ui,sans-serif}paydesk-checkout{margin:0 auto}';

const inShadow = (page: Page, selector: string) => page.locator(`paydesk-checkout ${selector}`);
const state = (page: Page, name: string) => page.waitForFunction((n) => (document.querySelector('paydesk-checkout') as unknown as { state?: string } | null)?.state === n, name);

const SCENARIOS: Scenario[] = [
  { name: 'phone-ways', attrs: {}, session: order(), act: (p) => state(p, 'choose').then(() => undefined), alt: 'The ways to pay, the amount once' },
  { name: 'phone-pay', attrs: { 'payment-method-id': 'sbp' }, session: order(), act: (p) => state(p, 'pay').then(() => undefined), alt: 'Requisites on a phone: the amount, the phone number, "Pay in bank app", the order number' },
  {
    name: 'phone-bank-sheet',
    attrs: { 'payment-method-id': 'sbp' },
    session: order(),
    async act(p) {
      await state(p, 'pay');
      await inShadow(p, 'button[aria-haspopup="dialog"]').click();
      await inShadow(p, 'dialog[open] [part="banks"]').waitFor();
      await inShadow(p, 'dialog input').fill('банк');
    },
    alt: 'The bank sheet: every SBP bank, the most used first, search in Russian or Latin',
  },
  {
    name: 'phone-receipt',
    attrs: { 'payment-method-id': 'sbp' },
    session: order(),
    async act(p) {
      await state(p, 'pay');
      await inShadow(p, '[part="actions"] button').click();
      await state(p, 'confirming');
      await inShadow(p, '[part="actions"] button').click();
      await inShadow(p, '#receipt-files').setInputFiles({ name: 'Сбербанк-чек-0042.pdf', mimeType: 'application/pdf', buffer: Buffer.alloc(184_000) });
    },
    alt: 'I paid — send a receipt: a photo from the camera, a screenshot or the bank’s PDF',
  },
  {
    name: 'phone-paid-late',
    attrs: { 'payment-method-id': 'sbp' },
    session: order({ status: 'paid', provider_status: 'Completed', late: true, redirect_url: null }),
    act: (p) => state(p, 'paid').then(() => undefined),
    alt: 'Paid after all: the payment arrived after the time was up',
  },
  { name: 'phone-session-gone', attrs: { 'payment-method-id': 'sbp' }, session: null, act: (p) => state(p, 'gone').then(() => undefined), alt: 'A lost session: never a silent new order' },
];

async function main(): Promise<void> {
  const { findChromium, CHROMIUM_ARGS } = (await import(new URL('./chromium.mjs', import.meta.url).href)) as { findChromium(): string | null; CHROMIUM_ARGS: string[] };
  const executablePath = findChromium();
  if (!executablePath) throw new Error('no Chromium (set CHROME_PATH)');
  const browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS });
  const bundle = await loadWidgetBundle();
  try {
    for (const s of SCENARIOS) {
      const context = await browser.newContext({ viewport: { width: 390, height: 844 }, userAgent: IPHONE, deviceScaleFactor: 2, isMobile: true, hasTouch: true, locale: 'ru-RU', timezoneId: 'Europe/Moscow' });
      if (s.name === 'phone-session-gone') {
        await context.addInitScript(() => {
          localStorage.setItem(
            'paydesk:v2:/api/paydesk|coffee',
            JSON.stringify({ session: 'S-old', paid: false, attempt: null, order: { number: 'coffee-2026-0429-0042', support: 'https://shop.example/support', back: 'https://shop.example/cart' }, exp: Date.now() + 3600_000 }),
          );
        });
      }
      const p = await context.newPage();
      await p.route(`${ORIGIN}/**`, async (route) => {
        const path = new URL(route.request().url()).pathname;
        if (path === '/') return route.fulfill({ contentType: 'text/html', body: page({ endpoint: '/api/paydesk', 'order-ref': 'coffee', locale: 'ru', ...s.attrs }) });
        if (path === '/page.css') return route.fulfill({ contentType: 'text/css', body: CSS });
        if (path === '/paydesk.js') return route.fulfill({ contentType: 'text/javascript', body: bundle });
        if (path.startsWith('/chunks/')) {
          const code = await loadWidgetFile(path.slice(1));
          return code === null ? route.fulfill({ status: 404, body: '' }) : route.fulfill({ contentType: 'text/javascript', body: code });
        }
        if (path.startsWith('/api/paydesk/')) return answer(route, s);
        return route.fulfill({ status: 404, body: '' });
      });
      await p.goto(`${ORIGIN}/`);
      await s.act?.(p);
      await p.evaluate(() => (document.querySelector('paydesk-checkout') as unknown as { updateComplete: Promise<unknown> }).updateComplete);
      await p.waitForTimeout(300); // the QR canvas, fonts and the sheet's transition
      writeFileSync(`${DOCS}${s.name}.png`, await p.screenshot({ fullPage: false }));
      console.log(`docs/${s.name}.png  ${s.alt}`);
      await context.close();
    }
  } finally {
    await browser.close();
  }
}

await main();
