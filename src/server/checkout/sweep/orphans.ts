/**
 * The orphans part of a sweep: orders of this handler without a session (a webhook kept them,
 * inbox.ts). One whose session turned up is dropped. One whose client order id a create may still
 * bind (its answer has not come, or it was cut off and a retry will adopt the order: the id's
 * uncertain mark, create.ts) is left to that create, and looked at again at the next sweep, for as
 * long as the mark lives (the Idempotency-Key's life). Any other is followed until it is paid — then
 * `onOrderFlagged` (`session_lost`), with backoff when it throws — or until the late window closes.
 */
import { orderOutcome } from '../../../provider/facts.js';
import type { Order } from '../../../provider/schemas.js';
import { orderToView } from '../../order-view.js';
import { WATCH_INDEX } from '../../sessions.js';
import { hookBackoff, nextLateCheck } from '../config.js';
import { hookMarker } from '../hooks.js';
import { createMayStillBind, orphanKey } from '../inbox.js';
import type { OrphanRecord } from '../inbox.js';
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

/** An order of this handler without a session: followed until it is paid (then flagged) or the late window closes. */
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
  noteOrphanFlagged(orphan as OrphanRecord & { attempts?: number });
  if (!hooks.flagged) {
    log.error('a paid order of this endpoint has no session, and no onOrderFlagged is configured: review it by hand', {
      order_id: orderId,
      client_order_id: orphan.client_order_id,
    });
    await store.indexRemove(WATCH_INDEX, member);
    return;
  }
  sw.report.flagged++;
  sw.hookRuns.add(flagLost(sw, orderId, order, orphan));
}

/** Runs `onOrderFlagged` (`session_lost`) for a paid orphan once (leased); a throw retries it with backoff. */
function flagLost(sw: Sweep, orderId: string, order: Order, orphan: OrphanRecord): Promise<{ ran: boolean; ok: boolean } | undefined> {
  const { store, now, lateWindowMs, hooks } = sw.core.cfg;
  const member = orphanKey(orderId);
  const view = orderToView(order, {
    currency: order.currency,
    requested_amount: order.amount,
    redirect_url: null,
    support_url: null,
    return_url: null,
    nspk_code: null,
    bank: null,
  });
  return sw.core.track(
    sw.hooks
      .runLeased(hookMarker('flagged', orderId), orderId, 'onOrderFlagged', async () => {
        await hooks.flagged!({
          order: view,
          order_ref: null,
          client_order_id: order.client_order_id,
          provider_order_id: order.id,
          provider_order: order,
          session_id: null,
          late: false,
          dispute_id: null,
          reason: 'session_lost',
          expected_amount: view.amount,
          expected_currency: order.currency,
        });
        return true;
      })
      .then(async (result) => {
        if (result.ran && !result.ok) {
          const attempts = (orphan as OrphanRecord & { attempts?: number }).attempts ?? 0;
          await store.set(member, JSON.stringify({ ...orphan, attempts: attempts + 1 }), lateWindowMs);
          await store.indexSet(WATCH_INDEX, member, now() + hookBackoff(attempts + 1));
        } else if (result.ok || result.doneElsewhere) {
          await store.indexRemove(WATCH_INDEX, member);
        }
        return { ran: result.ran, ok: result.ok };
      }),
  );
}
