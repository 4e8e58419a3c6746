/**
 * Double payments: orders that paid a purchase another order had already paid. A purchase is
 * `handler.createSession`'s `purchase` when the session was made with one, else the session's
 * `order_ref` (the merchant's cart or order id). The first order to be paid is the purchase's (the one
 * the merchant fulfils, in `onOrderPaid` order); every later paid order of it — the same cart paid
 * from a second browser, an expired order paid late after the shopper paid its renewal, a dispute
 * accepted after a refund — is money to give back. Read from the handler's store (the sessions it
 * keeps: until `lateWindowSeconds` after an order ended, longer while a hook fails), newest first.
 */
import { SESSIONS_INDEX, type SessionRecord } from '../sessions.js';
import type { CheckoutCore } from './core.js';

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

/** Sessions read at most (newest first). */
const SCAN = 5000;

const purchaseOf = (rec: SessionRecord) => rec.purchase ?? rec.order_ref;

export async function doublePayments(core: CheckoutCore): Promise<DoublePayment[]> {
  const entries = await core.cfg.store.indexRange(SESSIONS_INDEX, { limit: SCAN, reverse: true });
  const paid = new Map<string, SessionRecord[]>();
  for (const { member } of entries) {
    const rec = await core.repo.get(member);
    if (!rec || rec.view.status !== 'paid' || !rec.payment || !rec.provider_order_id) continue;
    const list = paid.get(purchaseOf(rec)) ?? [];
    if (!list.some((r) => r.provider_order_id === rec.provider_order_id)) list.push(rec);
    paid.set(purchaseOf(rec), list);
  }
  const out: DoublePayment[] = [];
  for (const [purchase, list] of paid) {
    if (list.length < 2) continue;
    list.sort((a, b) => a.payment!.at - b.payment!.at || a.created_at - b.created_at);
    const first = list[0]!;
    for (const rec of list.slice(1)) {
      out.push({
        purchase,
        order_ref: rec.order_ref,
        order_id: rec.provider_order_id!,
        client_order_id: rec.client_order_id,
        amount: rec.view.amount,
        currency: rec.view.currency,
        paid_at: new Date(rec.payment!.at).toISOString(),
        late: rec.payment!.late,
        dispute_id: rec.payment!.dispute_id ?? null,
        first: { order_id: first.provider_order_id!, client_order_id: first.client_order_id, paid_at: new Date(first.payment!.at).toISOString() },
      });
    }
  }
  return out.sort((a, b) => b.paid_at.localeCompare(a.paid_at));
}
