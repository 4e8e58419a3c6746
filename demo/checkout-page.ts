/**
 * The storefront's server-rendered checkout page, beside the client-side ones (inline, modal):
 *
 *   GET /checkout/{cart}?lang=en|ru&theme=light|dark&method=choice|sbp|card|bank&bank=<button name>
 *
 * The page's server creates the cart's order itself, in process (`handler.createSession`, the form of
 * `POST /sessions` a server calls), with the cart id as the `order_ref` and as the `purchase`:
 * a reload, a second tab or a double submit of the same purchase answers the same session, never a
 * second order (for as long as the handler keeps the key, 24 h by default; the cart lives 7 days). It
 * renders the checkout into the page's HTML with `paydesk/ssr`'s `renderCheckout`: the amount, the
 * requisites and the QR are painted with the HTML, before and without any script. The element's script
 * (`/paydesk.js`, as on the storefront) then takes that order over by its `session` attribute.
 *
 * The page is demo/public/checkout.html (built by Vite like every page), with `<!--ssr:…-->` markers
 * filled here and its `data-i18n` texts written in the page's language, so the page reads right with
 * JavaScript off too (the sandbox bar needs the page's script: it shows once that has run). The
 * rendered shadow root carries its styles in a `<style>` element: the page's Content-Security-Policy
 * allows exactly those texts by their sha256 hashes (`checkoutStyleHashes()`; no `'unsafe-inline'`).
 */
import type { Context, Hono } from 'hono';
import { BUTTON_NAMES, type ButtonName } from '../src/provider/index.js';
import { CheckoutError, setClientAddress, type CheckoutHandler, type CreateSessionRequest } from '../src/server/index.js';
import { checkoutStyleHashes, renderCheckout } from '../src/ssr/index.js';
import type { Carts } from './carts.js';
import type { Product } from './catalog.js';
import { remoteAddress } from './http.js';
import type { DemoPages } from './pages.js';
import { money } from '../src/ui-shared/format.js';
import { STORE_TEXTS, type StoreKey } from './public/src/texts/store.js';

/** The page's path: `/checkout/{cart}`. */
export const CHECKOUT_PAGE_PREFIX = '/checkout/';
/** The built template (demo/public/checkout.html). */
const TEMPLATE = '/checkout.html';

const LANGS = ['en', 'ru'] as const;
type Lang = (typeof LANGS)[number];
const THEMES = ['light', 'dark'] as const;
const METHODS = ['choice', 'sbp', 'card', 'bank'] as const;

function pick<T extends string>(value: string | undefined, allowed: readonly T[], fallback: T): T {
  return allowed.includes(value as T) ? (value as T) : fallback;
}

/** `&`, `<`, `>`, `"` and `'` as character references. */
function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

export interface CheckoutPageOptions {
  /** The token endpoint that creates the order (H2H) and its mount path (the element's `endpoint`). */
  handler: CheckoutHandler;
  endpoint: string;
  carts: Carts;
  pages: DemoPages;
  /** The demo pages' Content-Security-Policy; the rendered styles' hashes are added to its style-src. */
  csp: string;
}

/** What the page's settings ask the provider for (`choice` pays by SBP: a server page shows one order, not a method list). */
export function sessionInput(cart: string, method: (typeof METHODS)[number], bank: ButtonName): CreateSessionRequest {
  if (method === 'card') return { order_ref: cart, method_type: 'BankCard' };
  if (method === 'bank') return { order_ref: cart, button_name: bank };
  return { order_ref: cart, method_type: 'SBP' };
}


