/**
 * Following an order's status: reading it from the provider (one order by its id; a form session
 * through its own form session's order — never "the newest order with that client_order_id"),
 * applying what was read to the session (forward only: pending → paid | expired | cancelled, and
 * expired | cancelled → paid when the payment comes late), and deciding when the sweep looks again.
 */
import { orderOutcome } from '../../provider/facts.js';
import { providerTime } from '../../provider/matching.js';
import type { FormSession, Order } from '../../provider/schemas.js';
import type { OrderView } from '../../protocol/index.js';
import { disputeCheckAt, disputeView, withDispute } from './dispute-state.js';
import { CheckoutError } from '../errors.js';
import { normaliseDecimal, orderToView, viewsDiffer } from '../order-view.js';
import { freshHook, MAX_HISTORY } from '../sessions.js';
import type { HistoryEntry, SessionDeposit, SessionRecord, SyncSource, UpdateResult } from '../sessions.js';
import { ENDED_STALE_MS, LATE_DENSE_MS, nextLateCheck } from './config.js';
import type { CheckoutCore } from './core.js';
import type { Hooks, LeaseRun } from './hooks.js';
import { notePaidOrder } from '../telemetry.js';
import { recordPayment } from './paid-index.js';

/** A session update, with the hook runs it started (they settle in the background). */
export type Applied = UpdateResult & { hooks: Array<Promise<LeaseRun | undefined>> };
import { orderProblem } from './matching.js';

export const isEnded = (status: OrderView['status']) => status === 'expired' || status === 'cancelled';

export { disputeView } from './dispute-state.js';

/** A completion the provider recorded after the order's own deadline (its `updated_at` past `expires_at`). */
function completedAfterDeadline(order: Order): boolean {
  const updated = providerTime(order.updated_at);
  const deadline = providerTime(order.expires_at);
  return orderOutcome(order.status) === 'paid' && Number.isFinite(updated) && Number.isFinite(deadline) && updated > deadline;
}

function pushHistory(rec: SessionRecord, entry: HistoryEntry): HistoryEntry[] {
  return [...rec.history, entry].slice(-MAX_HISTORY);
}

/** True when `next` differs from `cur` only in when it was last read. */
function unchangedButTime(cur: SessionRecord, next: SessionRecord): boolean {
  if (next.event !== cur.event || next.confirm_pending !== cur.confirm_pending) return false;
  return JSON.stringify({ ...next, refreshed_at: 0 }) === JSON.stringify({ ...cur, refreshed_at: 0 });
}

/** `next` with its view replaced by `view` when they differ (the event number grows then). */
function withView(next: SessionRecord, view: OrderView): SessionRecord {
  if (!viewsDiffer(view, next.view)) return next;
  return { ...next, view, event: next.event + 1 };
}

export class StatusSync {
  constructor(
    private readonly core: CheckoutCore,
    private readonly hooks: Hooks,
  ) {}

  /** The session for a read: refreshed from the provider first when stale or asked to. */
  async read(sid: string, forceRefresh: boolean): Promise<{ rec: SessionRecord; viewJson: string }> {
    const cached = await this.core.repo.read(sid);
    if (!cached) throw new CheckoutError(404, 'session_not_found', 'No session is stored for this token (pruned after its retention, or another store).');
    const rec = cached.rec;
    if (!this.needsRefresh(rec, forceRefresh)) {
      this.hooks.ensure(rec, null);
      return cached;
    }
    const fresh = await this.refreshWithin(rec, forceRefresh);
    this.hooks.ensure(fresh, null);
    return fresh === rec ? cached : { rec: fresh, viewJson: JSON.stringify(fresh.view) };
  }

  /**
   * The re-read a status read waits for, at most `readRefreshTimeoutMs`: past that the stored record
   * is answered and the re-read goes on (tracked); its change reaches the session's event stream.
   */
  private async refreshWithin(rec: SessionRecord, force: boolean): Promise<SessionRecord> {
    return (await this.core.within(this.refreshIfNeeded(rec, force), this.core.cfg.readRefreshTimeoutMs, rec)) ?? rec;
  }

