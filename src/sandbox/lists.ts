/**
 * The read-only endpoints' queries: filters, defaults, sort and pagination, over per-terminal lists
 * kept sorted by creation time (a date range is a binary search; filters one pass over it).
 */
import type { DisputeRecord, OrderRecord, SessionRecord, TransactionRecord } from './records.js';
import type { Terminal } from './terminal.js';
import { lowerBound, upperBound, type Timed } from './time-index.js';
import { knownStatusCode, methodIndex, sideCode } from './columns.js';
import type { FormSearchQuery } from '../provider/schemas.js';
import { parseIsoDateTime } from '../provider/time.js';

export interface PageResult<T> {
  items: T[];
  total: number;
  page: number;
  size: number;
  pages: number;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** Parses a date-time query value (already validated); a value without a zone is read as UTC (as the provider does). */
export function dateQueryMs(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  return parseIsoDateTime(value) ?? undefined;
}

function pagesOf(total: number, size: number): number {
  return Math.ceil(total / size);
}

/** Records of `list` created within [start, end] (inclusive), oldest first. */
function window<T extends Timed>(list: readonly T[], start: number | undefined, end: number | undefined): { lo: number; hi: number } {
  return {
    lo: start === undefined ? 0 : lowerBound(list, start),
    hi: end === undefined ? list.length : upperBound(list, end),
  };
}

/** Page `page` of the matches (which are oldest first), newest first. */
function newestFirst<T>(matches: readonly T[], page: number, size: number): PageResult<T> {
  const items: T[] = [];
  const first = matches.length - 1 - (page - 1) * size;
  for (let i = first; i >= 0 && items.length < size; i--) items.push(matches[i]!);
  return { items, total: matches.length, page, size, pages: pagesOf(matches.length, size) };
}

function collect<T extends Timed>(list: readonly T[], lo: number, hi: number, keep: ((x: T) => boolean) | null): T[] {
  if (!keep) return list.slice(lo, hi);
  const out: T[] = [];
  for (let i = lo; i < hi; i++) if (keep(list[i]!)) out.push(list[i]!);
  return out;
}

function all<T>(...tests: (((x: T) => boolean) | null)[]): ((x: T) => boolean) | null {
  const active = tests.filter((t): t is (x: T) => boolean => t !== null);
  if (active.length === 0) return null;
  return (x) => active.every((t) => t(x));
}

// ---------------------------------------------------------------------------------------------

export interface OrdersFilter {
  page: number;
  size: number;
  payment_method_id?: string;
  order_side?: string;
  status?: string;
  sort_by: 'created_at' | 'amount';
  sort: 'asc' | 'desc';
  start?: number;
  end?: number;
}

/**
 * `GET /api/v1/order/`: period defaults to the last 24 hours up to now (sandbox clock). One pass,
 * no copy: by creation time the list itself is the order; by amount the terminal's amount index is
 * (kept sorted on insert), so any page of 100 000 orders costs one scan and no sort.
 */
export function listOrders(t: Terminal, f: OrdersFilter, now: number): PageResult<OrderRecord> {
  const start = f.start ?? now - DAY_MS;
  const end = f.end ?? now;
  const { side, status, method } = { side: f.order_side, status: f.status, method: f.payment_method_id };
  const filtered = side !== undefined || status !== undefined || method !== undefined;
  const matches = (o: OrderRecord) =>
    (side === undefined || o.side === side) &&
    (status === undefined || o.status === status) &&
    (method === undefined || o.method.id === method || o.initialMethodId === method);
  const offset = (f.page - 1) * f.size;
  const items: OrderRecord[] = [];
  let total = 0;
  const take = (o: OrderRecord) => {
    if (total >= offset && items.length < f.size) items.push(o);
    total++;
  };

  if (start > end) {
    // nothing in an empty period
  } else if (f.sort_by === 'created_at') {
    const list = t.data.orders;
    const lo = lowerBound(list, start);
    const hi = upperBound(list, end);
    if (!filtered) {
      total = hi - lo;
      if (f.sort === 'desc') for (let i = hi - 1 - offset; i >= lo && items.length < f.size; i--) items.push(list[i]!);
      else for (let i = lo + offset; i < hi && items.length < f.size; i++) items.push(list[i]!);
    } else if (f.sort === 'desc') {
      for (let i = hi - 1; i >= lo; i--) if (matches(list[i]!)) take(list[i]!);
    } else {
      for (let i = lo; i < hi; i++) if (matches(list[i]!)) take(list[i]!);
    }
  } else {
    // Amount order: scan the amount index over the typed columns.
    const cols = t.data.columns;
    const sideWanted = side === undefined ? 0 : sideCode(side);
    const statusWanted = status === undefined ? 0 : (knownStatusCode(status) ?? -1);
    const methodWanted = method === undefined ? -2 : (methodIndex(method) ?? -1);
    const index = cols.byAmount;
    const { created, side: sides, status: statuses, method: methods, initial: initials, records } = cols;
    const n = index.length;
    const asc = f.sort === 'asc';
    for (let k = 0; k < n; k++) {
      const slot = index[asc ? k : n - 1 - k]!;
      const c = created[slot]!;
      if (c < start || c > end) continue;
      if (sideWanted !== 0 && sides[slot] !== sideWanted) continue;
      if (statusWanted !== 0 && statuses[slot] !== statusWanted) continue;
      if (methodWanted !== -2 && methods[slot] !== methodWanted && initials[slot] !== methodWanted) continue;
      if (total >= offset && items.length < f.size) items.push(records[slot]!);
      total++;
    }
  }
  return { items, total, page: f.page, size: f.size, pages: pagesOf(total, f.size) };
}

/** `GET /api/v1/order/search-by-client-order-id`: one page, newest first; `page` is always 1. */
export function ordersByClientId(t: Terminal, clientOrderId: string, size: number): PageResult<OrderRecord> {
  const matches = t.data.ordersByClientId.get(clientOrderId) ?? [];
  return newestFirst(matches, 1, size);
}

/** The form search's query (`GET /api/v1/form/search`), read: the page and its size as numbers. */
export interface SessionsFilter extends Omit<FormSearchQuery, 'page' | 'size'> {
  page: number;
  size: number;
}

export function listSessions(t: Terminal, f: SessionsFilter): PageResult<SessionRecord> {
  const list = t.data.sessions;
  const foreign = f.terminal_id !== undefined && f.terminal_id !== t.id;
  const keep = all<SessionRecord>(
    foreign ? () => false : null,
    f.order_id !== undefined ? (s) => s.order?.id === f.order_id : null,
    f.client_order_id !== undefined ? (s) => s.clientOrderId === f.client_order_id : null,
    f.session_id !== undefined ? (s) => s.id === f.session_id : null,
    f.state !== undefined ? (s) => s.state === f.state : null,
    f.currency !== undefined ? () => f.currency === t.currency : null,
  );
  const matches = collect(list, 0, list.length, keep);
  return newestFirst(matches, f.page, f.size);
}

export interface DisputesFilter {
  page: number;
  size: number;
  order_id?: string;
  dispute_id?: string;
  processed?: boolean;
  start?: number;
  end?: number;
}

export function listDisputes(t: Terminal, f: DisputesFilter): PageResult<DisputeRecord> {
  const list = t.data.disputes;
  const { lo, hi } = window(list, f.start, f.end);
  const keep = all<DisputeRecord>(
    f.order_id !== undefined ? (d) => d.order.id === f.order_id : null,
    f.dispute_id !== undefined ? (d) => d.id === f.dispute_id : null,
    f.processed !== undefined ? (d) => d.processed === f.processed : null,
  );
  const matches = lo < hi ? collect(list, lo, hi, keep) : [];
  return newestFirst(matches, f.page, f.size);
}

export interface TransactionsFilter {
  page: number;
  size: number;
  transaction_type?: string;
  start?: number;
  end?: number;
}

export function listTransactions(t: Terminal, f: TransactionsFilter): PageResult<TransactionRecord> {
  const list = t.data.transactions;
  const { lo, hi } = window(list, f.start, f.end);
  const keep = f.transaction_type !== undefined ? (x: TransactionRecord) => x.type === f.transaction_type : null;
  const matches = lo < hi ? collect(list, lo, hi, keep) : [];
  return newestFirst(matches, f.page, f.size);
}
