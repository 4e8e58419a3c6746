/**
 * The console's orders, disputes and webhook log as the shop sees them: the provider's records beside
 * what the shop's own server knows (each token endpoint's `handler.inspect`: the session with its
 * order_ref, status history, hooks, dispute and the webhooks it received). The search:
 * src/console/search.ts; the views: src/console/views.ts.
 */
import { isProviderError, type Dispute, type Order, type ProviderClient, type RequestOptions } from '../provider/index.js';
import type { CheckoutHandler, SessionDetail, SessionSummary } from '../server/index.js';
import {
  type DisputeView,
  type HistoryView,
  type ListPage,
  type OrderDetail,
  type OrderRow,
  type OrdersPage,
  type ReceiptView,
  type ShopView,
  type WebhookOutcome,
  type WebhookView,
} from './contract.js';
import { DEFAULT_BASE_PATH } from './contract.js';
import { ConsoleHttpError, readError } from './errors.js';
import { receiptKind, type ReceiptSource } from './receipts.js';
import { CLIENT_ORDER_ID, mapLimit, PARALLEL, searchOrders, UUID, type OrderFilters } from './search.js';
import { ended, hookView, iso, minorUnits, providerOrderView, providerRow, webhookView, type ConsoleEndpoint } from './views.js';

export { amountMatchesQuery, amountQuery, mapLimit, SCAN_PAGES, type OrderFilters } from './search.js';
export { hookView, minorUnits, providerOrderView, webhookView, type ConsoleEndpoint } from './views.js';

/** A catalog entry, for the product's title beside its order_ref. */
export interface ProductTitles {
  ref: string;
  title: string;
  title_en?: string;
}

/** The webhook log each endpoint keeps (paydesk/server keeps the last 1000). */
const WEBHOOK_LOG = 1000;
/**
 * How long the provider's reads of one order page may take together (each without retries, each at
 * least {@link MIN_READ_MS}): a provider that hangs costs the operator seconds, not minutes, and a read
 * that fails is shown in its place on the page.
 */
export const PAGE_READS_MS = 10_000;
const MIN_READ_MS = 1_000;

export class ShopRecords {
  private readonly products: ReadonlyMap<string, { en: string; ru: string }>;
  private readonly productOf: ((orderRef: string) => ProductTitles | null) | undefined;

  constructor(
    readonly endpoints: readonly ConsoleEndpoint[],
    products: readonly ProductTitles[] = [],
    productOf?: (orderRef: string) => ProductTitles | null,
    /** The console API's path (`{basePath}/api`), for the receipts' URLs. */
    private readonly apiPath = `${DEFAULT_BASE_PATH}/api`,
  ) {
    if (endpoints.length === 0) throw new Error('the console needs at least one token endpoint');
    this.products = new Map(products.map((p) => [p.ref, { ru: p.title, en: p.title_en ?? p.title }]));
    this.productOf = productOf;
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
      product: this.titlesOf(s.order_ref),
      mode: s.mode,
      status: s.status,
      provider_status: s.provider_status,
      amount: s.amount,
      currency: s.currency,
      created_at: s.created_at,
      late: s.late,
      fulfilment: hookView(s.hooks.paid, s.status === 'paid'),
      // Filled in by the orders routes (orders.ts), which know the handlers' double payments.
      double_payment: null,
      flagged: s.flagged ? { reason: s.flagged.reason, at: iso(s.flagged.at), dispute_id: s.flagged.dispute_id ?? null } : null,
      dispute: s.dispute
        ? { id: s.dispute.id, created_at: s.dispute.created_at, processed: s.dispute.processed, outcome: s.dispute.outcome, deposit: s.dispute.deposit ?? null, via: s.dispute.via, files: s.dispute.files }
        : null,
    };
  }

  /** The catalog's titles of what an order_ref buys (a product ref, or a cart of one), or null. */
  private titlesOf(orderRef: string): { en: string; ru: string } | null {
    const known = this.products.get(orderRef);
    if (known) return known;
    const p = this.productOf?.(orderRef);
    return p ? { ru: p.title, en: p.title_en ?? p.title } : null;
  }

  /** The merged search (src/console/search.ts). */
  search(q: string, filters: OrderFilters, page: number, size: number): Promise<OrdersPage> {
    return searchOrders(this, q, filters, page, size);
  }

  /** The main endpoint's session of a provider order (null when the shop did not make it). */
  async sessionOf(orderId: string): Promise<SessionDetail | null> {
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
    const since = Date.now();
    const bounded = (): RequestOptions => ({ maxRetries: 0, timeoutMs: Math.max(MIN_READ_MS, PAGE_READS_MS - (Date.now() - since)) });
    const sameClientId = async (coid: string) => (await client.searchOrdersByClientOrderId({ id: coid, size: 20 }, bounded())).items;
    if (detail) {
      // The shop knows the order: a failed provider read is shown on the page, not the whole page lost.
      try {
        if (detail.provider_order_id) order = await client.getOrder(detail.provider_order_id, bounded());
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
      if (UUID.test(key)) order = await client.getOrder(key, bounded()).catch((err: unknown) => (isProviderError(err, 'order_not_found') ? null : Promise.reject(err)));
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
        const found = await client.searchDisputes({ order_id: orderId, size: 20 }, bounded());
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
      // Filled in by the route (orders.ts): the refunds live in the console's store.
      refunds: [],
      refundable: null,
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
              url: `${this.apiPath}/disputes/${encodeURIComponent(d.dispute_id)}/files/${f.index}${query}`,
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

/** How the shop server follows one of its order's disputes (every dispute of the order, not only the newest). */
function shopDispute(endpoint: string, session: SessionDetail, disputeId: string): NonNullable<DisputeView['shop']> {
  const followed = (session.disputes ?? [session.dispute]).find((x) => x?.id === disputeId);
  if (!followed) return { endpoint, order_ref: session.order_ref, outcome: null, deposit: null, via: 'provider' };
  return { endpoint, order_ref: session.order_ref, outcome: followed.outcome, deposit: followed.deposit ?? null, via: followed.via };
}
