/**
 * The storefront: products, checkout settings, the widget inline or in a modal (a full-screen sheet on
 * phones), the sandbox bar and the code panel. Its state lives in the URL
 * (`?buy=…&mode=…&method=…&display=…&lang=…&theme=…`), so a reload reopens the same checkout and the
 * widget resumes the same order.
 */
// The element's events (`paydesk-session`, `paydesk-status`, …), typed on every element by this module.
import type {} from '../../../src/element/events.js';
import { INTEGRATION_MODES, type IntegrationMode } from '../../../src/protocol/index.js';
import { BUTTON_NAMES, type ButtonName } from '../../../src/provider/facts.js';
import { CODE_TABS, highlight, integrationCode, type CodeTab, type WidgetAttributes } from './code.js';
import { $, $$, checkRadio, el, onRadio } from './shared/dom.js';
import { money } from './shared/format.js';
import { rememberForTab, tabPreference } from './shared/tab-prefs.js';
import { applyTexts, bindPreferences, initialLang, initialTheme, setTheme, texts, type Lang, type Texts, type Theme } from './shared/i18n.js';
import { toast } from './shared/toast.js';
import { STORE_TEXTS, type StoreKey } from './texts/store.js';

/** `/demo/api/config`. */
interface DemoConfig {
  sandbox: boolean;
  endpoints: Record<IntegrationMode, string | null>;
  products: Product[];
  cdn: { available: boolean; integrity: string | null };
}

interface Product {
  ref: string;
  title: string;
  title_en: string;
  amount: string;
  image: string;
}

/** What the page needs of `<paydesk-checkout>` (it is loaded by its own script tag, /paydesk.js). */
interface CheckoutElement extends HTMLElement {
  reset?(): void;
  locale: string;
  theme: string;
}

const METHODS = ['choice', 'sbp', 'card', 'bank'] as const;
type MethodChoice = (typeof METHODS)[number];
const DISPLAYS = ['inline', 'modal'] as const;
type Display = (typeof DISPLAYS)[number];
const SESSION_KEY = 'obzharka:checkout-session';
/** The order's states in which the sandbox can still pay or expire it. */
const OPEN_STATES = new Set(['pay', 'confirming', 'searching', 'loading']);
/**
 * The widget's final states: after these, "Buy" starts a new purchase. An error is final only when
 * the widget cannot retry it (a retryable one, e.g. a failed status read after "I have paid", keeps
 * its order and its "Try again": a new purchase there could be a second payment).
 */
const SETTLED_STATES = new Set(['paid', 'expired', 'cancelled', 'gone']);
const SANDBOX_ACTIONS = ['complete', 'expire', 'dispute', 'accept', 'reject'] as const;
type SandboxAction = (typeof SANDBOX_ACTIONS)[number];

/** Product illustrations, by name (hashed file URLs from the build). */
const IMAGES: Record<string, string> = Object.fromEntries(
  Object.entries(import.meta.glob<string>('../img/*.svg', { eager: true, query: '?url', import: 'default' })).map(([path, url]) => [
    path.slice('../img/'.length, -'.svg'.length),
    url,
  ]),
);

const params = new URLSearchParams(location.search);
function pick<T extends string>(value: string | null, allowed: readonly T[], fallback: T): T {
  return allowed.includes(value as T) ? (value as T) : fallback;
}

const state = {
  config: null as DemoConfig | null,
  lang: tabPreference('lang') ?? initialLang(),
  theme: tabPreference('theme') ?? initialTheme(),
  t: texts(STORE_TEXTS, 'en') as Texts<StoreKey>,
  display: pick<Display>(params.get('display'), DISPLAYS, 'inline'),
  mode: pick<IntegrationMode>(params.get('mode'), INTEGRATION_MODES, 'h2h'),
  method: pick<MethodChoice>(params.get('method'), METHODS, 'choice'),
  bank: pick<ButtonName>(params.get('bank'), BUTTON_NAMES, 'SberPay'),
  /** The product being bought, or null. */
  buying: null as Product | null,
  /** The widget on screen. */
  widget: null as CheckoutElement | null,
  /** Session token of the order on screen (for the sandbox controls). */
  session: null as string | null,
  orderState: null as string | null,
  /** Whether the widget's last error can be retried (its `paydesk-error`). */
  errorRetryable: false,
  codeTab: 'html' as CodeTab,
};

