/**
 * Options of {@link createCheckoutHandler} and the shapes of its hooks.
 */
import type { IntegrationMode, OrderView } from '../protocol/index.js';
import type { Order } from '../provider/schemas.js';
import type { ProviderClient } from '../provider/types.js';
import type { CheckoutStore } from './store.js';

/** What the merchant's `resolveOrder` answers for an `order_ref`: the price and identity, decided on the server. */
export interface ResolvedOrder {
  /** Decimal string, e.g. `"1500.00"` (never a float). */
  amount: string;
  /** Default: the handler's `currency` (default `RUB`). */
  currency?: string;
  /** 1–64 characters; default: generated on the server, unique per order attempt. */
  client_order_id?: string;
  /** Anti-fraud identifier of the shopper (the provider blocks mass requests by one user). */
  user_id?: string | null;
  /** Only when the real name is known. */
  customer_name?: string | null;
  /** http(s) only: automatic navigation 5 s after a successful payment. */
  redirect_url?: string | null;
  /** http(s) only: support link for the shopper. */
  support_url?: string | null;
  /** http(s) only: manual link back to the shop. */
  return_url?: string | null;
  /** Let the provider adjust the amount up by at most 9 to make it unique. */
  unique_amount?: boolean;
}

/** How to reach the provider: a base URL and key (the handler builds the client), or a ready client. */
export type ProviderOption =
  | {
      baseUrl: string;
      apiKey: string;
      /** Per-attempt timeout (ms) of provider calls; default 15000. */
      timeoutMs?: number;
      maxRetries?: number;
      /**
       * Injectable fetch (tests pass the sandbox's). Without it, provider calls go over node:http(s)
       * with keep-alive connections of the handler's own; pass `globalThis.fetch` to use fetch instead.
       */
      fetch?: typeof fetch;
    }
  | {
      client: ProviderClient;
      /** The terminal's API key: needed for webhooks in `api_key` mode, and redacted from every log line. */
      apiKey?: string;
    };

export interface RateLimitRule {
  /** Requests allowed in one window. */
  limit: number;
  windowSeconds: number;
}

