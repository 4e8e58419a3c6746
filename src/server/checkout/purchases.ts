/**
 * Double payments: orders that paid a purchase another order had already paid. A purchase is
 * `handler.createSession`'s `purchase` when the session was made with one, else the session's
 * `order_ref` (the merchant's cart or order id). The first order to be paid is the purchase's (the one
 * the merchant fulfils, in `onOrderPaid` order); every later paid order of it — the same cart paid
 * from a second browser, an expired order paid late after the shopper paid its renewal, a dispute
 * accepted after a refund — is money to give back. Read from the handler's store (the sessions it
 * keeps: until `lateWindowSeconds` after an order ended, longer while a hook fails), newest first,
 * through the index of payments per purchase (paid-index.ts), not by reading every session.
 */
import { SESSIONS_INDEX, type SessionPayment, type SessionRecord } from '../sessions.js';
import type { CheckoutCore } from './core.js';
import { DOUBLES_INDEX, paidSessions, purchaseOf, recordPayment } from './paid-index.js';

/** An order that paid a purchase already paid by another order: money to refund. */
export interface DoublePayment {
  /** The purchase both orders paid (createSession's `purchase`, else the order_ref). */
  purchase: string;
  order_ref: string;
  /** The provider's order id of the extra payment. */
  order_id: string;
  client_order_id: string;
  /** What it paid (decimal string) and in what currency. */
  amount: string;
  currency: string;
  /** ISO time the handler recognised its payment. */
  paid_at: string;
  /** Paid after the order had ended (expired or cancelled). */
  late: boolean;
  /** The accepted dispute that paid it, if any. */
  dispute_id: string | null;
  /** The order that paid the purchase first (the one fulfilled). */
  first: { order_id: string; client_order_id: string; paid_at: string };
}

/** Purchases paid more than once read at most per call, those paid most recently first. */
const MAX_PURCHASES = 1000;
/** Reads in flight at once (a networked store answers them side by side). */
const BATCH = 32;
/**
 * Sessions recorded before the index existed: a one-time backfill reads the newest of them (as many
 * as the scan this index replaced read on every call, so the list is the one it gave) and records
 * those paid. A marker in the store says it ran; each instance reads it at its first call and daily
 * after. It expires after a month and the backfill runs once more (it catches a payment an instance
 * of an older version recorded during a rolling upgrade).
 */
const BACKFILL_SCAN = 5000;
const BACKFILL_KEY = 'pp-backfilled:v1';
const BACKFILL_TTL_MS = 31 * 24 * 3600 * 1000;

const isPaid = (rec: SessionRecord | null): rec is SessionRecord & { payment: SessionPayment; provider_order_id: string } =>
  !!rec && rec.view.status === 'paid' && !!rec.payment && !!rec.provider_order_id;

/** How often an instance reads the marker again (it may have expired: the backfill then runs once more). */
const MARKER_RECHECK_MS = 24 * 3600 * 1000;

/** The backfill of this instance, and when it began (the store's marker spares the other instances the scan). */
const backfills = new WeakMap<CheckoutCore, { done: Promise<void>; at: number }>();

function backfilled(core: CheckoutCore): Promise<void> {
  const now = core.cfg.now();
  const known = backfills.get(core);
  if (known && now - known.at < MARKER_RECHECK_MS) return known.done;
  const run = { done: backfill(core), at: now };
  backfills.set(core, run);
  // A failed backfill (store down) is tried again at the next call.
  run.done.catch(() => backfills.get(core) === run && backfills.delete(core));
  return run.done;
}

async function backfill(core: CheckoutCore): Promise<void> {
  const { store, now } = core.cfg;
  if (await store.get(BACKFILL_KEY)) return;
  const entries = await store.indexRange(SESSIONS_INDEX, { limit: BACKFILL_SCAN, reverse: true });
  for (let i = 0; i < entries.length; i += BATCH) {
    await Promise.all(
      entries.slice(i, i + BATCH).map(async ({ member }) => {
        const rec = await core.repo.get(member);
        if (isPaid(rec)) await recordPayment(core, rec, rec.payment.at);
      }),
    );
  }
  await store.set(BACKFILL_KEY, new Date(now()).toISOString(), BACKFILL_TTL_MS);
}

/** The double payments of one purchase from its sessions' records (those still stored and paid). */
function doublesOf(purchase: string, recs: Array<SessionRecord | null>): DoublePayment[] {
  const list: Array<SessionRecord & { payment: SessionPayment; provider_order_id: string }> = [];
  for (const rec of recs) {
    if (!isPaid(rec) || purchaseOf(rec) !== purchase) continue;
    if (!list.some((r) => r.provider_order_id === rec.provider_order_id)) list.push(rec);
  }
  if (list.length < 2) return [];
  list.sort((a, b) => a.payment.at - b.payment.at || a.created_at - b.created_at);
  const first = list[0]!;
  return list.slice(1).map((rec) => ({
    purchase,
    order_ref: rec.order_ref,
    order_id: rec.provider_order_id,
    client_order_id: rec.client_order_id,
    amount: rec.view.amount,
    currency: rec.view.currency,
    paid_at: new Date(rec.payment.at).toISOString(),
    late: rec.payment.late,
    dispute_id: rec.payment.dispute_id ?? null,
    first: { order_id: first.provider_order_id, client_order_id: first.client_order_id, paid_at: new Date(first.payment.at).toISOString() },
  }));
}

/** A purchase whose list the store let go leaves the index (put back when a payment wrote a new list meanwhile). */
async function prune(core: CheckoutCore, purchase: string): Promise<void> {
  const { store, now } = core.cfg;
  await store.indexRemove(DOUBLES_INDEX, purchase);
  const again = await paidSessions(store, purchase);
  if (again && again.length >= 2) await store.indexSet(DOUBLES_INDEX, purchase, now());
}

/**
 * The double payments, newest first: the purchases of the index `doubles`, each with its list of
 * paid sessions and their records. Store calls: 2 + the sessions of those purchases, whatever the
 * number of sessions kept (after this instance's first call, which checks the backfill).
 */
export async function doublePayments(core: CheckoutCore): Promise<DoublePayment[]> {
  await backfilled(core);
  const { store } = core.cfg;
  const purchases = await store.indexRange(DOUBLES_INDEX, { limit: MAX_PURCHASES, reverse: true });
  const out: DoublePayment[] = [];
  for (let i = 0; i < purchases.length; i += BATCH) {
    await Promise.all(
      purchases.slice(i, i + BATCH).map(async ({ member: purchase }) => {
        const sids = await paidSessions(store, purchase);
        if (sids === null) return prune(core, purchase);
        out.push(...doublesOf(purchase, await Promise.all(sids.map((sid) => core.repo.get(sid)))));
      }),
    );
  }
  return out.sort((a, b) => b.paid_at.localeCompare(a.paid_at) || (a.order_id < b.order_id ? -1 : 1));
}
