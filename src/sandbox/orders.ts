/**
 * H2H orders and the requisites they are placed on: creation with the document's checks in its
 * order, the choice of a concrete method and a trader's requisite (round-robin, or a free amount
 * slot for `unique_amount`), NSPK payment links, and the only ways a status changes (Unpaid →
 * Completed | CanceledByTimeout | CanceledByService, and the late completion of a cancelled order).
 * Every status change moves the money (ledger.ts) and is reported through `statusChanged`, which the
 * engine turns into the form session's state, the webhook and the live views.
 */
import { randomUUID } from 'node:crypto';
import { ORDER_LIFETIME_SECONDS, PROVIDER_MESSAGES, crc16ccitt, type OrderSide } from '../provider/facts.js';
import { createOrderRuleViolations, type CreateOrderRequest } from '../provider/schemas.js';
import { MoneyError, addAmounts, numberToDecimal, parseAmount, toMinor } from '../money/index.js';
import { openItemsOfUser, trackUser } from './anti-fraud.js';
import type { SandboxClock } from './clock.js';
import { BLACKLISTED_CUSTOMER_ACCOUNTS, NO_TRADERS_FRACTION, UNIQUE_AMOUNT_STEPS } from './constants.js';
import { SandboxHttpError, fieldError, providerError } from './errors.js';
import { nspkQrId } from './format.js';
import { credit, freeze, hasAvailable, netOf, orderCreditDescription, release, withdrawFrozen } from './ledger.js';
import { feeFor, rangeFor, requisitesKind, type MethodDef, type Requisite } from './payment-methods.js';
import type { OrderRecord, SessionRecord } from './records.js';
import type { Terminal } from './terminal.js';
import { insertByTime } from './time-index.js';

const LIFETIME_MS = ORDER_LIFETIME_SECONDS * 1000;

/** The final statuses a status change may lead to. */
export type FinalStatus = 'Completed' | 'CanceledByTimeout' | 'CanceledByService';
/** Statuses a late completion starts from. */
export const ENDED_CANCELLED: ReadonlySet<string> = new Set(['CanceledByTimeout', 'CanceledByService']);

/** An H2H creation as the sandbox reads it: the document's fields plus the alias production payouts send. */
export type OrderRequest = CreateOrderRequest;

export interface OrderFields {
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
}

export interface OrdersOptions {
  clock: SandboxClock;
  /** After every status change (money already moved): the session, the webhook, the live views. */
  statusChanged(terminal: Terminal, order: OrderRecord): void;
  /** After an order is added. */
  added(terminal: Terminal, order: OrderRecord): void;
}

export class Orders {
  constructor(private readonly options: OrdersOptions) {}