export interface RateLimits {
  /** Every browser-facing request, per client address (default 300 / 60 s). */
  perAddress: RateLimitRule | false;
  /** `POST /sessions` per client address (default 30 / 60 s). */
  createPerAddress: RateLimitRule | false;
  /** `GET /sessions/S` and its events, per session (default 240 / 60 s). */
  perSession: RateLimitRule | false;
  /** `GET /sessions/S?refresh=1` (a provider read), per session (default 12 / 60 s). */
  refreshPerSession: RateLimitRule | false;
  /** `POST /sessions/S/dispute` (receipt uploads), per session (default 10 / hour). */
  disputePerSession: RateLimitRule | false;
  /**
   * `POST /webhooks` that FAIL verification, per client address (default 30 / 60 s; beyond it 429
   * and nothing is logged). Verified deliveries are checked first and never counted or limited.
   */
  unverifiedWebhooksPerAddress: RateLimitRule | false;
}

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
/** A structured logger; `console` fits. Every line goes through redaction of the provider key and secrets. */
export interface Logger {
  debug?(message: string, fields?: Record<string, unknown>): void;
  info?(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

/** Passed to the hooks. */
export interface OrderEvent {
  order: OrderView;
  order_ref: string;
  client_order_id: string;
  /** The provider's order id (null for a form whose order does not exist yet). */
  provider_order_id: string | null;
  /** The provider's order as re-read before acting (null when closed without an order, or not re-read). */
  provider_order: Order | null;
  session_id: string;
  /**
   * True when the payment was recognised after the session had ended expired or cancelled (a
   * `Completed` after `CanceledByTimeout`, or an accepted dispute whose order stays cancelled).
   */
  late: boolean;
  /** The dispute whose acceptance proved the payment (its deposit), else null. */
  dispute_id: string | null;
}

/**
 * Why an order needs a person:
 * - `amount_mismatch` / `currency_mismatch`: the provider reports an order that does not match the
 *   session (it is never marked paid);
 * - `dispute_unconfirmed`: the provider processed the shopper's dispute, but no record of the money
 *   (a deposit naming the order) was found — never `onOrderPaid` for it;
 * - `session_lost`: a paid order this handler created, whose session the store no longer has (the
 *   memory store after a restart): `order_ref` and `session_id` are null.
 */
export type FlagReason = 'amount_mismatch' | 'currency_mismatch' | 'dispute_unconfirmed' | 'session_lost';

/**
 * Passed to `onOrderPaid`: a session becomes paid only from the provider's order, read back from the
 * provider, so the paid event always names it (`provider_order_id` is never null here).
 */
export interface PaidOrderEvent extends OrderEvent {
  /** The provider's order id: the id to be idempotent on (a paid order is paid once, whatever the session). */
  provider_order_id: string;
}

export interface FlaggedOrderEvent extends Omit<OrderEvent, 'order_ref' | 'session_id'> {
  reason: FlagReason;
  /** null only for `session_lost`. */
  order_ref: string | null;
  session_id: string | null;
  expected_amount: string;
  expected_currency: string;
}

export interface CheckoutHandlerOptions {
  provider: ProviderOption;
  /**
   * Price and identity of an order, from the merchant's own data; null → 404 and nothing is handed
   * out. Called with the incoming request on every methods and sessions request — a replay of the
   * same Idempotency-Key and of an open session included — so it can check that the order (a cart)
   * belongs to whoever asks (e.g. by the shop's session cookie).
   */
  resolveOrder(orderRef: string, request: Request): ResolvedOrder | null | Promise<ResolvedOrder | null>;
  /** Default integration mode (default `h2h`). */
  mode?: IntegrationMode;
  /** Modes a browser may ask for with `mode` (default: only `mode`). */
  modes?: IntegrationMode[];
  /** Default currency (default `RUB`). */
  currency?: string;
  /**
   * Who bears the provider's fee: `merchant` (default; the shopper sends exactly the price, the
   * provider takes its fee from the balance, `GET /methods` shows fee 0) or `shopper` (the method's
   * fee is added to the order amount, and `GET /methods` shows it with the total to send).
   */
  feePayer?: 'merchant' | 'shopper';
  /** Public URL of `POST {endpoint}/webhooks`, sent to the provider as `webhook_url` (http(s), ≤ 512 characters). */
  webhookUrl?: string | null;
  /**
   * How webhooks are authenticated: `signature` (X-Paydesk-Signature, HMAC with `webhookSecrets`) or
   * `api_key` (the provider repeats X-API-Key). Default: `signature` when `webhookSecrets` is given, else `api_key`.
   */
  webhookAuth?: 'signature' | 'api_key';
  /** Webhook signing secrets, the newest first. */
  webhookSecrets?: string[];
  /** Allowed clock skew of signed webhooks, both directions (default 300 s). */
  webhookToleranceSeconds?: number;
  /** Origins (besides the endpoint's own) whose pages may call the endpoint; `*` allows any. */
  allowedOrigins?: string[];
  /** Secrets that sign session tokens, the newest first (it signs; all verify). At least 32 characters each. */
  sessionSecrets: string[];
  /**
   * The time signed into a session token (default 24 h): it works at least this long, and past it
   * while its order is pending or ended less than `lateWindowSeconds` ago.
   */
  sessionTtlSeconds?: number;
  /** Where sessions, idempotency records, markers and events live (default: in memory, one process). */
  store?: CheckoutStore;
  /** Rate limits; `false` turns all off. */
  rateLimits?: Partial<RateLimits> | false;
  /** Largest accepted request body (default 16 KiB; webhooks 256 KiB). */
  maxBodyBytes?: number;
  maxWebhookBodyBytes?: number;
  /** Client address for rate limits, when the adapter cannot record it (e.g. a platform header). */
  getClientAddress?: (request: Request) => string | undefined;
  /** Use the last X-Forwarded-For hop as the client address (only behind a proxy you trust). */
  trustProxy?: boolean;
  /** How long the provider's method list is reused (default 30 s). */
  methodsCacheSeconds?: number;
  /** A pending status older than this is re-read from the provider on the next request (default 30 s). */
  statusStaleSeconds?: number;
  /** At most one provider re-read per session in this interval, across instances (default 2 s). */
  refreshIntervalSeconds?: number;
  /** Heartbeat comment interval of event streams (default 15 s). */
  heartbeatSeconds?: number;
  /** An event stream closes after this long; EventSource reconnects with Last-Event-ID (default 10 min). */
  streamMaxSeconds?: number;
  /** How long a duplicate waits for the first request with the same Idempotency-Key (default 30 s). */
  idempotencyWaitSeconds?: number;
  /** A crashed first request's claim is taken over after this long (default 90 s). */
  idempotencyLeaseSeconds?: number;
  /** How long an Idempotency-Key is remembered (default 24 h). */
  idempotencyTtlSeconds?: number;
  /** How long a webhook waits for the confirming provider read before answering 202 (default 2000 ms). */
  webhookConfirmTimeoutMs?: number;
  /**
   * The handler re-reads orders from the provider by itself every this many seconds (default 60):
   * pending ones, recently ended ones (late payments) and processed disputes, and retries failed hooks.
   * `0`: never by itself — call `handler.reconcile()` from a cron (serverless hosts). With several
   * instances on one store, one sweep runs at a time.
   */
  reconcileIntervalSeconds?: number;
  /**
   * How long after an order ended expired or cancelled a late payment or a dispute is still followed,
   * and after an order ended (paid too) its session token still works (default 7 days).
   */
  lateWindowSeconds?: number;
  /**
   * After the provider processed a dispute, how long its record of the money (a `deposit` naming the
   * order) is waited for before the dispute counts as unconfirmed: `onOrderFlagged`
   * (`dispute_unconfirmed`) and `order.dispute.outcome: "unconfirmed"` (default 600 s; 0 = at once;
   * at most `lateWindowSeconds`). The deposit is looked for when the dispute is seen processed and
   * again when the grace ends; one that comes later still pays the order within the late window.
   */
  disputeGraceSeconds?: number;
  /**
   * A running hook holds a lease in the store this long, renewed every third of it while it runs, so
   * however long a hook takes no other instance starts it again; a process that dies stops renewing
   * and another instance runs the hook after this long (default 30 s).
   */
  hookLeaseSeconds?: number;
  logger?: Logger;
  /**
   * Runs exactly once per paid order (successfully), across duplicates, instances and restarts; a
   * hook that throws is run again with backoff until it succeeds, and never twice at once.
   * `event.late` says the payment came after the order had ended.
   */
  onOrderPaid?: (event: PaidOrderEvent) => void | Promise<void>;
  /** Runs once when an order ends expired or cancelled (a late payment may still follow: onOrderPaid with late). */
  onOrderClosed?: (event: OrderEvent) => void | Promise<void>;
  /** Runs once when an order needs a person (see {@link FlagReason}). */
  onOrderFlagged?: (event: FlaggedOrderEvent) => void | Promise<void>;
  /** Clock in ms (tests). */
  now?: () => number;
}
