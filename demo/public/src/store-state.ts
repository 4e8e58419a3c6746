/**
 * The storefront's page state, apart from its rendering (store.ts): what is being bought (a product
 * in a cart), the checkout settings, the order on screen; how they read from and write to the URL
 * (`?cart=…&mode=…&method=…&display=…&lang=…&theme=…`), the tab's record of the session on screen
 * (for the sandbox bar), and the carts API. Each "Buy" opens a cart on the server
 * (`POST /demo/api/carts`): its id is the widget's `order_ref`, so every purchase is its own order,
 * and the cart id in the URL makes a reload or a second tab of it resume that order.
 */
import { INTEGRATION_MODES, type IntegrationMode } from '../../../src/protocol/index.js';
import { BUTTON_NAMES, type ButtonName } from '../../../src/provider/index.js';
import type { CodeTab, WidgetAttributes } from './code.js';
import { money } from '../../../src/ui-shared/format.js';
import { initialLang, initialTheme, texts, type Texts } from '../../../src/ui-shared/i18n.js';
import { rememberForTab, tabPreference } from './tab-prefs.js';
import { STORE_TEXTS, type StoreKey } from './texts/store.js';

/** `/demo/api/config`. */
export interface DemoConfig {
  sandbox: boolean;
  endpoints: Record<IntegrationMode, string | null>;
  products: Product[];
  cdn: { available: boolean; integrity: string | null };
}

export interface Product {
  ref: string;
  title: string;
  title_en: string;
  amount: string;
  image: string;
}

/** What the page needs of `<paydesk-checkout>` (it is loaded by its own script tag, /paydesk.js). */
export interface CheckoutElement extends HTMLElement {
  reset?(): void;
  locale: string;
  theme: string;
}

/** What the page reads of the widget's order (an `OrderView`). */
export interface ShownOrder {
  /** The provider's order id; '' while the hosted form's order is not made or not known yet (form mode). */
  id: string;
  /** The shop's order number for this session (unique to it), known from the start. */
  client_order_id: string;
  status: string;
  dispute: { id: string; status: string } | null;
}

export const METHODS = ['choice', 'sbp', 'card', 'bank'] as const;
export type MethodChoice = (typeof METHODS)[number];
/** `server`: "Buy" opens the server-rendered checkout page (demo/checkout-page.ts) of the purchase's cart. */
export const DISPLAYS = ['inline', 'modal', 'server'] as const;
export type Display = (typeof DISPLAYS)[number];
const SESSION_KEY = 'obzharka:checkout-session';
/** The order's states in which the sandbox can still pay or expire it. */
export const OPEN_STATES = new Set(['pay', 'confirming', 'searching', 'loading']);
/**
 * The widget's final states: after these, "Buy" starts a new purchase. An error is final only when
 * the widget cannot retry it (a retryable one, e.g. a failed status read after "I have paid", keeps
 * its order and its "Try again": a new purchase there could be a second payment).
 */
export const SETTLED_STATES = new Set(['paid', 'expired', 'cancelled', 'gone']);

export const params = new URLSearchParams(location.search);
export function pick<T extends string>(value: string | null, allowed: readonly T[], fallback: T): T {
  return allowed.includes(value as T) ? (value as T) : fallback;
}

export const state = {
  config: null as DemoConfig | null,
  lang: tabPreference('lang') ?? initialLang(),
  theme: tabPreference('theme') ?? initialTheme(),
  t: texts(STORE_TEXTS, 'en') as Texts<StoreKey>,
  display: pick<Display>(params.get('display'), DISPLAYS, 'inline'),
  // The server page is H2H only.
  mode: params.get('display') === 'server' ? 'h2h' : pick<IntegrationMode>(params.get('mode'), INTEGRATION_MODES, 'h2h'),
  method: pick<MethodChoice>(params.get('method'), METHODS, 'choice'),
  bank: pick<ButtonName>(params.get('bank'), BUTTON_NAMES, 'SberPay'),
  /** The product being bought, or null. */
  buying: null as Product | null,
  /** Its cart: the widget's order_ref. */
  cart: null as string | null,
  /** A "Buy" whose cart is being opened (a second tap meanwhile opens nothing more). */
  opening: null as string | null,
  /** The widget on screen. */
  widget: null as CheckoutElement | null,
  /** The order number (client order id) of the order that paid the cart on screen (the shop's record): the page shows it paid, no checkout. */
  paidOrder: null as string | null,
  /** Session token of the order on screen (for the sandbox controls). */
  session: null as string | null,
  orderState: null as string | null,
  /** The order the widget shows (its last `paydesk-session` / `paydesk-status`): the bar reads its dispute. */
  order: null as ShownOrder | null,
  /** Whether the widget's last error can be retried (its `paydesk-error`). */
  errorRetryable: false,
  codeTab: 'html' as CodeTab,
};

