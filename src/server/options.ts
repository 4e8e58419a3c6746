/**
 * Options of {@link createCheckoutHandler}, the shapes of its hooks, and {@link resolveOptions}: the
 * one place where the options are read and checked (on the handler's first use, not when it is created).
 */
import { createProviderClient } from '../provider/client.js';
import { isHttpUrl } from '../provider/schemas.js';
import type { Order } from '../provider/schemas.js';
import type { ProviderClient } from '../provider/types.js';
import { INTEGRATION_MODES, type IntegrationMode, type OrderView } from '../protocol/index.js';
import { OriginPolicy } from './http.js';
import { disputeGrace, feePayerOption, nonNegative, positive } from './option-checks.js';
import { parseTrustProxy, type ProxyTrust } from './proxy.js';
import { resolveRateLimits, type RateLimits } from './rate-limit.js';
import type { CheckoutStore } from './store.js';
import { SessionTokens } from './tokens.js';
import { createNodeTransport } from './transport.js';
import type { NodeTransport } from './transport.js';

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

export type { RateLimitRule, RateLimits } from './rate-limit.js';

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
  /**
   * The session's id; `''` in an `onOrderPaid` for an order whose session the store lost (wiped, or
   * restarted without persistence): its `order_ref` then comes from its client order id, signed.
   */
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
 * - `session_lost`: a paid order this handler created, whose session the store does not have (the
 *   memory store after a restart; a crash while the create was out, once no retry of it can come):
 *   `order_ref` and `session_id` are null.
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
  /**
   * A store call not answered in this many ms (or failing) fails its request with `503
   * store_unavailable` and `Retry-After`; logged once at error level, and once when it answers again (default 3000).
   */
  storeTimeoutMs?: number;
  /** Rate limits; `false` turns all off. */
  rateLimits?: Partial<RateLimits> | false;
  /** Largest accepted request body (default 16 KiB; webhooks 256 KiB). */
  maxBodyBytes?: number;
  maxWebhookBodyBytes?: number;
  /** Client address for rate limits, when the adapter cannot record it (e.g. a platform header). */
  getClientAddress?: (request: Request) => string | undefined;
  /**
   * Proxies whose `X-Forwarded-For` is believed for the client address (rate limits). A list of
   * addresses and CIDR ranges (`['10.0.0.0/8', '127.0.0.1', '::1']`): a request whose socket address
   * is in it is taken from the nearest `X-Forwarded-For` entry not in it (walking from the right); a
   * forwarded header from any other socket is ignored. `true`: every socket is a trusted proxy (the
   * last entry counts). Default: the socket address (the adapters record it) or `getClientAddress`.
   */
  trustProxy?: boolean | readonly string[];
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
  /**
   * The longest one create may take (default 90 s). Its claim on the key is held by a heartbeat, so a
   * crashed first request's claim is taken over after at most 10 s (or this, when shorter).
   */
  idempotencyLeaseSeconds?: number;
  /** How long an Idempotency-Key is remembered (default 24 h). */
  idempotencyTtlSeconds?: number;
  /** How long a webhook waits for the confirming provider read before answering 202 (default 2000 ms). */
  webhookConfirmTimeoutMs?: number;
  /** How long a status read (`GET /sessions/S`, a resume) waits for its provider re-read before it answers the stored status (default 3000 ms); the re-read goes on, its change reaches the stream. */
  readRefreshTimeoutMs?: number;
  /**
   * The handler re-reads orders from the provider by itself every this many seconds (default 60):
   * pending ones, recently ended ones (late payments) and processed disputes, and retries failed hooks.
   * `0`: never by itself — call `handler.reconcile()` from a cron (serverless hosts). With several
   * instances on one store, one sweep runs per interval for all of them (the store records when the last began). Sweeping starts with the process (the handler
   * starts itself just after it is created, so a restart finds what was paid meanwhile), except
   * during `next build`; with `0` nothing starts before the first use.
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

/** The options, checked, with their defaults filled and durations in ms. */
export interface ResolvedOptions {
  raw: CheckoutHandlerOptions;
  now: () => number;
  client: ProviderClient;
  /** The node:http transport this handler opened for the provider (closed by `close()`), or null. */
  transport: NodeTransport | null;
  apiKey: string | undefined;
  mode: IntegrationMode;
  modes: ReadonlySet<IntegrationMode>;
  webhookUrl: string | null;
  webhookAuth: 'signature' | 'api_key';
  webhookSecrets: readonly string[];
  webhookToleranceSeconds: number;
  tokens: SessionTokens;
  /** The checked `trustProxy`, or null (no proxy trusted). */
  trustProxy: ProxyTrust | null;
  origins: OriginPolicy;
  limits: RateLimits;
  maxBodyBytes: number;
  maxWebhookBodyBytes: number;
  currency: string;
  feePayer: 'merchant' | 'shopper';
  timing: CheckoutTiming;
  reconcileIntervalMs: number;
  storeTimeoutMs: number;
  heartbeatMs: number;
  streamMaxMs: number;
}

