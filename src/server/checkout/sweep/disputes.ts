/**
 * The disputes part of a sweep: the provider's disputes created since the last sweep, and the open
 * ones this server follows; a processed one pays its order only on the provider's record of the
 * money (the order completed, or a deposit naming the order), else, after the grace, it is flagged
 * (`dispute_unconfirmed`) for a person. A dispute still open when its order is paid (the money came
 * meanwhile, or its acceptance completed the order) is followed to its end too: processed, it is
 * confirmed (the order's money is there), and nothing is paid again.
 */
import { orderOutcome } from '../../../provider/facts.js';
import { namesId, providerIso, providerTime } from '../../../provider/matching.js';
import type { Dispute } from '../../../provider/schemas.js';
import type { SessionDispute, SessionRecord } from '../../sessions.js';
import { followed } from '../dispute-state.js';
import { iso, MAX_PAGES } from './run.js';
import type { Sweep } from './run.js';

const DISPUTE_CURSOR_KEY = 'reconcile:disputes-since';
/** Disputes are listed from the last sweep less this (a dispute created during the last sweep). */
const DISPUTE_OVERLAP_MS = 10 * 60 * 1000;

/** What the dispute part of one sweep has found so far. */
interface DisputePass {
  /** Disputes seen processed by this sweep (first time), by session. */
  processed: Array<{ sid: string; dispute: Dispute }>;
  /** Dispute ids already looked at by this sweep. */
  handled: Set<string>;
  /** Sessions whose money is looked for in the provider's deposits. */
  needDeposit: Set<string>;
}

export async function sweepDisputes(sw: Sweep, sessions: SessionRecord[]): Promise<void> {
  const pass: DisputePass = { processed: [], handled: new Set(), needDeposit: new Set() };
  await listNewDisputes(sw, pass);
  await followOpenDisputes(sw, pass, sessions);
  await actOnProcessed(sw, pass);
  // Processed earlier: looked for again when the grace ends, and (after an unconfirmed outcome) at
  // the late checks until the late window closes, for the money may come after all.
  for (const rec of sessions) {
    if (!rec.provider_order_id) continue;
    if (rec.view.status === 'paid') {
      if (rec.disputes.some((d) => d.processed && d.outcome === null)) await confirmOnPaid(sw, rec.sid);
      continue;
    }
    if (rec.disputes.some((d) => d.processed && d.outcome !== 'paid' && followed(rec, d, sw.start, sw.core.cfg.lateWindowMs))) pass.needDeposit.add(rec.sid);
  }
  if (pass.needDeposit.size > 0) await lookForDeposits(sw, pass.needDeposit);
}

/**
 * A dispute the provider listed: followed from now on (every dispute of the order, not only the
 * newest), and acted on when it is newly processed.
 */
async function note(sw: Sweep, pass: DisputePass, rec: SessionRecord, d: Dispute): Promise<void> {
  if (pass.handled.has(d.dispute_id)) return;
  pass.handled.add(d.dispute_id);
  const known = rec.disputes.find((x) => x.id === d.dispute_id);
  if (!known && rec.view.status === 'paid') return;
  if (!known) {
    await sw.disputes.record(
      rec.sid,
      { id: d.dispute_id, created_at: providerIso(d.created_at, sw.start), processed: false, processed_at: null, via: 'provider', files: 0, outcome: null },
      'sweep',
    );
  }
  if (d.processed && !known?.processed) pass.processed.push({ sid: rec.sid, dispute: d });
}

/**
 * New disputes since the last sweep (the first sweep looks back over the late window), listed in a
 * window closed at this sweep's start. The list's order is not documented (the sandbox lists newest
 * first), so a window of more than MAX_PAGES pages is not cut by a date: the next sweeps go on with
 * its next pages (the window is closed, so its pages stay put), then a new window.
 */
