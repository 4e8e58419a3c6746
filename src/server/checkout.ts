/**
 * The token endpoint's core, free of HTTP: resolving orders, creating sessions (idempotently),
 * following the provider's status (refresh, webhooks), moving a session's status forward only, and
 * running the merchant's hooks exactly once.
 */
import { addAmounts, compareAmounts, currencyDigits, MoneyError, parseAmount } from '../money/index.js';
import { ORDER_LIFETIME_SECONDS, orderOutcome } from '../provider/facts.js';
import type { CreateOrderRequest, FormCreateRequest, FormSession, Order, PaymentMethod } from '../provider/schemas.js';
import type { ProviderClient } from '../provider/types.js';
import type { IntegrationMode } from '../protocol/index.js';
import { isFinalStatus } from '../protocol/index.js';
import { randomId, sha256Base64url } from './crypto.js';
import { CheckoutError, fromProviderError, internalError, isAmbiguousProviderFailure, isProviderError } from './errors.js';
import type { SafeLogger } from './log.js';
import { MethodsCache, offersFor, selectMethod } from './methods.js';
import type { FeePayer, MethodOffer, MethodRequest, MethodSelection } from './methods.js';
import type { FlaggedOrderEvent, OrderEvent, ResolvedOrder } from './options.js';
import { formPendingView, normaliseDecimal, orderToView, sanitizeUrl, viewsDiffer } from './order-view.js';
import type { ViewContext } from './order-view.js';
import { SessionRepository } from './sessions.js';
import type { SessionRecord } from './sessions.js';
import type { CheckoutStore } from './store.js';
import type { SessionTokens } from './tokens.js';

/** The amount unique_amount may add (provider-api.md, Limits). */
const UNIQUE_AMOUNT_SPREAD = '9';
/** How long a running hook holds its marker before another instance may try again. */
const HOOK_LEASE_MS = 120_000;
/** How long a completed hook's marker is kept (a paid order never pays twice). */
const HOOK_DONE_TTL_MS = 90 * 24 * 3600 * 1000;
/** A merchant-given client_order_id may be reused; orders older than the session by more than this are not its own. */
const ORDER_CLOCK_SLACK_MS = 10 * 60 * 1000;

export interface CheckoutConfig {
  client: ProviderClient;
  store: CheckoutStore;
  tokens: SessionTokens;
  log: SafeLogger;
  now: () => number;
  resolveOrder: (orderRef: string, request: Request) => ResolvedOrder | null | Promise<ResolvedOrder | null>;
  currency: string;
  feePayer: FeePayer;
  webhookUrl: string | null;
  sessionTtlMs: number;
  methodsCacheMs: number;
  staleMs: number;
  refreshIntervalMs: number;
  idempotencyWaitMs: number;
  idempotencyLeaseMs: number;
  idempotencyTtlMs: number;
  webhookConfirmTimeoutMs: number;
  hooks: {
    paid?: ((event: OrderEvent) => void | Promise<void>) | undefined;
    closed?: ((event: OrderEvent) => void | Promise<void>) | undefined;
    flagged?: ((event: FlaggedOrderEvent) => void | Promise<void>) | undefined;
  };
}

/** resolveOrder's answer, checked and normalised. */
export interface CheckedOrder {
  amount: string;
  currency: string;
  client_order_id: string | null;
  user_id: string | null;
  customer_name: string | null;
  redirect_url: string | null;
  support_url: string | null;
  return_url: string | null;
  unique_amount: boolean;
}

/** The body of `POST /sessions`, shape-checked. */
export interface CreateSessionInput extends MethodRequest {
  order_ref: string;
  mode: IntegrationMode;
}

export interface CreatedSession {
  record: SessionRecord;
  token: string;
  /** True when an earlier request with the same Idempotency-Key made it. */
  replayed: boolean;
}

interface IdempotencyRecord {
  fingerprint: string;
  state: 'pending' | 'uncertain' | 'done';
  owner: string;
  lease_until: number;
  started_at: number;
  client_order_id: string | null;
  sid: string | null;
  expires_at: number | null;
}

const PRINTABLE = /^[^\u0000-\u001f\u007f]+$/;
/** Amounts whose offers are kept per methods list (beyond it, the cache starts over). */
const OFFER_CACHE_SIZE = 1000;

function freezeOffer(offer: MethodOffer): MethodOffer {
  Object.freeze(offer.view);
  return Object.freeze(offer);
}

function orderError(message: string): CheckoutError {
  return new CheckoutError(500, 'internal_error', 'This order cannot be paid right now. Please contact the shop.', {
    cause: new Error(message),
  });
}

export class Checkout {
  readonly repo: SessionRepository;
  readonly methods: MethodsCache;
  private readonly background = new Set<Promise<unknown>>();
  private offerCache: { methods: readonly PaymentMethod[]; byAmount: Map<string, readonly MethodOffer[]> } | null = null;

