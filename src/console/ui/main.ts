/**
 * The merchant console page: the console's login (or the merchant's own sign-in), the balance
 * (available, frozen, total), and the views (lists, an order, the payout form, the pages of
 * pages.ts) chosen by the address. Everything comes from the merchant server's `{basePath}/api`;
 * the provider key never reaches this page.
 */
import type { BalanceView } from '../contract.js';
import { $, $$ } from '../../ui-shared/dom.js';
import { money, shortId } from '../../ui-shared/format.js';
import { applyTexts, bindPreferences, initialLang, initialTheme, setTheme, texts, type Lang, type Theme } from '../../ui-shared/i18n.js';
import { toast } from '../../ui-shared/toast.js';
import { CONSOLE_TEXTS } from './texts.js';
import { ApiError, api, isUnauthorized } from './api.js';
import type { ConsoleContext, Meta } from './context.js';
import { errorSentence } from './labels.js';
import { consoleLists } from './lists.js';
import { showList, TITLES } from './list-view.js';
import { showOrder } from './order-page.js';
import { completeInSandbox, relabelPayoutForm, showPayoutForm } from './payouts.js';
import { addressOf, CONSOLE_ROOT, LISTS, pathOf, viewOf, type View } from './url.js';
import { PAGES, pageAt, pagePath, type ConsolePage } from './pages.js';

const page = {
  lang: initialLang(),
  theme: initialTheme(),
  meta: null as Meta | null,
  balance: null as BalanceView | null,
  loggedIn: false,
  /** How the operator got in: the console's password (a Log out button) or the merchant's own sign-in. */
  auth: 'password' as 'password' | 'authorize',
};

const lists = consoleLists({
  complete: (payout, button) => {
    button.disabled = true;
    completeInSandbox(context(), payout).then(
      () => render(),
      (err: unknown) => {
        button.disabled = false;
        if (isUnauthorized(err)) return showLogin();
        toast(context().errorText(err), 'error');
      },
    );
  },
});

function context(): ConsoleContext {
  const t = texts(CONSOLE_TEXTS, page.lang);
  const currency = () => page.balance?.currency ?? 'RUB';
  const format = (amount: string | number | null | undefined, cur?: string) => money(amount, cur ?? currency(), page.lang);
  return {
    lang: page.lang,
    t,
    meta: page.meta ?? { order_statuses: [], form_session_states: [], method_types: [], transaction_types: [], webhook_outcomes: [], endpoints: [], receipts: false, sandbox: false },
    get balance() {
      return page.balance; // read when used: the balance loads after the view
    },
    money: format,
    refreshBalance: loadBalance,
    navigate,
    loggedOut: showLogin,
    toast,
    errorText: (err) =>
      err instanceof ApiError ? errorSentence(page.lang, err.code, err.message, err.details, (a) => format(a, err.details.currency)) : String(err),
  };
}

// ---------------------------------------------------------------------------------------------
// Addresses

function settings() {
  return { lang: page.lang, theme: page.theme };
}

function navigate(path: string, filters = new URLSearchParams(), options: { replace?: boolean } = {}): void {
  const address = addressOf(path, filters, settings());
  if (options.replace) history.replaceState(null, '', address);
  else if (address !== `${location.pathname}${location.search}`) history.pushState(null, '', address);
  render();
}

/** The page settings written into the current address (after a switch of language or theme). */
function syncSettings(): void {
  const q = new URLSearchParams(location.search);
  q.set('lang', page.lang);
  q.set('theme', page.theme);
  history.replaceState(history.state, '', `${location.pathname}?${q}`);
}

