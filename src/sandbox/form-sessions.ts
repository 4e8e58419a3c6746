/**
 * Hosted form sessions and their state machine (README, "Form session state machine"):
 * method_selection → requisites_search → requisites_found → payment_confirmation → completed |
 * expired | cancelled. A session finds its order through orders.ts; an order's final status moves
 * its session on. Sessions are found by id without an API key (the hosted form), and listeners
 * hear of every change of a session or its order (the form's event stream).
 */
import { randomUUID } from 'node:crypto';
import { PROVIDER_MESSAGES, bankByButtonName, bankByCustomerBank } from '../provider/facts.js';
import { formCreateRuleViolations, type DecimalAmount, type FormCreateRequest } from '../provider/schemas.js';
import { openItemsOfUser, trackUser } from './anti-fraud.js';
import type { SandboxClock } from './clock.js';
import { FORM_SESSION_LIFETIME_SECONDS, PAYMENT_CONFIRMATION_SECONDS, REQUISITES_SEARCH_SECONDS } from './constants.js';
import { SandboxHttpError, providerError } from './errors.js';
import { isNoTradersAmount, normalizeAmount, type OrderRequest, type Orders } from './orders.js';
import type { MethodDef } from './payment-methods.js';
import type { OrderRecord, SessionRecord } from './records.js';
import { SESSION_STATE_FOR_STATUS, isFinalSessionState } from './session-states.js';
import type { Terminal } from './terminal.js';
import { insertByTime } from './time-index.js';

export { FINAL_SESSION_STATES, isFinalSessionState } from './session-states.js';

/** A method chosen on the hosted form (widget protocol `POST /sessions` body, minus `order_ref`). */
export interface MethodSelection {
  payment_method_id?: string | null;
  method_type?: string | null;
  nspk_code?: string | null;
  customer_bank?: string | null;
  button_name?: string | null;
}

interface NewSessionFields {
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
}

export interface FormSessionsOptions {
  clock: SandboxClock;
  orders: Orders;
  /** After any change of a session (state, order, visitor). */
  changed(): void;
}

export function formUrl(baseUrl: string, sessionId: string): string {
  return `${baseUrl.replace(/\/+$/, '')}/pay?session_id=${encodeURIComponent(sessionId)}`;
}

export class FormSessions {
  /** session id → where it lives (the hosted form finds sessions without an API key). */
  private readonly index = new Map<string, { terminal: Terminal; session: SessionRecord }>();
  private readonly listeners = new Map<string, Set<() => void>>();
  private readonly clock: SandboxClock;
  private readonly orders: Orders;
  private readonly changed: () => void;

  constructor(options: FormSessionsOptions) {
    this.clock = options.clock;
    this.orders = options.orders;
    this.changed = options.changed;
  }

  find(id: string): { terminal: Terminal; session: SessionRecord } | undefined {
    return this.index.get(id);
  }