  /**
   * A pending session is re-read when a webhook awaits confirmation, when it is stale, or once past
   * its deadline; an ended one (late payment, open dispute) at most once a minute, and only while
   * someone watches it soon after it ended or while its dispute is open. A paid one never.
   */
  needsRefresh(rec: SessionRecord, force = false): boolean {
    const now = this.core.cfg.now();
    const status = rec.view.status;
    if (status === 'paid') return false;
    if (isEnded(status)) {
      if (rec.ended_at === null || now - rec.ended_at > this.core.cfg.lateWindowMs) return false;
      const watched = rec.disputes.some((d) => !d.processed) || now - rec.ended_at < LATE_DENSE_MS * 4;
      return watched && (rec.confirm_pending || now - rec.refreshed_at >= ENDED_STALE_MS || (force && now - rec.refreshed_at >= this.core.cfg.refreshIntervalMs));
    }
    if (force) return true;
    return rec.confirm_pending || now - rec.refreshed_at >= this.core.cfg.staleMs || now >= (providerTime(rec.view.expires_at) || 0);
  }

  /** Re-reads the provider at most once per refresh interval per session (across instances). Never throws. */
  async refreshIfNeeded(rec: SessionRecord, force: boolean): Promise<SessionRecord> {
    if (!this.needsRefresh(rec, force)) return rec;
    try {
      if (!(await this.core.cfg.store.create(`lock:r:${rec.sid}`, '1', this.core.cfg.refreshIntervalMs))) return rec;
      return (await this.sync(rec, 'read'))?.after ?? rec;
    } catch (err) {
      this.core.logProviderFailure('status refresh failed; the stored status is served', err, { session: rec.sid });
      return rec;
    }
  }

  /**
   * Reads the session's order from the provider and applies it: by the provider's order id; for a
   * hosted form not bound yet, through its form session (whose `order_id` names its own order).
   * Throws provider errors.
   */
  async sync(rec: SessionRecord, via: SyncSource): Promise<Applied | null> {
    const { client } = this.core.cfg;
    if (rec.provider_order_id) return this.applyOrder(rec.sid, await client.getOrder(rec.provider_order_id), via);
    if (rec.form_session_id) {
      const page = await client.searchFormSessions({ session_id: rec.form_session_id, size: 10 });
      const fs = page.items.find((s) => s.session_id === rec.form_session_id);
      if (fs?.order_id) return this.applyOrder(rec.sid, await client.getOrder(fs.order_id), via);
      if (fs) return this.applyFormSession(rec.sid, fs, via);
      this.core.cfg.log.warn('the provider did not list the form session of a session', { session: rec.sid, form_session: rec.form_session_id });
    }
    const res = await this.core.repo.update(rec.sid, (cur) => ({ ...cur, refreshed_at: this.core.cfg.now(), confirm_pending: false }));
    return res && { ...res, hooks: [] };
  }

