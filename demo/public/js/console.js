// The merchant console: a demo login, the balance, and the provider's read-only lists with filters,
// sorting and pagination. Everything comes from the merchant server's /console/api (cookie session);
// the provider key never reaches this page.
import { apply, initialLang, initialTheme, remember, t } from './i18n.js';

const $ = (sel) => document.querySelector(sel);
const API = '/console/api';
const LISTS = ['orders', 'form-sessions', 'disputes', 'transactions', 'payment-methods'];

const params = new URLSearchParams(location.search);
const state = {
  lang: initialLang(),
  theme: initialTheme(),
  list: LISTS.includes(params.get('list')) ? params.get('list') : 'orders',
  meta: null,
  /** Filter values and page per list. */
  query: Object.fromEntries(LISTS.map((l) => [l, {}])),
  page: Object.fromEntries(LISTS.map((l) => [l, 1])),
  last: null,
  loadSeq: 0,
};

class HttpError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

async function api(path, init = {}) {
  const res = await fetch(`${API}${path}`, {
    ...init,
    headers: { accept: 'application/json', ...(init.method === 'POST' ? { 'content-type': 'application/json', 'x-paydesk': '1' } : {}), ...init.headers },
    credentials: 'same-origin',
  });
  if (res.status === 204) return null;
  const body = await res.json().catch(() => null);
  if (!res.ok) throw new HttpError(res.status, body?.error?.code ?? 'http_error', body?.error?.message ?? `HTTP ${res.status}`);
  return body;
}

// ---------------------------------------------------------------------------------------------
// Formatting

const locale = () => (state.lang === 'ru' ? 'ru-RU' : 'en-GB');

function money(value, currency = 'RUB') {
  if (value === null || value === undefined || value === '') return '—';
  try {
    // Decimal strings are formatted exactly (Intl takes strings as decimals).
    return new Intl.NumberFormat(locale(), { style: 'currency', currency, currencyDisplay: 'narrowSymbol', minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(value);
  } catch {
    return `${value} ${currency}`;
  }
}

function when(iso) {
  if (!iso) return '—';
  const d = new Date(/[zZ]|[+-]\d\d:?\d\d$/.test(iso) ? iso : `${iso}Z`);
  if (Number.isNaN(d.getTime())) return iso;
  return new Intl.DateTimeFormat(locale(), { dateStyle: 'medium', timeStyle: 'short' }).format(d);
}

function short(id) {
  return typeof id === 'string' && id.length > 13 ? `${id.slice(0, 8)}…${id.slice(-4)}` : (id ?? '—');
}

function statusClass(value) {
  const v = String(value).toLowerCase();
  if (['completed', 'paid', 'deposit', 'requisites_found', 'processed'].includes(v)) return 'ok';
  if (v.startsWith('cancel') || v === 'expired' || v === 'withdrawal') return 'bad';
  if (['unpaid', 'in work', 'method_selection', 'requisites_search', 'payment_confirmation', 'queued', 'processing'].includes(v)) return 'wait';
  return '';
}

function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === 'className') node.className = v;
    else if (k === 'text') node.textContent = v;
    else if (k.startsWith('on')) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v === true ? '' : String(v));
  }
  for (const c of children) if (c !== null && c !== undefined) node.append(c);
  return node;
}

const badge = (value, label = value) => el('span', { className: `status ${statusClass(value)}`, text: label });

// ---------------------------------------------------------------------------------------------
// Lists: filters and columns

