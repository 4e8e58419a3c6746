/**
 * Creating a session: the order (h2h, order_with_form) or the hosted form at the provider, and the
 * session record that follows it. One client_order_id makes at most one live provider order:
 *
 * - after an answer that does not say whether the provider created the order (a timeout, a network
 *   error, an ambiguous 5xx), the client order id is marked uncertain, and every later attempt with
 *   it looks the order up before creating anything;
 * - a client order id the merchant gave (resolveOrder) is created under a lease, and a session of it
 *   that is still pending is answered again instead of creating a second order (two tabs, a double
 *   click without an Idempotency-Key);
 * - the id is marked uncertain before the create is sent (cleared once its session is stored): after
 *   a crash meanwhile the retry adopts the order, and the sweep leaves a paid order of that id to the
 *   retry while the mark lives (sweep/orphans.ts), instead of flagging it `session_lost`;
 * - a webhook that came before the answer (an orphan) is taken by the new session at once (Inbox.takeEarly).
 */
import { ORDER_LIFETIME_SECONDS } from '../../provider/facts.js';
import { latestCreated, providerTime } from '../../provider/matching.js';
import { decimalAmount } from '../../provider/schemas.js';
import type { CreateOrderRequest, FormCreateRequest, Order } from '../../provider/schemas.js';
import type { IntegrationMode } from '../../protocol/index.js';
import { CheckoutError, idempotencyInProgress, fromProviderError } from '../errors.js';
import type { MethodRequest, MethodSelection } from '../methods.js';
import { formPendingView, orderToView, sanitizeUrl } from '../order-view.js';
import type { ViewContext } from '../order-view.js';
import { freshHook, generateClientOrderId } from '../sessions.js';
import type { SessionRecord } from '../sessions.js';
import { ORDER_CLOCK_SLACK_MS } from './config.js';
import type { CheckoutCore } from './core.js';
import { amountAcceptable, orderProblem } from './matching.js';
import type { Offers } from './offers.js';
import { resolveOrder } from './resolve.js';
import type { CheckedOrder } from './resolve.js';
import { orderTrace } from '../telemetry.js';
import { clearUncertain, holdCreateLease, inFlightUntil, markBeforeSend, markUncertain, provesNotCreated, readUncertain, type UncertainCreate } from './create-once.js';
import type { Inbox } from './inbox.js';

// The create-once rule (lease, unknown outcomes, in-flight guard: create-once.ts) is shared with every order the server creates.
export { CREATE_IN_FLIGHT_MS, provesNotCreated } from './create-once.js';

/** The body of `POST /sessions`, shape-checked. */
export interface CreateSessionInput extends MethodRequest {
  order_ref: string; purchase?: string;
  mode: IntegrationMode;
}

export interface CreatedSession {
  record: SessionRecord;
  token: string;
  /** True when an earlier request (same Idempotency-Key, or the same pending client order) made it. */
  replayed: boolean;
}

export interface CreateOptions {
  /** Look for an order an earlier attempt with this client order id may have made, before creating. */
  recover: boolean;
  generated: boolean;
  /** When the first attempt started (orders older than this, less a slack, are not its own). */
  since?: number;
  /** An earlier attempt's create may still reach the provider until then (ms): no new create before. */
  inFlightUntil?: number;
  /** No later request can use this client order id (generated, no Idempotency-Key): no retry to wait for. */
  oneShot?: boolean;
  earlier?: UncertainCreate | null; // the uncertain marker as read under the lease (null: none), not read again before the send
}

type Terms = { requested_amount: string; currency: string; unique_amount: boolean };

export class Creator {
  constructor(
    private readonly core: CheckoutCore,
    private readonly offers: Offers,
    private readonly inbox: Inbox,
  ) {}

  /** Resolves, prices and creates; the plain path (no Idempotency-Key). */
  async createPlain(input: CreateSessionInput, request: Request): Promise<CreatedSession> {
    const order = await resolveOrder(this.core, input.order_ref, request);
    const selection = this.offers.choose(input, await this.offers.for(order));
    const coid = order.client_order_id ?? this.core.cfg.tokens.clientOrderIdFor(input.order_ref) ?? generateClientOrderId();
    const generated = order.client_order_id === null;
    return this.createForClientOrder(input, this.offers.priced(order, selection), selection, coid, { recover: false, generated, oneShot: generated });
  }