export const products = () => state.config?.products ?? [];
export const productTitle = (p: Product) => (state.lang === 'ru' ? p.title : p.title_en);
export const price = (p: Product) => money(p.amount, 'RUB', state.lang);
export const endpoint = () => state.config?.endpoints[state.mode] ?? '';

/** Whether the order on screen has ended (a new "Buy" of its product is then a new purchase). */
export function settled(): boolean {
  return SETTLED_STATES.has(String(state.orderState)) || (state.orderState === 'error' && !state.errorRetryable);
}

/** The widget's attributes for the current settings (`orderRef`: the cart, or a product ref in the code panel's example). */
export function widgetAttributes(orderRef: string): WidgetAttributes {
  const attrs: WidgetAttributes = { endpoint: endpoint(), 'order-ref': orderRef };
  if (state.mode !== 'h2h') attrs.mode = state.mode;
  if (state.method === 'sbp') attrs['method-type'] = 'SBP';
  if (state.method === 'card') attrs['method-type'] = 'BankCard';
  if (state.method === 'bank') attrs['button-name'] = state.bank;
  attrs.locale = state.lang;
  attrs.theme = state.theme;
  return attrs;
}

/**
 * The server-rendered checkout page of a cart (H2H; "Shopper picks" pays by SBP there): the page's
 * server creates the order and renders it into the HTML.
 */
export function checkoutPageUrl(cart: string): string {
  const q = new URLSearchParams({ lang: state.lang, theme: state.theme, method: state.method });
  if (state.method === 'bank') q.set('bank', state.bank);
  return `/checkout/${encodeURIComponent(cart)}?${q}`;
}

/** Writes the state into the address bar (replacing the entry) and the tab's language and theme. */
export function syncUrl(): void {
  const q = new URLSearchParams();
  if (state.cart) q.set('cart', state.cart);
  q.set('display', state.display);
  q.set('mode', state.mode);
  q.set('method', state.method);
  if (state.method === 'bank') q.set('bank', state.bank);
  q.set('lang', state.lang);
  q.set('theme', state.theme);
  history.replaceState(null, '', `${location.pathname}?${q}`);
  // The thanks page (redirect_url) and a return to "/" read these: a Russian/dark purchase opened by
  // URL stays Russian/dark after the payment (this tab only).
  rememberForTab({ lang: state.lang, theme: state.theme });
}

// ---------------------------------------------------------------------------------------------
// Carts (demo/carts.ts on the server)

/** Opens a cart for `product` on the server: its id. */
export async function openCart(product: Product): Promise<string> {
  const res = await fetch('/demo/api/carts', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-paydesk': '1' },
    body: JSON.stringify({ product: product.ref }),
  });
  const body = (await res.json().catch(() => null)) as { cart?: unknown; error?: { message?: string } } | null;
  if (!res.ok || typeof body?.cart !== 'string') throw new Error(body?.error?.message ?? `HTTP ${res.status}`);
  return body.cart;
}

/** A cart the server knows: its product, and the order that paid it (the shop's own record), if any. */
export interface CartInfo {
  product: Product;
  /** The order that paid it: the provider's id and the order number the widget shows (client order id). */
  paid: { order_id: string; client_order_id: string } | null;
}

/** The cart as the server knows it, or null (unknown or expired). */
export async function cartInfo(cart: string): Promise<CartInfo | null> {
  const res = await fetch(`/demo/api/carts/${encodeURIComponent(cart)}`, { headers: { accept: 'application/json' } });
  if (res.status === 404) return null;
  if (!res.ok) throw new Error(`cart: HTTP ${res.status}`);
  const body = (await res.json()) as { product?: unknown; paid?: { order_id?: unknown; client_order_id?: unknown } | null };
  const product = products().find((p) => p.ref === body.product);
  if (!product) return null;
  const { order_id, client_order_id } = body.paid ?? {};
  return { product, paid: typeof order_id === 'string' && typeof client_order_id === 'string' ? { order_id, client_order_id } : null };
}

/** A failed fetch (no connection, the server unreachable): the browser's own message is not for shoppers. */
export function isNetworkError(err: unknown): boolean {
  return err instanceof TypeError;
}

// ---------------------------------------------------------------------------------------------
// The tab's record of the session on screen (for the sandbox controls)

export function storeSession(cart: string, session: string): void {
  try {
    sessionStorage.setItem(SESSION_KEY, JSON.stringify({ cart, endpoint: endpoint(), session }));
  } catch {
    // storage may be unavailable
  }
}

export function storedSession(cart: string): string | null {
  try {
    const v = JSON.parse(sessionStorage.getItem(SESSION_KEY) ?? 'null') as { cart?: unknown; endpoint?: unknown; session?: unknown } | null;
    return v && v.cart === cart && v.endpoint === endpoint() && typeof v.session === 'string' ? v.session : null;
  } catch {
    return null;
  }
}

export function forgetStoredSession(): void {
  try {
    sessionStorage.removeItem(SESSION_KEY);
  } catch {
    // storage may be unavailable
  }
}
