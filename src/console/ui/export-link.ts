/**
 * The "Export CSV" link of the orders, payouts, disputes and transactions lists: the server's
 * `{basePath}/api/export/{kind}.csv` (src/console/exports.ts) for the list's filters and period, times
 * in the browser's zone. A list without dates shows the last 24 hours, and so does its export. The
 * browser downloads it with the login cookie (same origin); the server streams it page by page.
 */
import { el } from '../../ui-shared/dom.js';
import type { ConsoleContext } from './context.js';
import { CONSOLE_API_PATH, type ListName } from './url.js';

/** Per list: its export and the filters of the list that the export takes. */
const EXPORTS: Partial<Record<ListName, { kind: string; filters: readonly string[] }>> = {
  orders: { kind: 'orders', filters: ['status', 'order_side'] },
  payouts: { kind: 'payouts', filters: ['status'] },
  disputes: { kind: 'disputes', filters: ['processed'] },
  transactions: { kind: 'transactions', filters: ['transaction_type'] },
};
/** The lists' period without dates (the provider's default): the last 24 hours. */
const DEFAULT_MS = 24 * 3600 * 1000;

/** `YYYY-MM-DD` of a local date. */
const dateText = (d: Date) => `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;

/** The export's address for the list's filter values, with the period it covers (local dates). */
export function exportAddress(name: ListName, values: ReadonlyMap<string, string>, today = new Date()): { href: string; from: string; to: string } | null {
  const spec = EXPORTS[name];
  if (!spec) return null;
  const start = values.get('start_date');
  const end = values.get('end_date');
  // Without dates the last 24 hours; an end alone, that day; a start alone, until now.
  const fromAt = start ? new Date(`${start}T00:00:00`) : end ? new Date(`${end}T00:00:00`) : new Date(today.getTime() - DEFAULT_MS);
  const toAt = end ? new Date(`${end}T23:59:59.999`) : today;
  const from = dateText(fromAt);
  const to = dateText(toAt);
  const q = new URLSearchParams({ from: fromAt.toISOString(), to: toAt.toISOString(), tz: Intl.DateTimeFormat().resolvedOptions().timeZone });
  for (const f of spec.filters) {
    const v = values.get(f);
    if (v) q.set(f, v);
  }
  return { href: `${CONSOLE_API_PATH}/export/${spec.kind}.csv?${q}`, from, to };
}

/** The link, or null for a list without an export. */
export function exportLink(ctx: ConsoleContext, name: ListName, values: ReadonlyMap<string, string>): HTMLAnchorElement | null {
  const address = exportAddress(name, values);
  if (!address) return null;
  return el('a', {
    className: 'btn small',
    href: address.href,
    download: '',
    'data-export': name,
    title: ctx.t('x.csvTitle', { from: address.from, to: address.to }),
    text: ctx.t('x.csv'),
  });
}