  /**
   * Creates for `coid`, keeping the rule "one client order id, at most one live provider order":
   * an uncertain earlier attempt is looked up first; a merchant's client order id is created under
   * a lease, and its pending session is answered again instead of creating a second order.
   */
  async createForClientOrder(
    input: CreateSessionInput,
    order: CheckedOrder,
    selection: MethodSelection,
    coid: string,
    opts: CreateOptions,
  ): Promise<CreatedSession> {
    const { store, idempotencyLeaseMs, idempotencyWaitMs } = this.core.cfg;
    if (opts.generated) {
      const record = await this.createAtProvider(input, order, selection, coid, await this.withUncertainty(coid, opts));
      return { record, token: this.sign(record), replayed: false };
    }
    const release = await holdCreateLease(store, coid, { leaseMs: idempotencyLeaseMs, waitMs: idempotencyWaitMs }, idempotencyInProgress);
    try {
      const live = await this.livePendingSession(coid, input.order_ref);
      if (live) return { record: live, token: this.sign(live), replayed: true };
      const record = await this.createAtProvider(input, order, selection, coid, await this.withUncertainty(coid, opts));
      return { record, token: this.sign(record), replayed: false };
    } finally {
      await release();
    }
  }

  /** An earlier attempt with this id whose outcome is unknown makes this one look it up first (only orders since then count); a one-shot id is this request's own. */
  private async withUncertainty(coid: string, opts: CreateOptions): Promise<CreateOptions> {
    const marker = opts.oneShot ? null : await readUncertain(this.core.cfg.store, coid);
    if (!marker) return { ...opts, earlier: null };
    const until = inFlightUntil(marker);
    return {
      ...opts,
      earlier: marker,
      recover: true,
      since: opts.since ?? marker.since,
      ...(until !== undefined && { inFlightUntil: until }),
    };
  }

  private sign(record: SessionRecord): string {
    return this.core.cfg.tokens.sign(record.sid, record.expires_at);
  }

  /** A session of this merchant client order that is still pending and whose token is still valid. */
  private async livePendingSession(coid: string, orderRef: string): Promise<SessionRecord | null> {
    const now = this.core.cfg.now();
    const sids = await this.core.repo.sessionsOfClientOrder(coid);
    for (const sid of [...sids].reverse()) {
      const rec = await this.core.repo.get(sid);
      if (!rec || rec.order_ref !== orderRef || rec.view.status !== 'pending' || rec.expires_at <= now) continue;
      if ((providerTime(rec.view.expires_at) || 0) <= now) continue;
      return rec;
    }
    return null;
  }

  /**
   * Creates the order (h2h, order_with_form) or the form at the provider and stores the session.
   * The whole creation (the client's own lookups included) is bounded within the idempotency lease,
   * so a claim is only ever taken over from an owner that has stopped.
   */
  async createAtProvider(
    input: CreateSessionInput,
    order: CheckedOrder,
    selection: MethodSelection,
    coid: string,
    opts: CreateOptions,
  ): Promise<SessionRecord> {
    const startedAt = this.core.cfg.now();
    const ms = Math.max(1000, this.core.cfg.idempotencyLeaseMs - 5000);
    const lease = new AbortController();
    const timer = setTimeout(() => lease.abort(new DOMException(`the creation took longer than ${ms} ms`, 'TimeoutError')), ms);
    (timer as { unref?: () => void }).unref?.();
    try {
      return await this.createWithin(lease.signal, input, order, selection, coid, opts);
    } catch (err) {
      const stillInFlight = err instanceof CheckoutError && err.code === 'idempotency_in_progress';
      // A timeout, a lost answer, our own deadline or anything unexpected: the provider may still
      // create it, so every later attempt with this id looks it up first (and waits while it may land).
      if (!stillInFlight && !provesNotCreated(err)) {
        const marker = { since: opts.since ?? startedAt, at: this.core.cfg.now() };
        await markUncertain(this.core.cfg.store, coid, marker, this.uncertainTtl(opts)).catch((storeErr: unknown) => {
          this.core.cfg.log.error('could not remember an uncertain creation', { client_order_id: coid, err: storeErr });
        });
      }
      throw err;
    } finally {
      clearTimeout(timer);
    }
  }

