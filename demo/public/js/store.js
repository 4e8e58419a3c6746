// The storefront: products, checkout settings, the widget inline or in a modal, the sandbox bar and
// the code panel. State lives in the URL (?buy=…&mode=…&method=…&display=…&lang=…&theme=…), so a
// reload reopens the same checkout and the widget resumes the same order.
import { apply, formatRub, initialLang, initialTheme, remember, t } from './i18n.js';
import { highlight, integrationCode } from './code.js';

const $ = (sel) => document.querySelector(sel);

const MODES = ['h2h', 'order_with_form', 'form'];
const METHODS = ['choice', 'sbp', 'card', 'bank'];
const BUTTONS = ['SberPay', 'TPay', 'VTBPay', 'AlfaPay'];
const SESSION_KEY = 'obzharka:checkout-session';

const params = new URLSearchParams(location.search);
const pick = (value, allowed, fallback) => (allowed.includes(value) ? value : fallback);

const state = {
  config: null,
  products: [],
  lang: initialLang(),
  theme: initialTheme(),
  display: pick(params.get('display'), ['inline', 'modal'], 'inline'),
  mode: pick(params.get('mode'), MODES, 'h2h'),
  method: pick(params.get('method'), METHODS, 'choice'),
  bank: pick(params.get('bank'), BUTTONS, 'SberPay'),
  /** The product being bought, or null. */
  buying: null,
  /** The widget on screen. */
  widget: null,
  /** Session token of the order on screen (for the sandbox controls). */
  session: null,
  orderState: null,
  codeTab: 'html',
};

// ---------------------------------------------------------------------------------------------
// Start

main().catch((err) => {
  console.error(err);
  toast(t(state.lang, 'error.generic'), true);
});

async function main() {
  const res = await fetch('/demo/api/config', { headers: { accept: 'application/json' } });
  if (!res.ok) throw new Error(`config: HTTP ${res.status}`);
  state.config = await res.json();
  state.products = state.config.products;
  if (!state.config.endpoints[state.mode]) state.mode = 'h2h';

  setTheme(state.theme);
  setLang(state.lang);
  bindSwitches();
  renderProducts();
  renderSettings();
  $('#sandbox-bar').hidden = !state.config.sandbox;
  $('#modal-sandbox').hidden = !state.config.sandbox;

  const ref = params.get('buy');
  const product = state.products.find((p) => p.ref === ref);
  // Resume: the widget finds its own stored session for this endpoint and order_ref.
  if (product) openCheckout(product, { resume: true });
  renderCode();
}

// ---------------------------------------------------------------------------------------------
// Switches

function bindSwitches() {
  check('lang', state.lang);
  check('theme', state.theme);
  check('display', state.display);
  check('mode', state.mode);
  check('method', state.method);
  $('#bank-select').value = state.bank;

  onRadio('lang', (v) => {
    setLang(v);
    remember('lang', v);
    if (state.widget) state.widget.locale = v;
  });
  onRadio('theme', (v) => {
    setTheme(v);
    remember('theme', v);
    if (state.widget) state.widget.theme = v;
  });
  onRadio('display', (v) => {
    state.display = v;
    reopen();
  });
  onRadio('mode', (v) => {
    state.mode = v;
    reopen();
  });
  onRadio('method', (v) => {
    state.method = v;
    reopen();
  });
  $('#bank-select').addEventListener('change', (e) => {
    state.bank = pick(e.target.value, BUTTONS, 'SberPay');
    reopen();
  });

  $('#checkout-close').addEventListener('click', closeCheckout);
  $('#modal-close').addEventListener('click', () => $('#modal').close());
  $('#modal').addEventListener('close', () => {
    if (state.display === 'modal') closeCheckout();
  });

  for (const btn of document.querySelectorAll('[data-sandbox]')) {
    btn.addEventListener('click', () => sandboxAction(btn.dataset.sandbox, btn));
  }
  for (const tab of document.querySelectorAll('[data-tab]')) {
    tab.addEventListener('click', () => {
      state.codeTab = tab.dataset.tab;
      for (const other of document.querySelectorAll('[data-tab]')) other.setAttribute('aria-selected', String(other === tab));
      renderCode();
    });
  }
  $('#copy-code').addEventListener('click', async () => {
    try {
      await navigator.clipboard.writeText($('#code').textContent);
      toast(t(state.lang, 'code.copied'));
    } catch {
      const range = document.createRange();
      range.selectNodeContents($('#code'));
      getSelection().removeAllRanges();
      getSelection().addRange(range);
    }
  });
}

function check(name, value) {
  const input = document.querySelector(`input[name="${name}"][value="${value}"]`);
  if (input) input.checked = true;
}

function onRadio(name, fn) {
  for (const input of document.querySelectorAll(`input[name="${name}"]`)) {
    input.addEventListener('change', () => {
      if (input.checked) fn(input.value);
    });
  }
}

