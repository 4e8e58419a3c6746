/**
 * Refunds: money of a paid order given back to the shopper. In P2P there is no card refund: a refund
 * is a payout (a `Sell` order) to an account the shopper names, made with the payout path's
 * create-once rule (payouts.ts `payoutMaker`, `createOnce` of paydesk/server), so one refund makes one
 * payout whatever the provider's delays or a double submit.
 *
 *   GET  /refunds/due → {"items": [RefundDue]}: orders that paid a purchase another order had already
 *        paid (each token endpoint's `handler.doublePayments()`), with what is left to refund
 *   POST /refunds {order_id, account, amount?, method_type? | payment_method_id?} (Idempotency-Key optional)
 *        → 201 {"refund", "replayed": false} | 200 {"refund", "replayed": true}
 *
 * Checked before anything is sent, each a 400 naming its field: the order (a paid payment), the amount
 * (a decimal with two places, more than zero, at most what is left: paid less the refunds that have
 * not failed), the account (a phone for a phone method such as SBP, a Luhn-valid card number for a
 * card method), the method (one that makes payouts, to the account's kind: a card method never takes a
 * phone, nor the reverse). A refund to a phone names the shopper's bank (`payment_method_id` of that
 * bank's SBP method, or a `method_type` only one method has) whenever several banks pay out by SBP: an
 * SBP payout goes to one bank, and a guessed one may not be the shopper's. The refund is recorded (status `sending`) before
 * its payout is asked for, so a second refund of the order counts it while it may still land; a
 * refusal that proves nothing was made (the provider's 402 and the like) removes it again.
 *
 * The refund's id comes from the Idempotency-Key (or, without one, from the amount and account: the
 * same refund asked twice is one refund); its payout's client order id names the order
 * (refund-ids.ts), so the payout shows its order. Kept in the console's store for a year:
 * `console:refund:<order id>:<id>`, indexed per order.
 */
import type { Context, Hono } from 'hono';
import { compareAmounts, currencyDigits, subtractAmounts, sumAmounts, toFixedDigits } from '../money/index.js';
import { isProviderError, orderOutcome, type Order, type ProviderClient } from '../provider/index.js';
import type { CheckoutStore, DoublePayment } from '../server/index.js';
import { readJson } from './checks.js';
import type { RefundDue, RefundResponse, RefundsDueResponse, RefundStatus, RefundView, ShopView } from './contract.js';
import { ConsoleHttpError, invalid } from './errors.js';
import { createError, DESTINATION_PROBLEMS, payoutMaker, payoutMethods, type PayoutContext } from './payouts.js';
import { destinationKindOf, maskDestination, normalizeDestination, quotePayout, refundMethodFor, type DestinationKind, type PayoutMethod } from './payout-rules.js';
import { refundClientOrderId, refundId, REFUNDABLE_ORDER_ID } from './refund-ids.js';
import type { ShopRecords } from './shop.js';
import { minorUnits } from './views.js';

/** How long a refund's record is kept. */
const REFUND_TTL_MS = 366 * 24 * 3600_000;
const refundKey = (orderId: string, id: string) => `console:refund:${orderId}:${id}`;
const refundsIndex = (orderId: string) => `console:refunds-of:${orderId}`;
const TWO_PLACES = /^\d{1,12}\.\d{2}$/;
const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,128}$/;
/** Refusals that prove the payout was not made: its record goes again. */
const NOTHING_MADE = new Set(['insufficient_funds', 'validation_failed', 'customer_blacklisted', 'method_unavailable', 'amount_out_of_limits', 'no_traders', 'quote_changed']);

interface StoredRefund extends RefundView {
  /** The account as the provider takes it (never shown: the view masks it). */
  destination: string;
  /** The payout method the refund asked for (`method` becomes the payout's own once it is made); absent in records of before. */
  asked_method_id?: string;
}

export interface RefundContext extends Pick<PayoutContext, 'client' | 'store' | 'now' | 'logError' | 'payoutLeaseMs' | 'payoutWaitMs'> {
  shops: ShopRecords;
  /** Each token endpoint's double payments (`handler.doublePayments`), with its mount path. */
  doublePayments: Array<{ endpoint: string; list: () => Promise<DoublePayment[]> }>;
}