  constructor(readonly cfg: CheckoutConfig) {
    this.repo = new SessionRepository(cfg.store, cfg.now);
    this.methods = new MethodsCache(cfg.client, cfg.methodsCacheMs, cfg.now);
  }

  // -------------------------------------------------------------------------------------------
  // Background work (hooks, confirmations that outlive a request), awaited by idle()

  track<T>(promise: Promise<T>): Promise<T> {
    const p = promise.catch((err: unknown) => {
      this.cfg.log.error('background task failed', { err });
      return undefined as T;
    });
    this.background.add(p);
    void p.finally(() => this.background.delete(p));
    return p;
  }

  async idle(): Promise<void> {
    while (this.background.size > 0) await Promise.all([...this.background]);
  }

  // -------------------------------------------------------------------------------------------
  // Orders and methods

  /** Calls the merchant's resolveOrder and checks what it answers; null → 404. */
  async resolve(orderRef: string, request: Request): Promise<CheckedOrder> {
    let r: ResolvedOrder | null;
    try {
      r = await this.cfg.resolveOrder(orderRef, request);
    } catch (err) {
      this.cfg.log.error('resolveOrder threw', { order_ref: orderRef, err });
      throw internalError(err);
    }
    if (r === null || r === undefined) {
      throw new CheckoutError(404, 'order_not_found', 'This order was not found.');
    }
    if (typeof r !== 'object') {
      this.cfg.log.error('resolveOrder must answer an object or null', { order_ref: orderRef });
      throw orderError('resolveOrder answered a non-object');
    }
    const currency = (r.currency ?? this.cfg.currency).toUpperCase();
    if (!/^[A-Z]{3,5}$/.test(currency)) {
      this.cfg.log.error('resolveOrder answered an invalid currency', { order_ref: orderRef, currency: r.currency });
      throw orderError('invalid currency');
    }
    let amount: string;
    try {
      amount = parseAmount(r.amount, { currency, field: 'amount' });
    } catch (err) {
      const message = err instanceof MoneyError ? err.message : String(err);
      this.cfg.log.error(`resolveOrder answered an invalid amount: ${message}`, { order_ref: orderRef });
      throw orderError('invalid amount');
    }
    const coid = r.client_order_id;
    if (coid !== undefined && coid !== null && (typeof coid !== 'string' || coid.length < 1 || coid.length > 64 || !PRINTABLE.test(coid))) {
      this.cfg.log.error('resolveOrder answered an invalid client_order_id (1 to 64 printable characters)', { order_ref: orderRef });
      throw orderError('invalid client_order_id');
    }
    const optionalText = (value: unknown, field: string, max: number): string | null => {
      if (value === undefined || value === null || value === '') return null;
      if (typeof value !== 'string' || value.length > max || !PRINTABLE.test(value)) {
        this.cfg.log.error(`resolveOrder answered an invalid ${field} (a string of at most ${max} characters)`, { order_ref: orderRef });
        throw orderError(`invalid ${field}`);
      }
      return value;
    };
    const url = (value: unknown, field: string): string | null => {
      if (value === undefined || value === null || value === '') return null;
      const clean = sanitizeUrl(value);
      if (clean === null || clean.length > 512) {
        this.cfg.log.warn(`resolveOrder answered a ${field} that is not an http(s) URL of at most 512 characters; it is left out`, {
          order_ref: orderRef,
        });
        return null;
      }
      return clean;
    };
    return {
      amount,
      currency,
      client_order_id: coid ?? null,
      user_id: optionalText(r.user_id, 'user_id', 256),
      customer_name: optionalText(r.customer_name, 'customer_name', 256),
      redirect_url: url(r.redirect_url, 'redirect_url'),
      support_url: url(r.support_url, 'support_url'),
      return_url: url(r.return_url, 'return_url'),
      unique_amount: r.unique_amount === true,
    };
  }

  /**
   * Active Buy methods that accept the order's amount, with fees. Worked out once per amount and
   * currency for each list the provider gave (the fee arithmetic is the same until the list changes);
   * the offers are shared and frozen.
   */
  async offers(order: CheckedOrder): Promise<readonly MethodOffer[]> {
    let methods;
    try {
      methods = await this.methods.list();
    } catch (err) {
      this.logProviderFailure('listing payment methods failed', err);
      throw fromProviderError(err);
    }
    let cache = this.offerCache;
    if (cache?.methods !== methods) cache = this.offerCache = { methods, byAmount: new Map() };
    const key = `${order.currency} ${order.amount}`;
    let offers = cache.byAmount.get(key);
    if (!offers) {
      offers = Object.freeze(offersFor(methods, order.amount, order.currency, this.cfg.feePayer).map(freezeOffer));
      if (cache.byAmount.size >= OFFER_CACHE_SIZE) cache.byAmount.clear();
      cache.byAmount.set(key, offers);
    }
    return offers;
  }