  /**
   * Applies a provider order (read from the provider itself, never from a webhook body) to a session:
   * status only moves forward, an ended session becomes paid (late) when the money came after all,
   * and an amount or currency that does not match flags the session instead. Starts the hooks due.
   */
  async applyOrder(sid: string, order: Order, via: SyncSource): Promise<Applied | null> {
    const { log, now } = this.core.cfg;
    if (orderOutcome(order.status) === 'paid') await this.recordBeforePaid(sid, order);
    const res = await this.core.repo.update(sid, (cur) => {
      if (cur.client_order_id !== order.client_order_id) return null;
      if (cur.provider_order_id && cur.provider_order_id !== order.id) return null;
      const at = now();
      let next: SessionRecord = { ...cur, refreshed_at: at, confirm_pending: false, provider_order_id: order.id };
      const problem = orderProblem(order, cur, cur.client_order_id);
      if (problem === 'amount_mismatch' || problem === 'currency_mismatch') {
        if (!cur.flagged || cur.flagged.reason === 'dispute_unconfirmed') {
          const flag = { reason: problem, provider_amount: order.amount, provider_currency: order.currency, at };
          next = { ...next, flagged: flag, flags: [...cur.flags, flag], hooks: { ...cur.hooks, flagged: freshHook() } };
          log.error(`the provider reports an order that does not match the session (${problem}); it is flagged, not marked paid`, {
            session: sid,
            order_id: order.id,
            provider_status: order.status,
            provider_amount: order.amount,
            provider_currency: order.currency,
            expected_amount: cur.expected_amount ?? cur.requested_amount,
            expected_currency: cur.currency,
          });
        }
        return next;
      }
      if (cur.flagged && cur.flagged.reason !== 'dispute_unconfirmed') return next;
      const outcome = orderOutcome(order.status);
      const status = cur.view.status;
      if (status === 'paid') {
        if (outcome !== 'paid') {
          log.warn('the provider reports another status for an order already paid; paid stands', { session: sid, order_id: order.id, provider_status: order.status });
        }
        return next;
      }
      if (isEnded(status) && outcome !== 'paid') {
        if (outcome !== 'pending' && outcome !== status) {
          log.warn('the provider reports a different final status than the one already recorded; the first one stands', {
            session: sid,
            order_id: order.id,
            recorded: status,
            provider_status: order.status,
          });
        }
        return next;
      }
      if (cur.expected_amount === null) next.expected_amount = normaliseDecimal(order.amount, cur.currency);
      const view = orderToView(order, cur.ctx);
      if (view.form_url === null && cur.view.form_url !== null) view.form_url = cur.view.form_url;
      view.dispute = disputeView(cur);
      if (outcome === 'paid') {
        const late = isEnded(status) || completedAfterDeadline(order);
        next.payment = { at, late, dispute_id: null };
        if (late) log.warn('a payment arrived after its order had ended: the order is paid (late)', { session: sid, order_id: order.id });
      }
      view.late = next.payment?.late ?? false;
      if (isEnded(outcome) && next.ended_at === null) next.ended_at = at;
      if (view.status !== status) {
        next.history = pushHistory(cur, { at, status: view.status, provider_status: view.provider_status, via, ...(view.late && { note: 'late' }) });
      }
      const ended = next.ended_at !== cur.ended_at || next.payment !== cur.payment;
      const result = withView(ended ? this.core.retainedPast(next, at) : next, view);
      // The sweep reads thousands of unchanged orders: it writes only what changed.
      if (via === 'sweep' && unchangedButTime(cur, result)) return null;
      return result;
    });
    if (!res) return null;
    notePaidOrder(res, order, via);
    if (res.after === res.before) return { ...res, hooks: this.hooks.ensure(res.after, order) };
    return { ...res, hooks: await this.settle(res.after, order) };
  }

  /** A form session without an order: only its end (expired, cancelled) and expiry time matter. */
  private async applyFormSession(sid: string, fs: FormSession, via: SyncSource): Promise<Applied | null> {
    const res = await this.core.repo.update(sid, (cur) => {
      const at = this.core.cfg.now();
      const next: SessionRecord = { ...cur, refreshed_at: at, confirm_pending: false };
      if (cur.view.status !== 'pending' || cur.provider_order_id) return next;
      const status = fs.state === 'expired' ? 'expired' : fs.state === 'cancelled' ? 'cancelled' : 'pending';
      const expires = providerTime(fs.expires_at);
      const view: OrderView = {
        ...cur.view,
        status,
        provider_status: fs.state,
        expires_at: Number.isNaN(expires) ? cur.view.expires_at : new Date(expires).toISOString(),
      };
      if (status !== 'pending') {
        next.ended_at = at;
        next.history = pushHistory(cur, { at, status, provider_status: fs.state, via });
      }
      return withView(status !== 'pending' ? this.core.retainedPast(next, at) : next, view);
    });
    return res && { ...res, hooks: await this.settle(res.after, null) };
  }

