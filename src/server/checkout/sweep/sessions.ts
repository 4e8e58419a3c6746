/**
 * The sessions part of a sweep: the watch list, the orders of pending sessions (any change) and of
 * recently ended ones (a late completion) re-read from the provider and applied, hosted forms not
 * bound yet, and at the end the hooks due and each session's next check.
 */
import { orderOutcome } from '../../../provider/facts.js';
import { providerTime } from '../../../provider/matching.js';
import type { Order } from '../../../provider/schemas.js';
import { isProviderError } from '../../errors.js';
import { SESSIONS_INDEX, WATCH_INDEX } from '../../sessions.js';
import type { SessionRecord } from '../../sessions.js';
import { ORPHAN_PREFIX } from '../inbox.js';
import { isEnded } from '../status.js';
import { iso } from './run.js';
import type { Sweep } from './run.js';

/** Up to this many due entries are read per sweep (the rest stay due for the next). */
const MAX_DUE = 50_000;
/** With this many orders or fewer, one call per order beats a list. */
const DIRECT_LIMIT = 3;
/** Orders are listed from the oldest one's creation less this (clock differences). */
const LIST_SLACK_MS = 10 * 60 * 1000;
/** The late check due when the window closes is still made by a sweep this long after. */
const LATE_FINAL_GRACE_MS = 60 * 60 * 1000;

/** The watch list's due entries: sessions (those the store still has) and orphan order ids. */
export async function readDue(sw: Sweep): Promise<{ sessions: SessionRecord[]; orphans: string[] }> {
  const { core, start } = sw;
  const due = await core.cfg.store.indexRange(WATCH_INDEX, { max: start, limit: MAX_DUE });
  const sessions: SessionRecord[] = [];
  const orphans: string[] = [];
  for (const { member } of due) {
    if (member.startsWith(ORPHAN_PREFIX)) {
      orphans.push(member.slice(ORPHAN_PREFIX.length));
      continue;
    }
    const rec = await core.repo.get(member);
    if (rec) sessions.push(rec);
    else await core.repo.unwatch(member);
  }
  sw.report.checked = sessions.length + orphans.length;
  return { sessions, orphans };
}

/** Re-reads and applies the orders of pending sessions, of sessions ended within the late window, and of unbound forms. */
export async function sweepOrders(sw: Sweep, sessions: SessionRecord[]): Promise<void> {
  const { core, status, start, report } = sw;
  const pending = new Map<string, SessionRecord>();
  const ended = new Map<string, SessionRecord>();
  const forms: SessionRecord[] = [];
  for (const rec of sessions) {
    if (rec.view.status === 'pending') {
      if (rec.provider_order_id) pending.set(rec.provider_order_id, rec);
      else if (rec.form_session_id) forms.push(rec);
    } else if (isEnded(rec.view.status) && rec.provider_order_id && rec.ended_at !== null && start - rec.ended_at <= core.cfg.lateWindowMs + LATE_FINAL_GRACE_MS) {
      ended.set(rec.provider_order_id, rec);
    }
  }
  for (const [byId, paidOnly] of [
    [pending, false],
    [ended, true],
  ] as const) {
    const found = await fetchOrders(sw, byId, paidOnly);
    for (const [id, order] of found) {
      sw.seen.set(id, order);
      try {
        const res = await status.applyOrder(byId.get(id)!.sid, order, 'sweep');
        sw.count(res);
        if (res && !res.before.flagged && res.after.flagged) report.flagged++;
      } catch (err) {
        report.errors++;
        core.cfg.log.error('applying an order in the sweep failed', { order_id: id, err });
      }
    }
  }
  for (const rec of forms) {
    try {
      report.provider_calls += 2;
      sw.count(await status.sync(rec, 'sweep'));
    } catch (err) {
      report.errors++;
      core.logProviderFailure('re-reading a hosted form in the sweep failed', err, { session: rec.sid });
    }
  }
}