function filtersOf(list) {
  const m = state.meta ?? { order_statuses: [], form_session_states: [], method_types: [], transaction_types: [] };
  const sizes = [10, 20, 50, 100];
  switch (list) {
    case 'orders':
      return [
        { name: 'client_order_id', kind: 'search', label: 'c.f.search', hint: 'c.f.searchHint' },
        { name: 'status', kind: 'select', label: 'c.f.status', options: m.order_statuses },
        { name: 'order_side', kind: 'select', label: 'c.f.side', options: ['Buy', 'Sell'] },
        { name: 'sort_by', kind: 'select', label: 'c.f.sortBy', options: ['created_at', 'amount'], labels: { created_at: 'c.f.created_at', amount: 'c.f.amount' }, noAny: true },
        { name: 'sort', kind: 'select', label: 'c.f.sort', options: ['desc', 'asc'], labels: { desc: 'c.f.desc', asc: 'c.f.asc' }, noAny: true },
        { name: 'start_date', kind: 'date', label: 'c.f.from', hint: 'c.f.periodHint' },
        { name: 'end_date', kind: 'date', label: 'c.f.to' },
        { name: 'size', kind: 'select', label: 'c.f.size', options: sizes, noAny: true },
      ];
    case 'form-sessions':
      return [
        { name: 'client_order_id', kind: 'search', label: 'c.f.search' },
        { name: 'state', kind: 'select', label: 'c.f.state', options: m.form_session_states },
        { name: 'size', kind: 'select', label: 'c.f.size', options: sizes, noAny: true },
      ];
    case 'disputes':
      return [
        { name: 'processed', kind: 'select', label: 'c.f.processed', options: ['false', 'true'], labels: { false: 'c.f.inWork', true: 'c.f.completed' } },
        { name: 'start_date', kind: 'date', label: 'c.f.from' },
        { name: 'end_date', kind: 'date', label: 'c.f.to' },
        { name: 'size', kind: 'select', label: 'c.f.size', options: sizes, noAny: true },
      ];
    case 'transactions':
      return [
        { name: 'transaction_type', kind: 'select', label: 'c.f.type', options: m.transaction_types },
        { name: 'start_date', kind: 'date', label: 'c.f.from' },
        { name: 'end_date', kind: 'date', label: 'c.f.to' },
        { name: 'size', kind: 'select', label: 'c.f.size', options: [20, 50, 100, 10], noAny: true },
      ];
    case 'payment-methods':
      return [
        { name: 'active', kind: 'check', label: 'c.f.active' },
        { name: 'method_type', kind: 'select', label: 'c.f.methodType', options: m.method_types },
      ];
  }
  return [];
}

function columnsOf(list) {
  const L = (k) => t(state.lang, k);
  switch (list) {
    case 'orders':
      return [
        { label: L('c.col.created'), cell: (o) => when(o.created_at) },
        { label: L('c.col.client'), cell: (o) => o.client_order_id },
        { label: L('c.col.order'), cell: (o) => short(o.id), mono: true, title: (o) => o.id },
        { label: L('c.col.method'), cell: (o) => o.method_name },
        { label: L('c.col.side'), cell: (o) => o.order_side },
        { label: L('c.col.amount'), cell: (o) => money(o.amount, o.currency), num: true },
        { label: L('c.col.fee'), cell: (o) => money(o.fee, o.currency), num: true },
        { label: L('c.col.status'), cell: (o) => badge(o.status) },
      ];
    case 'form-sessions':
      return [
        { label: L('c.col.created'), cell: (s) => when(s.created_at) },
        { label: L('c.col.client'), cell: (s) => s.client_order_id },
        { label: L('c.col.session'), cell: (s) => short(s.session_id), mono: true, title: (s) => s.session_id },
        { label: L('c.col.method'), cell: (s) => s.payment_method_type ?? '—' },
        { label: L('c.col.amount'), cell: (s) => money(s.amount, s.currency), num: true },
        { label: L('c.col.state'), cell: (s) => badge(s.state) },
        { label: L('c.col.expires'), cell: (s) => when(s.expires_at) },
      ];
    case 'disputes':
      return [
        { label: L('c.col.created'), cell: (d) => when(d.created_at) },
        { label: L('c.col.dispute'), cell: (d) => short(d.dispute_id), mono: true, title: (d) => d.dispute_id },
        { label: L('c.col.order'), cell: (d) => short(d.order_id), mono: true, title: (d) => d.order_id },
        { label: L('c.col.client'), cell: (d) => d.client_order_id },
        { label: L('c.col.amount'), cell: (d) => money(String(d.amount), d.currency), num: true },
        { label: L('c.col.processed'), cell: (d) => (d.processed ? badge('processed', L('c.done')) : badge('in work', L('c.inWork'))) },
      ];
    case 'transactions':
      return [
        { label: L('c.col.created'), cell: (x) => when(x.created_at) },
        { label: L('c.col.type'), cell: (x) => badge(x.transaction_type) },
        {
          label: L('c.col.amount'),
          num: true,
          cell: (x) =>
            el('span', {
              className: x.transaction_type === 'withdrawal' ? 'amount-out' : 'amount-in',
              text: `${x.transaction_type === 'withdrawal' ? '−' : '+'}${money(String(x.amount).replace(/^-/, ''), x.terminal?.currency ?? 'RUB')}`,
            }),
        },
        { label: L('c.col.description'), cell: (x) => x.client_description || '—', wrap: true },
        { label: L('c.col.id'), cell: (x) => short(x.id), mono: true, title: (x) => x.id },
      ];
    case 'payment-methods':
      return [
        { label: L('c.col.name'), cell: (p) => p.method_name },
        { label: L('c.col.type'), cell: (p) => p.method_type },
        { label: L('c.col.nspk'), cell: (p) => p.nspk_code ?? '—', mono: true },
        { label: L('c.col.currency'), cell: (p) => p.method_currency },
        {
          label: L('c.col.ranges'),
          wrap: true,
          cell: (p) =>
            el(
              'div',
              { className: 'ranges' },
              ...(p.ranges ?? []).map((r) =>
                el('span', {
                  className: 'range',
                  text: `${r.fee_side}: ${money(String(r.min_amount), r.currency)} – ${money(String(r.max_amount), r.currency)} · ${r.fee}%${r.fixed_fee ? ` + ${money(String(r.fixed_fee), r.currency)}` : ''}`,
                }),
              ),
            ),
        },
      ];
  }
  return [];
}

