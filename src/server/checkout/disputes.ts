/**
 * Disputes: the shopper's "I paid — here is my receipt" (`POST /sessions/S/dispute`), opened at the
 * provider with the order's id and amount; and, for the sweep, what a processed dispute means.
 *
 * A processed dispute is not proof of payment (the provider says only `processed`, not how). An
 * order that stays cancelled counts as paid late only on the provider's own record of the money: a
 * `deposit` transaction whose `client_description` names the order (its id or client order id).
 * Without it the session is flagged `dispute_unconfirmed` for the merchant to review, never paid.
 */
import { providerIso } from '../../provider/matching.js';
import type { DisputeFileInput } from '../../provider/types.js';
import { decimalAmount, type Dispute } from '../../provider/schemas.js';
import { CheckoutError, fromProviderError } from '../errors.js';
import { MAX_HISTORY } from '../sessions.js';
import type { SessionDispute, SessionRecord, SyncSource } from '../sessions.js';
import type { CheckoutCore } from './core.js';
import { disputeView, undecided, withDispute, withFlag } from './dispute-state.js';
import { isEnded } from './status.js';
import type { StatusSync } from './status.js';

const lockKey = (sid: string) => `dispute-lock:${sid}`;
/** A dispute upload holds its session this long at most (the provider call is bounded well within). */
const UPLOAD_LOCK_MS = 120_000;

function notAllowed(message: string): CheckoutError {
  return new CheckoutError(409, 'dispute_not_allowed', message);
}

export class Disputes {
  constructor(
    private readonly core: CheckoutCore,
    private readonly status: StatusSync,
  ) {}

  /** Why a dispute cannot be opened for this session now, or null. */
  refusal(rec: SessionRecord): CheckoutError | null {
    const now = this.core.cfg.now();
    if (rec.view.status === 'paid') return notAllowed('This order is paid; there is nothing to dispute.');
    if (!rec.provider_order_id) return notAllowed('This payment has no order yet: choose a payment method first.');
    if (rec.disputes.some(undecided)) return new CheckoutError(409, 'dispute_open', 'A receipt for this order is already being checked.');
    if (isEnded(rec.view.status) && (rec.ended_at === null || now - rec.ended_at > this.core.cfg.lateWindowMs)) {
      return notAllowed('The order ended more than lateWindowSeconds ago: a receipt is no longer taken here (the shopper is sent to support).');
    }
    return null;
  }

  /** Opens the provider's dispute for the session's order with the shopper's receipts. */
  async open(sid: string, files: DisputeFileInput[], comment: string | null): Promise<SessionRecord> {
    const { cfg } = this.core;
    const rec = await this.core.repo.get(sid);
    if (!rec) throw new CheckoutError(404, 'session_not_found', 'This payment session was not found.');
    const refused = this.refusal(rec);
    if (refused) throw refused;
    if (!(await cfg.store.create(lockKey(sid), '1', UPLOAD_LOCK_MS))) {
      throw new CheckoutError(409, 'dispute_open', 'A receipt for this order is already being sent.');
    }
    try {
      const orderId = rec.provider_order_id!;
      // One open dispute per order: one made earlier (a lost answer, the provider's own form) is adopted.
      let existing: Dispute | undefined;
      try {
        const page = await cfg.client.searchDisputes({ order_id: orderId, processed: false, size: 10 });
        existing = page.items.find((d) => d.order_id === orderId && !d.processed);
      } catch (err) {
        this.core.logProviderFailure('looking up disputes before opening one failed', err, { session: sid, order_id: orderId });
        throw fromProviderError(err);
      }
      let dispute: SessionDispute;
      if (existing) {
        dispute = { id: existing.dispute_id, created_at: providerIso(existing.created_at, cfg.now()), processed: false, processed_at: null, via: 'provider', files: 0, outcome: null };
        cfg.log.info('an open dispute for this order exists at the provider; it is followed instead of opening another', { session: sid, dispute_id: existing.dispute_id });
      } else {
        let created;
        try {
          created = await cfg.client.createDispute({ order_id: orderId, amount: decimalAmount(rec.expected_amount ?? rec.view.amount), files });
        } catch (err) {
          this.core.logProviderFailure('opening a dispute failed', err, { session: sid, order_id: orderId });
          throw fromProviderError(err);
        }
        dispute = { id: created.dispute_id, created_at: new Date(cfg.now()).toISOString(), processed: false, processed_at: null, via: 'widget', files: files.length, outcome: null };
        cfg.log.info('dispute opened with the shopper\'s receipts', { session: sid, order_id: orderId, dispute_id: dispute.id, files: files.length, comment: comment !== null });
      }
      const after = await this.record(sid, dispute, 'dispute', comment);
      if (!after) throw new CheckoutError(404, 'session_not_found', 'This payment session was not found.');
      return after;
    } finally {
      await cfg.store.delete(lockKey(sid)).catch(() => undefined);
    }
  }

  /** Writes a dispute into the session (a new one, or one it follows, processed), and its view. */
  async record(sid: string, dispute: SessionDispute, via: SyncSource, comment: string | null = null): Promise<SessionRecord | null> {
    const at = this.core.cfg.now();
    const res = await this.core.repo.update(sid, (cur) => {
      const known = cur.disputes.find((d) => d.id === dispute.id);
      if (known && known.processed === dispute.processed && known.outcome === dispute.outcome) return null;
      const note = !known ? `dispute ${dispute.id} opened${comment ? ': ' + comment.slice(0, 200) : ''}` : `dispute ${dispute.id} processed`;
      const next: SessionRecord = {
        ...withDispute(cur, dispute),
        // The session (and its indexes) stay while the dispute is followed, and a late window after.
        retain_until: Math.max(cur.retain_until, at + this.core.cfg.lateWindowMs + 24 * 3600 * 1000),
        history: [...cur.history, { at, status: cur.view.status, provider_status: cur.view.provider_status, via, note }].slice(-MAX_HISTORY),
      };
      const view = { ...cur.view, dispute: disputeView(next) };
      return { ...next, view, event: cur.event + 1 };
    });
    if (res) await this.status.reschedule(res.after);
    return res?.after ?? null;
  }

  /** A processed dispute with no record of the money after the grace: its outcome, and a flag for a person (once per dispute). */
  async flagUnconfirmed(sid: string, disputeId: string): Promise<{ rec: SessionRecord; flagged: boolean } | null> {
    const { cfg } = this.core;
    const at = cfg.now();
    const res = await this.core.repo.update(sid, (cur) => {
      const known = cur.disputes.find((d) => d.id === disputeId);
      if (!known || known.outcome !== null || cur.view.status === 'paid') return null;
      let next = withDispute(cur, { ...known, processed: true, processed_at: known.processed_at ?? at, outcome: 'unconfirmed' });
      next = withFlag(next, { reason: 'dispute_unconfirmed', at, dispute_id: disputeId }, Boolean(cfg.hooks.flagged));
      const view = { ...cur.view, dispute: disputeView(next) };
      return { ...next, view, event: cur.event + 1 };
    });
    if (!res || res.after === res.before) return null;
    const flagged = res.after.flags.length > res.before.flags.length;
    if (flagged) {
      cfg.log.warn('the provider processed a dispute but no record of the money names the order; flagged for review', { session: sid, dispute_id: disputeId });
    }
    await this.status.settle(res.after, null);
    return { rec: res.after, flagged };
  }
}