  /**
   * Marks a session paid because the provider's own record of the money names its order (an
   * accepted dispute whose order stays cancelled). Late when the session had ended.
   */
  async markPaidByDispute(sid: string, disputeId: string, via: SyncSource, deposit: SessionDeposit | null = null): Promise<Applied | null> {
    const { log, now } = this.core.cfg;
    await this.recordBeforePaid(sid, null);
    const res = await this.core.repo.update(sid, (cur) => {
      if (cur.view.status === 'paid') return null;
      if (cur.flagged && cur.flagged.reason !== 'dispute_unconfirmed') return null;
      const at = now();
      const late = isEnded(cur.view.status);
      const known = cur.disputes.find((d) => d.id === disputeId);
      const confirmed = known
        ? withDispute(cur, { ...known, processed: true, processed_at: known.processed_at ?? at, outcome: 'paid', deposit })
        : cur;
      const next: SessionRecord = {
        ...confirmed,
        payment: { at, late, dispute_id: disputeId },
        history: pushHistory(cur, { at, status: 'paid', provider_status: cur.view.provider_status, via, note: `dispute ${disputeId} accepted` }),
      };
      return withView(this.core.retainedPast(next, at), { ...cur.view, status: 'paid', late, dispute: disputeView(next) });
    });
    if (!res) return null;
    if (res.after === res.before) return { ...res, hooks: [] };
    log.warn('an accepted dispute credited an order: it is paid' + (res.after.payment?.late ? ' (late)' : ''), { session: sid, dispute_id: disputeId });
    return { ...res, hooks: await this.settle(res.after, null) };
  }

  /**
   * A payment enters its purchase's index (paid-index.ts) before the session is marked paid, so a
   * crash in between leaves an unpaid session to retry, never a paid one missing from the index.
   * Nothing when the session is paid already, or will not be marked paid: held by a flag, or `order`
   * (the provider's, when it is what pays it) not its own or not matching it (flagged instead).
   */
  private async recordBeforePaid(sid: string, order: Order | null): Promise<void> {
    const rec = await this.core.repo.get(sid);
    if (!rec || rec.view.status === 'paid' || (rec.flagged && rec.flagged.reason !== 'dispute_unconfirmed')) return;
    if (order && ((rec.provider_order_id && rec.provider_order_id !== order.id) || orderProblem(order, rec, rec.client_order_id))) return;
    await recordPayment(this.core, rec, this.core.cfg.now());
  }

  /** After a change: the hooks due, and when the sweep looks at the session next. */
  async settle(rec: SessionRecord, order: Order | null): Promise<Array<Promise<LeaseRun | undefined>>> {
    const started = this.hooks.ensure(rec, order);
    await this.reschedule(rec);
    return started;
  }

  /** When the sweep should look at a session next (null: never again). */
  nextCheck(rec: SessionRecord): number | null {
    const now = this.core.cfg.now();
    const times: number[] = [];
    const hooksAt = this.hooks.pendingAt(rec);
    if (hooksAt !== null) times.push(hooksAt);
    if (rec.view.status === 'pending' || rec.confirm_pending) times.push(now);
    // Its disputes until decided, whatever the order's status (a paid one's too).
    const disputesAt = disputeCheckAt(rec, now, this.core.cfg.lateWindowMs, this.core.cfg.disputeGraceMs);
    if (disputesAt !== null) times.push(disputesAt);
    if (isEnded(rec.view.status)) {
      const late = nextLateCheck(rec.ended_at ?? rec.refreshed_at, now, this.core.cfg.lateWindowMs);
      if (late !== null && rec.provider_order_id !== null) times.push(late);
    }
    return times.length === 0 ? null : Math.min(...times);
  }

  /**
   * Puts the session on the sweep's list for its next check (or off it). `dueAlready`: the caller
   * knows the entry is due now (the sweep that read it), so a check due now needs no write.
   */
  async reschedule(rec: SessionRecord, dueAlready = false): Promise<void> {
    const at = this.nextCheck(rec);
    if (at === null) await this.core.repo.unwatch(rec.sid);
    else if (!(dueAlready && at <= this.core.cfg.now())) await this.core.repo.watch(rec.sid, at);
  }
}