/** Shows the view the address names. */
function render(): void {
  if (!page.loggedIn) return;
  const ctx = context();
  const extra = pageAt(location.pathname);
  const view: View = extra ? { kind: 'not-found' } : viewOf(location.pathname);
  renderNav(view, extra);
  $('#page-view').hidden = extra === null;
  if (extra) {
    for (const id of ['#list-view', '#order-view', '#payout-view', '#not-found', '#new-payout', '#payouts-lead']) $(id).hidden = true;
    const title = ctx.t(extra.title);
    $('#view-title').textContent = title;
    document.title = `${title} — ${ctx.t('c.loginTitle')}`;
    const root = $('#page-view');
    root.replaceChildren();
    root.dataset.page = extra.path;
    void Promise.resolve(extra.show(ctx, root)).catch((err: unknown) => (isUnauthorized(err) ? showLogin() : toast(ctx.errorText(err), 'error')));
    return;
  }
  $('#list-view').hidden = view.kind !== 'list';
  $('#order-view').hidden = view.kind !== 'order';
  $('#payout-view').hidden = view.kind !== 'new-payout';
  $('#not-found').hidden = view.kind !== 'not-found';
  $('#new-payout').hidden = !(view.kind === 'list' && view.list === 'payouts');
  $('#payouts-lead').hidden = !(view.kind === 'list' && view.list === 'payouts');
  const setTitle = (title: string) => {
    $('#view-title').textContent = title;
    document.title = `${title} — ${ctx.t('c.loginTitle')}`;
  };
  if (view.kind === 'order') {
    // Until the order is read, its key names it.
    if ($('#order-body').dataset.key !== view.key) setTitle(ctx.t('c.orderTitle', { name: view.key }));
    $<HTMLAnchorElement>('#order-back').href = addressOf(`${CONSOLE_ROOT}/orders`, new URLSearchParams(), settings());
    showOrder(ctx, view.key, setTitle);
    return;
  }
  setTitle(view.kind === 'list' ? ctx.t(TITLES[view.list]) : view.kind === 'new-payout' ? ctx.t('p.new') : ctx.t('c.notFound'));
  if (view.kind === 'list') showList(ctx, view.list, lists[view.list]);
  else if (view.kind === 'new-payout') showPayoutForm(ctx);
}

/** The links of the pages of pages.ts, after the lists' (once). */
function addPageLinks(): void {
  const nav = $('#console-nav');
  for (const p of PAGES) {
    const link = document.createElement('a');
    link.dataset.page = p.path;
    link.dataset.i18n = p.title;
    link.textContent = context().t(p.title);
    link.href = pagePath(p);
    nav.append(link);
  }
}

function renderNav(view: View, extra: ConsolePage | null): void {
  for (const link of $$<HTMLAnchorElement>('#console-nav a[data-page]')) {
    const p = PAGES.find((x) => x.path === link.dataset.page);
    if (!p) continue;
    link.href = addressOf(pagePath(p), new URLSearchParams(), settings());
    if (p === extra) link.setAttribute('aria-current', 'page');
    else link.removeAttribute('aria-current');
  }
  const active = extra ? null : view.kind === 'list' ? view.list : view.kind === 'new-payout' ? 'payouts' : view.kind === 'order' ? 'orders' : null;
  for (const link of $$<HTMLAnchorElement>('#console-nav a[data-list]')) {
    const name = link.dataset.list as (typeof LISTS)[number];
    link.href = addressOf(pathOf({ kind: 'list', list: name }), new URLSearchParams(), settings());
    if (name === active) link.setAttribute('aria-current', 'page');
    else link.removeAttribute('aria-current');
  }
  revealCurrent();
}

/**
 * On a phone the sections are one row that scrolls sideways (console.css): the current one is
 * brought into that row's view, without moving the page itself.
 */
function revealCurrent(): void {
  const nav = $<HTMLElement>('#console-nav');
  const current = nav?.querySelector<HTMLElement>('[aria-current="page"]');
  if (!nav || !current || nav.scrollWidth <= nav.clientWidth) return;
  const left = current.getBoundingClientRect().left - nav.getBoundingClientRect().left + nav.scrollLeft;
  if (left < nav.scrollLeft || left + current.offsetWidth > nav.scrollLeft + nav.clientWidth) nav.scrollLeft = left - (nav.clientWidth - current.offsetWidth) / 2;
}

