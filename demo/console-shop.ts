/**
 * The console's orders, disputes and webhook log as the shop sees them: the provider's records beside
 * what the shop's own server knows (each token endpoint's `handler.inspect`: the session with its
 * order_ref, status history, hooks, dispute and the webhooks it received).
 *
 * Search (`GET /orders?q=`) merges two sources that know different things:
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
import { compareAmounts, currencyDigits, numberToDecimal, toFixedDigits } from '../src/money/index.js';
import { orderOutcome } from '../src/provider/facts.js';
import { isProviderError } from '../src/provider/errors.js';
import type { Dispute, Order } from '../src/provider/schemas.js';
import type { ProviderClient } from '../src/provider/types.js';
import type { SessionDetail, SessionSummary } from '../src/server/checkout/index.js';
import type { WebhookLogEntry } from '../src/server/checkout/inbox.js';
import type { CheckoutHandler } from '../src/server/index.js';
import type { HookState } from '../src/server/sessions.js';
import {
  CONSOLE_API_PATH,
  type DisputeView,
  type HistoryView,
  type HookView,
  type ListPage,
  type OrderDetail,
  type OrderRow,
  type OrdersPage,
  type ProviderOrderView,
  type ReceiptView,
  type ShopView,
  type WebhookOutcome,
  type WebhookView,
} from './console-contract.js';
import { ConsoleHttpError, readError } from './console-errors.js';
import { receiptKind, type ReceiptSource } from './console-receipts.js';
import { destinationKindOf, maskDestination } from './payout-rules.js';

/** A token endpoint of this merchant server, as the console reads it. */
export interface ConsoleEndpoint {
  /** Its mount path, e.g. `/api/paydesk`. */
  path: string;
  /** Its handler's back-office views. */
  inspect: CheckoutHandler['inspect'];
  /** The provider client of the terminal behind it. */
  client: ProviderClient;
  /** Its terminal's dispute receipts (the sandbox), or null (a real provider does not give them out). */
  receipts: ReceiptSource | null;
}

/** A catalog entry, for the product's title beside its order_ref. */
export interface ProductTitles {
  ref: string;
  title: string;
  title_en?: string;
}

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

/** The provider's list is read this many pages (of SCAN_PAGE_SIZE) at most for one search. */
export const SCAN_PAGES = 3;
const SCAN_PAGE_SIZE = 100;
/** Shop sessions matched per endpoint at most for one search. */
const SHOP_MATCHES = 500;
/** How many store or provider reads run at once for one answer. */
const PARALLEL = 8;
/** The webhook log each endpoint keeps (src/server/checkout/inbox.ts). */
const WEBHOOK_LOG = 1000;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** What can be a whole client order id (asked of the provider as is); `7 490,50` is not. */
const CLIENT_ORDER_ID = /^[\x21-\x7e]{1,64}$/;
const iso = (ms: number) => new Date(ms).toISOString();
/** A provider time (ISO 8601; one without a zone is UTC) in ms, NaN when unreadable. */
const timeOf = (text: string) => Date.parse(/[zZ]|[+-]\d\d:?\d\d$/.test(text) ? text : `${text}Z`);

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
export function amountMatches(amount: string, query: string): boolean {
  try {
    if (query.includes('.')) return compareAmounts(amount, query) === 0;
    return amount.split('.')[0] === query.replace(/^0+(?=\d)/, '');
  } catch {
    return false;
  }
}

/** An amount in the currency's minor units (a JSON number from the provider, or a decimal string). */
export function minorUnits(amount: number | string, currency: string): string {
  const text = typeof amount === 'number' ? numberToDecimal(amount) : amount;
  return toFixedDigits(text, currencyDigits(currency));
}

type InspectHook = HookState & { configured: boolean };

/** Where a hook stands: `due` says whether the session's state calls for it. */
export function hookView(h: InspectHook, due: boolean): HookView {
  const base = { attempts: h.attempts, error: h.error, next_at: h.next_at === null ? null : iso(h.next_at) };
  if (!h.configured) return { state: 'off', at: null, ...base };
  if (h.done_at !== null) return { state: 'done', at: iso(h.done_at), ...base, next_at: null };
  if (h.attempts > 0) return { state: 'retrying', at: null, ...base };
  return { state: due ? 'due' : 'none', at: null, ...base };
}

const ended = (status: string) => status === 'expired' || status === 'cancelled';

