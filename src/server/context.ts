/**
 * What the routes of a started handler share: the checked options, the checkout core, the store, the
 * rate limiter and event streams, and three helpers (the client address, a token's session, the time).
 * Built by {@link startServer} on the handler's first use, from options {@link resolveOptions} checked.
 */
import { Checkout } from './checkout/index.js';
import { CheckoutError } from './errors.js';
import { getRecordedClientAddress } from './http.js';
import { createSafeLogger } from './log.js';
import { clientAddressBehindProxies } from './proxy.js';
import type { SafeLogger } from './log.js';
import type { ResolvedOptions } from './options.js';
import { RateLimiter } from './rate-limit.js';
import { tokenUsableUntil } from './sessions.js';
import { EventStreams } from './sse.js';
import { MemoryStore } from './store.js';
import { guardStore, quietStoreFailures } from './store-guard.js';
import type { CheckoutStore } from './store.js';

export interface ServerContext {
  readonly opts: ResolvedOptions;
  readonly core: Checkout;
  readonly store: CheckoutStore;
  /** True when the handler made the store (the in-memory default): `close()` closes it. */
  readonly ownsStore: boolean;
  readonly log: SafeLogger;
  readonly limiter: RateLimiter;
  readonly streams: EventStreams;
  /** The request's client address for rate limits, when known (warns once when it never is). */
  clientAddress(req: Request): string | undefined;
  /** The session a token names, or a 401. */
  authorize(token: string): Promise<string>;
  /** Now, as an ISO string (`server_time` of the answers). */
  serverTime(): string;
}

/** Builds the handler's parts from checked options and starts the sweep. */
export function startServer(opts: ResolvedOptions): ServerContext {
  const { raw, now } = opts;
  const ownsStore = !raw.store;
  const loud = createSafeLogger(raw.logger ?? { warn: console.warn, error: console.error }, [
    opts.apiKey,
    ...opts.webhookSecrets,
    ...raw.sessionSecrets,
  ]);
  const log = quietStoreFailures(loud);
  const store = guardStore(raw.store ?? new MemoryStore({ now }), { timeoutMs: opts.storeTimeoutMs, log: loud, now });
  const core = new Checkout({
    ...opts.timing,
    client: opts.client,
    store,
    tokens: opts.tokens,
    log,
    now,
    resolveOrder: raw.resolveOrder,
    currency: opts.currency,
    feePayer: opts.feePayer,
    webhookUrl: opts.webhookUrl,
    hooks: { paid: raw.onOrderPaid, closed: raw.onOrderClosed, flagged: raw.onOrderFlagged },
  });
  const streams = new EventStreams(core, { heartbeatMs: opts.heartbeatMs, maxMs: opts.streamMaxMs });
  const ctx: ServerContext = {
    opts,
    core,
    store,
    ownsStore,
    log,
    limiter: new RateLimiter(store),
    streams,
    clientAddress: clientAddressOf(opts, log),
    authorize: (token) => authorize(opts, core, token),
    serverTime: () => new Date(now()).toISOString(),
  };
  core.reconciler.start(opts.reconcileIntervalMs);
  return ctx;
}

/**
 * The session a token names, or 401. The signature is checked first (a tampered, foreign or
 * malformed token costs one HMAC, no store or provider work). Within the time signed into it the
 * token works; past it, the stored session decides: the token keeps working until the late window
 * after its order ended (a late payment or a receipt is still accepted then), see tokenUsableUntil.
 */
async function authorize(opts: ResolvedOptions, core: Checkout, token: string): Promise<string> {
  const check = opts.tokens.authenticate(token);
  if (!check.ok) throw new CheckoutError(401, 'session_invalid', 'The session token is not valid (bad signature or format); the widget starts a new session.');
  const at = opts.now();
  if (check.expiresAt > at) return check.sid;
  const found = await core.repo.read(check.sid);
  if (found && tokenUsableUntil(found.rec, check.expiresAt, core.cfg.lateWindowMs) > at) return check.sid;
  throw new CheckoutError(401, 'session_expired', 'The session token has expired (lateWindowSeconds after its order ended); the widget starts a new session.');
}

function clientAddressOf(opts: ResolvedOptions, log: SafeLogger): (req: Request) => string | undefined {
  const { raw, limits } = opts;
  const addressLimited = limits.perAddress !== false || limits.createPerAddress !== false || limits.unverifiedWebhooksPerAddress !== false;
  const trust = opts.trustProxy;
  let warnedNoAddress = false;
  return (req) => {
    if (raw.getClientAddress) {
      try {
        const a = raw.getClientAddress(req);
        if (typeof a === 'string' && a.length > 0) return a.slice(0, 100);
      } catch (err) {
        log.warn('getClientAddress threw', { err });
      }
    }
    const socket = getRecordedClientAddress(req);
    const address = trust ? clientAddressBehindProxies(trust, socket, req.headers.get('x-forwarded-for')) : socket;
    if (address) return address.slice(0, 100);
    if (addressLimited && !warnedNoAddress) {
      warnedNoAddress = true;
      log.warn(
        'paydesk/server: per-address rate limits are OFF: this request carries no client address. ' +
          "Set the getClientAddress option (e.g. from your platform's client-IP header) or trustProxy (true, or your proxies' addresses) behind a proxy you trust; " +
          'the Node, Express and Hono adapters record the socket address by themselves.',
      );
    }
    return undefined;
  };
}
