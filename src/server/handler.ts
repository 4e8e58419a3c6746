/**
 * `createCheckoutHandler(options)`: the merchant's token endpoint as a Web-standard fetch handler
 * (routes: router.ts), with the in-process methods a back office and a server-rendered page use.
 *
 * Creating a handler does nothing but keep its options: they are read and checked (options.ts), the
 * provider client built and the sweep started on the first use — the first request or method call.
 * So a module that creates the handler at its top level can be imported by a build that has no
 * provider variables and must not open a database. A bad option then fails that first use loudly: a
 * method throws the option's `TypeError`; a request is answered 500 and the error is logged.
 */
import { doublePayments, type CreateSessionInput, type DoublePayment, type ReconcileReport, type SessionDetail, type SessionSummary, type WebhookLogEntry, type WebhookLogQuery } from './checkout/index.js';
import { startServer } from './context.js';
import type { ServerContext } from './context.js';
import { CheckoutError } from './errors.js';
import { errorResponse } from './http.js';
import { createSafeLogger } from './log.js';
import { resolveOptions } from './options.js';
import type { CheckoutHandlerOptions } from './options.js';
import { handleRequest } from './router.js';
import { startTelemetry } from './telemetry.js';
import { createSession, idempotencyKeyOf } from './routes/sessions.js';
import type { CreatedSessionAnswer } from './routes/sessions.js';
import type { CheckoutStore } from './store.js';

export { matchRoute } from './router.js';
export type { CreatedSessionAnswer } from './routes/sessions.js';

/** The body of `POST {endpoint}/sessions`, as `handler.createSession` takes it. */
export type CreateSessionRequest = Pick<CreateSessionInput, 'order_ref'> & Partial<Omit<CreateSessionInput, 'order_ref'>>;

/** How `handler.createSession` makes its order. */
export interface CreateSessionOptions {
  /**
   * The purchase the order is for (your cart or checkout id: 1 to 200 visible ASCII characters, one
   * no other shopper can learn). The handler keeps one order per purchase: a repeat (a reload, a second
   * tab, a double submit) gets the same session; once that order has ended unpaid (expired,
   * cancelled), the next call makes the purchase's next order, and repeats get that one. A paid or
   * disputed order stays the purchase's. It works through Idempotency-Keys derived from it
   * (`<purchase>#1`, `#2`…), kept for `idempotencyTtlSeconds`; an Idempotency-Key of `request` is then
   * not read.
   */
  purchase?: string;
}

export interface CheckoutHandler {
  (request: Request): Promise<Response>;
  /** The store in use (the in-memory default, or the one given). Reading it is a first use. */
  readonly store: CheckoutStore;
  /** Resolves when background work (hooks, webhook confirmations, refreshes) has finished. */
  idle(): Promise<void>;
  /**
   * Runs one reconciliation sweep now (DESIGN.md, "Money safety contract"): re-reads pending orders,
   * recently ended ones (late payments) and processed disputes from the provider, retries failed
   * hooks, and resolves when the hooks it triggered have settled. With several instances on one
   * store one sweep runs at a time: this waits for another instance's sweep, then runs.
   */
  reconcile(): Promise<ReconcileReport>;
  /**
   * The in-process form of `POST {endpoint}/sessions` (a server-rendered checkout page): `input` is
   * that body, checked by the same rules; `resolveOrder` gets `request` (the page's request; without
   * one, a stand-in with no headers). An Idempotency-Key header of `request` counts as it would on the
   * route, and the per-address create limit applies when the request's client address is known.
   * Resolves with what the route answers: `{ session, order, server_time }`; a refusal is a
   * {@link CheckoutError} with the route's status and code (e.g. 404 `order_not_found`).
   */
  createSession(input: CreateSessionRequest, request?: Request, options?: CreateSessionOptions): Promise<CreatedSessionAnswer>;
  /**
   * Orders that paid a purchase another order had already paid — money to give back (a refund is a
   * payout to the shopper: paydesk/console makes them). A purchase is `createSession`'s `purchase`,
   * else the order_ref; the first paid order is the purchase's, each later one is listed, newest
   * first, from the sessions the handler keeps, through its index of payments per purchase.
   */
  doublePayments(): Promise<DoublePayment[]>;
  /** Read-only views for a back office: sessions, one order's history and hooks, the webhook log. */
  readonly inspect: {
    sessions(options?: { query?: string; limit?: number; before?: number }): Promise<SessionSummary[]>;
    session(id: string): Promise<SessionDetail | null>;
    webhooks(options?: WebhookLogQuery): Promise<WebhookLogEntry[]>;
  };
  /**
   * Stops the sweep, ends open event streams, waits for background work, closes the provider
   * connections the handler opened, and closes the store if the handler created it. A handler never
   * used has nothing open: this resolves at once.
   */
  close(): Promise<void>;
}

const PURCHASE = /^[\x21-\x7e]{1,200}$/;
/** Orders one purchase may get (each after the one before ended unpaid); past that, the last is answered. */
const PURCHASE_ATTEMPTS = 10;

/** The order ended without a payment (expired, cancelled, or past its time), and no dispute is on it. */
function endedUnpaid({ order, server_time }: CreatedSessionAnswer): boolean {
  if (order.status === 'paid' || order.dispute) return false;
  return order.status !== 'pending' || Date.parse(order.expires_at) <= Date.parse(server_time);
}

