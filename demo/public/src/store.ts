/**
 * The storefront: products, checkout settings, the widget inline or in a modal (a full-screen sheet on
 * phones), the sandbox bar and the code panel. This module renders and wires; the page state, the
 * URL and the carts are in store-state.ts, the sandbox bar in store-sandbox.ts, a paid cart's page in
 * store-paid.ts, the scrolling in store-scroll.ts. Each "Buy" is a new purchase (its own cart, so its
 * own order); the cart in the URL makes a reload or a second tab of the same purchase resume its
 * order, unless the cart is paid: then the page says so. An older `?buy=<product>` link opens a new
 * cart for it.
 */
// The element's events (`paydesk-session`, `paydesk-status`, …), typed on every element by this module.
import type {} from '../../../src/element/events.js';
import { INTEGRATION_MODES } from '../../../src/protocol/index.js';
import { BUTTON_NAMES } from '../../../src/provider/index.js';
import { $, $$, checkRadio, el, onRadio } from '../../../src/ui-shared/dom.js';
import { applyTexts, bindPreferences, setTheme, texts, type Lang, type Theme } from '../../../src/ui-shared/i18n.js';
import { toast } from '../../../src/ui-shared/toast.js';
import { bindCodePanel, renderCode } from './store-code.js';
import { renderPaidCart, watchCart } from './store-paid.js';
import { scrollToCheckout, scrollWhenShown } from './store-scroll.js';
import { renderSandbox, SANDBOX_ACTIONS, sandboxAction } from './store-sandbox.js';
import {
  cartInfo,
  checkoutPageUrl,
  DISPLAYS,
  forgetStoredSession,
  isNetworkError,
  METHODS,
  openCart,
  params,
  pick,
  price,
  products,
  productTitle,
  settled,
  state,
  storedSession,
  storeSession,
  syncUrl,
  widgetAttributes,
  type CheckoutElement,
  type DemoConfig,
  type Product,
} from './store-state.js';
import { STORE_TEXTS } from './texts/store.js';

/** Product illustrations, by name (hashed file URLs from the build). */
const IMAGES: Record<string, string> = Object.fromEntries(
  Object.entries(import.meta.glob<string>('../img/*.svg', { eager: true, query: '?url', import: 'default' })).map(([path, url]) => [
    path.slice('../img/'.length, -'.svg'.length),
    url,
  ]),
);

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
  renderCode();

  const cart = params.get('cart');
  if (cart) {
    // Resume: the widget finds the session stored for this endpoint and cart (this tab's, or another tab's of the same purchase).
    // A paid cart (the shop's own record, whichever browser paid it) shows that it is paid, never a
    // checkout: a checkout would create a new order and ask for the money again.
    const info = await cartInfo(cart);
    if (info?.paid) showPaidCart(info.product, cart, info.paid.client_order_id);
    else if (info) openCheckout(info.product, cart, { resume: true });
    else {
      toast(state.t('cart.gone'), 'error');
      syncUrl();
    }
    return;
  }
  // An older link names the product (`?buy=<ref>`): a new purchase of it.
  const product = products().find((p) => p.ref === params.get('buy'));
  if (product) await buyProduct(product);
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
    if (state.display === 'server' && state.mode !== 'h2h') {
      // The server page is H2H: the mode follows (a checkout open in another mode is rebuilt).
      state.mode = 'h2h';
      checkRadio('mode', 'h2h');
      return reopen();
    }
    // Inline ↔ modal is only where the checkout shows: the widget resumes its stored session for the
    // same endpoint and order_ref (no reset(), no new order).
    renderSettings();
    if (state.buying && state.cart) openCheckout(state.buying, state.cart, { resume: true });
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
    // The focus goes back to the "Buy" that opened it (Safari gives a tapped button no focus, and a
    // closed modal returns it to nothing there).
    if (modalOpener?.isConnected) modalOpener.focus();
    modalOpener = null;
  });

  for (const button of $$<HTMLButtonElement>('[data-sandbox]')) {
    button.addEventListener('click', () => void sandboxAction(pick(button.dataset.sandbox ?? null, SANDBOX_ACTIONS, 'complete'), button));
  }
  bindCodePanel();
}

function setLang(lang: Lang): void {
  state.lang = lang;
  state.t = texts(STORE_TEXTS, lang);
  applyTexts(state.t);
  renderProducts();
  renderSettings();
  renderSummary();
  renderPaidCart();
  renderCode();
  syncUrl();
}

function renderSettings(): void {
  const config = state.config;
  if (!config) return;
  const server = state.display === 'server';
  for (const mode of INTEGRATION_MODES) {
    $<HTMLInputElement>(`input[name="mode"][value="${mode}"]`).disabled = !config.endpoints[mode] || (server && mode !== 'h2h');
  }
  $('#bank-select').hidden = state.method !== 'bank';
  const note = server ? state.t('pg.note.server') : state.t(`pg.note.${state.mode}`);
  $('#mode-note').textContent = config.endpoints[state.mode] ? note : state.t('pg.note.unavailable');
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
        onclick: (e: Event) => {
          modalOpener = e.currentTarget as HTMLElement;
          void buyProduct(p);
        },
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
          el('span', { className: 'product-sub', text: `ref: ${p.ref}` }),
          el('div', { className: 'product-foot' }, el('span', { className: 'price', text: price(p) }), buy),
        ),
      );
      return li;
    }),
  );
}