  private logProviderFailure(message: string, err: unknown, fields: Record<string, unknown> = {}): void {
    const level = isProviderError(err) && !isAmbiguousProviderFailure(err) ? 'warn' : 'error';
    this.cfg.log[level](message, { ...fields, err });
  }

  // -------------------------------------------------------------------------------------------
  // Creating sessions

  async createSession(input: CreateSessionInput, request: Request, idempotencyKey: string | null): Promise<CreatedSession> {
    if (idempotencyKey === null) {
      const order = await this.resolve(input.order_ref, request);
      const selection = this.choose(input, order, await this.offers(order));
      const coid = order.client_order_id ?? generateClientOrderId();
      const record = await this.createAtProvider(input, this.priced(order, selection), selection, coid, {
        recover: false,
        generated: order.client_order_id === null,
      });
      return { record, token: this.cfg.tokens.sign(record.sid, record.expires_at), replayed: false };
    }
    return this.createIdempotent(input, request, idempotencyKey);
  }

  private choose(input: CreateSessionInput, order: CheckedOrder, offers: readonly MethodOffer[]): MethodSelection {
    if (offers.length === 0) {
      throw new CheckoutError(409, 'method_unavailable', 'No payment method accepts this amount right now.');
    }
    return selectMethod(input, offers, input.mode);
  }

  /** The order as sent to the provider: with `feePayer: 'shopper'` its amount includes the method's fee. */
  private priced(order: CheckedOrder, selection: MethodSelection): CheckedOrder {
    if (this.cfg.feePayer !== 'shopper' || selection.offer === null) return order;
    return { ...order, amount: selection.offer.view.total };
  }