async function listNewDisputes(sw: Sweep, pass: DisputePass): Promise<void> {
  const { store, client, lateWindowMs } = sw.core.cfg;
  const cursor = readDisputeCursor(await store.get(DISPUTE_CURSOR_KEY), sw.start - lateWindowMs, sw.start);
  const { since, until } = cursor;
  let exhausted = false;
  let page = cursor.page;
  for (; page < cursor.page + MAX_PAGES; page++) {
    const res = await sw.call(() => client.searchDisputes({ start_date: iso(since - DISPUTE_OVERLAP_MS), end_date: iso(until), size: 100, page }));
    for (const d of res.items) {
      const rec = await sw.core.repo.findByOrderId(d.order_id);
      if (rec) await note(sw, pass, rec, d);
    }
    if (page >= res.pages || res.items.length === 0) {
      exhausted = true;
      break;
    }
  }
  // With pages left unread (more than MAX_PAGES), the next sweep reads the same window from the next page.
  const next = exhausted ? String(until) : JSON.stringify({ since, until, page });
  await store.set(DISPUTE_CURSOR_KEY, next, lateWindowMs + 24 * 3600 * 1000);
}

/**
 * The open disputes this server follows, created before the listing above: one call per order reads
 * all its disputes (one filed elsewhere meanwhile is found too). A paid order's too: its dispute is
 * followed until the provider processes it.
 */
async function followOpenDisputes(sw: Sweep, pass: DisputePass, sessions: SessionRecord[]): Promise<void> {
  const { client, lateWindowMs } = sw.core.cfg;
  for (const rec of sessions) {
    if (!rec.provider_order_id) continue;
    const open = rec.disputes.filter((d) => !d.processed && !pass.handled.has(d.id) && followed(rec, d, sw.start, lateWindowMs));
    if (open.length === 0) continue;
    const res = await sw.call(() => client.searchDisputes({ order_id: rec.provider_order_id!, size: 100 }));
    const fresh = (await sw.core.repo.get(rec.sid)) ?? rec;
    for (const d of res.items) if (d.order_id === rec.provider_order_id) await note(sw, pass, fresh, d);
  }
}

/**
 * A processed dispute: the order completed (paid), or its money is looked for in the deposits (its
 * grace counts from now). On an order already paid it is confirmed, and the order is not read.
 */
async function actOnProcessed(sw: Sweep, pass: DisputePass): Promise<void> {
  const { client } = sw.core.cfg;
  for (const { sid, dispute } of pass.processed) {
    sw.report.disputes_processed++;
    const rec = await sw.core.repo.get(sid);
    if (!rec || !rec.provider_order_id) continue;
    if (rec.view.status === 'paid') {
      await confirmOnPaid(sw, sid, dispute.dispute_id);
      continue;
    }
    let order = sw.seen.get(rec.provider_order_id);
    if (!order || orderOutcome(order.status) !== 'paid') {
      order = await sw.call(() => client.getOrder(rec.provider_order_id!));
      sw.seen.set(order.id, order);
    }
    const known = rec.disputes.find((d) => d.id === dispute.dispute_id);
    if (orderOutcome(order.status) === 'paid') {
      sw.count(await sw.status.applyOrder(sid, order, 'sweep'));
      await sw.disputes.record(sid, { ...known!, processed: true, processed_at: sw.start, outcome: 'paid' }, 'sweep');
      continue;
    }
    // Processed now: its grace counts from here; the deposit is looked for at once.
    if (known) await sw.disputes.record(sid, { ...known, processed: true, processed_at: sw.start, outcome: null }, 'sweep');
    pass.needDeposit.add(sid);
  }
}

/**
 * The disputes of a paid session the provider has processed (`processedId`: one it has just seen
 * processed) and whose outcome is still open: confirmed, for the order's money is recorded (it was
 * paid). The payment stands as it was: no hook, not late, no second payment.
 */
async function confirmOnPaid(sw: Sweep, sid: string, processedId?: string): Promise<void> {
  const rec = await sw.core.repo.get(sid);
  if (!rec || rec.view.status !== 'paid') return;
  for (const d of rec.disputes) {
    if (d.outcome !== null || !(d.processed || d.id === processedId)) continue;
    await sw.disputes.record(sid, { ...d, processed: true, processed_at: d.processed_at ?? sw.start, outcome: 'paid' }, 'sweep');
  }
}

type Deposit = { id: string; amount: string; description: string; at: number; created_at: string };