export function providerOrderView(o: Order): ProviderOrderView {
  return {
    id: o.id,
    client_order_id: o.client_order_id,
    side: o.order_side,
    status: o.status,
    outcome: orderOutcome(o.status),
    amount: o.amount,
    fee: o.fee,
    currency: o.currency,
    method: { id: o.method_id, name: o.method_name, type: o.method_type },
    holder_name: o.holder_name,
    holder_account: o.holder_account,
    customer_account: o.customer_account ? maskDestination(destinationKindOf(o.method_type, o.customer_account), o.customer_account) : null,
    customer_bank: o.customer_bank ?? null,
    payment_link: o.payment_link ?? null,
    webhook_url: o.webhook_url ?? null,
    created_at: o.created_at,
    updated_at: o.updated_at,
    expires_at: o.expires_at,
  };
}

export function webhookView(endpoint: string, e: WebhookLogEntry): WebhookView {
  return {
    id: e.id,
    at: iso(e.at),
    endpoint,
    order_id: e.order_id,
    client_order_id: e.client_order_id,
    status: e.status,
    verified: e.verified,
    outcome: e.outcome,
    detail: e.detail,
    http_status: e.http_status,
  };
}

/** A row of the orders list from the provider's record. */
function providerRow(o: Order, shop: ShopView | null): OrderRow {
  return {
    id: o.id,
    client_order_id: o.client_order_id,
    key: o.id,
    side: o.order_side,
    method: { id: o.method_id, name: o.method_name, type: o.method_type },
    amount: o.amount,
    fee: o.fee,
    currency: o.currency,
    status: o.status,
    source: 'provider',
    seen_at: null,
    created_at: o.created_at,
    shop,
  };
}

/** A row from the shop's session alone (the provider's fields as the server last read them). */
function shopRow(shop: ShopView, s: SessionSummary, detail: SessionDetail | null): OrderRow {
  const view = detail?.order;
  return {
    id: s.provider_order_id,
    client_order_id: s.client_order_id,
    key: s.provider_order_id ?? s.client_order_id,
    side: 'Buy',
    method: view?.method ? { id: view.method.id, name: view.method.name, type: view.method.type } : null,
    amount: s.amount,
    fee: view?.fee ?? null,
    currency: s.currency,
    status: s.provider_status,
    source: 'shop',
    seen_at: detail ? detail.refreshed_at : null,
    created_at: s.created_at,
    shop,
  };
}

interface Hit {
  /** The merge key: the provider order id, or the endpoint and client order id of a session without one. */
  key: string;
  order: Order | null;
  shop: { endpoint: ConsoleEndpoint; summary: SessionSummary } | null;
}

export class ShopRecords {
  private readonly products: ReadonlyMap<string, { en: string; ru: string }>;

  constructor(
    readonly endpoints: readonly ConsoleEndpoint[],
    products: readonly ProductTitles[] = [],
  ) {
    if (endpoints.length === 0) throw new Error('the console needs at least one token endpoint');
    this.products = new Map(products.map((p) => [p.ref, { ru: p.title, en: p.title_en ?? p.title }]));
  }

  /** The console's own terminal: the first endpoint. */
  get main(): ConsoleEndpoint {
    return this.endpoints[0]!;
  }

  endpoint(path: string | undefined): ConsoleEndpoint | null {
    if (path === undefined) return this.main;
    return this.endpoints.find((e) => e.path === path) ?? null;
  }

  get receiptsAvailable(): boolean {
    return this.main.receipts !== null;
  }

  shopView(endpoint: ConsoleEndpoint, s: SessionSummary): ShopView {
    return {
      endpoint: endpoint.path,
      order_ref: s.order_ref,
      product: this.products.get(s.order_ref) ?? null,
      mode: s.mode,
      status: s.status,
      provider_status: s.provider_status,
      amount: s.amount,
      currency: s.currency,
      created_at: s.created_at,
      late: s.late,
      fulfilment: hookView(s.hooks.paid, s.status === 'paid'),
      flagged: s.flagged ? { reason: s.flagged.reason, at: iso(s.flagged.at), dispute_id: s.flagged.dispute_id ?? null } : null,
      dispute: s.dispute
        ? { id: s.dispute.id, created_at: s.dispute.created_at, processed: s.dispute.processed, outcome: s.dispute.outcome, deposit: s.dispute.deposit ?? null, via: s.dispute.via, files: s.dispute.files }
        : null,
    };
  }

  /** The main endpoint's session of a provider order (null when the shop did not make it). */
  private async sessionOf(orderId: string): Promise<SessionDetail | null> {
    const detail = await this.main.inspect.session(orderId);
    return detail && detail.provider_order_id === orderId ? detail : null;
  }

  /** Rows of a page of the provider's list, each with the shop's session beside it. */
  async rows(orders: readonly Order[]): Promise<OrderRow[]> {
    return mapLimit(orders, PARALLEL, async (o) => {
      const detail = o.order_side === 'Buy' ? await this.sessionOf(o.id) : null;
      return providerRow(o, detail ? this.shopView(this.main, detail) : null);
    });
  }