  private async createIdempotent(input: CreateSessionInput, request: Request, key: string): Promise<CreatedSession> {
    const { store, now } = this.cfg;
    const hash = sha256Base64url(key);
    const storeKey = `idem:${hash}`;
    const channel = `idem-ev:${hash}`;
    const fingerprint = sha256Base64url(
      JSON.stringify([
        input.order_ref,
        input.mode,
        input.payment_method_id ?? null,
        input.method_type ?? null,
        input.nspk_code ?? null,
        input.customer_bank ?? null,
        input.button_name ?? null,
      ]),
    );
    const deadline = performance.now() + this.cfg.idempotencyWaitMs;
    let unsubscribe: (() => Promise<void>) | null = null;
    let wake: (() => void) | null = null;
    try {
      for (;;) {
        const current = await store.get(storeKey);
        if (!current) {
          const claim: IdempotencyRecord = {
            fingerprint,
            state: 'pending',
            owner: randomId(9),
            lease_until: now() + this.cfg.idempotencyLeaseMs,
            started_at: now(),
            client_order_id: null,
            sid: null,
            expires_at: null,
          };
          if (await store.create(storeKey, JSON.stringify(claim), this.cfg.idempotencyTtlMs)) {
            return await this.runClaim(storeKey, channel, 1, claim, input, request);
          }
          continue;
        }
        const rec = JSON.parse(current.value) as IdempotencyRecord;
        if (rec.fingerprint !== fingerprint) {
          throw new CheckoutError(
            409,
            'idempotency_conflict',
            'This Idempotency-Key was already used with different parameters. Use a new key for a new payment.',
          );
        }
        if (rec.state === 'done' && rec.sid !== null && rec.expires_at !== null) {
          const record = await this.repo.get(rec.sid);
          if (!record) throw new CheckoutError(404, 'not_found', 'This payment session has ended. Please start again.');
          return { record, token: this.cfg.tokens.sign(record.sid, rec.expires_at), replayed: true };
        }
        if (rec.state === 'uncertain' || rec.lease_until <= now()) {
          // The first attempt failed without knowing whether the provider created the order, or its
          // owner vanished: take over, and look the order up before creating it again.
          const takeover: IdempotencyRecord = { ...rec, state: 'pending', owner: randomId(9), lease_until: now() + this.cfg.idempotencyLeaseMs };
          const version = await store.replace(storeKey, current.version, JSON.stringify(takeover), this.cfg.idempotencyTtlMs);
          if (version !== null) return await this.runClaim(storeKey, channel, version, takeover, input, request);
          continue;
        }
        // Another request with this key is creating the session: wait for it.
        const left = deadline - performance.now();
        if (left <= 0) {
          throw new CheckoutError(409, 'idempotency_in_progress', 'This payment is still being prepared. Please try again in a moment.', {
            retryable: true,
            headers: { 'retry-after': '1' },
          });
        }
        if (!unsubscribe) {
          unsubscribe = await store.subscribe(channel, () => wake?.());
          continue; // read again: the change may have landed before the subscription
        }
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, Math.min(250, left));
          wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        wake = null;
      }
    } finally {
      if (unsubscribe) await unsubscribe().catch(() => undefined);
    }
  }

  /** Runs the creation this request has claimed, keeping the idempotency record in step. */
  private async runClaim(
    storeKey: string,
    channel: string,
    version: number,
    claim: IdempotencyRecord,
    input: CreateSessionInput,
    request: Request,
  ): Promise<CreatedSession> {
    const { store } = this.cfg;
    let rec = claim;
    let ver = version;
    const save = async (next: IdempotencyRecord): Promise<boolean> => {
      const v = await store.replace(storeKey, ver, JSON.stringify(next), this.cfg.idempotencyTtlMs);
      if (v === null) return false;
      ver = v;
      rec = next;
      await store.publish(channel, next.state).catch(() => undefined);
      return true;
    };
    const recovering = claim.client_order_id !== null;
    try {
      const order = await this.resolve(input.order_ref, request);
      const selection = this.choose(input, order, await this.offers(order));
      if (rec.client_order_id === null) {
        const coid = order.client_order_id ?? generateClientOrderId();
        // Persist the client order id before the provider sees it: a retry after a lost answer looks it up.
        if (!(await save({ ...rec, client_order_id: coid, lease_until: this.cfg.now() + this.cfg.idempotencyLeaseMs }))) {
          throw new CheckoutError(409, 'idempotency_in_progress', 'This payment is still being prepared. Please try again in a moment.', {
            retryable: true,
            headers: { 'retry-after': '1' },
          });
        }
      }
      const coid = rec.client_order_id!;
      const record = await this.createAtProvider(input, this.priced(order, selection), selection, coid, {
        recover: recovering,
        generated: order.client_order_id === null,
        since: claim.started_at,
      });
      if (!(await save({ ...rec, state: 'done', sid: record.sid, expires_at: record.expires_at }))) {
        this.cfg.log.warn('an idempotency claim was taken over while its order was being created', { client_order_id: coid });
      }
      return { record, token: this.cfg.tokens.sign(record.sid, record.expires_at), replayed: false };
    } catch (err) {
      // Ambiguous: the provider may have created the order (lost answer, timeout, garbage, or an
      // unexpected throw): keep the client order id so the next attempt looks it up first.
      const cause = err instanceof CheckoutError ? err.cause : err;
      const ambiguous =
        rec.client_order_id !== null && (err instanceof CheckoutError ? isProviderError(cause) && isAmbiguousProviderFailure(cause) : true);
      try {
        if (ambiguous) await save({ ...rec, state: 'uncertain', lease_until: 0 });
        else if (await store.delete(storeKey, ver)) await store.publish(channel, 'released').catch(() => undefined);
      } catch (storeErr) {
        this.cfg.log.error('could not update an idempotency record after a failed create', { err: storeErr });
      }
      throw err;
    }
  }

  /**
   * Creates the order (h2h, order_with_form) or the form at the provider and stores the session.
   * With `recover`, first looks for an order an earlier, lost attempt created with this client order id.
   */
  private async createAtProvider(
    input: CreateSessionInput,
    order: CheckedOrder,
    selection: MethodSelection,
    coid: string,
    opts: { recover: boolean; generated: boolean; since?: number },
  ): Promise<SessionRecord> {
    // Bound the whole creation (the client's own retries and lookups included) within the
    // idempotency lease, so a claim is only ever taken over from an owner that has stopped. One
    // timer, cleared when the creation ends (AbortSignal.timeout would linger until it fires).
    const ms = Math.max(1000, this.cfg.idempotencyLeaseMs - 5000);
    const lease = new AbortController();
    const timer = setTimeout(() => lease.abort(new DOMException(`the creation took longer than ${ms} ms`, 'TimeoutError')), ms);
    (timer as { unref?: () => void }).unref?.();
    try {
      return await this.createWithin(lease.signal, input, order, selection, coid, opts);
    } finally {
      clearTimeout(timer);
    }
  }

  private async createWithin(
    signal: AbortSignal,
    input: CreateSessionInput,
    order: CheckedOrder,
    selection: MethodSelection,
    coid: string,
    opts: { recover: boolean; generated: boolean; since?: number },
  ): Promise<SessionRecord> {
    const { client, log } = this.cfg;
    const mode = input.mode;
    const ctx: ViewContext = {
      currency: order.currency,
      requested_amount: order.amount,
      redirect_url: order.redirect_url,
      support_url: order.support_url,
      return_url: order.return_url,
      nspk_code: selection.offer?.method.nspk_code ?? selection.nspk_code ?? null,
      bank: selection.bank,
    };
    const base = {
      requested_amount: order.amount,
      currency: order.currency,
      unique_amount: order.unique_amount,
    };

    if (mode === 'form') {
      const body: FormCreateRequest = {
        order_data: {
          client_order_id: coid,
          order_side: 'Buy',
          amount: order.amount,
          ...(selection.button_name && { button_name: selection.button_name }),
          ...(selection.payment_method_id && { payment_method_id: selection.payment_method_id }),
          ...(order.user_id && { user_id: order.user_id }),
          ...(order.unique_amount && { unique_amount: true }),
        },
        ...(order.redirect_url && { redirect_url: order.redirect_url }),
        ...(order.support_url && { support_url: order.support_url }),
        ...(order.return_url && { return_url: order.return_url }),
      };
      let res;
      try {
        res = await client.createForm(body, { signal });
      } catch (err) {
        this.logProviderFailure('form creation failed', err, { client_order_id: coid });
        throw fromProviderError(err);
      }
      const data = res.form_data;
      const formUrl = sanitizeUrl(data.form_url);
      if (formUrl === null || data.order_data.client_order_id !== coid || !this.amountAcceptable(data.order_data.amount, { ...base, expected_amount: null })) {
        log.error('the provider answered form creation with a form that does not match the request', {
          client_order_id: coid,
          provider_client_order_id: data.order_data.client_order_id,
          provider_amount: data.order_data.amount,
        });
        throw fromProviderError({ name: 'ProviderError', code: 'invalid_response', message: 'form does not match' });
      }
      const createdAt = this.cfg.now();
      const view = formPendingView({
        client_order_id: coid,
        form_url: formUrl,
        amount: order.amount,
        createdAt: new Date(createdAt),
        expiresAt: new Date(createdAt + ORDER_LIFETIME_SECONDS * 1000),
        ctx,
      });
      return this.storeSession({ input, ctx, coid, generated: opts.generated, view, base, providerOrderId: null, formSessionId: data.session_id, expectedAmount: null });
    }

    let created: Order | undefined;
    if (opts.recover) {
      created = await this.findLostOrder(coid, base, opts.generated ? undefined : opts.since, signal);
      if (created) log.info('an order created by an earlier attempt with a lost answer was found and reused', { client_order_id: coid, order_id: created.id });
    }
    if (!created) {
      const body: CreateOrderRequest = {
        client_order_id: coid,
        order_side: 'Buy',
        amount: order.amount,
        ...(selection.payment_method_id ? { payment_method_id: selection.payment_method_id } : {}),
        ...(selection.method_type ? { method_type: selection.method_type as CreateOrderRequest['method_type'] } : {}),
        ...(selection.nspk_code ? { nspk_code: selection.nspk_code } : {}),
        ...(order.customer_name && { customer_name: order.customer_name }),
        ...(order.user_id && { user_id: order.user_id }),
        ...(this.cfg.webhookUrl && { webhook_url: this.cfg.webhookUrl }),
        ...(order.unique_amount && { unique_amount: true }),
        ...(mode === 'order_with_form'
          ? {
              ...(order.redirect_url && { redirect_url: order.redirect_url }),
              ...(order.support_url && { support_url: order.support_url }),
              ...(order.return_url && { return_url: order.return_url }),
              ...(selection.bank && { customer_bank: selection.bank }),
            }
          : {}),
      };
      try {
        created = await client.createOrder(body, { signal });
      } catch (err) {
        this.logProviderFailure('order creation failed', err, { client_order_id: coid });
        throw fromProviderError(err);
      }
    }
    const problem = this.orderProblem(created, { ...base, expected_amount: null }, coid);
    if (problem) {
      log.error(`the provider created an order that does not match the request (${problem}); it is not shown to the shopper`, {
        client_order_id: coid,
        order_id: created.id,
        provider_amount: created.amount,
        provider_currency: created.currency,
      });
      throw fromProviderError({ name: 'ProviderError', code: 'invalid_response', message: problem });
    }
    const view = orderToView(created, ctx);
    return this.storeSession({
      input,
      ctx,
      coid,
      generated: opts.generated,
      view,
      base,
      providerOrderId: created.id,
      formSessionId: null,
      expectedAmount: view.amount,
    });
  }

  private async findLostOrder(
    coid: string,
    base: { requested_amount: string; currency: string; unique_amount: boolean },
    since: number | undefined,
    signal: AbortSignal,
  ): Promise<Order | undefined> {
    let page;
    try {
      page = await this.cfg.client.searchOrdersByClientOrderId({ id: coid, size: 100 }, { signal });
    } catch (err) {
      this.logProviderFailure('looking up an order after a lost answer failed', err, { client_order_id: coid });
      throw fromProviderError(err);
    }
    const candidates = page.orders.items.filter(
      (o) =>
        o.client_order_id === coid &&
        o.order_side === 'Buy' &&
        this.orderProblem(o, { ...base, expected_amount: null }, coid) === null &&
        (since === undefined || (Date.parse(o.created_at) || 0) >= since - ORDER_CLOCK_SLACK_MS),
    );
    return newest(candidates);
  }

  private async storeSession(p: {
    input: CreateSessionInput;
    ctx: ViewContext;
    coid: string;
    generated: boolean;
    view: SessionRecord['view'];
    base: { requested_amount: string; currency: string; unique_amount: boolean };
    providerOrderId: string | null;
    formSessionId: string | null;
    expectedAmount: string | null;
  }): Promise<SessionRecord> {
    const now = this.cfg.now();
    const record: SessionRecord = {
      sid: this.cfg.tokens.newSessionId(),
      mode: p.input.mode,
      order_ref: p.input.order_ref,
      client_order_id: p.coid,
      client_order_id_generated: p.generated,
      provider_order_id: p.providerOrderId,
      form_session_id: p.formSessionId,
      ...p.base,
      expected_amount: p.expectedAmount,
      ctx: p.ctx,
      view: p.view,
      event: 1,
      created_at: now,
      expires_at: now + this.cfg.sessionTtlMs,
      refreshed_at: now,
      confirm_pending: false,
      flagged: null,
      hooks: { paid: false, closed: false, flagged: false },
    };
    await this.repo.create(record);
    this.cfg.log.info('session created', {
      session: record.sid,
      mode: record.mode,
      client_order_id: record.client_order_id,
      order_id: record.provider_order_id,
      amount: record.view.amount,
    });
    return record;
  }

  // -------------------------------------------------------------------------------------------
  // Amount and currency checks

  /** Does `amount` fit the session: exactly the requested amount, or within +9 with unique_amount? */
  amountAcceptable(
    amount: string,
    s: { requested_amount: string; currency: string; unique_amount: boolean; expected_amount: string | null },
  ): boolean {
    const normal = normaliseDecimal(amount, s.currency);
    if (normal === null) return false;
    try {
      if (s.expected_amount !== null) return compareAmounts(normal, s.expected_amount) === 0;
      const low = compareAmounts(normal, s.requested_amount);
      if (low < 0) return false;
      if (!s.unique_amount) return low === 0;
      return compareAmounts(normal, addAmounts(s.requested_amount, UNIQUE_AMOUNT_SPREAD, currencyDigits(s.currency))) <= 0;
    } catch {
      return false;
    }
  }

  /** Why a provider order does not belong to the session, or null. */
  orderProblem(
    order: Order,
    s: { requested_amount: string; currency: string; unique_amount: boolean; expected_amount: string | null },
    coid: string,
  ): string | null {
    if (order.client_order_id !== coid) return 'client_order_id differs';
    if (order.currency.toUpperCase() !== s.currency.toUpperCase()) return 'currency_mismatch';
    if (!this.amountAcceptable(order.amount, s)) return 'amount_mismatch';
    return null;
  }

  // -------------------------------------------------------------------------------------------
  // Following the status

  /** The session for a read: refreshed from the provider first when stale or asked to. */
  async read(sid: string, forceRefresh: boolean): Promise<{ rec: SessionRecord; viewJson: string }> {
    const cached = await this.repo.read(sid);
    if (!cached) throw new CheckoutError(404, 'not_found', 'This payment session was not found. Please start again.');
    const rec = cached.rec;
    if (isFinalStatus(rec.view.status) || (!forceRefresh && !this.needsRefresh(rec))) {
      this.ensureHooks(rec);
      return cached;
    }
    const fresh = await this.refreshIfNeeded(rec, forceRefresh);
    this.ensureHooks(fresh);
    return fresh === rec ? cached : { rec: fresh, viewJson: JSON.stringify(fresh.view) };
  }

  needsRefresh(rec: SessionRecord): boolean {
    if (isFinalStatus(rec.view.status)) return false;
    const now = this.cfg.now();
    return rec.confirm_pending || now - rec.refreshed_at >= this.cfg.staleMs || now >= (Date.parse(rec.view.expires_at) || 0);
  }

  /** Re-reads the provider at most once per refresh interval per session (across instances). Never throws. */
  async refreshIfNeeded(rec: SessionRecord, force: boolean): Promise<SessionRecord> {
    if (isFinalStatus(rec.view.status)) return rec;
    if (!force && !this.needsRefresh(rec)) return rec;
    try {
      if (!(await this.cfg.store.create(`lock:r:${rec.sid}`, '1', this.cfg.refreshIntervalMs))) return rec;
      return (await this.sync(rec)) ?? rec;
    } catch (err) {
      this.logProviderFailure('status refresh failed; the stored status is served', err, { session: rec.sid });
      return rec;
    }
  }

  /** Reads the order (or the form session) from the provider and applies it. Throws provider errors. */
  async sync(rec: SessionRecord): Promise<SessionRecord | null> {
    const page = await this.cfg.client.searchOrdersByClientOrderId({ id: rec.client_order_id, size: 100 });
    const items = page.orders.items.filter((o) => o.client_order_id === rec.client_order_id);
    let order: Order | undefined;
    if (rec.provider_order_id) {
      order = items.find((o) => o.id === rec.provider_order_id);
    } else {
      order = newest(
        items.filter(
          (o) =>
            o.order_side === 'Buy' &&
            (rec.client_order_id_generated || (Date.parse(o.created_at) || 0) >= rec.created_at - ORDER_CLOCK_SLACK_MS),
        ),
      );
    }
    if (order) return this.applyOrder(rec.sid, order);
    if (rec.mode === 'form' && !rec.provider_order_id && rec.form_session_id) {
      const sessions = await this.cfg.client.searchFormSessions({ session_id: rec.form_session_id });
      const fs = sessions.items.find((s) => s.session_id === rec.form_session_id);
      if (fs) return this.applyFormSession(rec.sid, fs);
    }
    if (rec.provider_order_id) {
      this.cfg.log.warn('the provider did not list the order of a session', { session: rec.sid, order_id: rec.provider_order_id });
    }
    const res = await this.repo.update(rec.sid, (cur) => ({ ...cur, refreshed_at: this.cfg.now(), confirm_pending: false }));
    return res?.after ?? null;
  }

  /**
   * Applies a provider order (read from the provider itself, never from a webhook body) to a session:
   * status only moves forward; an amount or currency that does not match flags the session instead.
   */
  async applyOrder(sid: string, order: Order): Promise<SessionRecord | null> {
    const { log } = this.cfg;
    const res = await this.repo.update(sid, (cur) => {
      if (cur.client_order_id !== order.client_order_id) return null;
      if (cur.provider_order_id && cur.provider_order_id !== order.id) return null;
      const next: SessionRecord = { ...cur, refreshed_at: this.cfg.now(), confirm_pending: false, provider_order_id: order.id };
      const problem = this.orderProblem(order, cur, cur.client_order_id);
      if (problem === 'amount_mismatch' || problem === 'currency_mismatch') {
        if (!cur.flagged) {
          next.flagged = { reason: problem, provider_amount: order.amount, provider_currency: order.currency, at: this.cfg.now() };
          log.error(`the provider reports an order that does not match the session (${problem}); it is flagged, not marked paid`, {
            session: sid,
            order_id: order.id,
            provider_status: order.status,
            provider_amount: order.amount,
            provider_currency: order.currency,
            expected_amount: cur.expected_amount ?? cur.requested_amount,
            expected_currency: cur.currency,
          });
        }
        return next;
      }
      if (cur.flagged) return next;
      const outcome = orderOutcome(order.status);
      if (isFinalStatus(cur.view.status)) {
        if (outcome !== cur.view.status) {
          log.warn('the provider reports a different final status than the one already recorded; the first one stands', {
            session: sid,
            order_id: order.id,
            recorded: cur.view.status,
            provider_status: order.status,
          });
        }
        return next;
      }
      if (cur.expected_amount === null) next.expected_amount = normaliseDecimal(order.amount, cur.currency);
      const view = orderToView(order, cur.ctx);
      if (view.form_url === null && cur.view.form_url !== null) view.form_url = cur.view.form_url;
      if (viewsDiffer(view, cur.view)) {
        next.view = view;
        next.event = cur.event + 1;
      }
      return next;
    });
    if (!res) return null;
    this.afterChange(res.after, order);
    return res.after;
  }

  /** A form session without an order: only its end (expired, cancelled) and expiry time matter. */
  private async applyFormSession(sid: string, fs: FormSession): Promise<SessionRecord | null> {
    const res = await this.repo.update(sid, (cur) => {
      const next: SessionRecord = { ...cur, refreshed_at: this.cfg.now(), confirm_pending: false };
      if (isFinalStatus(cur.view.status) || cur.provider_order_id) return next;
      const status = fs.state === 'expired' ? 'expired' : fs.state === 'cancelled' ? 'cancelled' : 'pending';
      const expires = Date.parse(fs.expires_at);
      const view = {
        ...cur.view,
        status,
        provider_status: fs.state,
        expires_at: Number.isNaN(expires) ? cur.view.expires_at : new Date(expires).toISOString(),
      } as SessionRecord['view'];
      if (viewsDiffer(view, cur.view)) {
        next.view = view;
        next.event = cur.event + 1;
      }
      return next;
    });
    if (!res) return null;
    this.afterChange(res.after, null);
    return res.after;
  }

  // -------------------------------------------------------------------------------------------
  // Webhooks (already authenticated by the handler)

  /**
   * Stores that a verified webhook arrived for an order, then confirms its status by reading the
   * order back from the provider. Returns once stored; `confirmed` says whether the read finished in time.
   */
  async receiveWebhook(orderId: string, clientOrderId: string): Promise<{ known: boolean; confirmed: boolean }> {
    const rec = await this.repo.findByOrder(orderId, clientOrderId);
    if (!rec) return { known: false, confirmed: false };
    if (isFinalStatus(rec.view.status)) {
      this.ensureHooks(rec);
      return { known: true, confirmed: true };
    }
    await this.repo.update(rec.sid, (cur) => (cur.confirm_pending ? null : { ...cur, confirm_pending: true }));
    const confirmation = this.track(
      this.sync(rec).then(
        () => true,
        (err: unknown) => {
          this.logProviderFailure('confirming a webhook with the provider failed; it is retried on the next status read', err, {
            session: rec.sid,
            order_id: orderId,
          });
          return false;
        },
      ),
    );
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), this.cfg.webhookConfirmTimeoutMs);
    });
    try {
      return { known: true, confirmed: await Promise.race([confirmation, timeout]) };
    } finally {
      clearTimeout(timer);
    }
  }

  // -------------------------------------------------------------------------------------------
  // Hooks, exactly once

  /** Runs hooks a session's state calls for and that have not completed (in the background). */
  ensureHooks(rec: SessionRecord): void {
    const h = this.cfg.hooks;
    if (
      (h.paid && rec.view.status === 'paid' && !rec.hooks.paid) ||
      (h.closed && (rec.view.status === 'expired' || rec.view.status === 'cancelled') && !rec.hooks.closed) ||
      (h.flagged && rec.flagged && !rec.hooks.flagged)
    ) {
      this.afterChange(rec, null);
    }
  }

  private afterChange(rec: SessionRecord, order: Order | null): void {
    const h = this.cfg.hooks;
    if (h.paid && rec.view.status === 'paid' && !rec.hooks.paid) {
      void this.track(this.runOnce('paid', rec, order, h.paid));
    }
    if (h.closed && (rec.view.status === 'expired' || rec.view.status === 'cancelled') && !rec.hooks.closed) {
      void this.track(this.runOnce('closed', rec, order, h.closed));
    }
    if (h.flagged && rec.flagged && !rec.hooks.flagged) {
      const flagged = rec.flagged;
      void this.track(
        this.runOnce('flagged', rec, order, (event) =>
          h.flagged!({
            ...event,
            reason: flagged.reason,
            expected_amount: rec.expected_amount ?? rec.requested_amount,
            expected_currency: rec.currency,
          }),
        ),
      );
    }
  }

  private async runOnce(
    kind: 'paid' | 'closed' | 'flagged',
    rec: SessionRecord,
    order: Order | null,
    hook: (event: OrderEvent) => void | Promise<void>,
  ): Promise<void> {
    const { store, log } = this.cfg;
    const marker = `hook:${kind}:${rec.provider_order_id ?? `${rec.client_order_id}:${rec.sid}`}`;
    if (!(await store.create(marker, 'running', HOOK_LEASE_MS))) {
      const v = await store.get(marker);
      if (v?.value === 'done') await this.markHookDone(rec.sid, kind);
      return;
    }
    const name = kind === 'paid' ? 'onOrderPaid' : kind === 'closed' ? 'onOrderClosed' : 'onOrderFlagged';
    try {
      await hook({
        order: rec.view,
        order_ref: rec.order_ref,
        client_order_id: rec.client_order_id,
        provider_order_id: rec.provider_order_id,
        provider_order: order,
        session_id: rec.sid,
      });
    } catch (err) {
      log.error(`${name} failed; it runs again on the next status update of this order`, { session: rec.sid, err });
      await store.delete(marker).catch(() => undefined);
      return;
    }
    await store.set(marker, 'done', HOOK_DONE_TTL_MS);
    await this.markHookDone(rec.sid, kind);
  }

  private async markHookDone(sid: string, kind: 'paid' | 'closed' | 'flagged'): Promise<void> {
    await this.repo.update(sid, (cur) => (cur.hooks[kind] ? null : { ...cur, hooks: { ...cur.hooks, [kind]: true } }));
  }
}

/** A unique client order id: `pd_` + time (base 36) + 96 random bits; 28 characters. */
export function generateClientOrderId(): string {
  return `pd_${Date.now().toString(36)}${randomId(12)}`;
}

function newest<T extends { created_at: string }>(items: T[]): T | undefined {
  let best: T | undefined;
  for (const item of items) {
    if (!best || (Date.parse(item.created_at) || 0) >= (Date.parse(best.created_at) || 0)) best = item;
  }
  return best;
}
