/**
 * The console's addresses: one page (console.html) with a view per path, and the filters of a list
 * in the query, so a link can be shared and Back restores what was on screen.
 *
 *   {base}/orders?status=Completed&page=2     a list with its filters and page
 *   {base}/orders?q=coffee                    the orders searched
 *   {base}/orders/{key}                       one order (by its order id or client order id)
 *   {base}/payouts/new                        the payout form
 *   {base}/webhooks?outcome=refused           the webhook log
 */
export const LISTS = ['orders', 'payouts', 'disputes', 'webhooks', 'transactions', 'form-sessions', 'payment-methods'] as const;
export type ListName = (typeof LISTS)[number];

export type View = { kind: 'list'; list: ListName } | { kind: 'order'; key: string } | { kind: 'new-payout' } | { kind: 'not-found' };

/**
 * Where the console is mounted (`createConsole({ basePath })`): the build's base, which the console's
 * server writes into its files as it serves them (src/console/ui-files.ts).
 */
export const CONSOLE_ROOT = import.meta.env.BASE_URL.replace(/\/+$/, '');
/** The console's API (src/console/api.ts). */
export const CONSOLE_API_PATH = `${CONSOLE_ROOT}/api`;

export function viewOf(pathname: string): View {
  const rest = pathname.replace(/\/+$/, '').slice(CONSOLE_ROOT.length).replace(/^\//, '');
  if (rest === '') return { kind: 'list', list: 'orders' };
  if (rest === 'payouts/new') return { kind: 'new-payout' };
  const order = /^orders\/([^/]+)$/.exec(rest);
  if (order) {
    try {
      const key = decodeURIComponent(order[1]!);
      if (key.length >= 1 && key.length <= 128 && /^[\x21-\x7e]+$/.test(key)) return { kind: 'order', key };
    } catch {
      // a malformed escape: no such page
    }
    return { kind: 'not-found' };
  }
  if ((LISTS as readonly string[]).includes(rest)) return { kind: 'list', list: rest as ListName };
  return { kind: 'not-found' };
}

export function pathOf(view: View): string {
  switch (view.kind) {
    case 'list':
      return `${CONSOLE_ROOT}/${view.list}`;
    case 'order':
      return orderPath(view.key);
    case 'new-payout':
      return `${CONSOLE_ROOT}/payouts/new`;
    case 'not-found':
      return CONSOLE_ROOT;
  }
}

/** Query parameters that are the page's settings, not a list's filters. */
export const PAGE_SETTINGS = ['lang', 'theme'] as const;

/** The current query without the page settings: a list's filters and page. */
export function currentFilters(): URLSearchParams {
  const q = new URLSearchParams(location.search);
  for (const name of PAGE_SETTINGS) q.delete(name);
  return q;
}

/** `path` with `filters` and the page settings of the current address. */
export function addressOf(path: string, filters: URLSearchParams, settings: Record<(typeof PAGE_SETTINGS)[number], string>): string {
  const q = new URLSearchParams(filters);
  for (const name of PAGE_SETTINGS) q.set(name, settings[name]);
  const query = q.toString();
  return query ? `${path}?${query}` : path;
}

/** The order page of `key` (an order id or a client order id). */
export function orderPath(key: string): string {
  return `${CONSOLE_ROOT}/orders/${encodeURIComponent(key)}`;
}
