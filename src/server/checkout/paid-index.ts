/**
 * The index of payments per purchase, kept as payments are recorded, so `doublePayments()` reads the
 * purchases paid more than once instead of every session (issue 31's leftover). Only the store
 * contract every store implements is used (memory, SQLite, Redis, PostgreSQL):
 *
 * - `pp:<purchase>`: the purchase's sessions whose order the provider reported paid, a JSON list
 *   appended by compare-and-set (create / replace, retried on a concurrent write: two instances
 *   recording two payments of one purchase at once both land). It expires a margin after the last
 *   of its sessions may leave the store.
 * - the sorted index `doubles`: the purchases whose list holds two sessions or more, scored by the
 *   time of the latest recording. Whoever writes the second entry adds the purchase; a retry of a
 *   recording (the session is in the list already) adds it again, so a process that died between
 *   the two writes is repaired by the retry its unpaid session gets anyway.
 *
 * A payment is recorded before its session is marked paid ({@link recordPayment} in status.ts): a
 * failure or a crash in between leaves the session unpaid (the webhook is retried, the sweep reads it
 * again) and never a paid session missing from the index. An entry whose session did not end up
 * paid (e.g. flagged for a wrong amount) is skipped when the list is read.
 */
import type { CheckoutStore } from '../store.js';
import type { SessionRecord } from '../sessions.js';
import type { CheckoutCore } from './core.js';

/** A purchase: `handler.createSession`'s `purchase`, else the session's order_ref. */
export const purchaseOf = (rec: Pick<SessionRecord, 'purchase' | 'order_ref'>): string => rec.purchase ?? rec.order_ref;

export const paidKey = (purchase: string) => `pp:${purchase}`;
/** Sorted index of purchases paid by two sessions or more. */
export const DOUBLES_INDEX = 'doubles';
/** Sessions kept per purchase: the first (the one fulfilled) and the newest after it. */
const MAX_PER_PURCHASE = 50;
/** How long a purchase's list outlives the retention of its sessions (a failing hook keeps one longer). */
const MARGIN_MS = 30 * 24 * 3600 * 1000;

/** One recorded payment: the session, and until when (ms) it may be kept. */
interface PaidEntry {
  s: string;
  u: number;
}

export function parsePaid(value: string): PaidEntry[] {
  try {
    const v = JSON.parse(value) as unknown;
    if (!Array.isArray(v)) return [];
    return v.filter((e): e is PaidEntry => !!e && typeof e === 'object' && typeof (e as PaidEntry).s === 'string' && typeof (e as PaidEntry).u === 'number');
  } catch {
    return [];
  }
}

/** `list` with `entry` added (or its time lengthened); the same list when nothing changes. */
function withEntry(list: PaidEntry[], entry: PaidEntry): PaidEntry[] {
  const i = list.findIndex((e) => e.s === entry.s);
  if (i >= 0) return list[i]!.u >= entry.u ? list : list.map((e, j) => (j === i ? entry : e));
  const next = [...list, entry];
  return next.length > MAX_PER_PURCHASE ? [next[0]!, ...next.slice(-(MAX_PER_PURCHASE - 1))] : next;
}

/**
 * Records that session `rec`'s order was reported paid at `at` (ms): idempotent, safe on any number
 * of instances at once. Throws store errors (the caller has not marked the session paid yet).
 */
export async function recordPayment(core: CheckoutCore, rec: SessionRecord, at: number): Promise<void> {
  const { store, now } = core.cfg;
  const purchase = purchaseOf(rec);
  const key = paidKey(purchase);
  const entry = { s: rec.sid, u: Math.max(core.retainedPast(rec, at).retain_until, rec.retain_until) };
  for (let attempt = 0; attempt < 32; attempt++) {
    const cur = await store.get(key);
    const list = cur ? parsePaid(cur.value) : [];
    const next = withEntry(list, entry);
    if (next !== list) {
      const ttl = Math.max(1000, Math.max(...next.map((e) => e.u)) - now() + MARGIN_MS);
      const value = JSON.stringify(next);
      const ok = cur ? (await store.replace(key, cur.version, value, ttl)) !== null : await store.create(key, value, ttl);
      if (!ok) continue;
    }
    if (next.length >= 2) await store.indexSet(DOUBLES_INDEX, purchase, at);
    return;
  }
  throw new Error(`the payments of purchase ${purchase} are recorded too often concurrently`);
}

/** The sessions recorded as paying `purchase`, oldest first; null when the store no longer has its list. */
export async function paidSessions(store: CheckoutStore, purchase: string): Promise<string[] | null> {
  const cur = await store.get(paidKey(purchase));
  return cur ? parsePaid(cur.value).map((e) => e.s) : null;
}
