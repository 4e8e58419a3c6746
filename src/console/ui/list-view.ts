/**
 * A list view: filters read from the address (checked: a value the list does not offer is ignored),
 * a change of filter or page pushes a new address (so Back restores the previous one), and the list
 * is loaded for what the address says. Only the latest load is shown.
 */
import { $, el, keyboardScrollable } from '../../ui-shared/dom.js';
import { ApiError, api, isUnauthorized } from './api.js';
import type { ConsoleContext } from './context.js';
import { exportLink } from './export-link.js';
import { webhookTestTool } from './webhook-test.js';
import type { Filter, List } from './lists.js';
import { currentFilters, pathOf, type ListName } from './url.js';

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const MAX_PAGE = 100000;

/** The filters of the address that `list` offers, with valid values only; `page` and `size` included. */
export function filtersFromAddress(list: List, filters: Filter[], query = currentFilters()): Map<string, string> {
  const out = new Map<string, string>();
  for (const f of filters) {
    const value = query.get(f.name)?.trim() ?? '';
    if (value === '') continue;
    if (f.kind === 'select' && !f.options.some((o) => o.value === value)) continue;
    if (f.kind === 'date' && (!DATE.test(value) || Number.isNaN(new Date(`${value}T00:00:00`).getTime()))) continue;
    if (f.kind === 'check' && value !== 'true') continue;
    if (f.kind === 'search' && value.length > 64) continue;
    out.set(f.name, value);
  }
  const page = Number(query.get('page'));
  if (list.paged && Number.isInteger(page) && page > 1 && page <= MAX_PAGE) out.set('page', String(page));
  return out;
}

/** The console API's query: dates become the start and end of the local day, in ISO. */
function apiQuery(list: List, values: Map<string, string>): URLSearchParams {
  const q = new URLSearchParams();
  for (const [name, value] of values) {
    if (name === 'start_date') q.set(name, new Date(`${value}T00:00:00`).toISOString());
    else if (name === 'end_date') q.set(name, new Date(`${value}T23:59:59.999`).toISOString());
    else q.set(name, value);
  }
  if (list.paged && !q.has('size')) q.set('size', list.defaultSize);
  return q;
}

let loadSeq = 0;
let aborter: AbortController | null = null;

export function showList(ctx: ConsoleContext, name: ListName, list: List): void {
  const filters = list.filters(ctx);
  const values = filtersFromAddress(list, filters);
  renderFilters(ctx, name, list, filters, values);
  $('#list-table').dataset.list = name;
  $('#list-panel').setAttribute('aria-label', ctx.t(TITLES[name]));
  $('#pager').hidden = !list.paged;
  // The webhook log has "Send test webhook" above it; it reloads the log after a delivery.
  const tools = $('#list-tools');
  tools.replaceChildren(...(name === 'webhooks' ? [webhookTestTool(ctx, () => void load(ctx, name, list, values))] : []));
  tools.hidden = name !== 'webhooks';
  void load(ctx, name, list, values);
}

export const TITLES = {
  orders: 'c.orders',
  payouts: 'c.payouts',
  'form-sessions': 'c.sessions',
  disputes: 'c.disputes',
  webhooks: 'c.webhooks',
  transactions: 'c.transactions',
  'payment-methods': 'c.methods',
} as const satisfies Record<ListName, string>;

function go(ctx: ConsoleContext, name: ListName, values: Map<string, string>): void {
  ctx.navigate(pathOf({ kind: 'list', list: name }), new URLSearchParams([...values]));
}

