/**
 * Reconciliation: the sweep that makes "a paid order reaches the merchant exactly once" hold when
 * webhooks are lost, a process restarts, a hook throws, or the money comes after the order ended.
 *
 * One sweep (one instance at a time: a lease in the store, renewed while it runs):
 *   1. reads the watch list: every session whose order is not final, every session that ended within
 *      the late window when its next late check is due, sessions with an open dispute or a hook to
 *      retry, and orphans (orders of this handler whose session the store lost);
 *   2. re-reads their orders from the provider, preferring the list endpoint (one call per page of
 *      100 orders, ascending by creation so pages stay stable) and falling back to one call per order
 *      when that is cheaper (few orders, or a long list);
 *   3. lists the provider's disputes created since the last sweep, and checks the open ones it
 *      follows; a processed one pays the order only on the provider's record of the money (a deposit
 *      naming the order), else it is flagged for a person;
 *   4. runs (and retries, with backoff) the hooks due, and resolves when they have settled.
 */
import { orderOutcome } from '../../provider/facts.js';
import { namesId, providerIso, providerTime } from '../../provider/matching.js';
import type { Dispute, Order } from '../../provider/schemas.js';
import { Lease } from './lease.js';
import { isProviderError } from '../errors.js';
import { orderToView } from '../order-view.js';
import { SESSIONS_INDEX, WATCH_INDEX } from '../sessions.js';
import type { SessionDispute, SessionRecord } from '../sessions.js';
import { hookBackoff, nextLateCheck } from './config.js';
import type { CheckoutCore } from './core.js';
import type { Disputes } from './disputes.js';
import { hookMarker } from './hooks.js';
import type { Hooks } from './hooks.js';
import { ORPHAN_PREFIX, orphanKey } from './inbox.js';
import type { OrphanRecord } from './inbox.js';
import { followed } from './dispute-state.js';
import { isEnded } from './status.js';
import type { Applied, StatusSync } from './status.js';
import type { LeaseRun } from './hooks.js';
import { inReconcile, noteOrphanFlagged } from '../telemetry.js';

/** What one sweep did. */
export interface ReconcileReport {
  /** Sessions (and orphan orders) the sweep looked at. */
  checked: number;
  /** Sessions that became paid (on time). */
  paid: number;
  /** Sessions that became paid after they had ended (a late completion, or an accepted dispute). */
  late_paid: number;
  /** Sessions that ended expired or cancelled. */
  closed: number;
  /** Sessions newly flagged for a person (incl. orphans found paid). */
  flagged: number;
  /** Provider or store failures; what they concerned stays due for the next sweep. */
  errors: number;
  /** Hooks run by this sweep (settled), and how many of them threw. */
  hooks_run: number;
  hooks_failed: number;
  /** Processed disputes this sweep acted on. */
  disputes_processed: number;
  /** Calls made to the provider. */
  provider_calls: number;
  /** True when another instance was sweeping (a background sweep then does nothing). */
  skipped: boolean;
  duration_ms: number;
}

export function emptyReport(): ReconcileReport {
  return {
    checked: 0,
    paid: 0,
    late_paid: 0,
    closed: 0,
    flagged: 0,
    errors: 0,
    hooks_run: 0,
    hooks_failed: 0,
    disputes_processed: 0,
    provider_calls: 0,
    skipped: false,
    duration_ms: 0,
  };
}

const LEASE_KEY = 'lease:reconcile';
const LEASE_MS = 60_000;
const DISPUTE_CURSOR_KEY = 'reconcile:disputes-since';
/** Up to this many due entries are read per sweep (the rest stay due for the next). */
const MAX_DUE = 50_000;
/** With this many orders or fewer, one call per order beats a list. */
const DIRECT_LIMIT = 3;
/** Orders are listed from the oldest one's creation less this (clock differences). */
const LIST_SLACK_MS = 10 * 60 * 1000;
/** Disputes are listed from the last sweep less this (a dispute created during the last sweep). */
const DISPUTE_OVERLAP_MS = 10 * 60 * 1000;
/** The late check due when the window closes is still made by a sweep this long after. */
const LATE_FINAL_GRACE_MS = 60 * 60 * 1000;
/** Pages of disputes or deposits read per sweep at most. */
const MAX_PAGES = 100;