const products = () => state.config?.products ?? [];
const productTitle = (p: Product) => (state.lang === 'ru' ? p.title : p.title_en);
const price = (p: Product) => money(p.amount, 'RUB', state.lang);

// ---------------------------------------------------------------------------------------------
// Start

main().catch((err: unknown) => {
  console.error(err);
  toast(state.t('error.generic'), 'error');
});

async function main(): Promise<void> {
  const res = await fetch('/demo/api/config', { headers: { accept: 'application/json' } });
  if (!res.ok) throw new Error(`config: HTTP ${res.status}`);
  state.config = (await res.json()) as DemoConfig;
  if (!state.config.endpoints[state.mode]) state.mode = 'h2h';

  setTheme(state.theme);
  setLang(state.lang);
  bind();
  renderProducts();
  renderSettings();
  $('#sandbox-bar').hidden = !state.config.sandbox;
  $('#modal-sandbox').hidden = !state.config.sandbox;

  const product = products().find((p) => p.ref === params.get('buy'));
  // Resume: the widget finds its own stored session for this endpoint and order_ref.
  if (product) openCheckout(product, { resume: true });
  renderCode();
}

// ---------------------------------------------------------------------------------------------
// Switches

function bind(): void {
  bindPreferences(
    { lang: state.lang, theme: state.theme },
    {
      lang: (lang) => {
        setLang(lang);
        if (state.widget) state.widget.locale = lang;
      },
      theme: (theme: Theme) => {
        state.theme = theme;
        if (state.widget) state.widget.theme = theme;
        renderCode();
        syncUrl();
      },
    },
  );
  checkRadio('display', state.display);
  checkRadio('mode', state.mode);
  checkRadio('method', state.method);
  const bankSelect = $<HTMLSelectElement>('#bank-select');
  bankSelect.value = state.bank;

  onRadio('display', (v) => {
    state.display = pick(v, DISPLAYS, 'inline');
    // Inline ↔ modal is only where the checkout shows: the widget resumes its stored session for the
    // same endpoint and order_ref (no reset(), no new order).
    renderSettings();
    if (state.buying) openCheckout(state.buying, { resume: true });
    else {
      renderCode();
      syncUrl();
    }
  });
  onRadio('mode', (v) => {
    state.mode = pick(v, INTEGRATION_MODES, 'h2h');
    reopen();
  });
  onRadio('method', (v) => {
    state.method = pick(v, METHODS, 'choice');
    reopen();
  });
  bankSelect.addEventListener('change', () => {
    state.bank = pick(bankSelect.value, BUTTON_NAMES, 'SberPay');
    reopen();
  });

  $('#checkout-close').addEventListener('click', closeCheckout);
  const modal = $<HTMLDialogElement>('#modal');
  $('#modal-close').addEventListener('click', () => modal.close());
  modal.addEventListener('close', () => {
    if (state.display === 'modal') closeCheckout();
  });

  for (const button of $$<HTMLButtonElement>('[data-sandbox]')) {
    button.addEventListener('click', () => void sandboxAction(pick(button.dataset.sandbox ?? null, SANDBOX_ACTIONS, 'complete'), button));
  }
  for (const tab of $$<HTMLButtonElement>('[data-tab]')) {
    tab.addEventListener('click', () => selectCodeTab(pick(tab.dataset.tab ?? null, CODE_TABS, 'html'), tab));
    tab.addEventListener('keydown', (e) => {
      // Arrow keys move between the tabs (the ARIA tabs pattern).
      if (e.key !== 'ArrowRight' && e.key !== 'ArrowLeft') return;
      const tabs = $$<HTMLButtonElement>('[data-tab]');
      const next = tabs[(tabs.indexOf(tab) + (e.key === 'ArrowRight' ? 1 : tabs.length - 1)) % tabs.length]!;
      next.focus();
      next.click();
    });
  }
  $('#copy-code').addEventListener('click', () => void copyCode());
}

function selectCodeTab(tab: CodeTab, button: HTMLButtonElement): void {
  state.codeTab = tab;
  for (const other of $$<HTMLButtonElement>('[data-tab]')) {
    other.setAttribute('aria-selected', String(other === button));
    other.tabIndex = other === button ? 0 : -1;
  }
  $('#code-pre').setAttribute('aria-labelledby', button.id);
  renderCode();
}

async function copyCode(): Promise<void> {
  const code = $('#code');
  try {
    await navigator.clipboard.writeText(code.textContent ?? '');
    toast(state.t('code.copied'));
  } catch {
    // No clipboard access: select the code for a manual copy.
    const range = document.createRange();
    range.selectNodeContents(code);
    getSelection()?.removeAllRanges();
    getSelection()?.addRange(range);
  }
}

