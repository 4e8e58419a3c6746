/**
 * The sandbox's business rules: H2H orders, form sessions and their state machine, the balance
 * ledger, expiry on the sandbox clock, disputes, anti-fraud and rate limits. Pure in-memory state
 * per terminal; every change of an order status goes through {@link SandboxEngine.transition}, which
 * keeps the ledger, the form session and the webhooks in step.
 */
import { randomUUID } from 'node:crypto';
import {
  ORDER_LIFETIME_SECONDS,
  PROVIDER_MESSAGES,
  bankByButtonName,
  bankByCustomerBank,
  crc16ccitt,
  type OrderSide,
} from '../provider/facts.js';
import {
  createOrderRuleViolations,
  formCreateRuleViolations,
  type CreateOrderRequest,
  type FormCreateRequest,
  type WebhookEnvelope,
} from '../provider/schemas.js';
import { MoneyError, addAmounts, applyFee, compareAmounts, numberToDecimal, parseAmount, subtractAmounts, toMinor } from '../money/index.js';
import { CATALOG, methodById, methodByType, rangeFor, requisitesKind, type MethodDef, type Requisite } from './catalog.js';
import type { SandboxClock } from './clock.js';
import {
  BLACKLISTED_CUSTOMER_ACCOUNTS,
  FORM_SESSION_LIFETIME_SECONDS,
  NO_TRADERS_FRACTION,
  PAYMENT_CONFIRMATION_SECONDS,
  RATE_WINDOW_MS,
  REQUISITES_SEARCH_SECONDS,
  UNIQUE_AMOUNT_STEPS,
} from './constants.js';
import { SandboxHttpError, fieldError, providerError } from './errors.js';
import { nspkQrId, webhookDatetime, isoMillis } from './format.js';
import { orderJson } from './serialize.js';
import { TerminalData, insertByTime, type DisputeRecord, type OrderRecord, type SessionRecord, type Terminal, type TransactionRecord } from './terminal.js';
import type { WebhookDispatcher } from './webhooks.js';

const LIFETIME_MS = ORDER_LIFETIME_SECONDS * 1000;

export const FINAL_SESSION_STATES: ReadonlySet<string> = new Set(['completed', 'expired', 'cancelled']);
export const isFinalSessionState = (state: string) => FINAL_SESSION_STATES.has(state);

/** Session state an order's final status leads to. */
const SESSION_STATE_FOR: Record<string, string> = {
  Completed: 'completed',
  CanceledByTimeout: 'expired',
  CanceledByService: 'cancelled',
};

/** A method chosen on the hosted form (widget protocol `POST /sessions` body, minus `order_ref`). */
export interface MethodSelection {
  payment_method_id?: string | null;
  method_type?: string | null;
  nspk_code?: string | null;
  customer_bank?: string | null;
  button_name?: string | null;
}

export interface EngineOptions {
  clock: SandboxClock;
  webhooks: WebhookDispatcher;
}

export class SandboxEngine {
  readonly terminals = new Map<string, Terminal>();
  /** session id → where it lives (the hosted form finds sessions without an API key). */
  private readonly sessionIndex = new Map<string, { terminal: Terminal; session: SessionRecord }>();
  private readonly sessionListeners = new Map<string, Set<() => void>>();
  private readonly clock: SandboxClock;
  private readonly webhooks: WebhookDispatcher;

  constructor(options: EngineOptions) {
    this.clock = options.clock;
    this.webhooks = options.webhooks;
  }

  now(): number {
    return this.clock.now();
  }

  // -------------------------------------------------------------------------------------------
  // Terminals

  addTerminal(terminal: Terminal): void {
    if (this.terminals.has(terminal.apiKey)) throw new Error(`a terminal with this API key already exists`);
    this.terminals.set(terminal.apiKey, terminal);
  }

  /** Throws away a terminal's data and settings (the caller seeds it again). */
  clearTerminal(terminal: Terminal): void {
    this.webhooks.cancelTerminal(terminal);
    for (const s of terminal.data.sessions) {
      this.sessionIndex.delete(s.id);
      this.notifySession(s.id);
    }
    terminal.data = new TerminalData();
    terminal.resetSettings();
  }

  findSession(id: string): { terminal: Terminal; session: SessionRecord } | undefined {
    return this.sessionIndex.get(id);
  }