  /**
   * `POST /api/v1/order/`. Checks run in this order (first failure answers): document rules (400),
   * order_with_form + Sell (400), method (404), limits (409), blacklist (409), customer_account
   * format (422), anti-fraud (429), balance for Sell (402), traders (500). Returns the inserted order.
   * `session`: the form session the order is for (no anti-fraud count of its own: the session had it).
   */
  create(terminal: Terminal, req: OrderRequest, ctx: { withForm: boolean; session: SessionRecord | null }): OrderRecord {
    const violation = createOrderRuleViolations(req)[0];
    if (violation) {
      if (violation.message === PROVIDER_MESSAGES.no_payment_method) throw providerError('no_payment_method');
      if (violation.message === PROVIDER_MESSAGES.customer_account_required) throw providerError('customer_account_required');
      const text = violation.message.includes(violation.field) ? violation.message : `${violation.field}: ${violation.message}`;
      throw new SandboxHttpError(400, text);
    }
    const side = req.order_side;
    if (ctx.withForm && side === 'Sell') throw providerError('form_sell_not_allowed');

    const amount = normalizeAmount(req.amount, terminal.digits);
    const method = this.resolveMethod(terminal, req);
    const range = rangeFor(method, side, amount);
    if (!range) throw providerError('amount_out_of_limits');

    // A payout's destination: `customer_account`, or `customer_payment_account` as production payout modules send it.
    const account = req.customer_account ?? req.customer_payment_account ?? null;
    if (account !== null && BLACKLISTED_CUSTOMER_ACCOUNTS.has(account)) throw providerError('customer_blacklisted');
    if (side === 'Sell' && account !== null) checkCustomerAccount(method, account, req.customer_account != null ? 'customer_account' : 'customer_payment_account');

    const userId = req.user_id ?? null;
    if (userId !== null && !ctx.session && openItemsOfUser(terminal, userId) >= terminal.settings.antiFraudPendingLimit) {
      throw providerError('user_pending_limit');
    }
    const currency = terminal.currency;
    if (side === 'Sell' && !hasAvailable(terminal, addAmounts(amount, feeFor(amount, range, currency), terminal.digits))) {
      throw providerError('insufficient_funds');
    }
    if (isNoTradersAmount(amount)) throw providerError('no_traders');

    const placement = this.place(terminal, method, side, amount, req.unique_amount === true);
    if (!placement) throw providerError('no_traders');
    const finalRange = rangeFor(method, side, placement.amount) ?? range;
    const fee = feeFor(placement.amount, finalRange, currency);
    let frozen: string | null = null;
    if (side === 'Sell') {
      frozen = addAmounts(placement.amount, fee, terminal.digits);
      if (!hasAvailable(terminal, frozen)) throw providerError('insufficient_funds');
    }

    const order = this.build(terminal, {
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
      createdMs: this.options.clock.now(),
      userId,
      uniqueAmount: req.unique_amount === true,
      sessionId: ctx.session?.id ?? null,
    });
    if (frozen !== null) {
      freeze(terminal, frozen);
      order.frozen = frozen;
    }
    this.insert(terminal, order);
    return order;
  }

  /** Way 1 (`payment_method_id`) or way 2 (`method_type` [+ `nspk_code`], RUB terminals only). */
  resolveMethod(terminal: Terminal, req: { payment_method_id?: string | null; method_type?: string | null; nspk_code?: string | null }): MethodDef {
    let method: MethodDef | undefined;
    if (req.payment_method_id != null) method = terminal.catalog.method(req.payment_method_id);
    else {
      if (terminal.currency !== 'RUB') {
        // provider-api.md: way 2 "works for RUB only".
        throw new SandboxHttpError(400, `method_type works for RUB terminals only; this terminal is ${terminal.currency}: give payment_method_id`);
      }
      method = terminal.catalog.methodByType(req.method_type ?? '', req.nspk_code);
    }
    if (!method || !method.active) throw providerError('payment_method_not_found');
    return method;
  }

  /**
   * Chooses the concrete method and the trader's requisite. With `unique` the amount moves up by
   * whole units (amount .. amount + 9) until a requisite has no unpaid order with that amount;
   * without it the orders are spread round-robin. Null when no trader fits.
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
      const candidate = addAmounts(amount, String(step), terminal.digits);
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
  build(terminal: Terminal, f: OrderFields): OrderRecord {
    const kind = requisitesKind(f.method.type);
    let holderAccount = f.requisite.holderAccount;
    let paymentLink: string | null = null;
    // An NSPK (SBP) link exists for RUB only: the link's `cur` is RUB and its `sum` kopecks.
    if (f.side === 'Buy' && f.method.currency === 'RUB' && (kind === 'phone' || kind === 'link')) {
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
      amountKey: Number(toMinor(f.amount, terminal.digits)),
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
      endedAs: null,
    };
  }

  /** Adds an order to the indexes; an Unpaid one also holds its amount on its requisite and falls due. */
  insert(terminal: Terminal, order: OrderRecord): void {
    const data = terminal.data;
    insertByTime(data.orders, order);
    data.columns.add(order);
    data.ordersById.set(order.id, order);
    const sameClientId = data.ordersByClientId.get(order.clientOrderId);
    if (sameClientId) insertByTime(sameClientId, order);
    else data.ordersByClientId.set(order.clientOrderId, [order]);
    if (order.status === 'Unpaid') this.trackUnpaid(terminal, order);
    this.options.added(terminal, order);
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
    if (order.userId !== null) trackUser(terminal, order.userId, order);
  }