// ---------------------------------------------------------------------------------------------
// Rendering

function renderFilters() {
  const form = $('#filters');
  const q = state.query[state.list];
  const fields = filtersOf(state.list).map((f) => {
    const id = `f-${f.name}`;
    let control;
    if (f.kind === 'select') {
      control = el(
        'select',
        { id, name: f.name },
        ...(f.noAny ? [] : [el('option', { value: '', text: t(state.lang, 'c.f.any') })]),
        ...f.options.map((o) => el('option', { value: String(o), text: f.labels?.[o] ? t(state.lang, f.labels[o]) : String(o) })),
      );
      control.value = q[f.name] ?? (f.noAny ? String(f.options[0]) : '');
      control.addEventListener('change', () => submit());
    } else if (f.kind === 'date') {
      control = el('input', { id, name: f.name, type: 'date', value: q[f.name] ?? '' });
      control.addEventListener('change', () => submit());
    } else if (f.kind === 'check') {
      const box = el('input', { id, name: f.name, type: 'checkbox' });
      box.checked = q[f.name] === 'true';
      box.addEventListener('change', () => submit());
      return el('label', { className: 'check', for: id }, box, el('span', { text: t(state.lang, f.label) }));
    } else {
      control = el('input', { id, name: f.name, type: 'search', value: q[f.name] ?? '', maxlength: 64, placeholder: 'shop-1042' });
    }
    return el('label', { className: 'field', for: id, title: f.hint ? t(state.lang, f.hint) : null }, el('span', { text: t(state.lang, f.label) }), control);
  });
  const actions = el(
    'div',
    { className: 'actions' },
    el('button', { className: 'btn small primary', type: 'submit', text: t(state.lang, 'c.f.apply') }),
    el('button', { className: 'btn small', type: 'button', text: t(state.lang, 'c.f.reset'), onclick: () => resetFilters() }),
  );
  form.replaceChildren(...fields, actions);
}

function readFilters() {
  const out = {};
  for (const f of filtersOf(state.list)) {
    const input = document.getElementById(`f-${f.name}`);
    if (!input) continue;
    const value = f.kind === 'check' ? (input.checked ? 'true' : '') : input.value.trim();
    if (value !== '') out[f.name] = value;
  }
  return out;
}

function submit() {
  state.query[state.list] = readFilters();
  state.page[state.list] = 1;
  void loadList();
}

function resetFilters() {
  state.query[state.list] = {};
  state.page[state.list] = 1;
  renderFilters();
  void loadList();
}

/** The API query: dates become the start / end of the local day, in ISO. */
function apiQuery(list) {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(state.query[list])) {
    if (k === 'start_date') q.set(k, new Date(`${v}T00:00:00`).toISOString());
    else if (k === 'end_date') q.set(k, new Date(`${v}T23:59:59.999`).toISOString());
    else q.set(k, v);
  }
  if (list !== 'payment-methods' && !(list === 'orders' && state.query.orders.client_order_id)) q.set('page', String(state.page[list]));
  return q;
}

async function loadList() {
  const list = state.list;
  const seq = ++state.loadSeq;
  $('#list-panel').classList.add('loading');
  $('#list-error').hidden = true;
  try {
    const body = await api(`/${list}?${apiQuery(list)}`);
    if (seq !== state.loadSeq) return; // a newer request won
    state.last = body;
    renderTable(list, list === 'payment-methods' ? { items: body.methods, total: body.methods.length, page: 1, pages: 1 } : body);
  } catch (err) {
    if (seq !== state.loadSeq) return;
    if (err instanceof HttpError && err.status === 401) return showLogin();
    renderTable(list, { items: [], total: 0, page: 1, pages: 0 });
    $('#list-empty').hidden = true;
    $('#list-error').textContent = t(state.lang, 'c.error', { message: err.message });
    $('#list-error').hidden = false;
  } finally {
    if (seq === state.loadSeq) $('#list-panel').classList.remove('loading');
  }
}

