/**
 * Seeded data: a terminal's history (orders, form sessions, disputes, transactions that follow from
 * them) so every list has several pages, and {@link seedOrders} for benchmarks (N orders at once).
 * Deterministic per terminal key, relative to the sandbox clock.
 */
import { ORDER_LIFETIME_SECONDS, type OrderSide } from '../provider/facts.js';
import { addAmounts, compareAmounts, fromMinor } from '../money/index.js';
import { FOREIGN_CURRENCIES } from './currencies.js';
import type { SandboxEngine } from './engine.js';
import { credit, debit, freeze, hasAvailable, netOf, orderCreditDescription } from './ledger.js';
import { isNoTradersAmount } from './orders.js';
import { feeFor, rangeFor, type FeeRangeDef, type MethodDef } from './payment-methods.js';
import { createRng, intBetween, pick, seedFrom, type Rng } from './random.js';
import type { OrderRecord, SessionRecord } from './records.js';
import type { Terminal } from './terminal.js';
import { sortByTime } from './time-index.js';
import { randomUUID } from 'node:crypto';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const LIFETIME_MS = ORDER_LIFETIME_SECONDS * 1000;

/** Orders of the seeded history in the last 24 hours (the default order list period) and before. */
const RECENT_ORDERS = 25;
const OLDER_ORDERS = 35;
const SEEDED_DISPUTES = 24;
const SEEDED_SESSIONS_WITH_ORDER = 12;
const SEEDED_SESSIONS_WITHOUT_ORDER = 13;
const SEEDED_TOP_UP_RUB = '50000.00';

interface HistoricOptions {
  allowCompleted: boolean;
  now: number;
  clientOrderId: string;
  userId: string | null;
}

/** Active methods of a terminal that take `side`. */
function methodsFor(terminal: Terminal, side: OrderSide): MethodDef[] {
  return terminal.catalog.methods.filter((m) => m.active && m.ranges.some((r) => r.side === side));
}

/**
 * A random amount inside a range, mostly round, never the "no traders" fraction; for realism at most
 * 50 000.00 (RUB) or 100× the range's minimum (other currencies).
 */
function amountIn(rng: Rng, r: FeeRangeDef, digits: number, currency: string): string {
  const min = Number(r.minMinor);
  const rub = currency === 'RUB';
  const max = Math.min(Number(r.maxMinor), Math.max(min, rub ? 5_000_000 : min * 100));
  const step = rub ? 10_000 : Math.max(1, Math.round(min / 5)); // RUB: round to 100 ₽
  let minor = intBetween(rng, min, max);
  if (rng() < 0.8) minor = Math.min(max, Math.max(min, Math.round(minor / step) * step)); // a round amount
  let amount = fromMinor(BigInt(minor), digits);
  if (isNoTradersAmount(amount)) amount = addAmounts(amount, fromMinor(1n, digits), digits);
  return amount;
}

/** One past order with its consequences (transactions, frozen money), inserted into the terminal. */
function historicOrder(
  engine: SandboxEngine,
  terminal: Terminal,
  rng: Rng,
  createdMs: number,
  o: HistoricOptions,
  insert: (order: OrderRecord) => void,
): OrderRecord {
  const side: OrderSide = rng() < 0.75 ? 'Buy' : 'Sell';
  const method = pick(rng, methodsFor(terminal, side));
  const range = pick(rng, method.ranges.filter((r) => r.side === side));
  const amount = amountIn(rng, range, terminal.digits, terminal.currency);
  const routes = method.routes.filter((m) => m.active && rangeFor(m, side, amount));
  const concrete = routes.length > 0 ? pick(rng, routes) : method;
  const order = engine.orders.build(terminal, {
    clientOrderId: o.clientOrderId,
    side,
    method: concrete,
    initialMethodId: method.id,
    amount,
    requestedAmount: amount,
    fee: feeFor(amount, range, terminal.currency),
    fixedFee: range.fixed === null ? null : Number(range.fixed),
    requisite: pick(rng, concrete.requisites),
    customerName: side === 'Sell' ? pick(rng, ['Сидоров Павел', 'Орлова Ирина', null]) : null,
    customerAccount: side === 'Sell' ? sellAccount(rng, concrete) : null,
    customerBank: null,
    webhookUrl: null,
    createdMs,
    userId: o.userId,
    uniqueAmount: false,
    sessionId: null,
  });
  const needed = addAmounts(order.amount, order.fee, terminal.digits);
  if (createdMs + LIFETIME_MS > o.now) {
    // Still within its lifetime: stays Unpaid (a Sell one freezes its money, if there is enough).
    if (side === 'Sell') {
      if (hasAvailable(terminal, needed)) {
        freeze(terminal, needed);
        order.frozen = needed;
      } else {
        finish(order, 'CanceledByService', createdMs + MINUTE);
      }
    }
    insert(order);
    return order;
  }
  const roll = rng();
  if (o.allowCompleted && roll < 0.65) {
    const at = Math.min(createdMs + intBetween(rng, 1, 25) * MINUTE, o.now);
    if (side === 'Buy') {
      finish(order, 'Completed', at);
      credit(terminal, netOf(order.amount, order.fee, terminal.digits), at, orderCreditDescription('payment', order));
    } else if (debit(terminal, needed, at, `Payout of order ${order.id} (client_order_id ${order.clientOrderId})`)) {
      finish(order, 'Completed', at);
    } else {
      finish(order, 'CanceledByService', at);
    }
  } else if (roll < 0.9) {
    finish(order, 'CanceledByTimeout', order.expiresMs);
  } else {
    finish(order, 'CanceledByService', Math.min(createdMs + intBetween(rng, 1, 20) * MINUTE, o.now));
  }
  insert(order);
  return order;
}

