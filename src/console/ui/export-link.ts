/**
 * The "Export CSV" link of the orders, payouts, disputes and transactions lists: the server's
 * `{basePath}/api/export/{kind}.csv` (src/console/exports.ts) for the list's filters and period, times
 * in the browser's zone. A list without dates exports the last 30 days. The browser downloads it
 * with the login cookie (same origin); the server streams it page by page.
 */
import { el } from './shared/dom.js';
import type { ConsoleContext } from './context.js';
import { CONSOLE_API_PATH, type ListName } from './url.js';

/** Per list: its export and the filters of the list that the export takes. */
const EXPORTS: Partial<Record<ListName, { kind: string; filters: readonly string[] }>> = {
  orders: { kind: 'orders', filters: ['status', 'order_side'] },
  payouts: { kind: 'payouts', filters: ['status'] },
  disputes: { kind: 'disputes', filters: ['processed'] },
  transactions: { kind: 'transactions', filters: ['transaction_type'] },
};
const DEFAULT_DAYS = 30;

/** `YYYY-MM-DD` of a local date. */
const dateText = (d: Date) => `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;

/** The export's address for the list's filter values, with the period it covers (local dates). */
export function exportAddress(name: ListName, values: ReadonlyMap<string, string>, today = new Date()): { href: string; from: string; to: string } | null {
  const spec = EXPORTS[name];
  if (!spec) return null;
  const from = values.get('start_date') ?? dateText(new Date(today.getFullYear(), today.getMonth(), today.getDate() - (DEFAULT_DAYS - 1)));
  const to = values.get('end_date') ?? dateText(today);
  const q = new URLSearchParams({
    from: new Date(`${from}T00:00:00`).toISOString(),
    to: new Date(`${to}T23:59:59.999`).toISOString(),
    tz: Intl.DateTimeFormat().resolvedOptions().timeZone,
  });
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