  /** Calls `listener` on every change of the session or its order; returns the unsubscribe function. */
  subscribeSession(sessionId: string, listener: () => void): () => void {
    let set = this.sessionListeners.get(sessionId);
    if (!set) this.sessionListeners.set(sessionId, (set = new Set()));
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0) this.sessionListeners.delete(sessionId);
    };
  }

  private notifySession(sessionId: string | null): void {
    if (!sessionId) return;
    const set = this.sessionListeners.get(sessionId);
    if (set) for (const listener of [...set]) listener();
  }

  // -------------------------------------------------------------------------------------------
  // Time: expiries and auto-payments fall due lazily on every request and in the sweep

  processDue(terminal: Terminal, now = this.clock.now()): void {
    const due = terminal.data.due;
    for (let key = due.peekKey(); key !== undefined && key <= now; key = due.peekKey()) {
      const { value } = due.pop()!;
      switch (value.kind) {
        case 'expire':
          if (value.order.status === 'Unpaid') this.transition(terminal, value.order, 'CanceledByTimeout', key);
          break;
        case 'autopay':
          if (value.order.status === 'Unpaid') this.transition(terminal, value.order, 'Completed', key);
          break;
        case 'session-expire': {
          const s = value.session;
          if (s.order === null && !isFinalSessionState(s.state) && s.expiresMs <= now) {
            s.state = 'expired';
            s.updatedMs = key;
            this.notifySession(s.id);
          }
          break;
        }
      }
    }
  }

  sweep(): void {
    const now = this.clock.now();
    for (const terminal of this.terminals.values()) this.processDue(terminal, now);
  }

  // -------------------------------------------------------------------------------------------
  // Rate limit (per terminal, sandbox clock, sliding minute)

  checkRateLimit(terminal: Terminal, isOrderCreation: boolean): void {
    const limit = terminal.settings.rateLimitPerMinute;
    if (limit === null) return;
    const now = this.clock.now();
    const window = terminal.data.rateWindow;
    while (window.length > 0 && window[0]! <= now - RATE_WINDOW_MS) window.shift();
    if (window.length >= limit) {
      const retryAfter = Math.max(1, Math.ceil((window[0]! + RATE_WINDOW_MS - now) / 1000));
      // H2H creation answers the document's 429 row text; other endpoints the sandbox's wording.
      throw providerError(isOrderCreation ? 'user_pending_limit' : 'rate_limited', { 'Retry-After': String(retryAfter) });
    }
    window.push(now);
  }

  // -------------------------------------------------------------------------------------------
  // H2H orders

  /**
   * `POST /api/v1/order/`. Checks run in this order (first failure answers): document rules (400),
   * order_with_form + Sell (400), method (404), limits (409), blacklist (409), customer_account
   * format (422), anti-fraud (429), balance for Sell (402), traders (500).
   */
  createOrder(terminal: Terminal, req: CreateOrderRequest, ctx: { baseUrl: string; session?: SessionRecord }): OrderRecord {
    const violation = createOrderRuleViolations(req)[0];
    if (violation) {
      if (violation.message === PROVIDER_MESSAGES.no_payment_method) throw providerError('no_payment_method');
      if (violation.message === PROVIDER_MESSAGES.customer_account_required) throw providerError('customer_account_required');
      const text = violation.message.includes(violation.field) ? violation.message : `${violation.field}: ${violation.message}`;
      throw new SandboxHttpError(400, text);
    }
    const side = req.order_side;
    const withForm = terminal.settings.integrationType === 'order_with_form' && !ctx.session;
    if (withForm && side === 'Sell') throw providerError('form_sell_not_allowed');

    const amount = normalizeAmount(req.amount);
    const method = this.resolveMethod(req);
    const range = rangeFor(method, side, amount);
    if (!range) throw providerError('amount_out_of_limits');

    const account = req.customer_account ?? null;
    if (account !== null && BLACKLISTED_CUSTOMER_ACCOUNTS.has(account)) throw providerError('customer_blacklisted');
    if (side === 'Sell' && account !== null) checkCustomerAccount(method, account);

    const userId = req.user_id ?? null;
    if (userId !== null && !ctx.session && this.openItemsOfUser(terminal, userId) >= terminal.settings.antiFraudPendingLimit) {
      throw providerError('user_pending_limit');
    }
    if (side === 'Sell') this.requireFunds(terminal, addAmounts(amount, feeFor(amount, range), 2));
    if (isNoTradersAmount(amount)) throw providerError('no_traders');

    const placement = this.place(terminal, method, side, amount, req.unique_amount === true);
    if (!placement) throw providerError('no_traders');
    const finalRange = rangeFor(method, side, placement.amount) ?? range;
    const fee = feeFor(placement.amount, finalRange);
    let frozen: string | null = null;
    if (side === 'Sell') {
      frozen = addAmounts(placement.amount, fee, 2);
      this.requireFunds(terminal, frozen);
    }

    const now = this.clock.now();
    const data = terminal.data;
    const order = this.buildOrder(terminal, {
      clientOrderId: req.client_order_id,
      side,
      method: placement.method,
      initialMethodId: method.id,
      amount: placement.amount,
      requestedAmount: amount,
      fee,
      fixedFee: finalRange.fixed === null ? null : Number(finalRange.fixed),
      requisite: placement.requisite,
      customerName: req.customer_name ?? null,
      // The document: customer_account is null for Buy.
      customerAccount: side === 'Sell' ? account : null,
      customerBank: req.customer_bank ?? ctx.session?.customerBank ?? null,
      webhookUrl: req.webhook_url ?? null,
      createdMs: now,
      userId,
      uniqueAmount: req.unique_amount === true,
      sessionId: ctx.session?.id ?? null,
    });
    if (frozen !== null) {
      const minor = toMinor(frozen, 2);
      data.availableMinor -= minor;
      data.frozenMinor += minor;
      order.frozen = frozen;
    }
    if (withForm) {
      const session = this.newSession(terminal, {
        clientOrderId: order.clientOrderId,
        amount,
        uniqueAmount: order.uniqueAmount,
        userId,
        redirectUrl: req.redirect_url ?? null,
        supportUrl: req.support_url ?? null,
        returnUrl: req.return_url ?? null,
        buttonName: null,
        customerBank: req.customer_bank ?? null,
        paymentMethodId: method.id,
        createdMs: now,
      });
      session.selection = false;
      this.attachOrder(session, order, now);
      order.sessionId = session.id;
      order.formUrl = formUrl(ctx.baseUrl, session.id);
      this.insertSession(terminal, session);
    }
    this.insertOrder(terminal, order);
    return order;
  }

  private resolveMethod(req: { payment_method_id?: string | null; method_type?: string | null; nspk_code?: string | null }): MethodDef {
    const method =
      req.payment_method_id != null ? methodById(req.payment_method_id) : methodByType(req.method_type ?? '', req.nspk_code);
    if (!method || !method.active) throw providerError('payment_method_not_found');
    return method;
  }

  private requireFunds(terminal: Terminal, needed: string): void {
    if (terminal.data.availableMinor < toMinor(needed, 2)) throw providerError('insufficient_funds');
  }

  /**
   * Chooses the concrete method and requisite. With `unique` the amount moves up by whole roubles
   * (amount .. amount + 9) until a requisite has no unpaid order with that amount; without it the
   * orders are spread round-robin. Null when no trader fits.
   */
  private place(
    terminal: Terminal,
    method: MethodDef,
    side: OrderSide,
    amount: string,
    unique: boolean,
  ): { method: MethodDef; requisite: Requisite; amount: string } | null {
    const concretes = method.routes.length > 0 ? method.routes.filter((m) => m.active && rangeFor(m, side, amount)) : [method];
    if (concretes.length === 0) return null;
    const data = terminal.data;
    const turn = data.rotation++;
    if (!unique) {
      const m = concretes[turn % concretes.length]!;
      const requisite = m.requisites[Math.floor(turn / concretes.length) % m.requisites.length];
      return requisite ? { method: m, requisite, amount } : null;
    }
    for (let step = 0; step < UNIQUE_AMOUNT_STEPS; step++) {
      const candidate = addAmounts(amount, String(step), 2);
      if (!rangeFor(method, side, candidate)) break;
      for (let i = 0; i < concretes.length; i++) {
        const m = concretes[(turn + i) % concretes.length]!;
        if (!rangeFor(m, side, candidate)) continue;
        for (let j = 0; j < m.requisites.length; j++) {
          const requisite = m.requisites[(turn + j) % m.requisites.length]!;
          if (!data.unpaidAmounts.get(requisite.key)?.get(candidate)) return { method: m, requisite, amount: candidate };
        }
      }
    }
    return null;
  }

  /** Builds an order record (not yet inserted). Used by creation and by the seeded history. */
  buildOrder(
    terminal: Terminal,
    f: {
      clientOrderId: string;
      side: OrderSide;
      method: MethodDef;
      initialMethodId: string;
      amount: string;
      requestedAmount: string;
      fee: string;
      fixedFee: number | null;
      requisite: Requisite;
      customerName: string | null;
      customerAccount: string | null;
      customerBank: string | null;
      webhookUrl: string | null;
      createdMs: number;
      userId: string | null;
      uniqueAmount: boolean;
      sessionId: string | null;
    },
  ): OrderRecord {
    const kind = requisitesKind(f.method.type);
    let holderAccount = f.requisite.holderAccount;
    let paymentLink: string | null = null;
    if (f.side === 'Buy' && (kind === 'phone' || kind === 'link')) {
      const memberId = f.method.bank?.memberId ?? f.requisite.bank?.memberId;
      if (memberId) {
        const qrId = nspkQrId();
        paymentLink = nspkLink(qrId, memberId, f.amount);
        if (kind === 'link') holderAccount = qrId;
      }
    }
    return {
      seq: terminal.data.nextSeq(),
      slot: -1,
      id: randomUUID(),
      clientOrderId: f.clientOrderId,
      side: f.side,
      method: f.method,
      initialMethodId: f.initialMethodId,
      amount: f.amount,
      amountKey: Number(toMinor(f.amount, 2)),
      requestedAmount: f.requestedAmount,
      fee: f.fee,
      fixedFee: f.fixedFee,
      status: 'Unpaid',
      holderName: f.requisite.holderName,
      holderAccount,
      requisiteKey: f.requisite.key,
      customerName: f.customerName,
      customerAccount: f.customerAccount,
      customerBank: f.customerBank,
      paymentLink,
      webhookUrl: f.webhookUrl,
      formUrl: null,
      createdMs: f.createdMs,
      updatedMs: f.createdMs,
      expiresMs: f.createdMs + LIFETIME_MS,
      userId: f.userId,
      uniqueAmount: f.uniqueAmount,
      sessionId: f.sessionId,
      frozen: null,
    };
  }

  /** Adds an order to the indexes; an Unpaid one also holds its amount on its requisite and falls due. */
  insertOrder(terminal: Terminal, order: OrderRecord): void {
    const data = terminal.data;
    insertByTime(data.orders, order);
    data.columns.add(order);
    data.ordersById.set(order.id, order);
    const sameClientId = data.ordersByClientId.get(order.clientOrderId);
    if (sameClientId) insertByTime(sameClientId, order);
    else data.ordersByClientId.set(order.clientOrderId, [order]);
    if (order.status === 'Unpaid') this.trackUnpaid(terminal, order);
  }

  /** An Unpaid order holds its amount on its requisite, falls due (expiry, auto-pay) and counts for its user. */
  trackUnpaid(terminal: Terminal, order: OrderRecord): void {
    const data = terminal.data;
    let amounts = data.unpaidAmounts.get(order.requisiteKey);
    if (!amounts) data.unpaidAmounts.set(order.requisiteKey, (amounts = new Map()));
    amounts.set(order.amount, (amounts.get(order.amount) ?? 0) + 1);
    data.due.push(order.expiresMs, { kind: 'expire', order });
    const autoPay = terminal.settings.autoPayAfterSeconds;
    if (autoPay !== null) data.due.push(order.createdMs + autoPay * 1000, { kind: 'autopay', order });
    if (order.userId !== null) this.trackUser(terminal, order.userId, order);
  }

  private trackUser(terminal: Terminal, userId: string, item: OrderRecord | SessionRecord): void {
    let set = terminal.data.byUser.get(userId);
    if (!set) terminal.data.byUser.set(userId, (set = new Set()));
    set.add(item);
  }

  /** Unpaid orders plus open form sessions that have no order yet, of one user (anti-fraud). */
  openItemsOfUser(terminal: Terminal, userId: string): number {
    const set = terminal.data.byUser.get(userId);
    if (!set) return 0;
    let open = 0;
    for (const item of set) {
      if ('method' in item) {
        if (item.status === 'Unpaid') open++;
        else set.delete(item);
      } else if (isFinalSessionState(item.state) || item.order !== null) {
        set.delete(item); // finished, or counted through its order
      } else {
        open++;
      }
    }
    if (set.size === 0) terminal.data.byUser.delete(userId);
    return open;
  }

  findOrder(terminal: Terminal, id: string): OrderRecord {
    const order = terminal.data.ordersById.get(id);
    if (!order) throw new SandboxHttpError(404, `Order ${id} not found on this terminal`);
    return order;
  }

  /**
   * The only way an order status changes: Unpaid → Completed | CanceledByTimeout | CanceledByService.
   * Moves money (Buy completed: credit amount − fee; Sell completed: the frozen amount + fee is
   * withdrawn; Sell cancelled: unfrozen), closes the form session, sends the webhook.
   */
  transition(terminal: Terminal, order: OrderRecord, status: 'Completed' | 'CanceledByTimeout' | 'CanceledByService', atMs: number, options: { notify?: boolean } = {}): void {
    if (order.status !== 'Unpaid') {
      throw new SandboxHttpError(409, `Order ${order.id} is already ${order.status}; only an Unpaid order changes status`);
    }
    const data = terminal.data;
    order.status = status;
    order.updatedMs = Math.max(atMs, order.createdMs);
    data.columns.setStatus(order);
    const amounts = data.unpaidAmounts.get(order.requisiteKey);
    if (amounts) {
      const left = (amounts.get(order.amount) ?? 1) - 1;
      if (left > 0) amounts.set(order.amount, left);
      else amounts.delete(order.amount);
    }
    if (order.side === 'Buy' && status === 'Completed') {
      this.credit(terminal, subtractNonNegative(order.amount, order.fee), order.updatedMs, `Payment of order ${order.clientOrderId}`);
    }
    if (order.side === 'Sell' && order.frozen !== null) {
      const minor = toMinor(order.frozen, 2);
      data.frozenMinor -= minor;
      if (status === 'Completed') {
        this.record(terminal, 'withdrawal', order.frozen, order.updatedMs, `Payout of order ${order.clientOrderId}`);
      } else {
        data.availableMinor += minor;
      }
      order.frozen = null;
    }
    const session = order.sessionId ? data.sessionsById.get(order.sessionId) : undefined;
    if (session && !isFinalSessionState(session.state)) {
      session.state = SESSION_STATE_FOR[status] ?? 'cancelled';
      session.updatedMs = order.updatedMs;
    }
    if (options.notify !== false) {
      this.sendWebhook(terminal, order);
      this.notifySession(order.sessionId);
    }
  }

  private sendWebhook(terminal: Terminal, order: OrderRecord): void {
    const envelope: WebhookEnvelope = {
      request_id: randomUUID(),
      webhook_type: order.side === 'Sell' ? 'sell_update' : 'buy_update',
      datetime: webhookDatetime(order.updatedMs),
      payload: orderJson(order),
    };
    this.webhooks.dispatch(terminal, {
      request_id: envelope.request_id,
      order_id: order.id,
      client_order_id: order.clientOrderId,
      webhook_type: envelope.webhook_type,
      url: order.webhookUrl ?? terminal.settings.webhookUrl,
      created_at: isoMillis(order.updatedMs),
      envelope,
    });
  }

  // -------------------------------------------------------------------------------------------
  // Ledger

  credit(terminal: Terminal, amount: string, atMs: number, description: string): void {
    terminal.data.availableMinor += toMinor(amount, 2);
    this.record(terminal, 'deposit', amount, atMs, description);
  }

  /** Takes money out of the available balance (a withdrawal transaction); false when short. */
  debit(terminal: Terminal, amount: string, atMs: number, description: string): boolean {
    const minor = toMinor(amount, 2);
    if (terminal.data.availableMinor < minor) return false;
    terminal.data.availableMinor -= minor;
    this.record(terminal, 'withdrawal', amount, atMs, description);
    return true;
  }

  private record(terminal: Terminal, type: 'deposit' | 'withdrawal', amount: string, atMs: number, description: string): void {
    const tx: TransactionRecord = { seq: terminal.data.nextSeq(), id: randomUUID(), amount, type, createdMs: atMs, description };
    insertByTime(terminal.data.transactions, tx);
  }

  topUp(terminal: Terminal, amountInput: unknown): void {
    let amount: string;
    try {
      amount = parseAmount(amountInput, { digits: 2, field: 'amount' });
    } catch (err) {
      if (err instanceof MoneyError) throw fieldError('body', 'amount', err.message);
      throw err;
    }
    this.credit(terminal, amount, this.clock.now(), 'Sandbox top-up');
  }

  // -------------------------------------------------------------------------------------------
  // Disputes

  openDispute(terminal: Terminal, order: OrderRecord, atMs = this.clock.now()): DisputeRecord {
    const dispute: DisputeRecord = { seq: terminal.data.nextSeq(), id: randomUUID(), order, processed: false, createdMs: Math.max(atMs, order.createdMs) };
    insertByTime(terminal.data.disputes, dispute);
    terminal.data.disputesById.set(dispute.id, dispute);
    return dispute;
  }

  /**
   * Closes a dispute. `accepted` for a Buy order means the shopper did pay: an Unpaid order is
   * completed (which credits it, once, and sends its webhook); a cancelled or expired one keeps its
   * status (the provider's statuses have no way back) and its amount − fee is credited, at most once
   * per order however many disputes are accepted. A Completed order was credited already.
   */
  processDispute(terminal: Terminal, dispute: DisputeRecord, accepted: boolean): void {
    if (dispute.processed) throw new SandboxHttpError(409, `Dispute ${dispute.id} is already processed`);
    this.processDue(terminal);
    dispute.processed = true;
    const order = dispute.order;
    if (!accepted || order.side !== 'Buy' || order.status === 'Completed') return;
    const now = this.clock.now();
    if (order.status === 'Unpaid') {
      this.transition(terminal, order, 'Completed', now);
      return;
    }
    if (terminal.data.disputeCredited.has(order.id)) return;
    terminal.data.disputeCredited.add(order.id);
    this.credit(terminal, subtractNonNegative(order.amount, order.fee), now, `Dispute accepted for order ${order.clientOrderId}`);
  }

  // -------------------------------------------------------------------------------------------
  // Form sessions

  /**
   * `POST /api/v1/form/create`. Checks: form activated (409), Buy only (400), button_name enabled
   * (400), a method accepts the amount (400), anti-fraud (429), traders (500). With a preselection
   * (button_name, customer_bank or payment_method_id) the requisites search runs at once; when it
   * finds nothing the error is returned and no session is created.
   */
  createForm(terminal: Terminal, req: FormCreateRequest, ctx: { baseUrl: string }): SessionRecord {
    if (!terminal.settings.formActivated) throw providerError('form_not_activated');
    if (formCreateRuleViolations(req).length > 0 || req.order_data.order_side !== 'Buy') throw providerError('form_sell_not_allowed');
    const od = req.order_data;
    const button = od.button_name ?? null;
    if (button !== null && !terminal.settings.enabledButtons.includes(button)) throw providerError('button_not_enabled');
    const amount = normalizeAmount(od.amount, 'order_data.amount');
    const preselected = od.payment_method_id != null ? this.resolveMethod({ payment_method_id: od.payment_method_id }) : null;
    const bank = button !== null ? bankByButtonName(button) : od.customer_bank ? bankByCustomerBank(od.customer_bank) : undefined;
    const offered = formMethods(amount, bank?.nspkCode ?? null).filter((m) => !preselected || m === preselected);
    if (offered.length === 0) {
      throw new SandboxHttpError(400, `order_data.amount: ${PROVIDER_MESSAGES.amount_out_of_limits}`);
    }
    const userId = od.user_id ?? null;
    if (userId !== null && this.openItemsOfUser(terminal, userId) >= terminal.settings.antiFraudPendingLimit) {
      throw providerError('user_pending_limit');
    }
    if (isNoTradersAmount(amount)) throw providerError('no_traders');

    const now = this.clock.now();
    const session = this.newSession(terminal, {
      clientOrderId: od.client_order_id,
      amount,
      uniqueAmount: od.unique_amount === true,
      userId,
      redirectUrl: req.redirect_url ?? null,
      supportUrl: req.support_url ?? null,
      returnUrl: req.return_url ?? null,
      buttonName: button,
      customerBank: od.customer_bank ?? bank?.customerBank ?? null,
      paymentMethodId: od.payment_method_id ?? null,
      createdMs: now,
    });
    if (preselected || bank) {
      // Method and bank selection is skipped: the requisites search starts at once.
      session.selection = false;
      this.search(terminal, session, preselected ?? this.bankSbpMethod(bank!.nspkCode), ctx);
    }
    this.insertSession(terminal, session);
    if (userId !== null && session.order === null) this.trackUser(terminal, userId, session);
    return session;
  }

  private bankSbpMethod(nspkCode: string): MethodDef {
    const method = methodByType('SBP', nspkCode);
    if (!method || !method.active) throw providerError('payment_method_not_found');
    return method;
  }

  private newSession(
    terminal: Terminal,
    f: {
      clientOrderId: string;
      amount: string;
      uniqueAmount: boolean;
      userId: string | null;
      redirectUrl: string | null;
      supportUrl: string | null;
      returnUrl: string | null;
      buttonName: string | null;
      customerBank: string | null;
      paymentMethodId: string | null;
      createdMs: number;
    },
  ): SessionRecord {
    return {
      seq: terminal.data.nextSeq(),
      id: randomUUID(),
      clientOrderId: f.clientOrderId,
      side: 'Buy',
      requestedAmount: f.amount,
      amount: f.amount,
      paymentMethodType: null,
      nspkCode: null,
      buttonName: f.buttonName,
      customerBank: f.customerBank,
      paymentMethodId: f.paymentMethodId,
      order: null,
      redirectUrl: f.redirectUrl,
      supportUrl: f.supportUrl,
      returnUrl: f.returnUrl,
      searchCount: 0,
      selection: true,
      createdMs: f.createdMs,
      updatedMs: f.createdMs,
      uniqueAmount: f.uniqueAmount,
      userId: f.userId,
      state: 'method_selection',
      requisitesStartMs: null,
      requisitesExpiresMs: null,
      confirmationStartMs: null,
      confirmationExpiresMs: null,
      expiresMs: f.createdMs + FORM_SESSION_LIFETIME_SECONDS * 1000,
      ipAddress: null,
    };
  }

  insertSession(terminal: Terminal, session: SessionRecord): void {
    insertByTime(terminal.data.sessions, session);
    terminal.data.sessionsById.set(session.id, session);
    this.sessionIndex.set(session.id, { terminal, session });
    if (session.order === null && !isFinalSessionState(session.state)) {
      terminal.data.due.push(session.expiresMs, { kind: 'session-expire', session });
    }
  }

  /** requisites_search → requisites_found (order created) or, when nothing is found, the error. */
  private search(terminal: Terminal, session: SessionRecord, method: MethodDef, ctx: { baseUrl: string }): void {
    const now = this.clock.now();
    session.state = 'requisites_search';
    session.searchCount += 1;
    session.paymentMethodType = method.type;
    session.nspkCode = method.nspkCode;
    session.requisitesStartMs = now;
    session.requisitesExpiresMs = now + REQUISITES_SEARCH_SECONDS * 1000;
    session.updatedMs = now;
    const order = this.createOrder(
      terminal,
      {
        client_order_id: session.clientOrderId,
        order_side: 'Buy',
        payment_method_id: method.id,
        amount: session.requestedAmount,
        user_id: session.userId,
        unique_amount: session.uniqueAmount,
        customer_bank: bankByCustomerBank(session.customerBank ?? '')?.customerBank ?? null,
      },
      { baseUrl: ctx.baseUrl, session },
    );
    this.attachOrder(session, order, now);
  }

  private attachOrder(session: SessionRecord, order: OrderRecord, now: number): void {
    session.order = order;
    session.state = 'requisites_found';
    session.amount = order.amount;
    session.paymentMethodType = order.method.type;
    session.nspkCode = order.method.nspkCode;
    session.requisitesStartMs ??= now;
    session.requisitesExpiresMs ??= now + REQUISITES_SEARCH_SECONDS * 1000;
    session.expiresMs = order.expiresMs;
    session.updatedMs = now;
    order.sessionId = session.id;
  }

  /**
   * The shopper picks a method on the hosted form (widget protocol `POST /sessions`). Returns the
   * session's order; a session that already has one keeps it.
   */
  selectInSession(terminal: Terminal, session: SessionRecord, selection: MethodSelection, ctx: { baseUrl: string }): OrderRecord {
    this.processDue(terminal);
    if (session.order) return session.order;
    if (isFinalSessionState(session.state)) {
      throw new SandboxHttpError(409, `The payment session is ${session.state}`);
    }
    const button = selection.button_name ?? null;
    if (button !== null && !(terminal.settings.enabledButtons as readonly string[]).includes(button)) throw providerError('button_not_enabled');
    let method: MethodDef;
    if (selection.payment_method_id != null) method = this.resolveMethod({ payment_method_id: selection.payment_method_id });
    else if (selection.method_type != null) method = this.resolveMethod({ method_type: selection.method_type, nspk_code: selection.nspk_code ?? null });
    else {
      const bank =
        (button !== null ? bankByButtonName(button) : undefined) ??
        (selection.customer_bank ? bankByCustomerBank(selection.customer_bank) : undefined) ??
        (session.buttonName ? bankByButtonName(session.buttonName) : undefined) ??
        (session.customerBank ? bankByCustomerBank(session.customerBank) : undefined);
      if (!bank) throw providerError('no_payment_method');
      method = this.bankSbpMethod(bank.nspkCode);
    }
    const restrictedTo = session.buttonName ? bankByButtonName(session.buttonName)?.nspkCode : null;
    if (restrictedTo && method.nspkCode !== restrictedTo) {
      throw new SandboxHttpError(400, 'This payment form is limited to the bank of its button_name');
    }
    try {
      this.search(terminal, session, method, ctx);
    } catch (err) {
      // Nothing found: back to method selection, the shopper may pick another method.
      session.state = 'method_selection';
      session.updatedMs = this.clock.now();
      this.notifySession(session.id);
      throw err;
    }
    this.notifySession(session.id);
    return session.order!;
  }

  /** The shopper says the money is sent: requisites_found → payment_confirmation. */
  confirmSession(terminal: Terminal, session: SessionRecord): void {
    this.processDue(terminal);
    if (session.state === 'payment_confirmation') return;
    if (session.state !== 'requisites_found') {
      throw new SandboxHttpError(409, `The payment session is ${session.state}; only requisites_found moves to payment_confirmation`);
    }
    const now = this.clock.now();
    session.state = 'payment_confirmation';
    session.confirmationStartMs = now;
    session.confirmationExpiresMs = now + PAYMENT_CONFIRMATION_SECONDS * 1000;
    session.updatedMs = now;
    this.notifySession(session.id);
  }

  /** Cancels an open session (and its unpaid order, CanceledByService). */
  cancelSession(terminal: Terminal, session: SessionRecord): void {
    this.processDue(terminal);
    if (isFinalSessionState(session.state)) throw new SandboxHttpError(409, `The payment session is already ${session.state}`);
    const now = this.clock.now();
    if (session.order) {
      this.transition(terminal, session.order, 'CanceledByService', now);
      return;
    }
    session.state = 'cancelled';
    session.updatedMs = now;
    this.notifySession(session.id);
  }

  /** Records the shopper's address on the first visit of the hosted form. */
  noteVisitor(session: SessionRecord, ip: string | null): void {
    if (ip && session.ipAddress === null) session.ipAddress = ip;
  }
}