function setLang(lang: Lang): void {
  state.lang = lang;
  state.t = texts(STORE_TEXTS, lang);
  applyTexts(state.t);
  renderProducts();
  renderSettings();
  renderSummary();
  renderCode();
  syncUrl();
}

function renderSettings(): void {
  const config = state.config;
  if (!config) return;
  for (const mode of INTEGRATION_MODES) {
    $<HTMLInputElement>(`input[name="mode"][value="${mode}"]`).disabled = !config.endpoints[mode];
  }
  $('#bank-select').hidden = state.method !== 'bank';
  $('#mode-note').textContent = config.endpoints[state.mode] ? state.t(`pg.note.${state.mode}`) : state.t('pg.note.unavailable');
}

function syncUrl(): void {
  const q = new URLSearchParams();
  if (state.buying) q.set('buy', state.buying.ref);
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
// Products

function renderProducts(): void {
  const list = $('#products');
  if (products().length === 0) return;
  list.replaceChildren(
    ...products().map((p) => {
      const errorDemo = p.ref === 'no-traders-demo';
      const buy = el('button', {
        type: 'button',
        className: 'btn primary',
        text: state.t('product.buy'),
        'aria-label': `${state.t('product.buy')}: ${productTitle(p)}`,
        'data-buy': p.ref,
        onclick: () => buyProduct(p),
      });
      const li = el(
        'li',
        { className: `product card${errorDemo ? ' demo-error' : ''}${state.buying?.ref === p.ref ? ' selected' : ''}`, 'data-ref': p.ref },
        el('div', { className: 'product-art' }, el('img', { src: IMAGES[p.image] ?? IMAGES.bag, alt: '', width: 160, height: 120 })),
        el(
          'div',
          { className: 'product-body' },
          errorDemo && el('span', { className: 'tag', text: state.t('product.errorTag') }),
          el('h3', { className: 'product-title', text: productTitle(p) }),
          el('span', { className: 'product-sub', text: `order_ref: ${p.ref}` }),
          el('div', { className: 'product-foot' }, el('span', { className: 'price', text: price(p) }), buy),
        ),
      );
      return li;
    }),
  );
}

// ---------------------------------------------------------------------------------------------
// Checkout

/** The widget's attributes for the current settings. */
function widgetAttributes(product: Product): WidgetAttributes {
  const attrs: WidgetAttributes = { endpoint: state.config?.endpoints[state.mode] ?? '', 'order-ref': product.ref };
  if (state.mode !== 'h2h') attrs.mode = state.mode;
  if (state.method === 'sbp') attrs['method-type'] = 'SBP';
  if (state.method === 'card') attrs['method-type'] = 'BankCard';
  if (state.method === 'bank') attrs['button-name'] = state.bank;
  attrs.locale = state.lang;
  attrs.theme = state.theme;
  return attrs;
}

/**
 * "Buy": a new purchase — unless this product's checkout is already open (a double click, or a
 * second tap while it loads): that one is shown, never a second order for one purchase.
 */
function buyProduct(product: Product): void {
  const settled = SETTLED_STATES.has(String(state.orderState)) || (state.orderState === 'error' && !state.errorRetryable);
  if (state.buying?.ref === product.ref && state.widget?.isConnected && !settled) {
    const modal = $<HTMLDialogElement>('#modal');
    if (state.display === 'modal' && !modal.open) modal.showModal();
    else scrollToCheckout();
    return;
  }
  openCheckout(product, { resume: false });
}

function openCheckout(product: Product, { resume }: { resume: boolean }): void {
  removeWidget({ forget: !resume });
  state.buying = product;
  const widget = document.createElement('paydesk-checkout') as CheckoutElement;
  for (const [name, value] of Object.entries(widgetAttributes(product))) widget.setAttribute(name, value);
  if (!resume) {
    // A new purchase: forget an order this tab made earlier for the same product and endpoint.
    widget.reset?.();
    forgetStoredSession();
  }
  widget.addEventListener('paydesk-session', (e) => {
    state.session = e.detail.session;
    storeSession(product, e.detail.session);
    renderSandbox();
  });
  widget.addEventListener('paydesk-status', (e) => {
    state.orderState = e.detail.state;
    renderSandbox();
  });
  widget.addEventListener('paydesk-error', (e) => (state.errorRetryable = e.detail.retryable));
  widget.addEventListener('paydesk-paid', () => toast(state.t('paid.toast')));
  state.widget = widget;
  state.session = resume ? storedSession(product) : null;
  state.orderState = null;

  const modal = $<HTMLDialogElement>('#modal');
  if (state.display === 'modal') {
    $('#modal-host').replaceChildren(widget);
    showPanelEmpty(true);
    renderSummary();
    if (!modal.open) modal.showModal();
  } else {
    if (modal.open) modal.close();
    $('#inline-host').replaceChildren(widget);
    showPanelEmpty(false);
    renderSummary();
    if (!resume) scrollWhenShown(widget);
  }
  for (const li of $$('.product')) li.classList.toggle('selected', li.dataset.ref === product.ref);
  renderSandbox();
  renderCode();
  syncUrl();
}

/** Smooth unless the shopper asked for reduced motion. */
function scrollBehavior(): ScrollBehavior {
  return matchMedia('(prefers-reduced-motion: reduce)').matches ? 'instant' : 'smooth';
}

function scrollToCheckout(): void {
  $('#checkout').scrollIntoView({ block: 'start', behavior: scrollBehavior() });
}

/**
 * Brings the checkout into view once the widget has content: its top at the first non-zero size
 * (scrolling while it is still 0 px tall stopped short: on a phone only the checkout's header showed
 * at the bottom of the screen), then, when the payment step shows the requisites (the widget's
 * `requisites` part), those too if they are below the fold.
 */
function scrollWhenShown(widget: HTMLElement): void {
  let shown = false;
  const observer = new ResizeObserver(() => {
    if (!widget.isConnected || state.widget !== widget) return observer.disconnect();
    if (widget.getBoundingClientRect().height === 0) return;
    if (!shown) {
      shown = true;
      scrollToCheckout();
    }
    const requisites = widget.shadowRoot?.querySelector('[part~="requisites"]');
    if (requisites) {
      observer.disconnect();
      requisites.scrollIntoView({ block: 'nearest', behavior: scrollBehavior() });
    } else if (SETTLED_STATES.has(String(state.orderState)) || state.orderState === 'error') {
      observer.disconnect(); // no payment step to show
    }
  });
  observer.observe(widget);
}

function showPanelEmpty(empty: boolean): void {
  $('#checkout-empty').hidden = !empty;
  $('#checkout-summary').hidden = empty;
  $('#checkout-close').hidden = empty;
}

/** Payment settings (mode, method, bank) changed: rebuild what is open with them (a new order). */
function reopen(): void {
  renderSettings();
  if (state.buying) openCheckout(state.buying, { resume: false });
  else {
    renderCode();
    syncUrl();
  }
}

function removeWidget({ forget }: { forget: boolean }): void {
  if (state.widget) {
    if (forget) state.widget.reset?.();
    state.widget.remove();
  }
  if (forget) forgetStoredSession();
  state.widget = null;
  state.session = null;
  state.orderState = null;
}

function closeCheckout(): void {
  removeWidget({ forget: false });
  state.buying = null;
  const modal = $<HTMLDialogElement>('#modal');
  if (modal.open) modal.close();
  $('#inline-host').replaceChildren();
  $('#modal-host').replaceChildren();
  showPanelEmpty(true);
  for (const li of $$('.product')) li.classList.remove('selected');
  renderSandbox();
  renderCode();
  syncUrl();
}

function renderSummary(): void {
  const p = state.buying;
  if (!p) return;
  $<HTMLImageElement>('#summary-img').src = IMAGES[p.image] ?? IMAGES.bag ?? '';
  $('#summary-title').textContent = productTitle(p);
  $('#summary-price').textContent = price(p);
  $('#modal-title').textContent = productTitle(p);
  $('#modal-price').textContent = price(p);
}

// The page remembers the session of the order on screen (this tab only) for the sandbox controls.
function storeSession(product: Product, session: string): void {
  try {
    sessionStorage.setItem(SESSION_KEY, JSON.stringify({ ref: product.ref, endpoint: state.config?.endpoints[state.mode], session }));
  } catch {
    // storage may be unavailable
  }
}

function storedSession(product: Product): string | null {
  try {
    const v = JSON.parse(sessionStorage.getItem(SESSION_KEY) ?? 'null') as { ref?: unknown; endpoint?: unknown; session?: unknown } | null;
    return v && v.ref === product.ref && v.endpoint === state.config?.endpoints[state.mode] && typeof v.session === 'string' ? v.session : null;
  } catch {
    return null;
  }
}

function forgetStoredSession(): void {
  try {
    sessionStorage.removeItem(SESSION_KEY);
  } catch {
    // storage may be unavailable
  }
}

// ---------------------------------------------------------------------------------------------
// Sandbox controls

/** The dispute the bar opened for the order on screen (one at a time), or null. */
let sandboxDispute: { session: string; id: string } | null = null;
/** How long a control that just became usable ignores taps (the second tap of a double tap elsewhere). */
const APPEAR_GUARD_MS = 500;
const enabledAt = new WeakMap<HTMLButtonElement, number>();

function renderSandbox(): void {
  const active = Boolean(state.session) && (state.orderState === null || OPEN_STATES.has(state.orderState));
  const disputeOpen = Boolean(state.session) && sandboxDispute?.session === state.session;
  for (const button of $$<HTMLButtonElement>('[data-sandbox]')) {
    const action = button.dataset.sandbox;
    let usable: boolean;
    if (action === 'accept' || action === 'reject') usable = disputeOpen;
    // A dispute can be opened on a paid or ended order too; while one is open the button says so.
    else if (action === 'dispute') usable = Boolean(state.session) && (active || SETTLED_STATES.has(String(state.orderState)));
    else usable = active;
    if (action === 'dispute') {
      button.setAttribute('aria-pressed', String(disputeOpen));
      const label = button.querySelector<HTMLElement>('[data-i18n]');
      const key = disputeOpen ? 'sandbox.disputeOpen' : 'sandbox.dispute';
      // The key itself changes, so a change of language keeps the right label.
      if (label) {
        label.dataset.i18n = key;
        label.textContent = state.t(key);
      }
    }
    setUsable(button, usable);
  }
}

/**
 * Enables a control only once it has been usable for APPEAR_GUARD_MS: a control that becomes usable
 * right after a tap (under the same finger) must not take the second tap of a double tap.
 */
function setUsable(button: HTMLButtonElement, usable: boolean): void {
  if (!usable || button.dataset.busy) {
    button.disabled = true;
    enabledAt.delete(button);
    return;
  }
  if (!button.disabled) return;
  const since = enabledAt.get(button);
  if (since === undefined) {
    enabledAt.set(button, performance.now());
    setTimeout(renderSandbox, APPEAR_GUARD_MS);
  } else if (performance.now() - since >= APPEAR_GUARD_MS) {
    button.disabled = false;
    enabledAt.delete(button);
  }
}

async function sandboxAction(action: SandboxAction, button: HTMLButtonElement): Promise<void> {
  if (!state.session) return toast(state.t('sandbox.noOrder'), 'error');
  const session = state.session;
  // One dispute at a time: pressing "Dispute" again while it is open changes nothing.
  if (action === 'dispute' && sandboxDispute?.session === session) return toast(state.t('sandbox.disputeAlready'));
  button.dataset.busy = '1';
  button.disabled = true;
  try {
    const res = await fetch(`/demo/api/sandbox/${action}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-paydesk': '1' },
      body: JSON.stringify({ session, endpoint: state.config?.endpoints[state.mode] }),
    });
    const body = (await res.json().catch(() => null)) as { error?: { message?: string }; dispute?: { id?: unknown; status?: unknown } | null } | null;
    if (!res.ok) {
      if (action !== 'dispute' && res.status === 409 && sandboxDispute?.session === session) sandboxDispute = null;
      throw new Error(body?.error?.message ?? `HTTP ${res.status}`);
    }
    const dispute = body?.dispute;
    if (action === 'dispute' && typeof dispute?.id === 'string') sandboxDispute = { session, id: dispute.id };
    if (action === 'accept' || action === 'reject') sandboxDispute = null;
    toast(state.t(`sandbox.done.${action}`));
  } catch (err) {
    toast(err instanceof Error ? err.message : String(err), 'error');
  } finally {
    delete button.dataset.busy;
    renderSandbox();
  }
}

// ---------------------------------------------------------------------------------------------
// Code panel

function renderCode(): void {
  const config = state.config;
  const product = state.buying ?? products()[0];
  if (!config || !product) return;
  const text = integrationCode(state.codeTab, {
    origin: location.origin,
    display: state.display,
    mode: state.mode,
    attributes: widgetAttributes(product),
    product,
    cdn: config.cdn,
  });
  $('#code').replaceChildren(...highlight(text));
}