// ---------------------------------------------------------------------------------------------
// Checkout

/**
 * "Buy": a new purchase in a cart of its own — unless this product's checkout is already open and
 * its order not ended (a double click, or a second tap while it loads): that one is shown, never a
 * second order for one purchase.
 */
/** The control that opened the checkout modal: it gets the focus back when the modal closes. */
let modalOpener: HTMLElement | null = null;

async function buyProduct(product: Product): Promise<void> {
  if (state.buying?.ref === product.ref && state.widget?.isConnected && !settled()) {
    const modal = $<HTMLDialogElement>('#modal');
    if (state.display === 'modal' && !modal.open) modal.showModal();
    else scrollToCheckout();
    return;
  }
  if (state.opening === product.ref) return; // its cart is being opened
  state.opening = product.ref;
  try {
    const cart = await openCart(product);
    // The server-rendered page: its server creates the cart's order and renders it into the HTML.
    if (state.display === 'server') return location.assign(checkoutPageUrl(cart));
    openCheckout(product, cart, { resume: false });
  } catch (err) {
    // Offline (or the shop unreachable): the page's own sentence, in its language, not the browser's "Failed to fetch".
    toast(isNetworkError(err) ? state.t('error.offline') : err instanceof Error ? err.message : state.t('error.generic'), 'error');
  } finally {
    state.opening = null;
  }
}

function openCheckout(product: Product, cart: string, { resume }: { resume: boolean }): void {
  // Settings changed while a paid cart is shown: it stays paid (no new order for it).
  if (state.paidOrder !== null && state.cart === cart) return showPaidCart(product, cart, state.paidOrder);
  state.paidOrder = null;
  removeWidget({ forget: !resume });
  state.buying = product;
  state.cart = cart;
  const widget = document.createElement('paydesk-checkout') as CheckoutElement;
  for (const [name, value] of Object.entries(widgetAttributes(cart))) widget.setAttribute(name, value);
  if (!resume) {
    // New settings for this purchase: forget the order this tab made for it before.
    widget.reset?.();
    forgetStoredSession();
  }
  widget.addEventListener('paydesk-session', (e) => {
    state.session = e.detail.session;
    state.order = e.detail.order;
    storeSession(cart, e.detail.session);
    renderSandbox();
  });
  widget.addEventListener('paydesk-status', (e) => {
    state.orderState = e.detail.state;
    state.order = e.detail.order;
    renderSandbox();
  });
  widget.addEventListener('paydesk-error', (e) => (state.errorRetryable = e.detail.retryable));
  widget.addEventListener('paydesk-paid', () => toast(state.t('paid.toast')));
  state.widget = widget;
  watchCart(cart, widget, (orderNumber) => showPaidCart(product, cart, orderNumber));
  state.session = resume ? storedSession(cart) : null;
  state.orderState = null;
  state.order = null;

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
  panelChanged(product.ref);
}

/** A paid cart: the shop's thank-you with the number of the order that paid it, in the checkout panel; no widget, no order. */
function showPaidCart(product: Product, cart: string, orderNumber: string): void {
  removeWidget({ forget: false });
  state.buying = product;
  state.cart = cart;
  state.paidOrder = orderNumber;
  const modal = $<HTMLDialogElement>('#modal');
  if (modal.open) modal.close();
  $('#modal-host').replaceChildren();
  renderPaidCart();
  showPanelEmpty(false);
  renderSummary();
  panelChanged(product.ref);
}

/** The checkout panel changed: the selected product, the sandbox bar, the code panel and the address follow it. */
function panelChanged(selectedRef: string | null): void {
  for (const li of $$('.product')) li.classList.toggle('selected', li.dataset.ref === selectedRef);
  renderSandbox();
  renderCode();
  syncUrl();
}

function showPanelEmpty(empty: boolean): void {
  $('#checkout-empty').hidden = !empty;
  $('#checkout-summary').hidden = empty;
  $('#checkout-close').hidden = empty;
}

/** Payment settings (mode, method, bank) changed: rebuild what is open with them (a new order for the same purchase). */
function reopen(): void {
  renderSettings();
  if (state.buying && state.cart) openCheckout(state.buying, state.cart, { resume: false });
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
  state.order = null;
}

function closeCheckout(): void {
  removeWidget({ forget: false });
  state.paidOrder = null;
  state.buying = null;
  state.cart = null;
  const modal = $<HTMLDialogElement>('#modal');
  if (modal.open) modal.close();
  $('#inline-host').replaceChildren();
  $('#modal-host').replaceChildren();
  showPanelEmpty(true);
  panelChanged(null);
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