/** The durations the checkout core runs on (ms). */
export interface CheckoutTiming {
  sessionTtlMs: number;
  methodsCacheMs: number;
  staleMs: number;
  refreshIntervalMs: number;
  idempotencyWaitMs: number;
  idempotencyLeaseMs: number;
  idempotencyTtlMs: number;
  webhookConfirmTimeoutMs: number;
  readRefreshTimeoutMs: number;
  lateWindowMs: number;
  disputeGraceMs: number;
  hookLeaseMs: number;
}

function timingOf(o: CheckoutHandlerOptions): CheckoutTiming {
  const lateWindowSeconds = positive(o.lateWindowSeconds, 7 * 24 * 3600, 'lateWindowSeconds');
  return {
    sessionTtlMs: positive(o.sessionTtlSeconds, 24 * 3600, 'sessionTtlSeconds') * 1000,
    methodsCacheMs: positive(o.methodsCacheSeconds, 30, 'methodsCacheSeconds') * 1000,
    staleMs: positive(o.statusStaleSeconds, 30, 'statusStaleSeconds') * 1000,
    refreshIntervalMs: positive(o.refreshIntervalSeconds, 2, 'refreshIntervalSeconds') * 1000,
    idempotencyWaitMs: positive(o.idempotencyWaitSeconds, 30, 'idempotencyWaitSeconds') * 1000,
    idempotencyLeaseMs: positive(o.idempotencyLeaseSeconds, 90, 'idempotencyLeaseSeconds') * 1000,
    idempotencyTtlMs: positive(o.idempotencyTtlSeconds, 24 * 3600, 'idempotencyTtlSeconds') * 1000,
    webhookConfirmTimeoutMs: positive(o.webhookConfirmTimeoutMs, 2000, 'webhookConfirmTimeoutMs'),
    readRefreshTimeoutMs: positive(o.readRefreshTimeoutMs, 3000, 'readRefreshTimeoutMs'),
    lateWindowMs: lateWindowSeconds * 1000,
    disputeGraceMs: disputeGrace(o.disputeGraceSeconds, lateWindowSeconds) * 1000,
    hookLeaseMs: positive(o.hookLeaseSeconds, 30, 'hookLeaseSeconds') * 1000,
  };
}

function modesOf(o: CheckoutHandlerOptions): { mode: IntegrationMode; modes: Set<IntegrationMode> } {
  const mode: IntegrationMode = o.mode ?? 'h2h';
  if (!INTEGRATION_MODES.includes(mode)) throw new TypeError(`paydesk/server: mode must be one of ${INTEGRATION_MODES.join(', ')}`);
  const modes = new Set<IntegrationMode>(o.modes ?? [mode]);
  for (const m of modes) if (!INTEGRATION_MODES.includes(m)) throw new TypeError(`paydesk/server: modes has an unknown mode ${String(m)}`);
  modes.add(mode);
  return { mode, modes };
}