function renderFilters(ctx: ConsoleContext, name: ListName, list: List, filters: Filter[], values: Map<string, string>): void {
  const form = $<HTMLFormElement>('#filters');
  const focused = document.activeElement instanceof HTMLElement && form.contains(document.activeElement) ? document.activeElement.id : null;
  const apply = () => go(ctx, name, readForm(filters));
  const fields = filters.map((f) => {
    const id = `f-${f.name}`;
    const label = ctx.t(f.label);
    const hint = 'hint' in f && f.hint ? ctx.t(f.hint) : null;
    const hintId = hint ? `${id}-hint` : null;
    if (f.kind === 'check') {
      const box = el('input', { id, name: f.name, type: 'checkbox' });
      box.checked = values.get(f.name) === 'true';
      box.addEventListener('change', apply);
      return el('label', { className: 'check', for: id }, box, el('span', { text: label }));
    }
    let control: HTMLInputElement | HTMLSelectElement;
    if (f.kind === 'select') {
      const selected = values.get(f.name) ?? (f.name === 'size' ? list.defaultSize : f.required ? f.options[0]!.value : '');
      control = el(
        'select',
        { id, name: f.name, 'aria-describedby': hintId },
        ...(f.required ? [] : [el('option', { value: '', text: ctx.t('c.f.any') })]),
        ...f.options.map((o) => el('option', { value: o.value, text: o.label })),
      );
      control.value = selected;
      control.addEventListener('change', apply);
    } else if (f.kind === 'date') {
      control = el('input', { id, name: f.name, type: 'date', value: values.get(f.name) ?? '', 'aria-describedby': hintId });
      control.addEventListener('change', apply);
    } else {
      control = el('input', { id, name: f.name, type: 'search', value: values.get(f.name) ?? '', maxlength: 64, placeholder: f.placeholder ?? null, 'aria-describedby': hintId });
    }
    return el('div', { className: 'field' }, el('label', { for: id, text: label }), control, hint && el('span', { className: 'field-hint', id: hintId, text: hint }));
  });
  const actions = el(
    'div',
    { className: 'actions' },
    el('button', { className: 'btn small primary', type: 'submit', text: ctx.t('c.f.apply') }),
    el('button', { className: 'btn small', type: 'button', 'data-reset': '', text: ctx.t('c.f.reset'), onclick: () => go(ctx, name, new Map()) }),
    exportLink(ctx, name, values),
  );
  form.replaceChildren(...fields, actions);
  // On a phone the filters fold away under "Filters (n)" unless some are set; on a wider screen they stay open.
  const active = filters.filter((f) => values.has(f.name) && f.name !== 'size' && !('required' in f && f.required)).length;
  $('#filters-count').textContent = active > 0 ? `(${active})` : '';
  const box = $<HTMLDetailsElement>('#filters-box');
  if (!box.dataset.touched) box.open = active > 0 || !matchMedia('(max-width: 720px)').matches;
  form.onsubmit = (e) => {
    e.preventDefault();
    apply();
  };
  if (focused) document.getElementById(focused)?.focus();
}

/** The form's values (a new filter starts again at page 1). */
function readForm(filters: Filter[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const f of filters) {
    const input = document.getElementById(`f-${f.name}`) as HTMLInputElement | HTMLSelectElement | null;
    if (!input) continue;
    const value = f.kind === 'check' ? ((input as HTMLInputElement).checked ? 'true' : '') : input.value.trim();
    if (value !== '') out.set(f.name, value);
  }
  return out;
}

async function load(ctx: ConsoleContext, name: ListName, list: List, values: Map<string, string>): Promise<void> {
  const seq = ++loadSeq;
  aborter?.abort();
  const controller = (aborter = new AbortController());
  const panel = $('#list-panel');
  panel.classList.add('loading');
  panel.setAttribute('aria-busy', 'true');
  $('#list-error').hidden = true;
  const note = $('#list-note');
  const table = $<HTMLTableElement>('#list-table');
  try {
    const body = await api<unknown>(`${list.path}?${apiQuery(list, values)}`, { signal: controller.signal });
    if (seq !== loadSeq) return; // a newer load won
    const page = list.show(ctx, body, table);
    note.textContent = page.note ?? '';
    note.hidden = page.note === null;
    keyboardScrollable(panel);
    $('#list-empty').hidden = page.count > 0;
    const pages = Math.max(page.pages, 1);
    $('#pager-info').textContent = ctx.t('c.pageInfo', { page: page.page, pages, total: page.total });
    const prev = $<HTMLButtonElement>('#prev');
    const next = $<HTMLButtonElement>('#next');
    prev.disabled = page.page <= 1;
    next.disabled = page.page >= pages;
    prev.onclick = () => go(ctx, name, withPage(values, page.page - 1));
    next.onclick = () => go(ctx, name, withPage(values, page.page + 1));
  } catch (err) {
    if (seq !== loadSeq || controller.signal.aborted) return;
    if (isUnauthorized(err)) return ctx.loggedOut();
    table.tBodies[0]!.replaceChildren();
    note.hidden = true;
    $('#list-empty').hidden = true;
    $('#pager-info').textContent = '';
    const error = $('#list-error');
    error.textContent = ctx.t('c.loadError', { message: err instanceof ApiError ? ctx.errorText(err) : String(err) });
    error.hidden = false;
  } finally {
    if (seq === loadSeq) {
      panel.classList.remove('loading');
      panel.removeAttribute('aria-busy');
    }
  }
}

function withPage(values: Map<string, string>, page: number): Map<string, string> {
  const out = new Map(values);
  if (page > 1) out.set('page', String(page));
  else out.delete('page');
  return out;
}