const iso = (ms: number) => new Date(ms).toISOString();

type HookRun = Promise<LeaseRun | { ran: boolean; ok: boolean } | undefined>;
interface SweepResult {
  report: ReconcileReport;
  hookRuns: Set<HookRun>;
  /** performance.now() when the sweep began (its duration includes its hooks). */
  t0: number;
}

export class Reconciler {
  private chain: Promise<unknown> = Promise.resolve();
  private timer: ReturnType<typeof setTimeout> | null = null;
  private stopped = false;

  constructor(
    private readonly core: CheckoutCore,
    private readonly status: StatusSync,
    private readonly hooks: Hooks,
    private readonly disputes: Disputes,
  ) {}

  /** Sweeps every `intervalMs` by itself (the first one soon after start). */
  start(intervalMs: number): void {
    if (intervalMs <= 0 || this.timer) return;
    const schedule = (ms: number) => {
      if (this.stopped) return;
      this.timer = setTimeout(() => {
        // The next sweep does not wait for this one's hooks (a hung hook must not stop reconciliation).
        const { swept, settled } = this.begin(false);
        settled.catch((err: unknown) => this.core.cfg.log.error('reconciliation sweep failed', { err }));
        void swept.catch(() => undefined).finally(() => schedule(intervalMs));
      }, ms);
      (this.timer as { unref?: () => void }).unref?.();
    };
    schedule(Math.min(intervalMs, 10_000));
  }

  /** Stops the timer and waits for a sweep under way. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.chain.catch(() => undefined);
  }

  /**
   * One sweep now (serialised in this process), resolved once the hooks it triggered have settled.
   * `wait`: when another instance holds the lease, wait for it (up to a lease) and sweep after it;
   * else skip.
   */
  run(wait: boolean): Promise<ReconcileReport> {
    return this.begin(wait).settled;
  }

  /**
   * Starts a sweep: `swept` resolves when the provider has been read and the sweep's lease given up
   * (hooks are fenced by their own leases, so neither this process's next sweep nor another
   * instance waits for a slow hook); `settled` when the hooks it started have settled too.
   */
  private begin(wait: boolean): { swept: Promise<SweepResult>; settled: Promise<ReconcileReport> } {
    const swept = this.chain.then(() => this.leased(wait));
    this.chain = swept.catch(() => undefined);
    const settled = swept.then(async ({ report, hookRuns, t0 }) => {
      for (const result of await Promise.all([...hookRuns])) {
        if (!result?.ran) continue;
        report.hooks_run++;
        if (!result.ok) report.hooks_failed++;
      }
      report.duration_ms = Math.round(performance.now() - t0);
      if (!report.skipped) {
        const interesting = report.paid + report.late_paid + report.closed + report.flagged + report.errors + report.hooks_run > 0;
        this.core.cfg.log[report.errors > 0 ? 'warn' : 'info']?.('reconciliation sweep', interesting ? { ...report } : { checked: report.checked });
      }
      return report;
    });
    return { swept, settled };
  }

  private async leased(wait: boolean): Promise<SweepResult> {
    const { store, now, log } = this.core.cfg;
    const t0 = performance.now();
    const deadline = t0 + LEASE_MS + 5000;
    let lease: Lease | null;
    while (!(lease = await Lease.acquire(store, LEASE_KEY, LEASE_MS, log, 'the reconciliation sweep'))) {
      if (!wait || performance.now() > deadline) return { report: { ...emptyReport(), skipped: true }, hookRuns: new Set(), t0 };
      await new Promise((r) => setTimeout(r, 250));
    }
    lease.keepAlive();
    try {
      return { ...(await inReconcile(() => this.sweep(now()))), t0 };
    } finally {
      await lease.release();
    }
  }