/** The provider client: the given one, or one built from `baseUrl` and `apiKey` (over node:http unless a fetch is given). */
function providerOf(provider: ProviderOption, mode: IntegrationMode): { client: ProviderClient; transport: NodeTransport | null } {
  if ('client' in provider) return { client: provider.client, transport: null };
  // Built last: the transport (keep-alive agents, no socket until a call) is closed again when the client refuses its options.
  const transport = provider.fetch === undefined ? createNodeTransport() : null;
  try {
    const client = createProviderClient({
      baseUrl: provider.baseUrl,
      apiKey: provider.apiKey,
      ...(provider.timeoutMs !== undefined && { timeoutMs: provider.timeoutMs }),
      ...(provider.maxRetries !== undefined && { maxRetries: provider.maxRetries }),
      ...(provider.fetch !== undefined && { fetch: provider.fetch }),
      ...(transport !== null && { transport }),
      ...(mode === 'order_with_form' && { integrationType: 'order_with_form' as const }),
    });
    return { client, transport };
  } catch (err) {
    transport?.close();
    throw err;
  }
}

/**
 * Reads and checks every option of {@link createCheckoutHandler}: a missing or invalid one is a
 * `TypeError` naming it. Run on the handler's first use (a request or a method call), never when the
 * handler is created, so a module that creates it can be imported (by a build) without the provider's
 * variables or a database.
 */
export function resolveOptions(options: CheckoutHandlerOptions): ResolvedOptions {
  if (!options || typeof options !== 'object') throw new TypeError('paydesk/server: createCheckoutHandler needs options');
  if (typeof options.resolveOrder !== 'function') throw new TypeError('paydesk/server: resolveOrder(order_ref, request) is required');
  const provider = options.provider;
  if (!provider || typeof provider !== 'object') throw new TypeError('paydesk/server: provider ({ baseUrl, apiKey } or { client }) is required');
  if (!('client' in provider)) {
    const { baseUrl, apiKey: key } = provider;
    if (typeof baseUrl !== 'string' || !isHttpUrl(baseUrl)) throw new TypeError(`paydesk/server: provider.baseUrl must be an http(s) URL (got ${typeof baseUrl === 'string' ? 'a string that is not one' : String(baseUrl)})`);
    if (typeof key !== 'string' || key.trim() === '') throw new TypeError('paydesk/server: provider.apiKey must be a non-empty string');
  }
  const apiKey = provider.apiKey;
  const { mode, modes } = modesOf(options);
  const webhookUrl = options.webhookUrl ?? null;
  if (webhookUrl !== null && (!isHttpUrl(webhookUrl) || webhookUrl.length > 512)) {
    throw new TypeError('paydesk/server: webhookUrl must be an http(s) URL of at most 512 characters');
  }
  const webhookSecrets = options.webhookSecrets ?? [];
  const webhookAuth = options.webhookAuth ?? (webhookSecrets.length > 0 ? 'signature' : 'api_key');
  if (webhookAuth === 'signature' && webhookSecrets.length === 0) throw new TypeError('paydesk/server: webhookAuth "signature" needs webhookSecrets');
  if (webhookAuth === 'api_key' && !apiKey) throw new TypeError('paydesk/server: webhookAuth "api_key" needs provider.apiKey');
  const checked = {
    raw: options,
    now: options.now ?? Date.now,
    apiKey,
    mode,
    modes,
    webhookUrl,
    webhookAuth,
    webhookSecrets,
    webhookToleranceSeconds: positive(options.webhookToleranceSeconds, 300, 'webhookToleranceSeconds'),
    tokens: new SessionTokens(options.sessionSecrets),
    trustProxy: parseTrustProxy(options.trustProxy),
    origins: new OriginPolicy(options.allowedOrigins ?? []),
    limits: resolveRateLimits(options.rateLimits),
    maxBodyBytes: positive(options.maxBodyBytes, 16 * 1024, 'maxBodyBytes'),
    maxWebhookBodyBytes: positive(options.maxWebhookBodyBytes, 256 * 1024, 'maxWebhookBodyBytes'),
    currency: (options.currency ?? 'RUB').toUpperCase(),
    feePayer: feePayerOption(options.feePayer),
    timing: timingOf(options),
    reconcileIntervalMs: nonNegative(options.reconcileIntervalSeconds, 60, 'reconcileIntervalSeconds') * 1000,
    storeTimeoutMs: positive(options.storeTimeoutMs, 3000, 'storeTimeoutMs'),
    heartbeatMs: positive(options.heartbeatSeconds, 15, 'heartbeatSeconds') * 1000,
    streamMaxMs: positive(options.streamMaxSeconds, 600, 'streamMaxSeconds') * 1000,
  };
  return { ...checked, ...providerOf(provider, mode) };
}
