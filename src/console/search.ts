/**
 * The console's order search (`GET /orders?q=`), which merges two sources that know different things:
 *   - the shop's sessions, on every token endpoint and for all of their kept time: a fragment of the
 *     order_ref, client order id or provider order id, or an amount (`1500`, `1 500,00`);
 *   - the provider, which has no fragment search: its exact client order id search, its order by id
 *     (when `q` is an order id), and a scan of its list within the filters' period (the provider's
 *     default without dates: the last 24 hours), newest first, at most SCAN_PAGES pages, for a
 *     fragment of the client order id or order id, or the amount. That finds orders the shop's server
 *     never made (payouts, another system's orders).
 * One row per provider order (or per session, while a hosted-form payment has none): the provider's
 * fields as its list gave them when it did, else as the shop's server last read them (`source`), and
 * the shop's session beside them. Newest first unless sorted otherwise; the other filters apply to
 * both sources.
 */
import { compareAmounts } from '../money/index.js';
import { isProviderError, type Order } from '../provider/index.js';
import type { SessionDetail, SessionSummary } from '../server/index.js';
import type { OrdersPage, ShopView } from './contract.js';
import { providerRow, shopRow, timeOf, type ConsoleEndpoint } from './views.js';

/** Filters of the orders list (checked by the route). */
export interface OrderFilters {
  status?: string;
  order_side?: 'Buy' | 'Sell';
  payment_method_id?: string;
  sort_by?: 'created_at' | 'amount';
  sort?: 'asc' | 'desc';
  start_date?: string;
  end_date?: string;
}

/** What the search needs of the shop's records (src/console/shop.ts). */
export interface SearchSource {
  readonly endpoints: readonly ConsoleEndpoint[];
  readonly main: ConsoleEndpoint;
  shopView(endpoint: ConsoleEndpoint, s: SessionSummary): ShopView;
  sessionOf(orderId: string): Promise<SessionDetail | null>;
}

/** The provider's list is read this many pages (of SCAN_PAGE_SIZE) at most for one search. */
export const SCAN_PAGES = 3;
const SCAN_PAGE_SIZE = 100;
/** Shop sessions matched per endpoint at most for one search. */
const SHOP_MATCHES = 500;
/** How many store or provider reads run at once for one answer. */
export const PARALLEL = 8;
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** What can be a whole client order id (asked of the provider as is); `7 490,50` is not. */
export const CLIENT_ORDER_ID = /^[\x21-\x7e]{1,64}$/;

/** Runs `fn` over `items`, at most `limit` at once, keeping their order. */
export async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

/** `q` as an amount (`1500`, `1500.5`, `1 500,00`), or null. */
export function amountQuery(q: string): string | null {
  const text = q.replace(/[\s\u00a0\u202f]/g, '').replace(',', '.');
  return /^\d{1,15}(\.\d{1,8})?$/.test(text) ? text : null;
}

/** Whether `amount` is the amount asked for: `1500` matches any 1500.xx, `1500.5` only 1500.50. */
export function amountMatchesQuery(amount: string, query: string): boolean {
  try {
    if (query.includes('.')) return compareAmounts(amount, query) === 0;
    return amount.split('.')[0] === query.replace(/^0+(?=\d)/, '');
  } catch {
    return false;
  }
}

interface Hit {
  /** The merge key: the provider order id, or the endpoint and client order id of a session without one. */
  key: string;
  order: Order | null;
  shop: { endpoint: ConsoleEndpoint; summary: SessionSummary } | null;
}