/** The refunds of one order, kept in the console's store. */
export class RefundBook {
  constructor(
    private readonly store: CheckoutStore,
    private readonly client: ProviderClient,
  ) {}

  async get(orderId: string, id: string): Promise<StoredRefund | null> {
    const v = await this.store.get(refundKey(orderId, id));
    return v ? (JSON.parse(v.value) as StoredRefund) : null;
  }

  async put(r: StoredRefund): Promise<void> {
    await this.store.set(refundKey(r.order_id, r.id), JSON.stringify(r), REFUND_TTL_MS);
    await this.store.indexSet(refundsIndex(r.order_id), r.id, Date.parse(r.created_at));
  }

  async remove(r: StoredRefund): Promise<void> {
    await this.store.delete(refundKey(r.order_id, r.id));
    await this.store.indexRemove(refundsIndex(r.order_id), r.id);
  }

  /** The order's refunds, newest first, as stored. */
  async stored(orderId: string): Promise<StoredRefund[]> {
    const ids = await this.store.indexRange(refundsIndex(orderId), { limit: 100, reverse: true });
    const out: StoredRefund[] = [];
    for (const { member } of ids) {
      const r = await this.get(orderId, member);
      if (r) out.push(r);
    }
    return out;
  }

  /** The order's refunds with their payouts read now (within `timeoutMs`; a failed read leaves the stored status). */
  async current(orderId: string, timeoutMs = 5_000): Promise<StoredRefund[]> {
    const list = await this.stored(orderId);
    return Promise.all(list.map((r) => (r.status === 'sending' || r.status === 'pending' ? this.refresh(r, timeoutMs) : r)));
  }

  private async refresh(r: StoredRefund, timeoutMs: number): Promise<StoredRefund> {
    try {
      const options = { maxRetries: 0, timeoutMs };
      const payout = r.payout_id
        ? await this.client.getOrder(r.payout_id, options)
        : (await this.client.searchOrdersByClientOrderId({ id: r.client_order_id, size: 5 }, options)).items.find((o) => o.order_side === 'Sell');
      if (!payout) return r;
      const next = withPayout(r, payout);
      if (next.status !== r.status || next.payout_id !== r.payout_id) await this.put(next);
      return next;
    } catch (err) {
      if (!isProviderError(err)) throw err;
      return r;
    }
  }
}

const statusOf = (payout: Order): RefundStatus => {
  const outcome = orderOutcome(payout.status);
  return outcome === 'paid' ? 'paid' : outcome === 'pending' ? 'pending' : 'failed';
};

function withPayout(r: StoredRefund, payout: Order): StoredRefund {
  return { ...r, payout_id: payout.id, status: statusOf(payout), method: { id: payout.method_id, name: payout.method_name, type: payout.method_type } };
}

export const refundView = ({ destination: _destination, asked_method_id: _asked, ...view }: StoredRefund): RefundView => view;

/** What counts against what is left: every refund but a failed one. */
export const refundedSum = (list: readonly RefundView[], digits: number) => sumAmounts(list.filter((r) => r.status !== 'failed').map((r) => r.amount), digits);

export type DoubleState = NonNullable<ShopView['double_payment']>;

/**
 * Every double payment the handlers know (by provider order id) with where its refund stands: `due`
 * until refunds that have not failed cover what it paid, `refunded` once paid refunds do, `sending` between.
 * The refunds of the orders `shown` have their payouts read now.
 */
export async function doubleStates(sources: RefundContext['doublePayments'], book: RefundBook, shown: ReadonlySet<string> = new Set()): Promise<Map<string, DoubleState>> {
  const out = new Map<string, DoubleState>();
  for (const source of sources) {
    for (const d of await source.list()) {
      const digits = currencyDigits(d.currency);
      const paid = toFixedDigits(d.amount, digits);
      // The orders shown have their refunds' payouts read now (as the order page does); the rest as stored.
      const list = shown.has(d.order_id) ? await book.current(d.order_id, 2_000) : await book.stored(d.order_id);
      const covers = (rs: readonly RefundView[]) => compareAmounts(sumAmounts(rs.map((r) => r.amount), digits), paid) >= 0;
      const refund = covers(list.filter((r) => r.status === 'paid')) ? 'refunded' : covers(list.filter((r) => r.status !== 'failed')) ? 'sending' : 'due';
      out.set(d.order_id, { first_order_id: d.first.order_id, refund });
    }
  }
  return out;
}

