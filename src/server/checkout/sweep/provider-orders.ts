/**
 * The provider's own order list, walked by the sweep: a wiped store has lost the sessions, the
 * orphans and the list of orders to check, but the provider still has the orders. Each sweep reads
 * the list (`GET /api/v1/order/`, 100 a page, newest first) back to a watermark kept in the store —
 * the newest order a finished walk read, less {@link WALK_OVERLAP_MS}, or the oldest order of ours
 * still pending, whichever is older, and never further back than the late window — so it reads what
 * is new plus what is still unsettled: about one provider call per 100 orders. A wiped store has no
 * watermark: its first sweep reads the whole late window once (at most MAX_PAGES pages, newest first).
 *
 * An order counts as ours when its client order id carries our signed order_ref (SessionTokens:
 * every id paydesk makes for a ref that fits); orders of another system are ignored, and an order
 * with a session here is left to its session. Ours without a session: paid → reported once
 * (lost.ts, the marker a webhook or the orphan sweep takes too, so never twice); pending, or still
 * bindable by a create → looked at again next sweep (it holds the watermark back); ended unpaid →
 * handed to the orphan sweep, which follows it through the late window.
 */
import { orderOutcome } from '../../../provider/facts.js';
import type { Order } from '../../../provider/schemas.js';
import { providerTime } from '../../../provider/time.js';
import { WATCH_INDEX } from '../../sessions.js';
import { noteOrphanFlagged } from '../../telemetry.js';
import { nextLateCheck } from '../config.js';
import { hookMarker } from '../hooks.js';
import { createMayStillBind, orphanKey } from '../inbox.js';
import type { OrphanRecord } from '../inbox.js';
import { Lease } from '../lease.js';
import { reportLost, reportsLost, reportsPaid } from '../lost.js';
import { iso, MAX_PAGES } from './run.js';
import type { Sweep } from './run.js';

/** Where the walk of the provider's orders stopped (store key). */
export const WALK_KEY = 'sweep:provider-orders';
/** How far back of the newest order already read a walk reads again (orders committed out of order). */
export const WALK_OVERLAP_MS = 2 * 60_000;
const PAGE_SIZE = 100;

interface WalkMark {
  /** created_at (ms) of the newest order a finished walk read. */
  newest: number;
  /** created_at (ms) of the oldest order of ours without a session still unsettled, or null. */
  floor: number | null;
}

async function readMark(sw: Sweep): Promise<WalkMark | null> {
  const stored = await sw.core.cfg.store.get(WALK_KEY);
  if (!stored) return null;
  try {
    const v = JSON.parse(stored.value) as Partial<WalkMark>;
    if (typeof v.newest !== 'number' || !Number.isFinite(v.newest)) return null;
    return { newest: v.newest, floor: typeof v.floor === 'number' && Number.isFinite(v.floor) ? v.floor : null };
  } catch {
    return null; // unreadable: walk the whole window
  }
}

/** Walks the provider's orders back to the watermark and reports ours that have no session; moves the watermark when it finished. */
export async function sweepProviderOrders(sw: Sweep): Promise<void> {
  const { store, client, now, lateWindowMs } = sw.core.cfg;
  const t = now();
  const mark = await readMark(sw);
  const oldest = t - lateWindowMs;
  const from = mark ? Math.max(oldest, Math.min(mark.newest - WALK_OVERLAP_MS, mark.floor ?? Infinity)) : oldest;
  let newest = mark?.newest ?? 0;
  let floor: number | null = null;
  for (let page = 1; page <= MAX_PAGES; page++) {
    const list = await sw.call(() =>
      client.listOrders({ page, size: PAGE_SIZE, order_side: 'Buy', sort_by: 'created_at', sort: 'desc', start_date: iso(from) }),
    );
    for (const order of list.items) {
      const created = providerTime(order.created_at) || t;
      if (created > newest) newest = created;
      if ((await checkOrder(sw, order)) === 'unsettled') floor = floor === null ? created : Math.min(floor, created);
    }
    if (list.items.length < PAGE_SIZE || page >= list.pages) {
      await store.set(WALK_KEY, JSON.stringify({ newest, floor } satisfies WalkMark), lateWindowMs);
      return;
    }
  }
  // More than MAX_PAGES pages (over 10 000 orders since the watermark, e.g. a wiped store's first walk
  // of a busy week): the older rest is not read, so that no sweep reads it again and again.
  await store.set(WALK_KEY, JSON.stringify({ newest, floor } satisfies WalkMark), lateWindowMs);
  sw.core.cfg.log.warn('the provider order list had more pages than one sweep reads; older orders were not checked for a lost session', { pages: MAX_PAGES });
}

/** One listed order: ignored, left to its session, reported once, or still unsettled. */
async function checkOrder(sw: Sweep, order: Order): Promise<'ignored' | 'unsettled' | 'done'> {
  const { store, tokens, now, lateWindowMs, log } = sw.core.cfg;
  if (tokens.orderRefOf(order.client_order_id) === null) return 'ignored'; // another system's order (or one of ours the ref did not fit)
  // Read before the session is looked for (as orphans.ts does): a create stores its session before it
  // clears its mark, so a mark gone means either the session is found below or no create will bind it.
  const creating = await createMayStillBind(store, order.client_order_id);
  if (await sw.core.repo.findByOrderId(order.id)) return 'ignored'; // its session follows it
  const outcome = orderOutcome(order.status);
  if (outcome === 'pending' || creating) return 'unsettled';
  const member = orphanKey(order.id);
  if (await store.get(member)) return 'done'; // a webhook kept it: the orphan sweep follows it
  const orphan: OrphanRecord = { order_id: order.id, client_order_id: order.client_order_id, first_seen: now(), status: order.status };
  if (outcome !== 'paid') {
    const next = nextLateCheck(providerTime(order.updated_at) || now(), now(), lateWindowMs);
    if (next !== null && (await store.create(member, JSON.stringify(orphan), lateWindowMs))) await store.indexSet(WATCH_INDEX, member, next);
    return 'done';
  }
  // Reported already (or being reported) by a webhook, the orphan sweep or an earlier walk: nothing more.
  if ((await Lease.stateOf(store, hookMarker('paid', order.id))) !== null) return 'done';
  if ((await Lease.stateOf(store, hookMarker('flagged', order.id))) !== null) return 'done';
  sw.report.checked++;
  if (!reportsLost(sw.core, order)) {
    noteOrphanFlagged(orphan as OrphanRecord & { attempts?: number });
    log.error('a paid order of this endpoint has no session, and no onOrderFlagged is configured: review it by hand', {
      order_id: order.id,
      client_order_id: order.client_order_id,
    });
    return 'done';
  }
  if (reportsPaid(sw.core, order)) sw.report.paid++;
  else sw.report.flagged++;
  sw.hookRuns.add(reportLost(sw.core, sw.hooks, order, orphan));
  return 'done';
}
