/**
 * The merchant's hooks, exactly once and never twice at once:
 *
 * - a marker per hook and order in the store, created before the hook runs (one instance wins);
 * - while the hook runs, its lease (`hookLeaseMs`, default 30 s) is renewed every third of it, so however long
 *   the hook takes, no other instance (or later read, or sweep) starts it again; only a process that
 *   died stops renewing, and then its lease ends and another instance runs the hook;
 * - on success the marker becomes `done` (kept past the late window) and the session records when;
 * - on failure the marker goes, the session records the attempt and the next time with backoff
 *   ({@link hookBackoff}), and the sweep runs it again then — until it succeeds.
 *
 * The one gap no store can close: a process that dies after the hook succeeded and before `done`
 * was written runs it again elsewhere. Hooks are given the provider's order id to stay idempotent.
 */
import { Lease } from './lease.js';
import type { FlaggedOrderEvent, OrderEvent, PaidOrderEvent } from '../options.js';
import type { Order } from '../../provider/schemas.js';
import type { HookKind, SessionRecord } from '../sessions.js';
import { hookBackoff } from './config.js';
import { nextFlag } from './dispute-state.js';
import { inPaidHook } from '../telemetry.js';

import type { CheckoutCore } from './core.js';

const HOOK_NAMES: Record<HookKind, string> = { paid: 'onOrderPaid', closed: 'onOrderClosed', flagged: 'onOrderFlagged' };

/** How long a `done` marker outlives the late window (a paid order never pays twice). */
const DONE_MARGIN_MS = 30 * 24 * 3600 * 1000;

export function hookMarker(kind: HookKind, orderKey: string): string {
  return `hook:${kind}:${orderKey}`;
}

/** The key a session's hooks are fenced by: its provider order, else the session itself. */
export function orderKeyOf(rec: SessionRecord): string {
  return rec.provider_order_id ?? `${rec.client_order_id}:${rec.sid}`;
}

function isEnded(rec: SessionRecord): boolean {
  return rec.view.status === 'expired' || rec.view.status === 'cancelled';
}

/** Does the session's state call for this hook (ignoring whether it ran)? */
export function hookCalledFor(kind: HookKind, rec: SessionRecord): boolean {
  if (kind === 'paid') return rec.view.status === 'paid';
  if (kind === 'closed') return isEnded(rec);
  return rec.flagged !== null;
}

export function orderEvent(rec: SessionRecord, order: Order | null): OrderEvent {
  return {
    order: rec.view,
    order_ref: rec.order_ref,
    client_order_id: rec.client_order_id,
    provider_order_id: rec.provider_order_id,
    provider_order: order,
    session_id: rec.sid,
    late: rec.payment?.late ?? false,
    dispute_id: rec.payment?.dispute_id ?? rec.flagged?.dispute_id ?? null,
  };
}

/** The event of `onOrderPaid`: paid is only ever set from a provider order (StatusSync.applyOrder records its id). */
export function paidEvent(rec: SessionRecord, order: Order | null): PaidOrderEvent {
  const id = rec.provider_order_id;
  if (!id) throw new Error(`session ${rec.sid} is paid but names no provider order`);
  return { ...orderEvent(rec, order), provider_order_id: id };
}

export function flaggedEvent(rec: SessionRecord, order: Order | null): FlaggedOrderEvent {
  const flag = rec.flagged!;
  return {
    ...orderEvent(rec, order),
    reason: flag.reason,
    expected_amount: rec.expected_amount ?? rec.requested_amount,
    expected_currency: rec.currency,
    dispute_id: flag.dispute_id ?? null,
  };
}

export interface LeaseRun {
  /** False when another run holds the lease or the hook is done already. */
  ran: boolean;
  ok: boolean;
}

export class Hooks {
  /** Runs in this process by marker, so a second trigger joins the first instead of racing the store. */
  private readonly running = new Map<string, Promise<LeaseRun>>();

  constructor(private readonly core: CheckoutCore) {}

  /** Is a hook due now: called for, configured, not done, past its backoff? */
  due(kind: HookKind, rec: SessionRecord, now = this.core.cfg.now()): boolean {
    if (!this.core.cfg.hooks[kind] || !hookCalledFor(kind, rec)) return false;
    const h = rec.hooks[kind];
    return h.done_at === null && (h.next_at === null || h.next_at <= now);
  }

  /** Is any hook of the session still to complete (due now or later)? The earliest time, or null. */
  pendingAt(rec: SessionRecord): number | null {
    let at: number | null = null;
    for (const kind of ['paid', 'closed', 'flagged'] as const) {
      if (!this.core.cfg.hooks[kind] || !hookCalledFor(kind, rec) || rec.hooks[kind].done_at !== null) continue;
      const when = rec.hooks[kind].next_at ?? this.core.cfg.now();
      at = at === null ? when : Math.min(at, when);
    }
    return at;
  }

