/**
 * The analytics' numbers, counted one order at a time (no order is kept): per local day, per
 * method type and per bank, and the time from created to paid. Definitions (docs/console-analytics.md):
 * every number of a day is about the payments (Buy orders) created on that day in the operator's zone;
 *   created  — all of them;
 *   paid     — those whose status is `Completed` (or the older API's `Paid`), late ones included;
 *   late     — those of the paid whose `updated_at` is after their `expires_at`: paid after the
 *              order had ended (a `Completed` that followed `CanceledByTimeout`);
 *   expired  — those whose status is `CanceledByTimeout` (not paid, then or later);
 *   disputed — those with at least one dispute in the provider's dispute list.
 * Time to pay: `updated_at − created_at` of each paid order (the provider changes nothing on an order
 * once it is Completed, so its last update is when it was paid), in whole seconds; the median and p90
 * by nearest rank (the smallest time at least that share of the paid orders took), exact.
 */
import { orderOutcome } from '../provider/facts.js';
import type { Order } from '../provider/schemas.js';
import { bankOfOrder } from './bank.js';
import { timeMs } from './times.js';

export interface DayRow {
  date: string;
  created: number;
  paid: number;
  expired: number;
  late: number;
  disputed: number;
}

export interface AnalyticsReport {
  days: DayRow[];
  by_method: { method: string; created: number; paid: number }[];
  by_bank: { bank: string | null; created: number; paid: number }[];
  time_to_pay: {
    p50_seconds: number | null;
    p90_seconds: number | null;
    /** Paid orders by time to pay: each bucket counts times above the previous bound up to its own; `null` is the rest. */
    histogram: { upto_seconds: number | null; count: number }[];
  };
}

/** Bounds of the histogram's buckets, seconds: 1, 2, 5, 10, 15, 20, 30 minutes, an hour, a day, more. */
export const HISTOGRAM_BOUNDS: readonly (number | null)[] = [60, 120, 300, 600, 900, 1200, 1800, 3600, 86400, null];
/** Times to pay up to this are counted per second (exact percentiles in fixed memory); longer ones are listed. */
const EXACT_UP_TO = 86400;

interface Conversion {
  created: number;
  paid: number;
}

/** The local days of the period: their dates, the instants they start at, and where the last ends. */
export interface Days {
  dates: readonly string[];
  starts: readonly number[];
  end: number;
}

export class Tally {
  private readonly rows: DayRow[];
  private readonly methods = new Map<string, Conversion>();
  private readonly banks = new Map<string | null, Conversion>();
  private readonly perSecond = new Uint32Array(EXACT_UP_TO + 1);
  private readonly longer: number[] = [];
  private readonly buckets = new Array<number>(HISTOGRAM_BOUNDS.length).fill(0);
  private paidCount = 0;

  constructor(
    private readonly days: Days,
    /** Ids of the orders that have a dispute. */
    private readonly disputed: ReadonlySet<string>,
  ) {
    this.rows = days.dates.map((date) => ({ date, created: 0, paid: 0, expired: 0, late: 0, disputed: 0 }));
  }

  /** The day `ms` falls on, or -1 outside the period's days. */
  private dayOf(ms: number): number {
    const { starts, end } = this.days;
    if (!(ms >= starts[0]! && ms < end)) return -1;
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= ms) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  /** Counts one order of the provider's list (a payment; payouts are not counted). */
  add(order: Order): void {
    if (order.order_side !== 'Buy') return;
    const created = timeMs(order.created_at);
    const day = this.dayOf(created);
    if (day < 0) return;
    const row = this.rows[day]!;
    const outcome = orderOutcome(order.status);
    const paid = outcome === 'paid';
    row.created++;
    if (paid) {
      row.paid++;
      const updated = timeMs(order.updated_at);
      if (updated > timeMs(order.expires_at)) row.late++;
      if (!Number.isNaN(updated)) this.addTimeToPay(Math.max(0, Math.round((updated - created) / 1000)));
    } else if (outcome === 'expired') {
      row.expired++;
    }
    if (this.disputed.has(order.id)) row.disputed++;
    count(this.methods, order.method_type || 'unknown', paid);
    count(this.banks, bankOfOrder(order), paid);
  }

  private addTimeToPay(seconds: number): void {
    this.paidCount++;
    if (seconds <= EXACT_UP_TO) this.perSecond[seconds]!++;
    else this.longer.push(seconds);
    const bucket = HISTOGRAM_BOUNDS.findIndex((upto) => upto === null || seconds <= upto);
    this.buckets[bucket]!++;
  }

  /** The time at least `p` % of the paid orders took (nearest rank), or null without paid orders. */
  private percentile(p: number): number | null {
    if (this.paidCount === 0) return null;
    const rank = Math.max(1, Math.ceil((p / 100) * this.paidCount));
    let seen = 0;
    for (let s = 0; s <= EXACT_UP_TO; s++) {
      seen += this.perSecond[s]!;
      if (seen >= rank) return s;
    }
    const rest = [...this.longer].sort((a, b) => a - b);
    return rest[rank - seen - 1]!;
  }

  report(): AnalyticsReport {
    const byCreated = <K>(m: Map<K, Conversion>) =>
      [...m.entries()].sort((a, b) => b[1].created - a[1].created || String(a[0]).localeCompare(String(b[0])));
    return {
      days: this.rows.map((r) => ({ ...r })),
      by_method: byCreated(this.methods).map(([method, c]) => ({ method, created: c.created, paid: c.paid })),
      by_bank: byCreated(this.banks).map(([bank, c]) => ({ bank, created: c.created, paid: c.paid })),
      time_to_pay: {
        p50_seconds: this.percentile(50),
        p90_seconds: this.percentile(90),
        histogram: HISTOGRAM_BOUNDS.map((upto, i) => ({ upto_seconds: upto, count: this.buckets[i]! })),
      },
    };
  }
}

function count<K>(m: Map<K, Conversion>, key: K, paid: boolean): void {
  let c = m.get(key);
  if (!c) m.set(key, (c = { created: 0, paid: 0 }));
  c.created++;
  if (paid) c.paid++;
}