  private async sweep(start: number): Promise<Omit<SweepResult, 't0'>> {
    const { store, client } = this.core.cfg;
    const report = emptyReport();
    const hookRuns = new Set<HookRun>();
    const call = <T>(f: () => Promise<T>): Promise<T> => {
      report.provider_calls++;
      return f();
    };

    const due = await store.indexRange(WATCH_INDEX, { max: start, limit: MAX_DUE });
    const sessions: SessionRecord[] = [];
    const orphans: string[] = [];
    for (const { member } of due) {
      if (member.startsWith(ORPHAN_PREFIX)) {
        orphans.push(member.slice(ORPHAN_PREFIX.length));
        continue;
      }
      const rec = await this.core.repo.get(member);
      if (rec) sessions.push(rec);
      else await this.core.repo.unwatch(member);
    }
    report.checked = sessions.length + orphans.length;

    // 1. Orders: pending ones (any change), ended ones (a late completion).
    const pending = new Map<string, SessionRecord>();
    const ended = new Map<string, SessionRecord>();
    const forms: SessionRecord[] = [];
    for (const rec of sessions) {
      if (rec.view.status === 'pending') {
        if (rec.provider_order_id) pending.set(rec.provider_order_id, rec);
        else if (rec.form_session_id) forms.push(rec);
      } else if (isEnded(rec.view.status) && rec.provider_order_id && rec.ended_at !== null && start - rec.ended_at <= this.core.cfg.lateWindowMs + LATE_FINAL_GRACE_MS) {
        ended.set(rec.provider_order_id, rec);
      }
    }
    const seen = new Map<string, Order>();
    const count = (res: Applied | null) => {
      for (const run of res?.hooks ?? []) hookRuns.add(run);
      if (!res || res.before.view.status === res.after.view.status) return;
      const s = res.after.view.status;
      if (s === 'paid') {
        if (res.after.payment?.late) report.late_paid++;
        else report.paid++;
      } else if (isEnded(s)) report.closed++;
    };
    for (const [byId, paidOnly] of [
      [pending, false],
      [ended, true],
    ] as const) {
      const found = await this.fetchOrders(byId, paidOnly, report, call);
      for (const [id, order] of found) {
        seen.set(id, order);
        try {
          const res = await this.status.applyOrder(byId.get(id)!.sid, order, 'sweep');
          count(res);
          if (res && !res.before.flagged && res.after.flagged) report.flagged++;
        } catch (err) {
          report.errors++;
          this.core.cfg.log.error('applying an order in the sweep failed', { order_id: id, err });
        }
      }
    }
    for (const rec of forms) {
      try {
        report.provider_calls += 2;
        count(await this.status.sync(rec, 'sweep'));
      } catch (err) {
        report.errors++;
        this.core.logProviderFailure('re-reading a hosted form in the sweep failed', err, { session: rec.sid });
      }
    }

    // 2. Disputes: new ones since the last sweep, and the processed state of those followed.
    await this.sweepDisputes(start, sessions, seen, report, call, count).catch((err: unknown) => {
      report.errors++;
      this.core.logProviderFailure('the dispute part of the sweep failed; it runs again next time', err);
    });

    // 3. Orphans: orders of this handler without a session.
    for (const orderId of orphans) {
      try {
        const started = await this.orphan(orderId, call, report);
        if (started) hookRuns.add(started.run);
      } catch (err) {
        report.errors++;
        this.core.logProviderFailure('re-reading an orphan order failed', err, { order_id: orderId });
      }
    }

    // 4. Hooks due (new or to retry), and when to look at each session next.
    for (const rec of sessions) {
      const fresh = await this.core.repo.read(rec.sid);
      if (!fresh) continue;
      for (const run of this.hooks.ensure(fresh.rec, seen.get(fresh.rec.provider_order_id ?? '') ?? null)) hookRuns.add(run);
      await this.status.reschedule(fresh.rec, true);
    }
    await this.pruneSessionsIndex(start);
    return { report, hookRuns };
  }