function setLang(lang) {
  state.lang = lang;
  apply(lang);
  renderProducts();
  renderSettings();
  renderSummary();
  renderCode();
  syncUrl();
}

function setTheme(theme) {
  state.theme = theme;
  document.documentElement.dataset.theme = theme;
  renderCode();
  syncUrl();
}

function renderSettings() {
  if (!state.config) return;
  for (const mode of MODES) {
    const input = document.querySelector(`input[name="mode"][value="${mode}"]`);
    input.disabled = !state.config.endpoints[mode];
  }
  $('#bank-select').hidden = state.method !== 'bank';
  const note = state.config.endpoints[state.mode] ? t(state.lang, `pg.note.${state.mode}`) : t(state.lang, 'pg.note.unavailable');
  $('#mode-note').textContent = note;
}

function syncUrl() {
  const q = new URLSearchParams();
  if (state.buying) q.set('buy', state.buying.ref);
  q.set('display', state.display);
  q.set('mode', state.mode);
  q.set('method', state.method);
  if (state.method === 'bank') q.set('bank', state.bank);
  q.set('lang', state.lang);
  q.set('theme', state.theme);
  history.replaceState(null, '', `${location.pathname}?${q}`);
}

// ---------------------------------------------------------------------------------------------
// Products

function renderProducts() {
  const list = $('#products');
  if (!list || state.products.length === 0) return;
  list.replaceChildren(
    ...state.products.map((p) => {
      const li = document.createElement('li');
      li.className = `product card${p.ref === 'no-traders-demo' ? ' demo-error' : ''}${state.buying?.ref === p.ref ? ' selected' : ''}`;
      li.dataset.ref = p.ref;

      const art = document.createElement('div');
      art.className = 'product-art';
      const img = document.createElement('img');
      img.src = `/img/${p.image}.svg`;
      img.alt = '';
      img.width = 160;
      img.height = 120;
      art.append(img);

      const body = document.createElement('div');
      body.className = 'product-body';
      if (p.ref === 'no-traders-demo') {
        const tag = document.createElement('span');
        tag.className = 'tag';
        tag.textContent = t(state.lang, 'product.errorTag');
        body.append(tag);
      }
      const title = document.createElement('h3');
      title.className = 'product-title';
      title.textContent = productTitle(p);
      const sub = document.createElement('span');
      sub.className = 'product-sub';
      sub.textContent = `order_ref: ${p.ref}`;
      const foot = document.createElement('div');
      foot.className = 'product-foot';
      const price = document.createElement('span');
      price.className = 'price';
      price.textContent = formatRub(p.amount, state.lang);
      const buy = document.createElement('button');
      buy.type = 'button';
      buy.className = 'btn primary';
      buy.textContent = t(state.lang, 'product.buy');
      buy.setAttribute('aria-label', `${t(state.lang, 'product.buy')}: ${productTitle(p)}`);
      buy.dataset.buy = p.ref;
      buy.addEventListener('click', () => openCheckout(p, { resume: false }));
      foot.append(price, buy);
      body.append(title, sub, foot);
      li.append(art, body);
      return li;
    }),
  );
}

function productTitle(p) {
  return state.lang === 'ru' ? p.title : p.title_en;
}

// ---------------------------------------------------------------------------------------------
// Checkout

/** The widget's attributes for the current settings. */
function widgetAttributes(product) {
  const attrs = { endpoint: state.config.endpoints[state.mode], 'order-ref': product.ref };
  if (state.mode !== 'h2h') attrs.mode = state.mode;
  if (state.method === 'sbp') attrs['method-type'] = 'SBP';
  if (state.method === 'card') attrs['method-type'] = 'BankCard';
  if (state.method === 'bank') attrs['button-name'] = state.bank;
  attrs.locale = state.lang;
  attrs.theme = state.theme;
  return attrs;
}

function openCheckout(product, { resume }) {
  removeWidget({ forget: !resume });
  state.buying = product;
  const el = document.createElement('paydesk-checkout');
  for (const [name, value] of Object.entries(widgetAttributes(product))) el.setAttribute(name, value);
  if (!resume && typeof el.reset === 'function') {
    // A new purchase: forget an order this tab made earlier for the same product and endpoint.
    el.reset();
    forgetStoredSession();
  }
  el.addEventListener('paydesk-session', (e) => {
    state.session = e.detail.session;
    storeSession(product, e.detail.session);
    renderSandbox();
  });
  el.addEventListener('paydesk-status', (e) => {
    state.orderState = e.detail.state;
    renderSandbox();
  });
  el.addEventListener('paydesk-paid', () => toast(t(state.lang, 'paid.toast')));
  state.widget = el;
  state.session = resume ? storedSession(product) : null;
  state.orderState = null;

  if (state.display === 'modal') {
    $('#modal-host').replaceChildren(el);
    $('#checkout-empty').hidden = false;
    $('#checkout-summary').hidden = true;
    $('#checkout-close').hidden = true;
    renderSummary();
    const modal = $('#modal');
    if (!modal.open) modal.showModal();
  } else {
    if ($('#modal').open) $('#modal').close();
    $('#inline-host').replaceChildren(el);
    $('#checkout-empty').hidden = true;
    $('#checkout-summary').hidden = false;
    $('#checkout-close').hidden = false;
    renderSummary();
    if (!resume) $('#checkout').scrollIntoView({ block: 'nearest', behavior: 'smooth' });
  }
  for (const li of document.querySelectorAll('.product')) li.classList.toggle('selected', li.dataset.ref === product.ref);
  renderSandbox();
  renderCode();
  syncUrl();
}