function renderTable(list, page) {
  const cols = columnsOf(list);
  const table = $('#list-table');
  table.dataset.list = list;
  table.tHead.replaceChildren(el('tr', {}, ...cols.map((c) => el('th', { className: c.num ? 'num' : null, scope: 'col', text: c.label }))));
  const body = table.tBodies[0];
  body.replaceChildren(
    ...page.items.map((item) =>
      el(
        'tr',
        {},
        ...cols.map((c) => {
          const value = c.cell(item);
          const td = el('td', { className: [c.num && 'num', c.mono && 'mono', c.wrap && 'wrap-cell'].filter(Boolean).join(' ') || null, title: c.title?.(item) });
          td.append(value ?? '—');
          return td;
        }),
      ),
    ),
  );
  $('#list-empty').hidden = page.items.length > 0;
  const pages = Math.max(page.pages, 1);
  $('#pager-info').textContent = t(state.lang, 'c.pageInfo', { page: page.page, pages, total: page.total });
  $('#prev').disabled = page.page <= 1;
  $('#next').disabled = page.page >= pages;
  $('#pager').hidden = list === 'payment-methods';
}

async function loadBalance() {
  try {
    const { balance } = await api('/balance');
    $('#bal-available').textContent = money(balance.available, balance.currency);
    $('#bal-frozen').textContent = money(balance.frozen, balance.currency);
    $('#bal-total').textContent = money(balance.total, balance.currency);
    $('#terminal-line').textContent = t(state.lang, 'c.terminal', { currency: balance.currency, id: short(balance.id) });
  } catch (err) {
    if (err instanceof HttpError && err.status === 401) return showLogin();
    toast(err.message, true);
  }
}

function selectList(list) {
  state.list = list;
  for (const tab of document.querySelectorAll('[data-list]')) tab.setAttribute('aria-selected', String(tab.dataset.list === list));
  $('#list-panel').setAttribute('aria-labelledby', `tab-${list}`);
  syncUrl();
  renderFilters();
  void loadList();
}

// ---------------------------------------------------------------------------------------------
// Login

function showLogin() {
  $('#dashboard').hidden = true;
  $('#logout').hidden = true;
  $('#login-view').hidden = false;
  $('#password').focus();
}

async function showDashboard() {
  $('#login-view').hidden = true;
  $('#dashboard').hidden = false;
  $('#logout').hidden = false;
  if (!state.meta) state.meta = await api('/meta');
  selectList(state.list);
  void loadBalance();
}

async function login(e) {
  e.preventDefault();
  const error = $('#login-error');
  error.hidden = true;
  try {
    await api('/login', { method: 'POST', body: JSON.stringify({ password: $('#password').value }) });
    $('#password').value = '';
    await showDashboard();
  } catch (err) {
    error.textContent = err instanceof HttpError && err.status === 401 ? t(state.lang, 'c.wrongPassword') : err.message;
    error.hidden = false;
  }
}

// ---------------------------------------------------------------------------------------------

function syncUrl() {
  const q = new URLSearchParams({ list: state.list, lang: state.lang, theme: state.theme });
  history.replaceState(null, '', `${location.pathname}?${q}`);
}

let toastTimer = 0;
function toast(message, error = false) {
  const node = $('#toast');
  node.textContent = message;
  node.classList.toggle('error', error);
  node.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => (node.hidden = true), 3500);
}

function bind() {
  for (const input of document.querySelectorAll('input[name="lang"]')) {
    input.checked = input.value === state.lang;
    input.addEventListener('change', () => {
      state.lang = input.value;
      remember('lang', state.lang);
      apply(state.lang);
      syncUrl();
      if (!$('#dashboard').hidden) {
        renderFilters();
        void loadList();
        void loadBalance();
      }
    });
  }
  for (const input of document.querySelectorAll('input[name="theme"]')) {
    input.checked = input.value === state.theme;
    input.addEventListener('change', () => {
      state.theme = input.value;
      remember('theme', state.theme);
      document.documentElement.dataset.theme = state.theme;
      syncUrl();
    });
  }
  for (const tab of document.querySelectorAll('[data-list]')) tab.addEventListener('click', () => selectList(tab.dataset.list));
  $('#filters').addEventListener('submit', (e) => {
    e.preventDefault();
    submit();
  });
  $('#prev').addEventListener('click', () => {
    state.page[state.list] = Math.max(1, state.page[state.list] - 1);
    void loadList();
  });
  $('#next').addEventListener('click', () => {
    state.page[state.list] += 1;
    void loadList();
  });
  $('#refresh').addEventListener('click', () => {
    void loadBalance();
    void loadList();
  });
  $('#login-form').addEventListener('submit', login);
  $('#logout').addEventListener('click', async () => {
    await api('/logout', { method: 'POST' }).catch(() => null);
    showLogin();
  });
}

async function main() {
  document.documentElement.dataset.theme = state.theme;
  apply(state.lang);
  bind();
  syncUrl();
  try {
    await api('/me');
    await showDashboard();
  } catch (err) {
    if (err instanceof HttpError && err.status === 401) showLogin();
    else toast(err.message, true);
  }
}

void main();