function finish(order: OrderRecord, status: string, atMs: number): void {
  order.status = status;
  order.updatedMs = atMs;
}

function sellAccount(rng: Rng, method: MethodDef): string {
  const d = (n: number) => Array.from({ length: n }, () => Math.floor(rng() * 10)).join('');
  switch (method.type) {
    case 'SBP':
      return `+79${d(9)}`;
    case 'BankAccount':
      return `40817810${d(12)}`;
    default:
      return `2200${d(12)}`;
  }
}

/** Seeds a terminal: opening balance, and (when its settings say so) a history of several pages. */
export function seedTerminal(engine: SandboxEngine, terminal: Terminal): void {
  const now = engine.now();
  const rng = createRng(seedFrom(`history:${terminal.apiKey}`));
  const settings = terminal.settings;
  if (compareAmounts(settings.openingBalance, '0') > 0) {
    credit(terminal, settings.openingBalance, now - 30 * DAY, 'Opening deposit');
  }
  if (!settings.seedHistory) return;
  if (settings.seedCompleted) {
    const topUp = terminal.currency === 'RUB' ? SEEDED_TOP_UP_RUB : FOREIGN_CURRENCIES[terminal.currency].topUp;
    for (const daysAgo of [21, 14, 7, 2]) credit(terminal, topUp, now - daysAgo * DAY, 'Deposit top-up');
  }

  const times: number[] = [];
  for (let i = 0; i < OLDER_ORDERS; i++) times.push(now - intBetween(rng, 25 * HOUR, 30 * DAY));
  for (let i = 0; i < RECENT_ORDERS; i++) times.push(now - intBetween(rng, HOUR, 23 * HOUR));
  times.sort((a, b) => a - b);
  const orders: OrderRecord[] = [];
  times.forEach((t, i) => {
    historicOrder(
      engine,
      terminal,
      rng,
      t,
      {
        allowCompleted: settings.seedCompleted,
        now,
        clientOrderId: `shop-${String(1000 + i)}`,
        userId: rng() < 0.5 ? `customer-${intBetween(rng, 1, 40)}` : null,
      },
      (order) => {
        engine.orders.insert(terminal, order);
        orders.push(order);
      },
    );
  });

  // Disputes on distinct orders, opened after the order, the older ones processed.
  const disputed = [...orders].sort(() => rng() - 0.5).slice(0, SEEDED_DISPUTES);
  for (const order of disputed) {
    const at = Math.min(order.createdMs + intBetween(rng, 10 * MINUTE, 3 * DAY), now - MINUTE);
    const dispute = engine.disputes.open(terminal, order, { atMs: at, source: 'seed' });
    // Processed long ago; the seeded history does not say how (accepted stays null) and moves no money.
    if (now - at > 7 * DAY || rng() < 0.5) {
      dispute.processed = true;
      dispute.processedMs = Math.min(now - MINUTE, at + DAY);
    }
  }

  // Form sessions: some led to (Buy) orders, the others were left in method selection.
  const buys = orders.filter((o) => o.side === 'Buy').slice(-SEEDED_SESSIONS_WITH_ORDER);
  for (const order of buys) {
    const created = order.createdMs - intBetween(rng, 5_000, 90_000);
    const session = pastSession(terminal, order.clientOrderId, order.requestedAmount, created);
    session.order = order;
    session.amount = order.amount;
    session.paymentMethodType = order.method.type;
    session.nspkCode = order.method.nspkCode;
    session.searchCount = 1;
    session.requisitesStartMs = order.createdMs;
    session.requisitesExpiresMs = order.createdMs + 5 * MINUTE;
    session.expiresMs = order.expiresMs;
    session.state = order.status === 'Completed' ? 'completed' : order.status === 'CanceledByTimeout' ? 'expired' : 'cancelled';
    if (order.status === 'Completed') {
      session.confirmationStartMs = Math.max(order.createdMs, order.updatedMs - 2 * MINUTE);
      session.confirmationExpiresMs = session.confirmationStartMs + 20 * MINUTE;
    }
    session.updatedMs = order.updatedMs;
    session.ipAddress = `203.0.113.${intBetween(rng, 1, 254)}`;
    order.sessionId = session.id;
    engine.sessions.insert(terminal, session);
  }
  const buyRanges = methodsFor(terminal, 'Buy').flatMap((m) => m.ranges.filter((r) => r.side === 'Buy'));
  for (let i = 0; i < SEEDED_SESSIONS_WITHOUT_ORDER; i++) {
    const created = now - intBetween(rng, HOUR, 20 * DAY);
    const amount =
      terminal.currency === 'RUB'
        ? fromMinor(BigInt(intBetween(rng, 10, 500)) * 1000n, 2)
        : amountIn(rng, pick(rng, buyRanges), terminal.digits, terminal.currency);
    const session = pastSession(terminal, `shop-form-${i + 1}`, amount, created);
    session.state = rng() < 0.7 ? 'expired' : 'cancelled';
    session.updatedMs = session.state === 'expired' ? session.expiresMs : created + intBetween(rng, 1, 10) * MINUTE;
    engine.sessions.insert(terminal, session);
  }
}