/** Settings changed: rebuild what is open with the new settings (a new order). */
function reopen() {
  renderSettings();
  if (state.buying) openCheckout(state.buying, { resume: false });
  else {
    renderCode();
    syncUrl();
  }
}

function removeWidget({ forget }) {
  if (state.widget) {
    if (forget && typeof state.widget.reset === 'function') state.widget.reset();
    state.widget.remove();
  }
  if (forget) forgetStoredSession();
  state.widget = null;
  state.session = null;
  state.orderState = null;
}

function closeCheckout() {
  removeWidget({ forget: false });
  state.buying = null;
  if ($('#modal').open) $('#modal').close();
  $('#inline-host').replaceChildren();
  $('#modal-host').replaceChildren();
  $('#checkout-empty').hidden = false;
  $('#checkout-summary').hidden = true;
  $('#checkout-close').hidden = true;
  for (const li of document.querySelectorAll('.product')) li.classList.remove('selected');
  renderSandbox();
  renderCode();
  syncUrl();
}

function renderSummary() {
  const p = state.buying;
  if (!p) return;
  const title = productTitle(p);
  const price = formatRub(p.amount, state.lang);
  $('#summary-img').src = `/img/${p.image}.svg`;
  $('#summary-title').textContent = title;
  $('#summary-price').textContent = price;
  $('#modal-title').textContent = title;
  $('#modal-price').textContent = price;
}

// The page remembers the session of the order on screen (this tab only) for the sandbox controls.
function storeSession(product, session) {
  try {
    sessionStorage.setItem(SESSION_KEY, JSON.stringify({ ref: product.ref, endpoint: state.config.endpoints[state.mode], session }));
  } catch {
    // storage may be unavailable
  }
}

function storedSession(product) {
  try {
    const v = JSON.parse(sessionStorage.getItem(SESSION_KEY) ?? 'null');
    return v && v.ref === product.ref && v.endpoint === state.config.endpoints[state.mode] && typeof v.session === 'string' ? v.session : null;
  } catch {
    return null;
  }
}

function forgetStoredSession() {
  try {
    sessionStorage.removeItem(SESSION_KEY);
  } catch {
    // storage may be unavailable
  }
}

// ---------------------------------------------------------------------------------------------
// Sandbox controls

const OPEN_STATES = new Set(['pay', 'confirming', 'searching', 'loading']);

function renderSandbox() {
  const active = Boolean(state.session) && (state.orderState === null || OPEN_STATES.has(state.orderState));
  for (const btn of document.querySelectorAll('[data-sandbox]')) {
    // A dispute can be opened on a paid order too.
    btn.disabled = !state.session || (!active && !(btn.dataset.sandbox === 'dispute' && state.orderState === 'paid'));
  }
}

async function sandboxAction(action, button) {
  if (!state.session) return toast(t(state.lang, 'sandbox.noOrder'), true);
  button.disabled = true;
  try {
    const res = await fetch(`/demo/api/sandbox/${action}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-paydesk': '1' },
      body: JSON.stringify({ session: state.session, endpoint: state.config.endpoints[state.mode] }),
    });
    const body = await res.json().catch(() => null);
    if (!res.ok) throw new Error(body?.error?.message ?? `HTTP ${res.status}`);
    toast(t(state.lang, `sandbox.done.${action}`));
  } catch (err) {
    toast(err instanceof Error ? err.message : String(err), true);
  } finally {
    renderSandbox();
  }
}

// ---------------------------------------------------------------------------------------------
// Code panel

function renderCode() {
  const code = $('#code');
  if (!code || !state.config) return;
  const product = state.buying ?? state.products[0];
  const text = integrationCode(state.codeTab, {
    origin: location.origin,
    display: state.display,
    mode: state.mode,
    attributes: widgetAttributes(product),
    product,
    cdn: state.config.cdn,
  });
  code.replaceChildren(...highlight(text, state.codeTab));
}

// ---------------------------------------------------------------------------------------------

let toastTimer = 0;
function toast(message, error = false) {
  const el = $('#toast');
  // Inside an open modal dialog (the top layer), or the page behind it would cover the toast.
  const host = $('#modal').open ? $('#modal') : document.body;
  if (el.parentElement !== host) host.append(el);
  el.textContent = message;
  el.classList.toggle('error', error);
  el.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => (el.hidden = true), 3500);
}