/** The merged search (see the file comment). */
export async function searchOrders(shops: SearchSource, q: string, filters: OrderFilters, page: number, size: number): Promise<OrdersPage> {
  const fragment = q.trim().toLowerCase();
  const amount = amountQuery(q);
  const client = shops.main.client;
  const hits = new Map<string, Hit>();
  const add = (key: string, patch: Partial<Hit>) => {
    const hit = hits.get(key) ?? { key, order: null, shop: null };
    hits.set(key, { ...hit, ...Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== null)) });
  };
  const textMatch = (o: Order) => o.client_order_id.toLowerCase().includes(fragment) || o.id.toLowerCase().includes(fragment);
  const providerMatch = (o: Order) => (textMatch(o) || (amount !== null && amountMatchesQuery(o.amount, amount))) && inFilters(o, filters);

  // 1. The shop's sessions, every endpoint.
  const shopLists = await Promise.all(shops.endpoints.map(async (endpoint) => ({ endpoint, found: await endpoint.inspect.sessions({ query: q, limit: SHOP_MATCHES }) })));
  let shopMatches = 0;
  for (const { endpoint, found } of shopLists) {
    for (const summary of found) {
      shopMatches++;
      add(summary.provider_order_id ?? `session:${endpoint.path}:${summary.client_order_id}`, { shop: { endpoint, summary } });
    }
  }

  // 2. The provider: exact look-ups, then its list within the period.
  const [byClientId, byId] = await Promise.all([
    CLIENT_ORDER_ID.test(q) ? client.searchOrdersByClientOrderId({ id: q, size: 100 }).then((r) => r.items) : Promise.resolve([]),
    UUID.test(q) ? client.getOrder(q).then((o) => [o], (err: unknown) => (isProviderError(err, 'order_not_found') ? [] : Promise.reject(err))) : Promise.resolve([]),
  ]);
  for (const o of [...byClientId, ...byId]) if (inFilters(o, filters)) add(o.id, { order: o });
  let scanned = 0;
  let complete = true;
  for (let p = 1; p <= SCAN_PAGES; p++) {
    const res = await client.listOrders({ ...listFilters(filters), sort_by: 'created_at', sort: 'desc', page: p, size: SCAN_PAGE_SIZE });
    scanned += res.items.length;
    // A match, or the order of a shop session found above (its fields fresh from the provider).
    for (const o of res.items) if (providerMatch(o) || hits.has(o.id)) add(o.id, { order: o });
    if (p >= res.pages || res.items.length === 0) break;
    if (p === SCAN_PAGES) complete = false;
  }

  // 3. The shop's sessions whose order the provider did not bring: their own fields, filtered alike.
  const merged = [...hits.values()].filter((h) => h.order !== null || (h.shop !== null && shopInFilters(h.shop.summary, filters)));
  const sortBy = filters.sort_by ?? 'created_at';
  const direction = filters.sort === 'asc' ? 1 : -1;
  merged.sort((a, b) => direction * compareHits(a, b, sortBy));

  const total = merged.length;
  const pages = Math.max(1, Math.ceil(total / size));
  const slice = merged.slice((page - 1) * size, page * size);
  const items = await mapLimit(slice, PARALLEL, async (h) => {
    if (h.order) {
      let shop = h.shop ? shops.shopView(h.shop.endpoint, h.shop.summary) : null;
      if (!shop && h.order.order_side === 'Buy') {
        const detail = await shops.sessionOf(h.order.id);
        if (detail) shop = shops.shopView(shops.main, detail);
      }
      return providerRow(h.order, shop);
    }
    const { endpoint, summary } = h.shop!;
    const detail = await endpoint.inspect.session(summary.provider_order_id ?? summary.session_id);
    return shopRow(shops.shopView(endpoint, summary), summary, detail);
  });
  return { items, total, page, size, pages, search: { shop_matches: shopMatches, provider_scanned: scanned, provider_complete: complete } };
}

/** The provider list's own filters of an orders query. */
function listFilters(f: OrderFilters) {
  return Object.fromEntries(
    Object.entries({ status: f.status, order_side: f.order_side, payment_method_id: f.payment_method_id, start_date: f.start_date, end_date: f.end_date }).filter(
      ([, v]) => v !== undefined,
    ),
  ) as Pick<OrderFilters, 'status' | 'order_side' | 'payment_method_id' | 'start_date' | 'end_date'>;
}

/** Whether a provider order found by an exact look-up passes the filters (the list applies them itself). */
function inFilters(o: Order, f: OrderFilters): boolean {
  if (f.status !== undefined && o.status !== f.status) return false;
  if (f.order_side !== undefined && o.order_side !== f.order_side) return false;
  if (f.payment_method_id !== undefined && o.method_id !== f.payment_method_id && o.initial_method_id !== f.payment_method_id) return false;
  return inPeriod(o.created_at, f);
}

/** The same for a shop session the provider did not bring (always a payment; its method is not in the summary). */
function shopInFilters(s: SessionSummary, f: OrderFilters): boolean {
  if (f.status !== undefined && s.provider_status !== f.status) return false;
  if (f.order_side === 'Sell' || f.payment_method_id !== undefined) return false;
  return inPeriod(s.created_at, f);
}

function inPeriod(created: string, f: OrderFilters): boolean {
  const at = timeOf(created);
  if (f.start_date !== undefined && !(at >= Date.parse(f.start_date))) return false;
  if (f.end_date !== undefined && !(at <= Date.parse(f.end_date))) return false;
  return true;
}

function compareHits(a: Hit, b: Hit, by: 'created_at' | 'amount'): number {
  if (by === 'amount') {
    const amountOf = (h: Hit) => h.order?.amount ?? h.shop!.summary.amount;
    const c = compareAmounts(amountOf(a), amountOf(b));
    if (c !== 0) return c;
  }
  const timeOfHit = (h: Hit) => timeOf(h.order?.created_at ?? h.shop!.summary.created_at);
  return (timeOfHit(a) || 0) - (timeOfHit(b) || 0);
}