/** A paid payment's amount (decimal, the currency's digits), or null when the order is not a paid payment. */
export async function paidAmount(shops: ShopRecords, order: Order): Promise<string | null> {
  if (order.order_side !== 'Buy') return null;
  const session = await shops.sessionOf(order.id);
  const paid = orderOutcome(order.status) === 'paid' || session?.status === 'paid';
  return paid ? minorUnits(order.amount, order.currency) : null;
}

const KIND_TEXT: Record<DestinationKind, string> = { phone: 'a phone number', card: 'a card number', account: 'a bank account number' };
/** A payout method as a refusal lists it: its id and what it is. */
const choiceText = (m: PayoutMethod) => `${m.id} (${m.name})`;

/** The payout method a refund uses (payout-rules.ts `refundMethodFor`), or a 400 naming its field and what to send. */
function methodFor(methods: PayoutMethod[], body: { account: string; method_type?: string; payment_method_id?: string }): PayoutMethod {
  const pick = refundMethodFor(methods, body.account, body);
  if (pick.ok) return pick.method;
  switch (pick.problem) {
    case 'unknown_method':
      throw invalid('payment_method_id', 'is not a method that makes payouts now');
    case 'unknown_type':
      throw invalid('method_type', `no active method of this type makes payouts (there are: ${[...new Set(methods.map((x) => x.type))].join(', ') || 'none'})`);
    case 'wrong_kind':
      throw invalid(pick.field, `${pick.method!.name} pays out to ${KIND_TEXT[pick.method!.kind]}, and the account is ${KIND_TEXT[pick.kind!]}: name a method that pays out to ${KIND_TEXT[pick.kind!]}, or leave the method out`);
    case 'choose_bank':
      throw pick.choices.length === 0
        ? invalid(pick.field, 'no bank’s SBP method makes payouts now')
        : invalid(
            pick.field,
            `a refund to a phone goes by SBP to one bank, the one the shopper’s phone is registered at, and ${pick.choices.length} banks pay out by SBP: name the shopper’s bank with payment_method_id, one of ${pick.choices.map(choiceText).join(', ')}`,
          );
    case 'no_method':
      throw invalid('account', `no active method pays out to a ${pick.kind} now`);
    case 'account_shape':
      throw invalid('account', 'must be a phone number such as +79991234567 (SBP) or a card number of 16 to 19 digits');
  }
}

/**
 * A retry under the key of a refund already recorded takes that refund's method when it names none:
 * it is the same refund (one recorded before banks were asked names no bank either), so it is
 * replayed rather than refused for want of a bank. Otherwise {@link methodFor}.
 */
function methodOfRetry(methods: PayoutMethod[], body: RefundBody, keyed: StoredRefund | null): PayoutMethod {
  const named = body.payment_method_id !== undefined || body.method_type !== undefined;
  const recorded = keyed && !named ? methods.find((m) => m.id === (keyed.asked_method_id ?? keyed.method.id)) : undefined;
  return recorded ?? methodFor(methods, body);
}

/**
 * The refund recorded under this request's id, when the request asks for that same refund; a 409
 * when the key made a refund of another amount (one named), to another account or by another method.
 */
function replayOf(earlier: StoredRefund, asked: { amount: string; named: boolean; destination: string; method: PayoutMethod }): StoredRefund {
  if (compareAmounts(earlier.amount, asked.amount) !== 0 && asked.named) throw new ConsoleHttpError(409, 'idempotency_key_reused', 'this Idempotency-Key made a refund of another amount; use a new key for another refund');
  if (earlier.destination !== asked.destination) throw new ConsoleHttpError(409, 'idempotency_key_reused', 'this Idempotency-Key made a refund to another account; use a new key for another refund');
  if (earlier.asked_method_id !== undefined && earlier.asked_method_id !== asked.method.id) {
    throw new ConsoleHttpError(409, 'idempotency_key_reused', `this Idempotency-Key made a refund by another payout method (${earlier.method.name}); use a new key for another refund`);
  }
  return earlier;
}