/** Links marked `data-nav` change the view without reloading the page. */
function followLinks(): void {
  document.addEventListener('click', (e) => {
    const link = (e.target as Element | null)?.closest?.('a[data-nav], #console-nav a[data-list], #console-nav a[data-page]');
    if (!(link instanceof HTMLAnchorElement) || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    const url = new URL(link.href);
    if (url.origin !== location.origin || !url.pathname.startsWith(CONSOLE_ROOT)) return;
    e.preventDefault();
    const filters = new URLSearchParams(url.search);
    filters.delete('lang');
    filters.delete('theme');
    navigate(url.pathname, filters);
  });
  window.addEventListener('popstate', render);
}

// ---------------------------------------------------------------------------------------------
// Balance

async function loadBalance(): Promise<void> {
  try {
    const { balance } = await api<{ balance: BalanceView }>('/balance');
    page.balance = balance;
    renderBalance();
  } catch (err) {
    if (isUnauthorized(err)) return showLogin();
    toast(context().errorText(err), 'error');
  }
}

function renderBalance(): void {
  const b = page.balance;
  if (!b) return;
  const ctx = context();
  $('#bal-available').textContent = ctx.money(b.available, b.currency);
  $('#bal-frozen').textContent = ctx.money(b.frozen, b.currency);
  $('#bal-total').textContent = ctx.money(b.total, b.currency);
  $('#terminal-line').textContent = ctx.t('c.terminal', { currency: b.currency, id: shortId(b.id) });
}

// ---------------------------------------------------------------------------------------------
// Login

function showLogin(): void {
  page.loggedIn = false;
  $('#dashboard').hidden = true;
  $('#logout').hidden = true;
  $('#login-view').hidden = false;
  document.title = context().t('c.loginTitle');
  $('#password').focus();
}

async function showDashboard(): Promise<void> {
  page.meta ??= await api<Meta>('/meta');
  page.loggedIn = true;
  $('#login-view').hidden = true;
  $('#dashboard').hidden = false;
  $('#logout').hidden = page.auth !== 'password';
  render();
  void loadBalance();
}

async function login(e: SubmitEvent): Promise<void> {
  e.preventDefault();
  const error = $('#login-error');
  const input = $<HTMLInputElement>('#password');
  error.hidden = true;
  try {
    await api('/login', { method: 'POST', body: { password: input.value } });
    input.value = '';
    input.removeAttribute('aria-invalid');
    await showDashboard();
  } catch (err) {
    error.textContent = isUnauthorized(err) ? context().t('c.wrongPassword') : context().errorText(err);
    error.hidden = false;
    input.setAttribute('aria-invalid', 'true');
  }
}

// ---------------------------------------------------------------------------------------------

function setLang(lang: Lang): void {
  page.lang = lang;
  applyTexts(context().t);
  syncSettings();
  renderBalance();
  if (page.loggedIn) {
    render();
    relabelPayoutForm(context());
  } else document.title = context().t('c.loginTitle');
}

async function main(): Promise<void> {
  setTheme(page.theme);
  applyTexts(context().t);
  bindPreferences(settings(), {
    lang: setLang,
    theme: (theme: Theme) => {
      page.theme = theme;
      syncSettings();
    },
  });
  followLinks();
  $<HTMLFormElement>('#login-form').addEventListener('submit', (e) => void login(e));
  $('#logout').addEventListener('click', async () => {
    await api('/logout', { method: 'POST' }).catch(() => null);
    showLogin();
  });
  // Once the operator opens or closes the filters, the page leaves them so.
  $('#filters-box summary').addEventListener('click', () => ($('#filters-box').dataset.touched = '1'));
  $('#refresh').addEventListener('click', () => {
    void loadBalance();
    render();
  });

  // Addresses of the first console (`/console?list=disputes`) still lead to their list.
  // The first console's exact search (`/console/orders?client_order_id=…`) is the search now.
  const legacy = new URLSearchParams(location.search).get('list');
  const legacySearch = new URLSearchParams(location.search).get('client_order_id');
  if (legacy && (LISTS as readonly string[]).includes(legacy)) history.replaceState(null, '', addressOf(`${CONSOLE_ROOT}/${legacy}`, new URLSearchParams(), settings()));
  else if (location.pathname.replace(/\/+$/, '') === CONSOLE_ROOT) history.replaceState(null, '', addressOf(`${CONSOLE_ROOT}/orders`, currentQuery(), settings()));
  else if (location.pathname.replace(/\/+$/, '') === `${CONSOLE_ROOT}/orders` && legacySearch) {
    const q = currentQuery();
    q.delete('client_order_id');
    q.set('q', legacySearch);
    history.replaceState(null, '', addressOf(`${CONSOLE_ROOT}/orders`, q, settings()));
  } else syncSettings();

  addPageLinks();
  try {
    const me = await api<{ auth?: string }>('/me');
    page.auth = me?.auth === 'authorize' ? 'authorize' : 'password';
    await showDashboard();
  } catch (err) {
    if (isUnauthorized(err)) showLogin();
    else toast(context().errorText(err), 'error');
  }
}

function currentQuery(): URLSearchParams {
  const q = new URLSearchParams(location.search);
  q.delete('lang');
  q.delete('theme');
  q.delete('list');
  return q;
}

void main();