function pastSession(terminal: Terminal, clientOrderId: string, amount: string, createdMs: number): SessionRecord {
  return {
    seq: terminal.data.nextSeq(),
    id: randomUUID(),
    clientOrderId,
    side: 'Buy',
    requestedAmount: amount,
    amount,
    paymentMethodType: null,
    nspkCode: null,
    buttonName: null,
    customerBank: null,
    paymentMethodId: null,
    order: null,
    redirectUrl: 'https://shop.example/thanks',
    supportUrl: 'https://shop.example/support',
    returnUrl: 'https://shop.example/cart',
    searchCount: 0,
    selection: true,
    createdMs,
    updatedMs: createdMs,
    uniqueAmount: false,
    userId: null,
    state: 'method_selection',
    requisitesStartMs: null,
    requisitesExpiresMs: null,
    confirmationStartMs: null,
    confirmationExpiresMs: null,
    expiresMs: createdMs + 30 * MINUTE,
    ipAddress: null,
  };
}

export interface SeedOrdersOptions {
  /** Spread the orders over this many hours before now (default 23: inside the default list period). */
  hours?: number;
  /** Seed of the generator (default: derived from the key and the count). */
  seed?: number;
}

/**
 * Adds `count` orders to a terminal at once (for benchmarks), spread over the last `hours`: older
 * ones final (with their transactions), those within the order lifetime still Unpaid.
 */
export function seedOrders(engine: SandboxEngine, terminal: Terminal, count: number, options: SeedOrdersOptions = {}): number {
  if (!Number.isInteger(count) || count < 0) throw new RangeError('count must be a non-negative integer');
  const now = engine.now();
  const hours = options.hours ?? 23;
  const rng = createRng(options.seed ?? seedFrom(`bulk:${terminal.apiKey}:${count}:${terminal.data.seq}`));
  const span = Math.max(1, Math.round(hours * HOUR));
  const times = new Float64Array(count);
  for (let i = 0; i < count; i++) times[i] = now - 1000 - Math.floor(rng() * span);
  times.sort();
  const data = terminal.data;
  const prefix = `bulk-${data.seq}-`;
  const touchedClientIds: OrderRecord[][] = [];
  for (let i = 0; i < count; i++) {
    historicOrder(
      engine,
      terminal,
      rng,
      times[i]!,
      { allowCompleted: true, now, clientOrderId: `${prefix}${i}`, userId: null },
      (order) => {
        // Appended here and sorted once below: inserting 100 000 orders one by one would be quadratic.
        data.orders.push(order);
        data.columns.add(order);
        data.ordersById.set(order.id, order);
        const list = data.ordersByClientId.get(order.clientOrderId);
        if (list) {
          list.push(order);
          touchedClientIds.push(list);
        } else data.ordersByClientId.set(order.clientOrderId, [order]);
        if (order.status === 'Unpaid') engine.orders.trackUnpaid(terminal, order);
      },
    );
  }
  sortByTime(data.orders);
  for (const list of touchedClientIds) sortByTime(list);
  void data.columns.byAmount; // sort the amount index now, not on the first list request
  return count;
}