  find(terminal: Terminal, id: string): OrderRecord {
    const order = terminal.data.ordersById.get(id);
    if (!order) throw new SandboxHttpError(404, `Order ${id} not found on this terminal`);
    return order;
  }

  /**
   * The ordinary status change: Unpaid → Completed | CanceledByTimeout | CanceledByService. Moves
   * money (Buy completed: credit amount − fee; Sell completed: the frozen amount + fee is withdrawn;
   * Sell cancelled: unfrozen) and reports the change.
   */
  transition(terminal: Terminal, order: OrderRecord, status: FinalStatus, atMs: number): void {
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
      credit(terminal, netOf(order.amount, order.fee, terminal.digits), order.updatedMs, orderCreditDescription('payment', order));
    }
    if (order.side === 'Sell' && order.frozen !== null) {
      if (status === 'Completed') withdrawFrozen(terminal, order.frozen, order.updatedMs, `Payout of order ${order.id} (client_order_id ${order.clientOrderId})`);
      else release(terminal, order.frozen);
      order.frozen = null;
    }
    this.options.statusChanged(terminal, order);
  }

  /**
   * The provider confirming a payment after the order had ended (`CanceledByTimeout` or
   * `CanceledByService` → `Completed`): a Buy order only; its amount − fee is credited unless an
   * accepted dispute already credited it (the provider pays once).
   */
  completeLate(terminal: Terminal, order: OrderRecord, atMs: number): void {
    if (order.status === 'Unpaid') return this.transition(terminal, order, 'Completed', atMs);
    if (!ENDED_CANCELLED.has(order.status)) {
      throw new SandboxHttpError(409, `Order ${order.id} is ${order.status}; a late completion applies to an order that ended CanceledByTimeout or CanceledByService`);
    }
    if (order.side !== 'Buy') {
      throw new SandboxHttpError(409, `Order ${order.id} is a payout (Sell); a late completion applies to Buy orders`);
    }
    order.endedAs = order.status;
    order.status = 'Completed';
    order.updatedMs = Math.max(atMs, order.updatedMs);
    terminal.data.columns.setStatus(order);
    if (!terminal.data.lateCredited.has(order.id)) {
      terminal.data.lateCredited.add(order.id);
      credit(terminal, netOf(order.amount, order.fee, terminal.digits), order.updatedMs, orderCreditDescription('late', order));
    }
    this.options.statusChanged(terminal, order);
  }
}

// ---------------------------------------------------------------------------------------------
// Helpers

/** An amount of a request (a decimal string, or a JSON number as PHP and Java clients send) → a decimal string. */
export function normalizeAmount(value: string | number, digits: number, field = 'amount'): string {
  try {
    const text = typeof value === 'number' ? numberToDecimal(value) : value;
    return parseAmount(text, { digits, field });
  } catch (err) {
    if (err instanceof MoneyError) throw fieldError('body', field, err.message);
    throw err;
  }
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
function checkCustomerAccount(method: MethodDef, account: string, field: string): void {
  const kind = requisitesKind(method.type);
  const ok =
    kind === 'card' ? /^\d{16,19}$/.test(account) : kind === 'phone' ? /^(\+7|7|8)\d{10}$/.test(account) : kind === 'account' ? /^\d{20}$/.test(account) : true;
  if (!ok) {
    const expected =
      kind === 'card' ? 'a card number of 16 to 19 digits' : kind === 'phone' ? 'a Russian phone number such as +79991234567' : 'an account number of 20 digits';
    throw fieldError('body', field, `must be ${expected} for method type ${method.type}`);
  }
}