interface RefundBody {
  order_id: string;
  account: string;
  amount?: string;
  method_type?: string;
  payment_method_id?: string;
}

/** The body checked field by field, each refusal naming its field. */
function checkBody(raw: unknown): RefundBody {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) throw new ConsoleHttpError(400, 'bad_request', 'the body must be a JSON object {"order_id", "account", "amount"?, "method_type"? | "payment_method_id"?}');
  const b = raw as Record<string, unknown>;
  const known = new Set(['order_id', 'account', 'amount', 'method_type', 'payment_method_id']);
  const unknown = Object.keys(b).filter((k) => !known.has(k));
  if (unknown.length > 0) throw invalid(unknown[0]!, 'is not a field of a refund');
  if (typeof b.order_id !== 'string' || !REFUNDABLE_ORDER_ID.test(b.order_id)) throw invalid('order_id', 'must be the provider order id of a paid order');
  if (typeof b.account !== 'string' || b.account.trim() === '' || b.account.length > 64) throw invalid('account', 'is required: the shopper’s phone (SBP) or card number');
  if (b.amount !== undefined && (typeof b.amount !== 'string' || !TWO_PLACES.test(b.amount))) throw invalid('amount', 'must be a decimal with two places, such as 1500.00');
  if (b.amount !== undefined && compareAmounts(b.amount as string, '0.00') <= 0) throw invalid('amount', 'must be more than 0.00');
  if (b.method_type !== undefined && b.payment_method_id !== undefined) throw invalid('method_type', 'give method_type or payment_method_id, not both');
  for (const f of ['method_type', 'payment_method_id'] as const) {
    if (b[f] !== undefined && (typeof b[f] !== 'string' || !/^[\x21-\x7e]{1,64}$/.test(b[f] as string))) throw invalid(f, 'must be 1 to 64 printable characters');
  }
  return b as unknown as RefundBody;
}

