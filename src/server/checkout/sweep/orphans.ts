/**
 * The orphans part of a sweep: orders of this handler without a session (a webhook kept them,
 * inbox.ts). One whose session turned up is dropped. One whose client order id a create may still
 * bind (its answer has not come, or it was cut off and a retry will adopt the order: the id's
 * uncertain mark, create.ts) is left to that create, and looked at again at the next sweep, for as
 * long as the mark lives (the Idempotency-Key's life). Any other is followed until it is paid — then
 * reported once (lost.ts: `onOrderPaid` when its client order id carries its order_ref, else
 * `onOrderFlagged` `session_lost`), with backoff when it throws — or until the late window closes.
 */
import { orderOutcome } from '../../../provider/facts.js';
import { WATCH_INDEX } from '../../sessions.js';
import { nextLateCheck } from '../config.js';
import { createMayStillBind, orphanKey } from '../inbox.js';
import type { OrphanRecord } from '../inbox.js';
import { reportLost, reportsLost, reportsPaid } from '../lost.js';
import { noteOrphanFlagged } from '../../telemetry.js';
import type { Sweep } from './run.js';

/** Re-reads every orphan order due; a failure is counted and leaves it due. */
export async function sweepOrphans(sw: Sweep, orphans: string[]): Promise<void> {
  for (const orderId of orphans) {
    try {
      await sweepOrphan(sw, orderId);
    } catch (err) {
      sw.report.errors++;
      sw.core.logProviderFailure('re-reading an orphan order failed', err, { order_id: orderId });
    }
  }
}

/** An order of this handler without a session: followed until it is paid (then reported) or the late window closes. */
async function sweepOrphan(sw: Sweep, orderId: string): Promise<void> {
  const { store, client, now, lateWindowMs, hooks, log } = sw.core.cfg;
  const member = orphanKey(orderId);
  const stored = await store.get(member);
  if (!stored) {
    await store.indexRemove(WATCH_INDEX, member);
    return;
  }
  const orphan = JSON.parse(stored.value) as OrphanRecord;
  // Read before the session is looked for: a create stores its session before it clears the mark, so
  // a mark gone means either the session is found below or no create will bind the order any more.
  const creating = await createMayStillBind(store, orphan.client_order_id);
  if (await sw.core.repo.findByOrderId(orderId)) {
    // Its session was stored after the webhook came (a webhook that outran the create's answer, or a
    // form session bound to its order later): the order is that session's, which follows it.
    await store.delete(member);
    await store.indexRemove(WATCH_INDEX, member);
    return;
  }
  if (creating) {
    // Not lost yet: the create's answer, or the shopper's retry after a crash, adopts the order and
    // pays it through its session. Flagging it now would report one payment twice.
    await store.indexSet(WATCH_INDEX, member, now());
    return;
  }
  const order = await sw.call(() => client.getOrder(orderId));
  const outcome = orderOutcome(order.status);
  if (outcome === 'pending') {
    await store.indexSet(WATCH_INDEX, member, now());
    return;
  }
  if (outcome !== 'paid') {
    const next = nextLateCheck(orphan.first_seen, now(), lateWindowMs);
    if (next === null) await store.indexRemove(WATCH_INDEX, member);
    else await store.indexSet(WATCH_INDEX, member, next);
    return;
  }
  if (!reportsLost(sw.core, order)) {
    noteOrphanFlagged(orphan as OrphanRecord & { attempts?: number });
    log.error('a paid order of this endpoint has no session, and no onOrderFlagged is configured: review it by hand', {
      order_id: orderId,
      client_order_id: orphan.client_order_id,
    });
    await store.indexRemove(WATCH_INDEX, member);
    return;
  }
  if (reportsPaid(sw.core, order)) sw.report.paid++;
  else sw.report.flagged++;
  sw.hookRuns.add(reportLost(sw.core, sw.hooks, order, orphan));
}