  /** The merged search (see the file comment). */
  async search(q: string, filters: OrderFilters, page: number, size: number): Promise<OrdersPage> {
    const fragment = q.trim().toLowerCase();
    const amount = amountQuery(q);
    const client = this.main.client;
    const hits = new Map<string, Hit>();
    const add = (key: string, patch: Partial<Hit>) => {
      const hit = hits.get(key) ?? { key, order: null, shop: null };
      hits.set(key, { ...hit, ...Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== null)) });
    };
    const textMatch = (o: Order) => o.client_order_id.toLowerCase().includes(fragment) || o.id.toLowerCase().includes(fragment);
    const providerMatch = (o: Order) => (textMatch(o) || (amount !== null && amountMatches(o.amount, amount))) && inFilters(o, filters);

    // 1. The shop's sessions, every endpoint.
    const shopLists = await Promise.all(this.endpoints.map(async (endpoint) => ({ endpoint, found: await endpoint.inspect.sessions({ query: q, limit: SHOP_MATCHES }) })));
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
        let shop = h.shop ? this.shopView(h.shop.endpoint, h.shop.summary) : null;
        if (!shop && h.order.order_side === 'Buy') {
          const detail = await this.sessionOf(h.order.id);
          if (detail) shop = this.shopView(this.main, detail);
        }
        return providerRow(h.order, shop);
      }
      const { endpoint, summary } = h.shop!;
      const detail = await endpoint.inspect.session(summary.provider_order_id ?? summary.session_id);
      return shopRow(this.shopView(endpoint, summary), summary, detail);
    });
    return { items, total, page, size, pages, search: { shop_matches: shopMatches, provider_scanned: scanned, provider_complete: complete } };
  }

  /**
   * One order by its provider order id or client order id: the shop's session (any endpoint), the
   * provider's order read now, the webhooks received for it, its disputes with their receipts.
   * Null when neither the shop nor the provider knows it.
   */
  async order(key: string): Promise<OrderDetail | null> {
    let endpoint: ConsoleEndpoint = this.main;
    let detail: SessionDetail | null = null;
    for (const e of this.endpoints) {
      detail = await e.inspect.session(key);
      if (detail) {
        endpoint = e;
        break;
      }
    }

    let order: Order | null = null;
    let providerError: ConsoleHttpError | null = null;
    let others: Order[] = [];
    const client = endpoint.client;
    const sameClientId = async (coid: string) => (await client.searchOrdersByClientOrderId({ id: coid, size: 20 })).items;
    if (detail) {
      // The shop knows the order: a failed provider read is shown on the page, not the whole page lost.
      try {
        if (detail.provider_order_id) order = await client.getOrder(detail.provider_order_id);
      } catch (err) {
        if (!isProviderError(err)) throw err;
        providerError = readError(err);
      }
      if (detail.mode === 'form') {
        // A hosted form's earlier attempts share its client order id; without them the page still stands.
        others = await sameClientId(detail.client_order_id).then(
          (found) => found.filter((o) => o.id !== detail!.provider_order_id),
          (err: unknown) => (isProviderError(err) ? [] : Promise.reject(err)),
        );
      }
    } else {
      // Only the provider may know it: its errors are the answer (the route maps them).
      if (UUID.test(key)) order = await client.getOrder(key).catch((err: unknown) => (isProviderError(err, 'order_not_found') ? null : Promise.reject(err)));
      if (!order) {
        const found = CLIENT_ORDER_ID.test(key) ? await sameClientId(key) : [];
        order = found[0] ?? null;
        others = found.slice(1);
      }
      if (!order) return null;
      others = others.filter((o) => o.id !== order!.id);
    }

    const orderId = detail?.provider_order_id ?? order?.id ?? null;
    const clientOrderId = detail?.client_order_id ?? order!.client_order_id;
    const webhooks = detail
      ? detail.webhooks.map((w) => webhookView(endpoint.path, w))
      : await this.webhooksFor(orderId ?? clientOrderId);

    let disputes: OrderDetail['disputes'] = [];
    if (orderId) {
      try {
        const found = await client.searchDisputes({ order_id: orderId, size: 20 });
        const items = found.items.filter((d) => d.order_id === orderId);
        disputes = await mapLimit(items, PARALLEL, (d) => this.disputeView(endpoint, d, detail));
      } catch (err) {
        if (!isProviderError(err)) throw err;
        disputes = { error: readError(err).body().error };
      }
    }

    const shop = detail
      ? {
          ...this.shopView(endpoint, detail),
          history: detail.history.map(
            (h): HistoryView => ({ at: iso(h.at), status: h.status, provider_status: h.provider_status, via: h.via, note: h.note ?? null }),
          ),
          hooks: {
            paid: hookView(detail.hooks.paid, detail.status === 'paid'),
            closed: hookView(detail.hooks.closed, ended(detail.status)),
            flagged: hookView(detail.hooks.flagged, detail.flagged !== null),
          },
          refreshed_at: detail.refreshed_at,
        }
      : null;

    return {
      key,
      id: orderId,
      client_order_id: clientOrderId,
      shop,
      provider: providerError
        ? { error: providerError.body().error }
        : order
          ? { order: providerOrderView(order), read_at: new Date().toISOString() }
          : null,
      webhooks,
      disputes,
      receipts_available: endpoint.receipts !== null,
      others: others.map((o) => ({ id: o.id, status: o.status, created_at: o.created_at })),
    };
  }

  /** Webhooks every endpoint received for an order (by its id or client order id), newest first. */
  private async webhooksFor(orderId: string): Promise<WebhookView[]> {
    const lists = await Promise.all(this.endpoints.map(async (e) => (await e.inspect.webhooks({ order_id: orderId, limit: 50 })).map((w) => webhookView(e.path, w))));
    return lists.flat().sort((a, b) => b.at.localeCompare(a.at));
  }

  /** A dispute with the shop's view of it and its receipts (the main endpoint's terminal unless given). */
  async disputeView(endpoint: ConsoleEndpoint, d: Dispute, known?: SessionDetail | null): Promise<DisputeView> {
    const session = known !== undefined ? known : await this.sessionOf(d.order_id);
    let files: Awaited<ReturnType<ReceiptSource['list']>> = null;
    if (endpoint.receipts) {
      try {
        files = await endpoint.receipts.list(d.dispute_id);
      } catch (err) {
        throw new ConsoleHttpError(502, 'provider_error', `the receipts of dispute ${d.dispute_id} could not be read: ${err instanceof Error ? err.message : String(err)}`, { retryable: true });
      }
    }
    const query = endpoint === this.main ? '' : `?endpoint=${encodeURIComponent(endpoint.path)}`;
    return {
      dispute_id: d.dispute_id,
      order_id: d.order_id,
      client_order_id: d.client_order_id,
      amount: minorUnits(d.amount, d.currency),
      currency: d.currency,
      processed: d.processed,
      created_at: d.created_at,
      shop: session ? shopDispute(endpoint.path, session, d.dispute_id) : null,
      files: files
        ? files.map(
            (f): ReceiptView => ({
              index: f.index,
              name: f.name,
              content_type: f.content_type,
              size: f.size,
              kind: receiptKind(f.content_type),
              url: `${CONSOLE_API_PATH}/disputes/${encodeURIComponent(d.dispute_id)}/files/${f.index}${query}`,
            }),
          )
        : endpoint.receipts
          ? []
          : null,
    };
  }

  /** The webhook log of every endpoint (or one), merged newest first, filtered, one page of it. */
  async webhooks(filters: { endpoint?: string; outcome?: WebhookOutcome; verified?: boolean; order_id?: string }, page: number, size: number): Promise<ListPage<WebhookView>> {
    const endpoints = filters.endpoint === undefined ? this.endpoints : this.endpoints.filter((e) => e.path === filters.endpoint);
    const lists = await Promise.all(
      endpoints.map(async (e) =>
        (await e.inspect.webhooks({ limit: WEBHOOK_LOG, ...(filters.order_id !== undefined && { order_id: filters.order_id }) })).map((w) => ({ w, view: webhookView(e.path, w) })),
      ),
    );
    const all = lists
      .flat()
      .filter(({ w }) => (filters.outcome === undefined || w.outcome === filters.outcome) && (filters.verified === undefined || w.verified === filters.verified))
      .sort((a, b) => b.w.at - a.w.at)
      .map(({ view }) => view);
    const pages = Math.max(1, Math.ceil(all.length / size));
    return { items: all.slice((page - 1) * size, page * size), total: all.length, page, size, pages };
  }
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

/** How the shop server follows one of its order's disputes (every dispute of the order, not only the newest). */
function shopDispute(endpoint: string, session: SessionDetail, disputeId: string): NonNullable<DisputeView['shop']> {
  const followed = (session.disputes ?? [session.dispute]).find((x) => x?.id === disputeId);
  if (!followed) return { endpoint, order_ref: session.order_ref, outcome: null, deposit: null, via: 'provider' };
  return { endpoint, order_ref: session.order_ref, outcome: followed.outcome, deposit: followed.deposit ?? null, via: followed.via };
}
