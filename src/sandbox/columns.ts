/**
 * A column store of a terminal's orders for the list endpoint: each order gets a slot; the columns
 * the filters read (creation time, side, status, methods) sit in typed arrays, and the amount index
 * is an array of slots kept sorted on insert. Scanning 100 000 slots in amount order touches a few
 * compact arrays instead of 100 000 scattered objects.
 */
import type { OrderRecord } from './records.js';

/** Small integers per string (interned; stable for the process). */
function interner(): { code(value: string): number; known(value: string): number | undefined } {
  const codes = new Map<string, number>();
  return {
    code(value) {
      let code = codes.get(value);
      if (code === undefined) codes.set(value, (code = codes.size + 1));
      return code;
    },
    known: (value) => codes.get(value),
  };
}

const STATUSES = interner();
const METHODS = interner();

/** A small integer per status string. */
export const statusCode = (status: string): number => STATUSES.code(status);
export const knownStatusCode = (status: string): number | undefined => STATUSES.known(status);
/** A small integer per payment method id (ids of every currency's catalogue share one space). */
export const methodIndex = (id: string): number | undefined => METHODS.known(id);
export const sideCode = (side: string): number => (side === 'Buy' ? 1 : side === 'Sell' ? 2 : 0);

export function compareByAmount(a: OrderRecord, b: OrderRecord): number {
  return a.amountKey - b.amountKey || a.createdMs - b.createdMs || a.seq - b.seq;
}

export class OrderColumns {
  readonly records: OrderRecord[] = [];
  created = new Float64Array(1024);
  side = new Uint8Array(1024);
  status = new Uint16Array(1024);
  method = new Uint16Array(1024);
  initial = new Uint16Array(1024);
  /** Slots in amount order (then creation); new slots wait in {@link pending} until a query needs the order. */
  private sortedByAmount: number[] = [];
  private pending: number[] = [];

  /**
   * Adds an order. Its slot joins the amount index lazily: creating orders costs no memmove of a
   * 100 000-entry index, and the next amount-sorted query merges the (sorted) newcomers in one pass.
   */
  add(order: OrderRecord): void {
    const slot = this.records.length;
    if (slot === this.created.length) this.grow();
    this.records.push(order);
    order.slot = slot;
    this.created[slot] = order.createdMs;
    this.side[slot] = sideCode(order.side);
    this.status[slot] = statusCode(order.status);
    this.method[slot] = METHODS.code(order.method.id);
    this.initial[slot] = METHODS.code(order.initialMethodId);
    this.pending.push(slot);
  }

  /** Slots sorted by amount, then creation. */
  get byAmount(): readonly number[] {
    if (this.pending.length === 0) return this.sortedByAmount;
    const cmp = (a: number, b: number) => compareByAmount(this.records[a]!, this.records[b]!);
    const fresh = this.pending.sort(cmp);
    this.pending = [];
    const old = this.sortedByAmount;
    if (old.length === 0) {
      this.sortedByAmount = fresh;
      return fresh;
    }
    const merged = new Array<number>(old.length + fresh.length);
    let i = 0;
    let j = 0;
    let k = 0;
    while (i < old.length && j < fresh.length) merged[k++] = cmp(old[i]!, fresh[j]!) <= 0 ? old[i++]! : fresh[j++]!;
    while (i < old.length) merged[k++] = old[i++]!;
    while (j < fresh.length) merged[k++] = fresh[j++]!;
    this.sortedByAmount = merged;
    return merged;
  }

  setStatus(order: OrderRecord): void {
    if (order.slot >= 0) this.status[order.slot] = statusCode(order.status);
  }

  private grow(): void {
    const size = this.created.length * 2;
    const grow = <T extends Float64Array | Uint8Array | Uint16Array>(a: T, make: new (n: number) => T): T => {
      const b = new make(size);
      b.set(a);
      return b;
    };
    this.created = grow(this.created, Float64Array);
    this.side = grow(this.side, Uint8Array);
    this.status = grow(this.status, Uint16Array);
    this.method = grow(this.method, Uint16Array);
    this.initial = grow(this.initial, Uint16Array);
  }
}
