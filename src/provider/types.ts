/**
 * The public shape of the provider client (`paydesk/provider`). Implemented in client.ts; the
 * server and tests code against this interface.
 */
import type { DisputeFileType } from '../protocol/index.js';
import type {
  Balance,
  CreateOrderRequest,
  DecimalAmount,
  Dispute,
  DisputeFile,
  DisputeSearchQuery,
  FormCreateRequest,
  FormData,
  FormSearchQuery,
  FormSession,
  Order,
  OrderSearchQuery,
  OrdersQuery,
  Page,
  PaymentMethod,
  PaymentMethodsQuery,
  Transaction,
  TransactionsQuery,
} from './schemas.js';

/** Stable codes of {@link ProviderError}: one per row of the document's error tables, plus transport. */
export type ProviderErrorCode =
  | 'no_payment_method'
  | 'customer_account_required'
  | 'insufficient_funds'
  | 'payment_method_not_found'
  | 'amount_out_of_limits'
  | 'customer_blacklisted'
  | 'rate_limited'
  | 'no_traders'
  | 'form_sell_not_allowed'
  | 'button_not_enabled'
  | 'form_not_activated'
  | 'unauthorized'
  /** `getOrder` (and `createDispute`): the provider has no order with that id (404). Not retryable. */
  | 'order_not_found'
  | 'network'
  | 'timeout'
  | 'invalid_response'
  /** A request refused by the client before sending (names the field). */
  | 'invalid_request'
  /** Any other provider answer that is not 2xx. */
  | 'provider_error';

export interface ProviderClientOptions {
  /** e.g. `https://provider.example` or `http://127.0.0.1:4010` (no trailing `/api/v1`). */
  baseUrl: string;
  apiKey: string;
  /** Per-attempt timeout; default 15000 ms. */
  timeoutMs?: number;
  /** Extra attempts for reads; default 2. 0 = exactly one attempt. A create is never sent twice in one call. */
  maxRetries?: number;
  /**
   * After a create's answer is lost (network error, timeout, an ambiguous 5xx), how long the client
   * keeps looking the created record up (at 0.5, 1, 2, 4 s … intervals) before it gives up with
   * `outcome: 'unknown'`; default 10 000 ms. 0 = one lookup at once.
   */
  lookupWindowMs?: number;
  /** Injectable fetch (default: globalThis.fetch). */
  fetch?: typeof fetch;
  /**
   * A lighter seam than `fetch`: one HTTP exchange with the whole answer as text, without `Request`
   * or `Response` objects (paydesk/server passes one on node:http). Takes precedence over `fetch`.
   */
  transport?: ProviderTransport;
  /** Injectable sleep, for tests with fake timers (default: setTimeout based). */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Integration type of the terminal, when known; `order_with_form` fields are checked against it. */
  integrationType?: 'plain' | 'order_with_form';
  /** Injectable source of randomness for the backoff jitter, in [0, 1) (default: Math.random). */
  random?: () => number;
  /** Injectable clock in epoch milliseconds, used to read a `Retry-After` HTTP-date (default: Date.now). */
  now?: () => number;
}

/** One request of the client, as a {@link ProviderTransport} gets it. */
export interface ProviderHttpRequest {
  method: 'GET' | 'POST';
  /** Absolute http(s) URL. */
  url: string;
  headers: Record<string, string>;
  /** For POST: JSON text, or the bytes of a `multipart/form-data` body (a dispute's receipts). */
  body?: string | Uint8Array;
  /** Aborts the exchange (the client's timeout or the caller's signal); reject with `signal.reason`. */
  signal: AbortSignal;
}

/** The whole answer: status, headers (case-insensitive `get`, as `Headers`), and the body as text. */
export interface ProviderHttpResponse {
  status: number;
  headers: { get(name: string): string | null };
  text: string;
}

/**
 * Performs one exchange. Resolves with any HTTP answer (the client interprets the status); rejects
 * on a network failure, on a redirect (as `fetch` with `redirect: 'error'`), or with `signal.reason`.
 */
export type ProviderTransport = (request: ProviderHttpRequest) => Promise<ProviderHttpResponse>;

export interface RequestOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
  maxRetries?: number;
  /** Creates only: this call's {@link ProviderClientOptions.lookupWindowMs}. */
  lookupWindowMs?: number;
}

/** A receipt of a dispute: JPEG, PNG, WebP, HEIC or PDF (checked by content), at most 10 MB. */
export interface DisputeFileInput {
  /** File name, e.g. `receipt.png` (1 to 255 characters). */
  name: string;
  /** Declared type, one of `image/jpeg`, `image/png`, `image/webp`, `image/heic`, `application/pdf`. */
  type: DisputeFileType | (string & {});
  data: Uint8Array;
}

/** `POST /api/v1/disputes/create`: the shopper's appeal for an order, with 1 to 5 receipts (20 MB in all). */
export interface CreateDisputeRequest {
  /** The provider's order id. */
  order_id: string;
  /** The amount claimed (the order's amount), a decimal string such as `"1500.00"` (a number is refused). */
  amount: DecimalAmount;
  files: DisputeFileInput[];
}

export interface CreateDisputeResponse {
  order_id: string;
  dispute_id: string;
  /** What the provider says of the stored receipts (its shape is not documented; the sandbox's: `{index, file_id, file_name, content_type, size, sha256}`). */
  dispute_files: DisputeFile[];
  /**
   * True when the answer of the create was lost and the dispute was found by `searchDisputes`
   * instead: it exists, but `dispute_files` is then empty (the list does not carry them).
   */
  recovered?: true;
}