  /** Starts (in the background) every hook the session is due for; the returned promises settle with them. */
  ensure(rec: SessionRecord, order: Order | null): Array<Promise<LeaseRun | undefined>> {
    const started: Array<Promise<LeaseRun | undefined>> = [];
    const h = this.core.cfg.hooks;
    if (h.paid && this.due('paid', rec)) started.push(this.core.track(this.run('paid', rec, (r) => inPaidHook(r, () => h.paid!(paidEvent(r, order))))));
    if (h.closed && this.due('closed', rec)) started.push(this.core.track(this.run('closed', rec, (r) => h.closed!(orderEvent(r, order)))));
    if (h.flagged && this.due('flagged', rec)) started.push(this.core.track(this.run('flagged', rec, (r) => h.flagged!(flaggedEvent(r, order)))));
    return started;
  }

  private run(kind: HookKind, rec: SessionRecord, call: (rec: SessionRecord) => void | Promise<void>): Promise<LeaseRun> {
    // A dispute_unconfirmed flag is reported once per dispute: its marker names the dispute.
    const disputeFlag = kind === 'flagged' && rec.flagged?.reason === 'dispute_unconfirmed' ? rec.flagged.dispute_id : undefined;
    const marker = hookMarker(kind, orderKeyOf(rec) + (disputeFlag ? `:${disputeFlag}` : ''));
    const existing = this.running.get(marker);
    if (existing) return existing;
    const p = this.runLeased(marker, rec.sid, HOOK_NAMES[kind], async () => {
      // The freshest record: a late flag or a dispute may have landed since the trigger.
      const fresh = (await this.core.repo.get(rec.sid)) ?? rec;
      if (fresh.hooks[kind].done_at !== null || !hookCalledFor(kind, fresh)) return false;
      if (kind === 'flagged' && (fresh.flagged?.dispute_id ?? undefined) !== disputeFlag && fresh.flagged?.reason === 'dispute_unconfirmed') return false;
      await call(fresh);
      return true;
    }).then(async (result) => {
      if (result.ran) await this.record(kind, rec.sid, result.ok, result.error);
      else if (result.doneElsewhere) await this.record(kind, rec.sid, true, undefined);
      return { ran: result.ran, ok: result.ok };
    });
    this.running.set(marker, p);
    void p.finally(() => this.running.delete(marker)).catch(() => undefined);
    return p;
  }

  /**
   * Runs `body` under the marker's lease: taken first (nothing runs when another owner holds it),
   * renewed while it runs, `done` after success (retried through store failures), given up after a
   * failure. Also used for orphan orders (no session).
   */
  async runLeased(
    marker: string,
    subject: string,
    name: string,
    body: () => Promise<boolean>,
  ): Promise<{ ran: boolean; ok: boolean; error?: string; doneElsewhere?: boolean }> {
    const { store, log, hookLeaseMs, lateWindowMs } = this.core.cfg;
    const lease = await Lease.acquire(store, marker, hookLeaseMs, log, `${name} (${subject})`);
    if (!lease) return { ran: false, ok: false, doneElsewhere: (await Lease.stateOf(store, marker)) === 'done' };
    lease.keepAlive();
    let ran: boolean;
    try {
      ran = await body();
    } catch (err) {
      log.error(`${name} failed; it runs again after a backoff (the next status update or reconciliation sweep)`, { session: subject, err });
      await lease.release();
      return { ran: true, ok: false, error: err instanceof Error ? err.message : String(err) };
    }
    if (!ran) {
      await lease.release();
      return { ran: false, ok: false };
    }
    await lease.settle('done', lateWindowMs + DONE_MARGIN_MS);
    return { ran: true, ok: true };
  }

  /** Writes a run's outcome into the session, and when the sweep should look at it next. */
  private async record(kind: HookKind, sid: string, ok: boolean, error: string | undefined): Promise<void> {
    const now = this.core.cfg.now();
    const res = await this.core.repo.update(sid, (cur) => {
      const h = cur.hooks[kind];
      if (ok) {
        if (h.done_at !== null) return null;
        const done = { ...cur, hooks: { ...cur.hooks, [kind]: { ...h, done_at: now, next_at: null, error: null } } };
        // Another dispute's flag waiting its turn is reported next.
        return (kind === 'flagged' && nextFlag(done)) || done;
      }
      const attempts = h.attempts + 1;
      const next_at = now + hookBackoff(attempts);
      return {
        ...cur,
        // A hook that keeps failing keeps its session (and its retries) alive.
        retain_until: Math.max(cur.retain_until, next_at + this.core.cfg.lateWindowMs),
        hooks: { ...cur.hooks, [kind]: { done_at: null, attempts, next_at, error: (error ?? 'failed').slice(0, 500) } },
      };
    });
    if (!res) return;
    const after = res.after;
    if (!ok) await this.core.repo.watch(sid, after.hooks[kind].next_at!);
    else if (kind === 'flagged' && after.hooks.flagged.done_at === null) await this.core.repo.watch(sid, now);
  }
}
