/**
 * The disputes of one session as pure state changes: every dispute of the order is kept (several may
 * be open at once: one sent from the widget, another filed with the provider's support), the view
 * shows one of them, and a `dispute_unconfirmed` flag is raised once per dispute.
 */
import type { DisputeView } from '../../protocol/index.js';
import { freshHook } from '../sessions.js';
import type { SessionDispute, SessionFlag, SessionRecord } from '../sessions.js';

/** Still being checked: not processed, or processed and its money not looked for long enough. */
export const undecided = (d: SessionDispute) => !d.processed || d.outcome === null;

/**
 * A dispute is followed until the late window after the later of its creation and the order's end
 * (expired or cancelled, else its payment: a dispute still open on a paid order is followed too).
 */
export function followed(rec: Pick<SessionRecord, 'ended_at' | 'payment'>, d: SessionDispute, now: number, lateWindowMs: number): boolean {
  const from = Math.max(rec.ended_at ?? rec.payment?.at ?? now, Date.parse(d.created_at) || 0);
  return now - from <= lateWindowMs;
}

/**
 * When the sweep should look at a session's disputes next (null: none to follow): a dispute not
 * processed yet, every sweep; processed and its money not found yet, when the grace ends — or at
 * once on a paid order (its money is the order's: nothing to wait for).
 */
export function disputeCheckAt(rec: Pick<SessionRecord, 'ended_at' | 'payment' | 'disputes' | 'view'>, now: number, lateWindowMs: number, graceMs: number): number | null {
  let at: number | null = null;
  for (const d of rec.disputes) {
    if (!followed(rec, d, now, lateWindowMs) || !undecided(d)) continue;
    const due = !d.processed || rec.view.status === 'paid' ? now : Math.max(now, (d.processed_at ?? now) + graceMs);
    at = at === null ? due : Math.min(at, due);
  }
  return at;
}

/**
 * The dispute the OrderView shows: the one that confirmed the money (the one its deposit credited,
 * else the first confirmed), else the newest undecided one, else the newest.
 */
export function shownDispute(disputes: readonly SessionDispute[]): SessionDispute | null {
  const confirmed = disputes.find((d) => d.outcome === 'paid' && d.deposit) ?? disputes.find((d) => d.outcome === 'paid');
  if (confirmed) return confirmed;
  for (let i = disputes.length - 1; i >= 0; i--) if (undecided(disputes[i]!)) return disputes[i]!;
  return disputes.at(-1) ?? null;
}

/** The OrderView's `dispute` for a session. */
export function disputeView(rec: Pick<SessionRecord, 'dispute'>): DisputeView | null {
  const d = rec.dispute;
  if (!d) return null;
  // Open until its outcome is known (a processed dispute's deposit may come a little later).
  const outcome = d.outcome === 'paid' ? 'confirmed' : d.outcome === 'unconfirmed' ? 'unconfirmed' : null;
  return { id: d.id, status: d.processed && outcome !== null ? 'closed' : 'open', created_at: d.created_at, outcome };
}

/** `rec` with `dispute` added or merged (by id) into its disputes, and the shown one chosen again. */
export function withDispute(rec: SessionRecord, dispute: SessionDispute): SessionRecord {
  const i = rec.disputes.findIndex((d) => d.id === dispute.id);
  const disputes = [...rec.disputes];
  if (i < 0) disputes.push(dispute);
  else disputes[i] = { ...disputes[i]!, ...dispute, files: Math.max(disputes[i]!.files, dispute.files) };
  return { ...rec, disputes, dispute: shownDispute(disputes) };
}

/**
 * `rec` with a flag raised: kept in `flags` (once per reason, and once per dispute for
 * `dispute_unconfirmed`); reported at once when no other flag awaits its hook, else after it
 * ({@link nextFlag}). A flag that stops payment (an amount or currency mismatch) stays the one reported.
 */
export function withFlag(rec: SessionRecord, flag: SessionFlag, hookConfigured: boolean): SessionRecord {
  const same = (f: SessionFlag) => f.reason === flag.reason && (f.dispute_id ?? null) === (flag.dispute_id ?? null);
  if (rec.flags.some(same) || (rec.flagged && same(rec.flagged))) return rec;
  const flags = [...rec.flags, flag];
  const current = rec.flagged;
  const blocking = current !== null && current.reason !== 'dispute_unconfirmed';
  if (current === null || (!blocking && (!hookConfigured || rec.hooks.flagged.done_at !== null))) {
    return { ...rec, flags, flagged: flag, hooks: { ...rec.hooks, flagged: freshHook() } };
  }
  return { ...rec, flags };
}

/** After the flagged hook reported `rec.flagged`: the next flag waiting its turn, if any. */
export function nextFlag(rec: SessionRecord): SessionRecord | null {
  if (!rec.flagged || rec.flagged.reason !== 'dispute_unconfirmed') return null;
  const i = rec.flags.findIndex((f) => f.reason === rec.flagged!.reason && (f.dispute_id ?? null) === (rec.flagged!.dispute_id ?? null));
  const next = i < 0 ? undefined : rec.flags[i + 1];
  if (!next) return null;
  return { ...rec, flagged: next, hooks: { ...rec.hooks, flagged: freshHook() } };
}