/**
 * What a failed create says about the record it tried to create: `not_created` (a definite refusal:
 * a 4xx, "no available traders", a request refused before sending), `unknown` (the answer was lost
 * and no lookup found it: it may still appear; look it up before creating anything else for it),
 * `created` (it exists: the answer was unreadable, or a form session was found after a lost answer).
 */
export type CreateOutcome = 'not_created' | 'unknown' | 'created';

/** A list query without its page: the iterators walk every page themselves. */
export type AllPagesQuery<Q> = Omit<Q, 'page'>;

/**
 * One method per endpoint. Every method returns the resource itself, never the provider's envelope
 * (`success`, `message`): an order, a balance, a list of payment methods, or one {@link Page} of a
 * list (`{ items, page, size, pages, total }`, the same for every list). The `…All` methods walk
 * every page of a list as an async iterator:
 * `for await (const order of client.listAllOrders({ status: 'Completed' })) …`.
 *
 * Queries send only what the caller gave; the provider then applies the document's defaults: page
 * 1, size 10 (transactions: 20), sort_by created_at, sort desc, order list period the last 24 hours,
 * active false. Every request is checked before sending (`invalid_request`) and every answer after
 * (`invalid_response`).
 */
export interface ProviderClient {
  /** 1. `GET /api/v1/form/search`: one page of form sessions. */
  searchFormSessions(query?: FormSearchQuery, options?: RequestOptions): Promise<Page<FormSession>>;
  /** 2. `POST /api/v1/form/create` (sent once per call; a lost answer is resolved by lookups, see `lookupWindowMs`). */
  createForm(body: FormCreateRequest, options?: RequestOptions): Promise<FormData>;
  /** 3. `GET /api/v1/disputes/search`: one page of disputes. */
  searchDisputes(query?: DisputeSearchQuery, options?: RequestOptions): Promise<Page<Dispute>>;
  /** 4. `GET /api/v1/finance/transactions`: one page of transactions. */
  listTransactions(query?: TransactionsQuery, options?: RequestOptions): Promise<Page<Transaction>>;
  /** 5. `GET /api/v1/finance/payment_methods`: the terminal's payment methods (the API does not page them). */
  listPaymentMethods(query?: PaymentMethodsQuery, options?: RequestOptions): Promise<PaymentMethod[]>;
  /** 6. `GET /api/v1/finance/balance`: the terminal's deposit. */
  getBalance(options?: RequestOptions): Promise<Balance>;
  /** 7. `POST /api/v1/order/` (sent once per call; a lost answer is resolved by lookups, see `lookupWindowMs`). */
  createOrder(body: CreateOrderRequest, options?: RequestOptions): Promise<Order>;
  /** 8. `GET /api/v1/order/`: one page of orders. */
  listOrders(query?: OrdersQuery, options?: RequestOptions): Promise<Page<Order>>;
  /** 9. `GET /api/v1/order/search-by-client-order-id`: one page of the orders with that client order id. */
  searchOrdersByClientOrderId(query: OrderSearchQuery, options?: RequestOptions): Promise<Page<Order>>;
  /** `GET /api/v1/order/{id}` (provider-notes.md): one order by the provider's id. 404 → ProviderError `order_not_found`. */
  getOrder(id: string, options?: RequestOptions): Promise<Order>;
  /** `POST /api/v1/disputes/create` (multipart): the shopper's appeal with receipts. Never blindly retried. */
  createDispute(body: CreateDisputeRequest, options?: RequestOptions): Promise<CreateDisputeResponse>;
  /**
   * Every order of `listOrders(query)`, page after page (size 100 unless given), each once (an order
   * that moves to another page while the walk goes on is not repeated). Stops after the last page.
   */
  listAllOrders(query?: AllPagesQuery<OrdersQuery>, options?: RequestOptions): AsyncIterable<Order>;
  /** Every transaction of `listTransactions(query)`, page after page, each once. */
  listAllTransactions(query?: AllPagesQuery<TransactionsQuery>, options?: RequestOptions): AsyncIterable<Transaction>;
  /** Every dispute of `searchDisputes(query)`, page after page, each once. */
  searchAllDisputes(query?: AllPagesQuery<DisputeSearchQuery>, options?: RequestOptions): AsyncIterable<Dispute>;
  /** Every form session of `searchFormSessions(query)`, page after page, each once. */
  searchAllFormSessions(query?: AllPagesQuery<FormSearchQuery>, options?: RequestOptions): AsyncIterable<FormSession>;
}

/**
 * Walks every page of a list: asks for page 1, 2, … until the last one (`pages`) or an empty page,
 * and yields each item once by its `key` (a list sorted by creation can shift while it is walked).
 */
export async function* eachItem<T>(fetchPage: (page: number) => Promise<Page<T>>, key: (item: T) => string): AsyncGenerator<T, void, undefined> {
  const seen = new Set<string>();
  for (let page = 1; ; page++) {
    const res = await fetchPage(page);
    for (const item of res.items) {
      const k = key(item);
      if (seen.has(k)) continue;
      seen.add(k);
      yield item;
    }
    if (res.items.length === 0 || page >= res.pages) return;
  }
}