/**
 * The provider's deposits since the first dispute of these sessions: one naming a session's order
 * pays it (late when it had ended); without one, a dispute processed longer than the grace ago is
 * flagged unconfirmed.
 */
async function lookForDeposits(sw: Sweep, needDeposit: Set<string>): Promise<void> {
  const { start } = sw;
  const records: SessionRecord[] = [];
  let from = Infinity;
  for (const sid of needDeposit) {
    const rec = await sw.core.repo.get(sid);
    if (!rec || rec.view.status === 'paid' || !rec.provider_order_id || rec.disputes.length === 0) continue;
    records.push(rec);
    for (const d of rec.disputes) from = Math.min(from, providerTime(d.created_at) || start);
  }
  if (records.length === 0) return;
  const deposits = await readDeposits(sw, from);
  for (const rec of records) {
    // The provider's record of this order's money: a deposit after its first dispute that names the
    // provider's order id — or the client order id when this server generated it (unique to one
    // order; a merchant's id may be shared by several attempts, one of them paid normally).
    const first = Math.min(...rec.disputes.map((d) => providerTime(d.created_at) || start));
    const credit = deposits.find(
      (t) =>
        !(t.at < first - DISPUTE_OVERLAP_MS) &&
        (namesId(t.description, rec.provider_order_id!) || (rec.client_order_id_generated && namesId(t.description, rec.client_order_id))),
    );
    if (credit) {
      const by = creditingDispute(rec.disputes, credit.description, credit.at);
      sw.count(await sw.status.markPaidByDispute(rec.sid, by.id, 'sweep', { id: credit.id, amount: credit.amount, created_at: providerIso(credit.created_at, start) }));
      continue;
    }
    // Not yet: the provider may write its deposit a little after processing the dispute.
    for (const d of rec.disputes) {
      if (!d.processed || d.outcome !== null || d.processed_at === null || start - d.processed_at < sw.core.cfg.disputeGraceMs) continue;
      const flagged = await sw.disputes.flagUnconfirmed(rec.sid, d.id);
      if (flagged?.flagged) sw.report.flagged++;
    }
  }
}

async function readDeposits(sw: Sweep, from: number): Promise<Deposit[]> {
  const deposits: Deposit[] = [];
  for (let page = 1; page <= MAX_PAGES; page++) {
    const res = await sw.call(() =>
      sw.core.cfg.client.listTransactions({ transaction_type: 'deposit', start_date: iso(from - DISPUTE_OVERLAP_MS), size: 100, page }),
    );
    for (const t of res.items) {
      deposits.push({ id: t.id, amount: t.amount, description: t.client_description ?? '', at: providerTime(t.created_at), created_at: t.created_at });
    }
    if (page >= res.pages || res.items.length === 0) break;
  }
  return deposits;
}

/**
 * Which of an order's disputes a deposit credits: the one its description names (the sandbox and
 * the provider's operators write the dispute id), else the newest processed one created before it.
 */
function creditingDispute(disputes: readonly SessionDispute[], description: string, at: number): SessionDispute {
  const named = disputes.find((d) => namesId(description, d.id));
  if (named) return named;
  const before = disputes.filter((d) => d.processed && !(providerTime(d.created_at) > at));
  return before.at(-1) ?? disputes.filter((d) => d.processed).at(-1) ?? disputes.at(-1)!;
}

/**
 * Where the dispute listing goes on: a window [since − overlap, until] and its next page. The stored
 * value is the time the last finished window closed (a new window from it to `start`), or a window
 * still being read.
 */
function readDisputeCursor(stored: { value: string } | null, firstSince: number, start: number): { since: number; until: number; page: number } {
  if (!stored) return { since: firstSince, until: start, page: 1 };
  try {
    const v = JSON.parse(stored.value) as unknown;
    if (typeof v === 'number' && Number.isFinite(v)) return { since: v, until: start, page: 1 };
    const w = v as { since?: unknown; until?: unknown; page?: unknown };
    if (typeof w.since === 'number' && typeof w.until === 'number' && Number.isInteger(w.page) && (w.page as number) >= 1) {
      return { since: w.since, until: w.until, page: w.page as number };
    }
  } catch {
    // unreadable: start over from the late window
  }
  return { since: firstSince, until: start, page: 1 };
}