/** `resolveOrder` gets this when `handler.createSession` is called without the page's request. */
const STAND_IN_URL = 'http://localhost/paydesk/sessions';

/**
 * Creates the token endpoint. Nothing is checked or opened here: see the module's comment.
 *
 * @example
 * const handler = createCheckoutHandler({
 *   provider: { baseUrl: process.env.PAYDESK_PROVIDER_URL!, apiKey: process.env.PAYDESK_API_KEY! },
 *   sessionSecrets: [process.env.PAYDESK_SESSION_SECRET!],
 *   resolveOrder: async (ref) => {
 *     const product = await db.products.find(ref);
 *     return product ? { amount: product.price } : null;
 *   },
 * });
 */
export function createCheckoutHandler(options: CheckoutHandlerOptions): CheckoutHandler {
  let started: ServerContext | null = null;
  let closed = false;
  /** The started handler: built on the first call; a bad option throws here, at every call, until fixed. */
  const use = (): ServerContext => {
    if (started) return started;
    if (closed) throw new Error('paydesk/server: this handler was closed before its first use');
    return (started = startServer(resolveOptions(options)));
  };

  const handler = (async (req: Request): Promise<Response> => {
    let ctx: ServerContext;
    try {
      ctx = use();
    } catch (err) {
      return misconfigured(options, err);
    }
    return handleRequest(ctx, req);
  }) as CheckoutHandler;

  const inspect: CheckoutHandler['inspect'] = Object.freeze({
    sessions: async (o?: { query?: string; limit?: number; before?: number }) => use().core.inspect.sessions(o),
    session: async (id: string) => use().core.inspect.session(id),
    webhooks: async (o?: WebhookLogQuery) => use().core.inspect.webhooks(o),
  });
  Object.defineProperties(handler, {
    store: { get: () => use().store, enumerable: true },
    inspect: { value: inspect, enumerable: true },
    idle: { value: async () => started?.core.idle() },
    reconcile: { value: async () => use().core.reconciler.run(true) },
    doublePayments: { value: async () => doublePayments(use().core) },
    createSession: {
      value: async (input: CreateSessionRequest, request?: Request, options?: CreateSessionOptions) => {
        const ctx = use();
        const req = request ?? new Request(STAND_IN_URL, { method: 'POST' });
        const purchase = options?.purchase;
        if (purchase !== undefined && (typeof purchase !== 'string' || !PURCHASE.test(purchase))) {
          throw new CheckoutError(400, 'validation_failed', 'purchase must be 1 to 200 visible ASCII characters (a cart or checkout id).');
        }
        const address = request ? ctx.clientAddress(request) : undefined;
        if (address) await ctx.limiter.hit(ctx.opts.limits.createPerAddress, `c:${address}`);
        if (purchase === undefined) return (await createSession(ctx, input, req, idempotencyKeyOf(req))).answer;
        // The purchase's orders, one key each: repeats replay the first that has not ended unpaid.
        let answer!: CreatedSessionAnswer;
        for (let attempt = 1; attempt <= PURCHASE_ATTEMPTS; attempt++) {
          answer = (await createSession(ctx, input, req, `${purchase}#${attempt}`, purchase)).answer;
          if (!endedUnpaid(answer)) break;
        }
        return answer;
      },
    },
    close: {
      value: async () => {
        closed = true;
        const ctx = started;
        if (!ctx) return;
        await ctx.core.reconciler.stop();
        ctx.streams.closeAll();
        await ctx.core.idle();
        ctx.opts.transport?.close();
        if (ctx.ownsStore) await ctx.store.close();
      },
    },
  });
  startTelemetry();
  if (startsWithProcess(options)) {
    // Just after creation, not during it: a module's top level stays free of I/O, and a restarted
    // server sweeps (finds what was paid while it was down) without waiting for its first request.
    const timer = setTimeout(() => {
      if (started || closed) return;
      try {
        use();
      } catch (err) {
        misconfigured(options, err);
      }
    }, 0);
    (timer as { unref?: () => void }).unref?.();
  }
  return handler;
}

/**
 * True when the handler starts itself with the process: it sweeps by itself, and this is not a
 * Next.js production build (which imports route modules, and must need no secrets and open nothing).
 */
function startsWithProcess(options: CheckoutHandlerOptions): boolean {
  if (typeof process !== 'undefined' && process.env?.NEXT_PHASE === 'phase-production-build') return false;
  return (options as Partial<CheckoutHandlerOptions> | null)?.reconcileIntervalSeconds !== 0;
}

/**
 * The answer while the options are invalid: a 500 for the browser (no detail of the configuration),
 * and the option's error in the log, at every request until it is fixed.
 */
function misconfigured(options: CheckoutHandlerOptions, err: unknown): Response {
  const o: Partial<CheckoutHandlerOptions> = options && typeof options === 'object' ? options : {};
  const secrets = [o.provider?.apiKey, ...(Array.isArray(o.sessionSecrets) ? o.sessionSecrets : []), ...(Array.isArray(o.webhookSecrets) ? o.webhookSecrets : [])];
  const log = createSafeLogger(o.logger ?? { warn: console.warn, error: console.error }, secrets);
  log.error(`paydesk/server: the handler cannot start: ${err instanceof Error ? err.message : String(err)}`);
  return errorResponse(
    new CheckoutError(500, 'internal_error', 'The payment endpoint is not configured correctly; its server log says why.', { cause: err }),
  );
}
