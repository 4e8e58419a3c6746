/**
 * `paydesk/ssr`: the checkout rendered on the merchant's server, so the shopper sees the requisites
 * with the page's HTML, before (and without) any script.
 *
 * `renderCheckout()` takes what `handler.createSession()` answered and returns the
 * `<paydesk-checkout>` element with its shadow root as declarative shadow DOM: the card, the heading
 * and the countdown, the amount and the pay-by time, the requisites (account, holder, the recipient's
 * bank), the QR of an SBP link as inline SVG, the order number and the links. It is rendered by Lit's
 * own server renderer (`@lit-labs/ssr`) from the element's own templates (parts.ts `card`, the pay
 * and closed views, the footer) in the element's own language tables: one source for both sides.
 *
 * When the element's script runs, it takes this order over with its `session` attribute (a `GET` of
 * the session, never a second `POST /sessions`): live status, countdown, the bank apps, every later
 * step. What the server painted stays on screen until the element can show the same step itself.
 * Without a script, the buttons that need one (copy, "I have paid", the bank apps) are not shown.
 */
import { createHash } from 'node:crypto';
import { render } from '@lit-labs/ssr';
import { collectResultSync } from '@lit-labs/ssr/lib/render-result.js';
import { nothing, type CSSResultGroup, type CSSResult } from 'lit';
import { parseOrderView, type OrderView } from '../protocol/index.js';
import { syncFrom, type Clock } from '../element/countdown.js';
import { addTables, messagesFor, resolveLanguage, type MessageOverrides, type Messages } from '../element/i18n/index.js';
import az from '../element/i18n/az.js';
import be from '../element/i18n/be.js';
import en from '../element/i18n/en.js';
import hy from '../element/i18n/hy.js';
import kk from '../element/i18n/kk.js';
import ky from '../element/i18n/ky.js';
import ru from '../element/i18n/ru.js';
import tg from '../element/i18n/tg.js';
import uk from '../element/i18n/uk.js';
import uz from '../element/i18n/uz.js';
import { initialState, isOpen, type MachineState } from '../element/machine.js';
import { transition } from '../element/transition.js';
import { card, stepTitle } from '../element/parts.js';
import { detectPlatform } from '../element/platform.js';
import { qrSvg } from '../element/qr.js';
import { styles as elementStyles } from '../element/paydesk-checkout.styles.js';
import * as payView from '../element/pay-view.js';
import * as closedView from '../element/closed-view.js';
import { openCard, staticHost } from '../element/static-view.js';
import { normaliseEndpoint, safeHttpUrl } from '../protocol/url.js';

addTables({ az, be, en, hy, kk, ky, ru, tg, uk, uz });

export type { OrderView } from '../protocol/index.js';

/** What `renderCheckout` renders: `handler.createSession()`'s answer and how to show it. */
export interface RenderCheckoutOptions {
  /** The token endpoint mount point, as the element's `endpoint` attribute (`/api/paydesk` or an http(s) URL). */
  endpoint: string;
  /** The session `handler.createSession()` answered: the element takes the order over with it. */
  session: string;
  /** The order `handler.createSession()` answered. */
  order: OrderView;
  /** The server's time `handler.createSession()` answered (the countdown starts from it). */
  server_time: string;
  /** Language (BCP 47), as the element's `locale` attribute; default `ru`. */
  locale?: string;
  /** `light`, `dark` or `auto` (default: follows `prefers-color-scheme`). */
  theme?: 'light' | 'dark' | 'auto';
  /**
   * The merchant's order reference (the `order-ref` attribute): after this order ended, the element
   * may make a new one. Leave it out when the page makes the orders (`createSession` with a
   * `purchase`, README "Server-rendered checkout"): the purchase would not know the element's order.
   */
  orderRef?: string;
  /** The shop's support page (the `support-url` attribute), shown where the order gives none. */
  supportUrl?: string;
  /**
   * The shopper's `User-Agent` (the page request's): a phone gets the phone's layout (the bank apps
   * instead of the QR). Default: the desktop's layout, with the QR.
   */
  userAgent?: string;
  /** The time zone of the pay-by time, which is shown with its zone's name; default `Europe/Moscow`. */
  timeZone?: string;
  /** Overrides of any message, as the element's `messages` property (set the same on the element). */
  messages?: MessageOverrides;
  /**
   * The page's Content-Security-Policy nonce for styles, put on the shadow root's `<style>` (under a
   * `style-src` without `'unsafe-inline'`, that style needs it or its hash: {@link checkoutStyleHashes}).
   */
  nonce?: string;
}

const THEMES = ['light', 'dark', 'auto'];

/** The comments Lit's server renderer leaves for hydration (text never holds `<`: it is escaped). */
const LIT_MARKERS = /<!--\/?lit-(?:part|node)[^>]*-->|<\?>/g;

/**
 * The rules of the server's paint only (this style leaves with it when the element takes over): no
 * buttons and no countdown, which only the element's own render can make work (until
 * then they would be dead, and the countdown frozen).
 */
const SERVER_RULES =
  'button,[part=countdown]{display:none}';