/**
 * The provider's orders for `byId` (with `paidOnly`, only those it now calls paid, in any of its
 * words for it: `Completed`, the older API's `Paid`): with few, one call each; else the order list
 * from the oldest one's creation, ascending, page by page, switching to one call per order when the
 * pages left outnumber the orders left. Orders the list did not show are read one by one. The list
 * is not filtered by status: its filter takes one value, and a paid order must never be missed.
 */
async function fetchOrders(sw: Sweep, byId: Map<string, SessionRecord>, paidOnly: boolean): Promise<Map<string, Order>> {
  const found = new Map<string, Order>();
  if (byId.size === 0) return found;
  const wanted = (o: Order) => !paidOnly || orderOutcome(o.status) === 'paid';
  const left = new Set(byId.keys());
  const direct = byId.size <= DIRECT_LIMIT || (await listOrders(sw, byId, left, wanted, found));
  if (!direct) return found;
  const { core } = sw;
  for (const id of left) {
    try {
      const order = await sw.call(() => core.cfg.client.getOrder(id));
      if (wanted(order)) found.set(id, order);
    } catch (err) {
      if (isProviderError(err) && err.code === 'order_not_found') {
        core.cfg.log.warn('the provider does not know the order of a session', { session: byId.get(id)!.sid, order_id: id });
      } else {
        sw.report.errors++;
        core.logProviderFailure('reading an order in the sweep failed', err, { order_id: id });
      }
    }
  }
  return found;
}

/**
 * Reads the order list for the orders in `left` (removing those it shows, keeping the wanted ones in
 * `found`). True when the rest must be read one by one: the list was read whole, its pages left
 * outnumber the orders left, or it failed.
 */
async function listOrders(
  sw: Sweep,
  byId: Map<string, SessionRecord>,
  left: Set<string>,
  wanted: (o: Order) => boolean,
  found: Map<string, Order>,
): Promise<boolean> {
  const { client, now } = sw.core.cfg;
  let oldest = Infinity;
  for (const rec of byId.values()) oldest = Math.min(oldest, providerTime(rec.view.created_at) || rec.created_at, rec.created_at);
  try {
    for (let page = 1; ; page++) {
      const res = await sw.call(() =>
        client.listOrders({
          start_date: iso(oldest - LIST_SLACK_MS),
          end_date: iso(now() + LIST_SLACK_MS),
          order_side: 'Buy',
          sort_by: 'created_at',
          sort: 'asc',
          size: 100,
          page,
        }),
      );
      for (const o of res.items) {
        if (left.delete(o.id) && wanted(o)) found.set(o.id, o);
      }
      if (left.size === 0) return false;
      // The whole list was read: those it did not show were missed by it.
      if (page >= res.pages || res.items.length === 0) return true;
      if (res.pages - page > left.size) return true;
    }
  } catch (err) {
    sw.report.errors++;
    sw.core.logProviderFailure('listing orders in the sweep failed; one call per order instead', err);
    return true;
  }
}

/** The hooks due (new or to retry) and when to look at each session next; then the index of let-go sessions is pruned. */
export async function finishSessions(sw: Sweep, sessions: SessionRecord[]): Promise<void> {
  const { core, hooks, status } = sw;
  for (const rec of sessions) {
    const fresh = await core.repo.read(rec.sid);
    if (!fresh) continue;
    for (const run of hooks.ensure(fresh.rec, sw.seen.get(fresh.rec.provider_order_id ?? '') ?? null)) sw.hookRuns.add(run);
    await status.reschedule(fresh.rec, true);
  }
  await pruneSessionsIndex(sw);
}

/** Drops index entries of sessions the store has let go. */
async function pruneSessionsIndex(sw: Sweep): Promise<void> {
  const { store, sessionTtlMs, lateWindowMs } = sw.core.cfg;
  const oldest = sw.start - Math.max(sessionTtlMs, lateWindowMs) - 2 * 24 * 3600 * 1000;
  const stale = await store.indexRange(SESSIONS_INDEX, { max: oldest, limit: 1000 });
  for (const { member } of stale) {
    if (!(await sw.core.repo.get(member))) await store.indexRemove(SESSIONS_INDEX, member);
  }
}
