/**
 * A paid order whose session the store lost (a wiped or restarted store, a memory store after a
 * restart) still reaches the merchant, once: as `onOrderPaid` when its client order id carries its
 * order_ref, signed (SessionTokens.clientOrderIdFor: every id paydesk makes for an order_ref that
 * fits), else as `onOrderFlagged` `session_lost` with the provider's order id and amount. Started by
 * the webhook that finds the orphan (at once) and by the sweep (retries); the hook's marker is the one
 * a session's own hook of that order takes (`hook:paid:<order id>`), so it runs once across both,
 * every instance, and a session that turns up after all.
 */
import type { Order } from '../../provider/schemas.js';
import { orderToView } from '../order-view.js';
import { WATCH_INDEX } from '../sessions.js';
import { noteOrphanFlagged } from '../telemetry.js';
import { hookBackoff } from './config.js';
import type { CheckoutCore } from './core.js';
import { hookMarker } from './hooks.js';
import type { Hooks } from './hooks.js';

export const ORPHAN_PREFIX = 'orphan:';
export const orphanKey = (orderId: string) => `${ORPHAN_PREFIX}${orderId}`;

/** An order of this handler whose session the store does not have (kept by a webhook, followed by the sweep). */
export interface OrphanRecord {
  order_id: string;
  client_order_id: string;
  first_seen: number;
  status: string;
}

type Attempted = OrphanRecord & { attempts?: number };

/** The order_ref a lost order can still be reported by (`onOrderPaid`), or null (then `session_lost`). */
function refOf(core: CheckoutCore, order: Order): string | null {
  return core.cfg.hooks.paid ? core.cfg.tokens.orderRefOf(order.client_order_id) : null;
}

/** True when this lost paid order is reported by `onOrderPaid` (its order_ref is known). */
export function reportsPaid(core: CheckoutCore, order: Order): boolean {
  return refOf(core, order) !== null;
}

/** True when a hook configured can report this lost paid order. */
export function reportsLost(core: CheckoutCore, order: Order): boolean {
  return refOf(core, order) !== null || core.cfg.hooks.flagged !== undefined;
}

/** Runs the report of a paid orphan once (leased); a throw retries it with backoff from the sweep. */
export function reportLost(core: CheckoutCore, hooks: Hooks, order: Order, orphan: Attempted): Promise<{ ran: boolean; ok: boolean } | undefined> {
  const { store, now, lateWindowMs, hooks: h } = core.cfg;
  const member = orphanKey(order.id);
  const orderRef = refOf(core, order);
  const view = orderToView(order, {
    currency: order.currency,
    requested_amount: order.amount,
    redirect_url: null,
    support_url: null,
    return_url: null,
    nspk_code: null,
    bank: null,
  });
  const common = { order: view, client_order_id: order.client_order_id, provider_order_id: order.id, provider_order: order, late: false, dispute_id: null };
  const run =
    orderRef !== null
      ? hooks.runLeased(hookMarker('paid', order.id), order.id, 'onOrderPaid', async () => {
          await h.paid!({ ...common, order_ref: orderRef, session_id: '' });
          return true;
        })
      : hooks.runLeased(hookMarker('flagged', order.id), order.id, 'onOrderFlagged', async () => {
          noteOrphanFlagged(orphan);
          await h.flagged!({ ...common, order_ref: null, session_id: null, reason: 'session_lost', expected_amount: view.amount, expected_currency: order.currency });
          return true;
        });
  return core.track(
    run.then(async (result) => {
      if (result.ran && !result.ok) {
        const attempts = orphan.attempts ?? 0;
        await store.set(member, JSON.stringify({ ...orphan, attempts: attempts + 1 }), lateWindowMs);
        await store.indexSet(WATCH_INDEX, member, now() + hookBackoff(attempts + 1));
      } else if (result.ok || result.doneElsewhere) {
        await store.indexRemove(WATCH_INDEX, member);
      }
      return { ran: result.ran, ok: result.ok };
    }),
  );
}