/** The refund routes (see the file comment). */
export function registerRefunds(app: Hono, ctx: RefundContext): RefundBook {
  const { client, shops, now } = ctx;
  const book = new RefundBook(ctx.store, client);
  const createPayout = payoutMaker(ctx);
  /** One check-and-record at a time per order (what is left is read and the refund written together). */
  const queues = new Map<string, Promise<unknown>>();
  const perOrder = <T>(orderId: string, fn: () => Promise<T>): Promise<T> => {
    const run = (queues.get(orderId) ?? Promise.resolve()).then(fn, fn);
    const tail = run.catch(() => undefined);
    queues.set(orderId, tail);
    void tail.then(() => queues.get(orderId) === tail && queues.delete(orderId));
    return run;
  };

  app.get('/refunds/due', async (c) => {
    const items: RefundDue[] = [];
    for (const source of ctx.doublePayments) {
      for (const d of await source.list()) {
        const digits = currencyDigits(d.currency);
        const paid = toFixedDigits(d.amount, digits);
        const refunded = refundedSum(await book.stored(d.order_id), digits);
        if (compareAmounts(refunded, paid) >= 0) continue;
        items.push({
          order_id: d.order_id,
          client_order_id: d.client_order_id,
          order_ref: d.order_ref,
          reason: d.dispute_id ? 'dispute_accepted' : d.late ? 'late_payment' : 'double_payment',
          amount: subtractAmounts(paid, refunded, digits),
          paid,
          refunded,
          currency: d.currency,
          paid_at: d.paid_at,
          first_order_id: d.first.order_id,
          endpoint: source.endpoint,
        });
      }
    }
    return c.json({ items } satisfies RefundsDueResponse);
  });

  app.post('/refunds', async (c: Context) => {
    const key = c.req.header('idempotency-key');
    if (key !== undefined && !IDEMPOTENCY_KEY.test(key)) throw invalid('Idempotency-Key', 'must be 1 to 128 printable ASCII characters');
    const body = checkBody(await readJson(c, '{"order_id", "account", "amount"?, "method_type"? | "payment_method_id"?}'));

    const order = await client.getOrder(body.order_id).catch((err: unknown) => {
      if (isProviderError(err, 'order_not_found')) throw invalid('order_id', 'no such order at the provider');
      throw err;
    });
    const paid = await paidAmount(shops, order);
    if (paid === null) throw invalid('order_id', order.order_side !== 'Buy' ? 'is a payout, not a payment' : `is not paid (${order.status}): only a paid order is refunded`);
    const digits = currencyDigits(order.currency);

    const methods = await payoutMethods(client);

    // Record first (what is left counts it), then ask for the payout. One read of the order's
    // refunds, inside the lock: what is left, the refund of this key, and the method a retry under
    // that key takes when it names none, all come from it.
    const { refund, replayed, method } = await perOrder(order.id, async () => {
      const others = await book.stored(order.id);
      const keyed = key !== undefined ? (others.find((r) => r.id === refundId(order.id, { key })) ?? null) : null;
      const method = methodOfRetry(methods, body, keyed);
      const destination = normalizeDestination(method.kind, body.account, method.type);
      if (!destination.ok) throw invalid('account', `${DESTINATION_PROBLEMS[destination.problem]} (${method.name} pays out to a ${method.kind})`);
      const left = subtractAmounts(paid, refundedSum(others, digits), digits);
      const amount = body.amount ?? left;
      const id = refundId(order.id, key !== undefined ? { key } : { amount, account: destination.value });
      const earlier = others.find((r) => r.id === id) ?? null;
      if (earlier) return { refund: replayOf(earlier, { amount, named: body.amount !== undefined, destination: destination.value, method }), replayed: true, method };
      if (compareAmounts(left, '0') <= 0) throw invalid('amount', `nothing is left to refund: ${paid} ${order.currency} paid, all of it refunded or on its way`);
      if (compareAmounts(amount, left) > 0) throw invalid('amount', `is more than is left to refund: ${left} ${order.currency} (paid ${paid}, refunded ${subtractAmounts(paid, left, digits)})`);
      const quoted = quotePayout(method, amount);
      if (!quoted.ok) {
        throw new ConsoleHttpError(409, 'amount_out_of_limits', `amount: ${method.name} pays out from ${quoted.min} to ${quoted.max} ${method.currency}`, {
          field: 'amount',
          details: { min: quoted.min, max: quoted.max, currency: method.currency },
        });
      }
      const fresh: StoredRefund = {
        id,
        order_id: order.id,
        client_order_id: refundClientOrderId(order.id, id),
        payout_id: null,
        amount,
        currency: order.currency,
        status: 'sending',
        account: maskDestination(method.kind, destination.value),
        account_kind: destinationKindOf(method.type, destination.value),
        method: { id: method.id, name: method.name, type: method.type },
        created_at: new Date(now()).toISOString(),
        destination: destination.value,
        asked_method_id: method.id,
      };
      await book.put(fresh);
      return { refund: fresh, replayed: false, method };
    });
    if (refund.payout_id !== null) return c.json({ refund: refundView(refund), replayed: true } satisfies RefundResponse, 200);

    const quoted = quotePayout(method, refund.amount);
    const total = quoted.ok ? quoted.quote.total : refund.amount;
    let outcome: Awaited<ReturnType<typeof createPayout>>;
    try {
      outcome = await createPayout({ key: refund.id, method_id: refund.method.id, amount: refund.amount, destination: refund.destination, total }, refund.amount, refund.client_order_id);
    } catch (err) {
      const mapped = err instanceof ConsoleHttpError ? err : isProviderError(err) ? createError(err) : null;
      if (mapped && NOTHING_MADE.has(mapped.code)) await book.remove(refund);
      if (mapped) throw mapped.extra.field === 'destination' ? new ConsoleHttpError(mapped.status, mapped.code, mapped.message, { ...mapped.extra, field: 'account' }) : mapped;
      throw err;
    }
    const done = withPayout(refund, outcome.order);
    await book.put(done);
    return c.json({ refund: refundView(done), replayed: replayed || outcome.replayed } satisfies RefundResponse, replayed || outcome.replayed ? 200 : 201);
  });

  return book;
}