  /** Calls `listener` on every change of the session or its order; returns the unsubscribe function. */
  subscribe(sessionId: string, listener: () => void): () => void {
    let set = this.listeners.get(sessionId);
    if (!set) this.listeners.set(sessionId, (set = new Set()));
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0) this.listeners.delete(sessionId);
    };
  }

  /** Tells the listeners of a session that it (or its order, or its order's dispute) changed. */
  notify(sessionId: string | null): void {
    this.changed();
    if (!sessionId) return;
    const set = this.listeners.get(sessionId);
    if (set) for (const listener of [...set]) listener();
  }

  /** Forgets a terminal's sessions (reset): their listeners hear it once more and find them gone. */
  forgetTerminal(terminal: Terminal): void {
    for (const s of terminal.data.sessions) {
      this.index.delete(s.id);
      this.notify(s.id);
    }
  }

  /**
   * `POST /api/v1/form/create`. Checks: form activated (409), Buy only (400), button_name enabled
   * (400), a method accepts the amount (400), anti-fraud (429), traders (500). With a preselection
   * (button_name, customer_bank or payment_method_id) the requisites search runs at once; when it
   * finds nothing the error is returned and no session is created.
   */
  create(terminal: Terminal, req: FormCreateRequest, ctx: { baseUrl: string }): SessionRecord {
    if (!terminal.settings.formActivated) throw providerError('form_not_activated');
    if (formCreateRuleViolations(req).length > 0 || req.order_data.order_side !== 'Buy') throw providerError('form_sell_not_allowed');
    const od = req.order_data;
    const button = od.button_name ?? null;
    if (button !== null && !terminal.settings.enabledButtons.includes(button)) throw providerError('button_not_enabled');
    const amount = normalizeAmount(od.amount, terminal.digits, 'order_data.amount');
    const preselected = od.payment_method_id != null ? this.orders.resolveMethod(terminal, { payment_method_id: od.payment_method_id }) : null;
    const bank = button !== null ? bankByButtonName(button) : od.customer_bank ? bankByCustomerBank(od.customer_bank) : undefined;
    const offered = terminal.catalog.formMethods(amount, bank?.nspkCode ?? null).filter((m) => !preselected || m === preselected);
    if (offered.length === 0) {
      throw new SandboxHttpError(400, `order_data.amount: ${PROVIDER_MESSAGES.amount_out_of_limits}`);
    }
    const userId = od.user_id ?? null;
    if (userId !== null && openItemsOfUser(terminal, userId) >= terminal.settings.antiFraudPendingLimit) {
      throw providerError('user_pending_limit');
    }
    if (isNoTradersAmount(amount)) throw providerError('no_traders');

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
      createdMs: this.clock.now(),
    });
    if (preselected || bank) {
      // Method and bank selection is skipped: the requisites search starts at once.
      session.selection = false;
      this.search(terminal, session, preselected ?? this.bankSbpMethod(terminal, bank!.nspkCode));
    }
    this.insert(terminal, session);
    if (userId !== null && session.order === null) trackUser(terminal, userId, session);
    return session;
  }

  /**
   * Integration type `order_with_form`: after an H2H Buy order is created, its form session (which
   * starts at requisites_found) and `form_url`.
   */
  openForOrder(terminal: Terminal, order: OrderRecord, req: OrderRequest, ctx: { baseUrl: string }): SessionRecord {
    const now = this.clock.now();
    const session = this.newSession(terminal, {
      clientOrderId: order.clientOrderId,
      amount: order.requestedAmount,
      uniqueAmount: order.uniqueAmount,
      userId: order.userId,
      redirectUrl: req.redirect_url ?? null,
      supportUrl: req.support_url ?? null,
      returnUrl: req.return_url ?? null,
      buttonName: null,
      customerBank: req.customer_bank ?? null,
      paymentMethodId: order.initialMethodId,
      createdMs: now,
    });
    session.selection = false;
    this.attachOrder(session, order, now);
    order.formUrl = formUrl(ctx.baseUrl, session.id);
    this.insert(terminal, session);
    return session;
  }

  private bankSbpMethod(terminal: Terminal, nspkCode: string): MethodDef {
    const method = terminal.catalog.methodByType('SBP', nspkCode);
    if (!method || !method.active) throw providerError('payment_method_not_found');
    return method;
  }

  /** A new session record (not yet inserted). Also used by the seeded history. */
  newSession(terminal: Terminal, f: NewSessionFields): SessionRecord {
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

  insert(terminal: Terminal, session: SessionRecord): void {
    insertByTime(terminal.data.sessions, session);
    terminal.data.sessionsById.set(session.id, session);
    this.index.set(session.id, { terminal, session });
    if (session.order === null && !isFinalSessionState(session.state)) {
      terminal.data.due.push(session.expiresMs, { kind: 'session-expire', session });
    }
    this.changed();
  }

  /** requisites_search → requisites_found (order created) or, when nothing is found, the error. */
  private search(terminal: Terminal, session: SessionRecord, method: MethodDef): void {
    const now = this.clock.now();
    session.state = 'requisites_search';
    session.searchCount += 1;
    session.paymentMethodType = method.type;
    session.nspkCode = method.nspkCode;
    session.requisitesStartMs = now;
    session.requisitesExpiresMs = now + REQUISITES_SEARCH_SECONDS * 1000;
    session.updatedMs = now;
    const order = this.orders.create(
      terminal,
      {
        client_order_id: session.clientOrderId,
        order_side: 'Buy',
        payment_method_id: method.id,
        amount: session.requestedAmount as DecimalAmount,
        user_id: session.userId,
        unique_amount: session.uniqueAmount,
        customer_bank: bankByCustomerBank(session.customerBank ?? '')?.customerBank ?? null,
      },
      { withForm: false, session },
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
  select(terminal: Terminal, session: SessionRecord, selection: MethodSelection): OrderRecord {
    if (session.order) return session.order;
    if (isFinalSessionState(session.state)) {
      throw new SandboxHttpError(409, `The payment session is ${session.state}`);
    }
    const button = selection.button_name ?? null;
    if (button !== null && !(terminal.settings.enabledButtons as readonly string[]).includes(button)) throw providerError('button_not_enabled');
    let method: MethodDef;
    if (selection.payment_method_id != null) method = this.orders.resolveMethod(terminal, { payment_method_id: selection.payment_method_id });
    else if (selection.method_type != null) method = this.orders.resolveMethod(terminal, { method_type: selection.method_type, nspk_code: selection.nspk_code ?? null });
    else {
      const bank =
        (button !== null ? bankByButtonName(button) : undefined) ??
        (selection.customer_bank ? bankByCustomerBank(selection.customer_bank) : undefined) ??
        (session.buttonName ? bankByButtonName(session.buttonName) : undefined) ??
        (session.customerBank ? bankByCustomerBank(session.customerBank) : undefined);
      if (!bank) throw providerError('no_payment_method');
      method = this.bankSbpMethod(terminal, bank.nspkCode);
    }
    const restrictedTo = session.buttonName ? bankByButtonName(session.buttonName)?.nspkCode : null;
    if (restrictedTo && method.nspkCode !== restrictedTo) {
      throw new SandboxHttpError(400, 'This payment form is limited to the bank of its button_name');
    }
    try {
      this.search(terminal, session, method);
    } catch (err) {
      // Nothing found: back to method selection, the shopper may pick another method.
      session.state = 'method_selection';
      session.updatedMs = this.clock.now();
      this.notify(session.id);
      throw err;
    }
    this.notify(session.id);
    return session.order!;
  }

  /** The shopper says the money is sent: requisites_found → payment_confirmation. */
  confirm(session: SessionRecord): void {
    if (session.state === 'payment_confirmation') return;
    if (session.state !== 'requisites_found') {
      throw new SandboxHttpError(409, `The payment session is ${session.state}; only requisites_found moves to payment_confirmation`);
    }
    const now = this.clock.now();
    session.state = 'payment_confirmation';
    session.confirmationStartMs = now;
    session.confirmationExpiresMs = now + PAYMENT_CONFIRMATION_SECONDS * 1000;
    session.updatedMs = now;
    this.notify(session.id);
  }

  /** Cancels an open session (and its unpaid order, CanceledByService). */
  cancel(terminal: Terminal, session: SessionRecord): void {
    if (isFinalSessionState(session.state)) throw new SandboxHttpError(409, `The payment session is already ${session.state}`);
    const now = this.clock.now();
    if (session.order) {
      this.orders.transition(terminal, session.order, 'CanceledByService', now);
      return;
    }
    session.state = 'cancelled';
    session.updatedMs = now;
    this.notify(session.id);
  }

  /** A session without an order that has run out of time (from the due queue). */
  expireIfDue(session: SessionRecord, atMs: number, now: number): void {
    if (session.order === null && !isFinalSessionState(session.state) && session.expiresMs <= now) {
      session.state = 'expired';
      session.updatedMs = atMs;
      this.notify(session.id);
    }
  }

  /** An order's status changed: its session follows (a late completion reopens an ended one as completed). */
  orderStatusChanged(terminal: Terminal, order: OrderRecord): void {
    const session = order.sessionId ? terminal.data.sessionsById.get(order.sessionId) : undefined;
    if (session) {
      const next = SESSION_STATE_FOR_STATUS[order.status] ?? 'cancelled';
      if (!isFinalSessionState(session.state) || (order.endedAs !== null && session.state !== next)) {
        session.state = next;
        session.updatedMs = order.updatedMs;
      }
    }
    this.notify(order.sessionId);
  }

  /** Records the shopper's address on the first visit of the hosted form. */
  noteVisitor(session: SessionRecord, ip: string | null): void {
    if (ip && session.ipAddress === null) {
      session.ipAddress = ip;
      this.changed();
    }
  }
}