export function registerCheckoutPage(app: Hono, options: CheckoutPageOptions): void {
  const { handler, endpoint, carts, pages } = options;
  // The rendered shadow root's <style>, allowed by its hash (paydesk/ssr knows every one it writes).
  const csp = options.csp.replace("style-src 'self'", ["style-src 'self'", ...checkoutStyleHashes()].join(' '));

  // The template itself is not a page.
  app.get(TEMPLATE, (c) => c.text('Not found.', 404));

  app.get(`${CHECKOUT_PAGE_PREFIX}:cart`, async (c) => {
    const lang = pick<Lang>(c.req.query('lang'), LANGS, 'en');
    const theme = pick(c.req.query('theme'), THEMES, 'light');
    const method = pick(c.req.query('method'), METHODS, 'choice');
    const bank = pick<ButtonName>(c.req.query('bank'), BUTTON_NAMES, 'SberPay');
    const t = (key: StoreKey, values: Record<string, string> = {}) =>
      (STORE_TEXTS[lang][key] ?? STORE_TEXTS.en[key]).replace(/\{(\w+)\}/g, (m, name: string) => values[name] ?? m);
    const cart = c.req.param('cart');
    const product = carts.productOf(cart);
    if (!product) return page(c, 404, { lang, theme, t, product: null, body: message(t('cart.gone')) });
    // A paid cart (the shop's record) is not checked out again: no new order, the page says it is paid.
    const payment = await carts.paymentOf(cart);
    if (payment) return page(c, 200, { lang, theme, t, product, body: message(t('cart.paid', { order: payment.client_order_id })) });

    // The page's request: resolveOrder sees the shopper's own headers (cookies), and the per-address
    // create limit counts the shopper's address. The cart is the purchase: one order for it at a time.
    const request = new Request(c.req.url, { method: 'GET', headers: c.req.raw.headers });
    setClientAddress(request, remoteAddress(c));
    let created;
    try {
      created = await handler.createSession(sessionInput(cart, method, bank), request, { purchase: cart });
    } catch (err) {
      if (!(err instanceof CheckoutError)) throw err;
      const text = err.code === 'idempotency_conflict' ? t('ssr.settings') : err.status === 404 ? t('cart.gone') : t('ssr.failed', { code: err.code });
      return page(c, err.status, { lang, theme, t, product, body: message(text) });
    }
    const checkout = renderCheckout({
      endpoint,
      ...created,
      locale: lang,
      theme,
      userAgent: c.req.header('user-agent') ?? '',
      timeZone: 'Europe/Moscow',
    });
    return page(c, 200, { lang, theme, t, product, body: checkout });
  });

  interface PageParts {
    lang: Lang;
    theme: string;
    t: (key: StoreKey) => string;
    product: Product | null;
    /** The checkout (or a message) in place of `<!--ssr:checkout-->`. */
    body: string;
  }

  /** The template with its markers filled and its texts in the page's language. */
  function page(c: Context, status: number, p: PageParts): Response {
    const file = pages.get(TEMPLATE);
    if (!file) throw new Error('the demo pages have no checkout.html: rebuild them (npm run build:demo)');
    const title = p.product ? (p.lang === 'ru' ? p.product.title : p.product.title_en) : '';
    const html = new TextDecoder()
      .decode(file.body)
      .replace(/<html[^>]*>/, `<html lang="${p.lang}" data-theme="${p.theme}">`)
      // Each data-i18n leaf in the page's language (the page script does the same with JavaScript on).
      .replace(/(data-i18n="([\w.]+)"[^>]*>)[^<]*</g, (m, open: string, key: string) => (Object.hasOwn(STORE_TEXTS.en, key) ? `${open}${escapeHtml(p.t(key as StoreKey))}<` : m))
      .replaceAll('<!--ssr:title-->', escapeHtml(title))
      .replaceAll('<!--ssr:price-->', p.product ? escapeHtml(money(p.product.amount, 'RUB', p.lang)) : '')
      .replace('href="/" id="ssr-back"', `href="/?${new URLSearchParams({ lang: p.lang, theme: p.theme })}" id="ssr-back"`)
      .replace('<!--ssr:checkout-->', () => p.body);
    return c.body(html, status as 200, {
      'Content-Type': 'text/html; charset=utf-8',
      'Cache-Control': 'no-store',
      'Content-Security-Policy': csp,
    });
  }
}

function message(text: string): string {
  return `<p class="ssr-message" role="alert">${escapeHtml(text)}</p>`;
}