  /** An uncertain mark lives while a retry may use it (the key's record, and a lease more), or, for a one-shot id, while its create may be answered. */
  private uncertainTtl(opts: CreateOptions): number {
    return this.core.cfg.idempotencyLeaseMs + (opts.oneShot ? 0 : this.core.cfg.idempotencyTtlMs);
  }

  private async createWithin(
    signal: AbortSignal,
    input: CreateSessionInput,
    order: CheckedOrder,
    selection: MethodSelection,
    coid: string,
    opts: CreateOptions,
  ): Promise<SessionRecord> {
    const { client, log } = this.core.cfg;
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
    const terms: Terms = { requested_amount: order.amount, currency: order.currency, unique_amount: order.unique_amount };

    if (mode === 'form') return this.createFormAtProvider(signal, input, order, selection, coid, opts.generated, ctx, terms);

    let created: Order | undefined;
    if (opts.recover) {
      created = await this.findLostOrder(coid, terms, opts.since, signal);
      if (!created && opts.inFlightUntil !== undefined && this.core.cfg.now() < opts.inFlightUntil) {
        log.warn('an earlier create of this order may still reach the provider; not creating another yet', { client_order_id: coid });
        throw idempotencyInProgress();
      }
      if (created) log.info('an order created by an earlier attempt with a lost answer was found and reused', { client_order_id: coid, order_id: created.id });
    }
    if (!created) {
      const body: CreateOrderRequest = {
        client_order_id: coid,
        order_side: 'Buy',
        amount: decimalAmount(order.amount),
        ...(selection.payment_method_id ? { payment_method_id: selection.payment_method_id } : {}),
        ...(selection.method_type ? { method_type: selection.method_type as CreateOrderRequest['method_type'] } : {}),
        ...(selection.nspk_code ? { nspk_code: selection.nspk_code } : {}),
        ...(order.customer_name && { customer_name: order.customer_name }),
        ...(order.user_id && { user_id: order.user_id }),
        ...(this.core.cfg.webhookUrl && { webhook_url: this.core.cfg.webhookUrl }),
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
      // Marked before it is sent: after a crash meanwhile, the retry adopts the order, and the sweep leaves it to that retry.
      const unmark = await markBeforeSend(this.core.cfg.store, coid, this.core.cfg.now(), opts.since, this.uncertainTtl(opts), opts.earlier);
      try {
        created = await client.createOrder(body, { signal });
      } catch (err) {
        this.core.logProviderFailure('order creation failed', err, { client_order_id: coid });
        if (provesNotCreated(err)) await unmark().catch((e: unknown) => log.error('could not restore the uncertain mark', { client_order_id: coid, err: e }));
        throw fromProviderError(err);
      }
    }
    const problem = orderProblem(created, { ...terms, expected_amount: null }, coid);
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
    const record = await this.storeSession({
      input,
      ctx,
      coid,
      generated: opts.generated,
      view,
      terms,
      providerOrderId: created.id,
      formSessionId: null,
      expectedAmount: view.amount,
    });
    // Stored: the mark goes, and a webhook before this answer (or adoption), kept as an orphan, is taken now.
    return (await Promise.all([clearUncertain(this.core.cfg.store, coid).catch(() => undefined), this.inbox.takeEarly(record)]))[1];
  }

  /** The hosted form at the provider (mode `form`): its session, not an order yet. */
  private async createFormAtProvider(
    signal: AbortSignal,
    input: CreateSessionInput,
    order: CheckedOrder,
    selection: MethodSelection,
    coid: string,
    generated: boolean,
    ctx: ViewContext,
    terms: Terms,
  ): Promise<SessionRecord> {
    const { client, log } = this.core.cfg;
    const body: FormCreateRequest = {
      order_data: {
        client_order_id: coid,
        order_side: 'Buy',
        amount: decimalAmount(order.amount),
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
      this.core.logProviderFailure('form creation failed', err, { client_order_id: coid });
      throw fromProviderError(err);
    }
    const data = res;
    const formUrl = sanitizeUrl(data.form_url);
    if (formUrl === null || data.order_data.client_order_id !== coid || !amountAcceptable(data.order_data.amount, { ...terms, expected_amount: null })) {
      log.error('the provider answered form creation with a form that does not match the request', {
        client_order_id: coid,
        provider_client_order_id: data.order_data.client_order_id,
        provider_amount: data.order_data.amount,
      });
      throw fromProviderError({ name: 'ProviderError', code: 'invalid_response', message: 'form does not match' });
    }
    const createdAt = this.core.cfg.now();
    const view = formPendingView({
      client_order_id: coid,
      form_url: formUrl,
      amount: order.amount,
      createdAt: new Date(createdAt),
      expiresAt: new Date(createdAt + ORDER_LIFETIME_SECONDS * 1000),
      ctx,
    });
    return this.storeSession({ input, ctx, coid, generated, view, terms, providerOrderId: null, formSessionId: data.session_id, expectedAmount: null });
  }

  private async findLostOrder(coid: string, terms: Terms, since: number | undefined, signal: AbortSignal): Promise<Order | undefined> {
    let page;
    try {
      page = await this.core.cfg.client.searchOrdersByClientOrderId({ id: coid, size: 100 }, { signal });
    } catch (err) {
      this.core.logProviderFailure('looking up an order after a lost answer failed', err, { client_order_id: coid });
      throw fromProviderError(err);
    }
    const candidates = page.items.filter(
      (o) =>
        o.client_order_id === coid &&
        o.order_side === 'Buy' &&
        orderProblem(o, { ...terms, expected_amount: null }, coid) === null &&
        (since === undefined || (providerTime(o.created_at) || 0) >= since - ORDER_CLOCK_SLACK_MS),
    );
    // Another session's order is never adopted (the store is asked only about the orders that fit).
    const free: Order[] = [];
    for (const o of candidates) if (!(await this.core.repo.findByOrderId(o.id))) free.push(o);
    return latestCreated(free);
  }

  private async storeSession(p: {
    input: CreateSessionInput;
    ctx: ViewContext;
    coid: string;
    generated: boolean;
    view: SessionRecord['view'];
    terms: Terms;
    providerOrderId: string | null;
    formSessionId: string | null;
    expectedAmount: string | null;
  }): Promise<SessionRecord> {
    const { cfg } = this.core;
    const now = cfg.now();
    const record: SessionRecord = {
      sid: cfg.tokens.newSessionId(),
      mode: p.input.mode,
      ...(p.input.purchase === undefined ? { order_ref: p.input.order_ref } : { order_ref: p.input.order_ref, purchase: p.input.purchase }),
      client_order_id: p.coid,
      client_order_id_generated: p.generated,
      provider_order_id: p.providerOrderId,
      form_session_id: p.formSessionId,
      ...p.terms,
      expected_amount: p.expectedAmount,
      ctx: p.ctx,
      view: p.view,
      event: 1,
      created_at: now,
      expires_at: now + cfg.sessionTtlMs,
      retain_until: this.core.retainUntil(now),
      refreshed_at: now,
      confirm_pending: false,
      ended_at: null,
      payment: null,
      dispute: null,
      disputes: [],
      flagged: null,
      flags: [],
      hooks: { paid: freshHook(), closed: freshHook(), flagged: freshHook() },
      history: [{ at: now, status: p.view.status, provider_status: p.view.provider_status, via: 'create' }],
    };
    const trace = orderTrace();
    if (trace) record.trace = trace;
    await this.core.repo.create(record);
    cfg.log.info('session created', {
      session: record.sid,
      mode: record.mode,
      client_order_id: record.client_order_id,
      order_id: record.provider_order_id,
      amount: record.view.amount,
    });
    return record;
  }
}