/** `&`, `<`, `>`, `"` and `'` as character references, for text and attribute values. */
function escape(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

/** The CSS text of Lit's style results, flattened. */
function cssText(group: CSSResultGroup): string {
  return Array.isArray(group) ? group.map((g) => cssText(g as CSSResultGroup)).join('\n') : (group as CSSResult).cssText;
}

/** Throws a TypeError naming the option when it is not what it must be. */
function check(o: RenderCheckoutOptions): OrderView {
  if (typeof o !== 'object' || o === null) throw new TypeError('renderCheckout: options must be an object');
  if (typeof o.endpoint !== 'string' || !normaliseEndpoint(o.endpoint)) {
    throw new TypeError('renderCheckout: endpoint must be a path (/api/paydesk) or an http(s) URL');
  }
  if (typeof o.session !== 'string' || o.session.trim() === '') throw new TypeError('renderCheckout: session must be the session handler.createSession() answered');
  if (typeof o.server_time !== 'string' || !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(o.server_time) || Number.isNaN(Date.parse(o.server_time))) {
    throw new TypeError('renderCheckout: server_time must be the ISO date-time handler.createSession() answered');
  }
  for (const name of ['locale', 'orderRef', 'supportUrl', 'userAgent', 'timeZone', 'nonce'] as const) {
    if (o[name] !== undefined && typeof o[name] !== 'string') throw new TypeError(`renderCheckout: ${name} must be a string`);
  }
  if (o.theme !== undefined && !THEMES.includes(o.theme)) throw new TypeError('renderCheckout: theme must be light, dark or auto');
  // The element refuses the same values (config.ts): its take-over would replace the requisites with an error.
  if (o.supportUrl !== undefined && !safeHttpUrl(o.supportUrl)) throw new TypeError('renderCheckout: supportUrl must be an absolute http(s) URL');
  if (o.messages !== undefined && (typeof o.messages !== 'object' || o.messages === null || Array.isArray(o.messages))) {
    throw new TypeError('renderCheckout: messages must be an object of message overrides');
  }
  if (o.timeZone !== undefined) {
    try {
      new Intl.DateTimeFormat('en', { timeZone: o.timeZone });
    } catch {
      throw new TypeError(`renderCheckout: timeZone ${o.timeZone} is not a time zone`);
    }
  }
  try {
    return parseOrderView(o.order);
  } catch (e) {
    throw new TypeError(`renderCheckout: ${(e as Error).message}`);
  }
}

/**
 * The `<paydesk-checkout>` element of an order, with its shadow root rendered (declarative shadow
 * DOM): put it in the page's HTML where the checkout goes, and load the element's script (`paydesk`
 * or `dist/cdn/paydesk.js`) as a module or with `defer`, so that it runs after the page is parsed (a
 * script that defines the element before its HTML is parsed gives it a shadow root of its own, and
 * the browser then drops the server's). Throws a TypeError naming a bad option.
 *
 * @example
 * const created = await handler.createSession({ order_ref: cart.id }, request);
 * const checkout = renderCheckout({ endpoint: '/api/paydesk', ...created, locale: 'ru' });
 */
export function renderCheckout(options: RenderCheckoutOptions): string {
  const order = check(options);
  const serverMs = Date.parse(options.server_time);
  const tag = options.locale?.trim() || 'ru';
  const table = resolveLanguage(tag);
  const language = tag.toLowerCase().startsWith(table) ? tag : table;
  const m = messagesFor(tag, options.messages);
  // The element's own machine decides the step of the order (pay, confirming, paid, expired…).
  let state = transition(initialState(), {
    type: 'start',
    resume: { session: options.session },
    preselected: null,
    canCreate: !!options.orderRef,
    key: '',
  }).state;
  state = transition(state, { type: 'order', order, serverTime: options.server_time, mono: 0, wall: serverMs }).state;
  state = { ...state, sync: syncFrom(options.server_time, 0) };
  // A clock stopped at the server's time.
  const clock: Clock = { now: () => serverMs, mono: () => 0, setTimeout: () => 0, clearTimeout: () => {} };
  const platform = options.userAgent ? detectPlatform(options.userAgent, 0) : 'desktop';
  const host = staticHost({ ...options, state, m, language, clock, platform });
  const open = isOpen(state.name);
  const timeZone = options.timeZone ?? 'Europe/Moscow';
  const page = open
    ? openCard(host, order, { timeZone, qrImage: qrSvg })
    : card(m.region, false, false, stepTitle(m, state.name, order), nothing, closedView.view(host), closedView.footer(host), '');
  // Lit's hydration markers are dropped: the element takes over by rendering, not by hydrating (see above).
  const shadow = collectResultSync(render(page)).replace(LIT_MARKERS, '');
  const style = styleOf(open);
  const attrs: [string, string | undefined][] = [
    ['endpoint', options.endpoint],
    ['session', options.session],
    ['locale', tag],
    ['theme', options.theme],
    ['order-ref', options.orderRef],
    ['support-url', options.supportUrl],
  ];
  const attributes = attrs
    .filter(([, v]) => v)
    .map(([k, v]) => ` ${k}="${escape(v!)}"`)
    .join('');
  const nonce = options.nonce ? ` nonce="${escape(options.nonce)}"` : '';
  return `<paydesk-checkout${attributes}><template shadowrootmode="open"><style${nonce}>${style}</style>${shadow}</template></paydesk-checkout>`;
}

/** The text of the shadow root's `<style>`: the element's rules, the step's, and the server's own (the same for every page: made once). */
const styles = new Map<boolean, string>();
function styleOf(open: boolean): string {
  let style = styles.get(open);
  if (style === undefined) styles.set(open, (style = [cssText(elementStyles), cssText((open ? payView : closedView).styles), SERVER_RULES].join('\n')));
  return style;
}

/**
 * The CSP hashes (`'sha256-…'`) of every `<style>` `renderCheckout` can write (an open order's, an
 * ended one's), for a `style-src` that allows them by hash instead of a nonce.
 */
export function checkoutStyleHashes(): string[] {
  return [true, false].map((open) => `'sha256-${createHash('sha256').update(styleOf(open)).digest('base64')}'`);
}