  /**
   * The provider's orders for `byId` (with `paidOnly`, only those it now calls paid, in any of its
   * words for it: `Completed`, the older API's `Paid`): with few, one call each; else the order list
   * from the oldest one's creation, ascending, page by page, switching to one call per order when the
   * pages left outnumber the orders left. Orders the list did not show are read one by one. The list
   * is not filtered by status: its filter takes one value, and a paid order must never be missed.
   */
  private async fetchOrders(
    byId: Map<string, SessionRecord>,
    paidOnly: boolean,
    report: ReconcileReport,
    call: <T>(f: () => Promise<T>) => Promise<T>,
  ): Promise<Map<string, Order>> {
    const { client, now } = this.core.cfg;
    const found = new Map<string, Order>();
    if (byId.size === 0) return found;
    const wanted = (o: Order) => !paidOnly || orderOutcome(o.status) === 'paid';
    const left = new Set(byId.keys());
    let direct = byId.size <= DIRECT_LIMIT;
    if (!direct) {
      let oldest = Infinity;
      for (const rec of byId.values()) oldest = Math.min(oldest, providerTime(rec.view.created_at) || rec.created_at, rec.created_at);
      try {
        for (let page = 1; ; page++) {
          const res = await call(() =>
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
          if (left.size === 0) break;
          if (page >= res.pages || res.items.length === 0) {
            // The whole list was read: those it did not show were missed by it.
            direct = true;
            break;
          }
          if (res.pages - page > left.size) {
            direct = true;
            break;
          }
        }
      } catch (err) {
        report.errors++;
        this.core.logProviderFailure('listing orders in the sweep failed; one call per order instead', err);
        direct = true;
      }
    }
    if (direct) {
      for (const id of left) {
        try {
          const order = await call(() => client.getOrder(id));
          if (wanted(order)) found.set(id, order);
        } catch (err) {
          if (isProviderError(err) && err.code === 'order_not_found') {
            this.core.cfg.log.warn('the provider does not know the order of a session', { session: byId.get(id)!.sid, order_id: id });
          } else {
            report.errors++;
            this.core.logProviderFailure('reading an order in the sweep failed', err, { order_id: id });
          }
        }
      }
    }
    return found;
  }

  private async sweepDisputes(
    start: number,
    sessions: SessionRecord[],
    seen: Map<string, Order>,
    report: ReconcileReport,
    call: <T>(f: () => Promise<T>) => Promise<T>,
    count: (res: Applied | null) => void,
  ): Promise<void> {
    const { store, client, lateWindowMs, disputeGraceMs } = this.core.cfg;
    /** Disputes seen processed by this sweep (first time), by session. */
    const processed: Array<{ sid: string; dispute: Dispute }> = [];
    const handled = new Set<string>();
    /** Sessions whose money is looked for in the provider's deposits. */
    const needDeposit = new Set<string>();

    // A dispute the provider listed: followed from now on (every dispute of the order, not only the
    // newest), and acted on when it is newly processed.
    const note = async (rec: SessionRecord, d: Dispute) => {
      if (handled.has(d.dispute_id)) return;
      handled.add(d.dispute_id);
      const known = rec.disputes.find((x) => x.id === d.dispute_id);
      if (!known && rec.view.status === 'paid') return;
      if (!known) {
        await this.disputes.record(
          rec.sid,
          { id: d.dispute_id, created_at: providerIso(d.created_at, start), processed: false, processed_at: null, via: 'provider', files: 0, outcome: null },
          'sweep',
        );
      }
      if (d.processed && !known?.processed) processed.push({ sid: rec.sid, dispute: d });
    };

    // New disputes since the last sweep (the first sweep looks back over the late window), listed in
    // a window closed at this sweep's start. The list's order is not documented (the sandbox lists
    // newest first), so a window of more than MAX_PAGES pages is not cut by a date: the next sweeps
    // go on with its next pages (the window is closed, so its pages stay put), then a new window.
    const pass = readDisputeCursor(await store.get(DISPUTE_CURSOR_KEY), start - lateWindowMs, start);
    const { since, until } = pass;
    let exhausted = false;
    let page = pass.page;
    for (; page < pass.page + MAX_PAGES; page++) {
      const res = await call(() =>
        client.searchDisputes({ start_date: iso(since - DISPUTE_OVERLAP_MS), end_date: iso(until), size: 100, page }),
      );
      for (const d of res.items) {
        const rec = await this.core.repo.findByOrderId(d.order_id);
        if (rec) await note(rec, d);
      }
      if (page >= res.pages || res.items.length === 0) {
        exhausted = true;
        break;
      }
    }
    // With pages left unread (more than MAX_PAGES), the next sweep reads the same window from the next page.
    const next = exhausted ? String(until) : JSON.stringify({ since, until, page });
    await store.set(DISPUTE_CURSOR_KEY, next, lateWindowMs + 24 * 3600 * 1000);

    // The open disputes this server follows, created before the listing above: one call per order
    // reads all its disputes (one filed elsewhere meanwhile is found too).
    for (const rec of sessions) {
      if (rec.view.status === 'paid' || !rec.provider_order_id) continue;
      const open = rec.disputes.filter((d) => !d.processed && !handled.has(d.id) && followed(rec, d, start, lateWindowMs));
      if (open.length === 0) continue;
      const res = await call(() => client.searchDisputes({ order_id: rec.provider_order_id!, size: 100 }));
      const fresh = (await this.core.repo.get(rec.sid)) ?? rec;
      for (const d of res.items) if (d.order_id === rec.provider_order_id) await note(fresh, d);
    }

    // A processed dispute: the order completed, or the provider's deposit naming the order, or (after
    // the grace) its outcome is unconfirmed and it is flagged.
    for (const { sid, dispute } of processed) {
      report.disputes_processed++;
      const rec = await this.core.repo.get(sid);
      if (!rec || !rec.provider_order_id || rec.view.status === 'paid') continue;
      let order = seen.get(rec.provider_order_id);
      if (!order || orderOutcome(order.status) !== 'paid') {
        order = await call(() => client.getOrder(rec.provider_order_id!));
        seen.set(order.id, order);
      }
      const known = rec.disputes.find((d) => d.id === dispute.dispute_id);
      if (orderOutcome(order.status) === 'paid') {
        count(await this.status.applyOrder(sid, order, 'sweep'));
        await this.disputes.record(sid, { ...known!, processed: true, processed_at: start, outcome: 'paid' }, 'sweep');
        continue;
      }
      // Processed now: its grace counts from here; the deposit is looked for at once.
      if (known) await this.disputes.record(sid, { ...known, processed: true, processed_at: start, outcome: null }, 'sweep');
      needDeposit.add(sid);
    }
    // Processed earlier: looked for again when the grace ends, and (after an unconfirmed outcome) at
    // the late checks until the late window closes, for the money may come after all.
    for (const rec of sessions) {
      if (rec.view.status === 'paid' || !rec.provider_order_id) continue;
      if (rec.disputes.some((d) => d.processed && d.outcome !== 'paid' && followed(rec, d, start, lateWindowMs))) needDeposit.add(rec.sid);
    }
    if (needDeposit.size === 0) return;

    const records: SessionRecord[] = [];
    let from = Infinity;
    for (const sid of needDeposit) {
      const rec = await this.core.repo.get(sid);
      if (!rec || rec.view.status === 'paid' || !rec.provider_order_id || rec.disputes.length === 0) continue;
      records.push(rec);
      for (const d of rec.disputes) from = Math.min(from, providerTime(d.created_at) || start);
    }
    if (records.length === 0) return;
    const deposits: Array<{ id: string; amount: string; description: string; at: number; created_at: string }> = [];
    for (let page = 1; page <= MAX_PAGES; page++) {
      const res = await call(() =>
        client.listTransactions({ transaction_type: 'deposit', start_date: iso(from - DISPUTE_OVERLAP_MS), size: 100, page }),
      );
      for (const t of res.items) {
        deposits.push({ id: t.id, amount: t.amount, description: t.client_description ?? '', at: providerTime(t.created_at), created_at: t.created_at });
      }
      if (page >= res.pages || res.items.length === 0) break;
    }
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
        count(await this.status.markPaidByDispute(rec.sid, by.id, 'sweep', { id: credit.id, amount: credit.amount, created_at: providerIso(credit.created_at, start) }));
        continue;
      }
      // Not yet: the provider may write its deposit a little after processing the dispute.
      for (const d of rec.disputes) {
        if (!d.processed || d.outcome !== null || d.processed_at === null || start - d.processed_at < disputeGraceMs) continue;
        const flagged = await this.disputes.flagUnconfirmed(rec.sid, d.id);
        if (flagged?.flagged) report.flagged++;
      }
    }
  }

  /** An order of this handler without a session: followed until it is paid (then flagged) or the late window closes. */
  private async orphan(
    orderId: string,
    call: <T>(f: () => Promise<T>) => Promise<T>,
    report: ReconcileReport,
  ): Promise<{ run: HookRun } | null> {
    const { store, client, now, lateWindowMs, hooks, log } = this.core.cfg;
    const member = orphanKey(orderId);
    const stored = await store.get(member);
    if (!stored) {
      await store.indexRemove(WATCH_INDEX, member);
      return null;
    }
    if (await this.core.repo.findByOrderId(orderId)) {
      // Its session was stored after the webhook came (a webhook that outran the create's answer, or a
      // form session bound to its order later): the order is that session's, which follows it.
      await store.delete(member);
      await store.indexRemove(WATCH_INDEX, member);
      return null;
    }
    const orphan = JSON.parse(stored.value) as OrphanRecord;
    const order = await call(() => client.getOrder(orderId));
    const outcome = orderOutcome(order.status);
    if (outcome === 'pending') {
      await store.indexSet(WATCH_INDEX, member, now());
      return null;
    }
    if (outcome !== 'paid') {
      const next = nextLateCheck(orphan.first_seen, now(), lateWindowMs);
      if (next === null) await store.indexRemove(WATCH_INDEX, member);
      else await store.indexSet(WATCH_INDEX, member, next);
      return null;
    }
    noteOrphanFlagged(orphan as OrphanRecord & { attempts?: number });
    if (!hooks.flagged) {
      log.error('a paid order of this endpoint has no session, and no onOrderFlagged is configured: review it by hand', {
        order_id: orderId,
        client_order_id: orphan.client_order_id,
      });
      await store.indexRemove(WATCH_INDEX, member);
      return null;
    }
    report.flagged++;
    const view = orderToView(order, {
      currency: order.currency,
      requested_amount: order.amount,
      redirect_url: null,
      support_url: null,
      return_url: null,
      nspk_code: null,
      bank: null,
    });
    const run = this.core.track(
      this.hooks
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
    return { run };
  }

  /** Drops index entries of sessions the store has let go. */
  private async pruneSessionsIndex(start: number): Promise<void> {
    const { store, sessionTtlMs, lateWindowMs } = this.core.cfg;
    const oldest = start - Math.max(sessionTtlMs, lateWindowMs) - 2 * 24 * 3600 * 1000;
    const stale = await store.indexRange(SESSIONS_INDEX, { max: oldest, limit: 1000 });
    for (const { member } of stale) {
      if (!(await this.core.repo.get(member))) await store.indexRemove(SESSIONS_INDEX, member);
    }
  }
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