// ---------------------------------------------------------------------------------------------
// Helpers

export function formUrl(baseUrl: string, sessionId: string): string {
  return `${baseUrl.replace(/\/+$/, '')}/pay?session_id=${encodeURIComponent(sessionId)}`;
}

/** Active methods offered on a form for `amount` (Buy), limited to a bank when given. */
export function formMethods(amount: string, nspkCode: string | null): MethodDef[] {
  return CATALOG.filter((m) => m.active && (nspkCode === null || m.nspkCode === nspkCode) && rangeFor(m, 'Buy', amount));
}

export function normalizeAmount(value: string | number, field = 'amount'): string {
  try {
    const text = typeof value === 'number' ? numberToDecimal(value) : value;
    return parseAmount(text, { digits: 2, field });
  } catch (err) {
    if (err instanceof MoneyError) throw fieldError('body', field, err.message);
    throw err;
  }
}

export function feeFor(amount: string, range: { fee: string; fixed: string | null }): string {
  return applyFee(amount, { percent: range.fee, fixed: range.fixed }, 'RUB').fee;
}

function subtractNonNegative(a: string, b: string): string {
  const diff = subtractAmounts(a, b, 2);
  return compareAmounts(diff, '0') < 0 ? '0.00' : diff;
}

export function isNoTradersAmount(amount: string): boolean {
  return amount.endsWith(`.${NO_TRADERS_FRACTION}`);
}

/** `https://qr.nspk.ru/{id}?type=02&bank={member}&sum={kopecks}&cur=RUB&crc={CRC-16/CCITT-FALSE}`. */
export function nspkLink(qrId: string, memberId: string, amount: string): string {
  const text = `https://qr.nspk.ru/${qrId}?type=02&bank=${memberId}&sum=${toMinor(amount, 2).toString()}&cur=RUB`;
  return `${text}&crc=${crc16ccitt(text)}`;
}

/** The format of a payout destination per kind of method (the document: "in the format of the method"). */
function checkCustomerAccount(method: MethodDef, account: string): void {
  const kind = requisitesKind(method.type);
  const ok =
    kind === 'card' ? /^\d{16,19}$/.test(account) : kind === 'phone' ? /^(\+7|7|8)\d{10}$/.test(account) : kind === 'account' ? /^\d{20}$/.test(account) : true;
  if (!ok) {
    const expected =
      kind === 'card' ? 'a card number of 16 to 19 digits' : kind === 'phone' ? 'a Russian phone number such as +79991234567' : 'an account number of 20 digits';
    throw fieldError('body', 'customer_account', `must be ${expected} for method type ${method.type}`);
  }
}
