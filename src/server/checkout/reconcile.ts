/**
 * Reconciliation: the sweep that makes "a paid order reaches the merchant exactly once" hold when
 * webhooks are lost, a process restarts, a hook throws, or the money comes after the order ended.
 *
 * One sweep per interval for the whole cluster: a lease in the store lets one instance sweep at a
 * time (renewed while it runs), and the store records when the last sweep began, so an instance
 * whose timer fires less than an interval after another instance's sweep skips its own (with N
 * instances the provider sees the calls of one). A sweep asked for (`handler.reconcile()`) always runs.
 * One sweep:
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
 *
 * This file schedules and leases the sweeps and runs their parts in order: sweep/sessions.ts (1, 2
 * and the hooks and next checks of 4), sweep/disputes.ts (3), sweep/orphans.ts (orphans); one
 * sweep's state is a `Sweep` (sweep/run.ts).
 */
import { inReconcile } from '../telemetry.js';
import type { CheckoutCore } from './core.js';
import type { Disputes } from './disputes.js';
import type { Hooks } from './hooks.js';
import { Lease } from './lease.js';
import type { StatusSync } from './status.js';
import { sweepDisputes } from './sweep/disputes.js';
import { sweepOrphans } from './sweep/orphans.js';
import { sweepProviderOrders } from './sweep/provider-orders.js';
import { emptyReport, newSweep } from './sweep/run.js';
import type { HookRun, ReconcileReport, SweepParts } from './sweep/run.js';
import { finishSessions, readDue, sweepOrders } from './sweep/sessions.js';

export { emptyReport } from './sweep/run.js';
export type { ReconcileReport } from './sweep/run.js';

const LEASE_KEY = 'lease:reconcile';
const LEASE_MS = 60_000;
/** When the last sweep of any instance began: `{"at": ms}`. */
const LAST_KEY = 'reconcile:last';

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
  /** The interval of the sweeps by timer (0: none); a timer's sweep skips when one began less than this ago. */
  private intervalMs = 0;

  private readonly parts: SweepParts;
  private readonly core: CheckoutCore;

  constructor(core: CheckoutCore, status: StatusSync, hooks: Hooks, disputes: Disputes) {
    this.core = core;
    this.parts = { core, status, hooks, disputes };
  }

  /** Sweeps every `intervalMs` by itself (the first one soon after start). */
  start(intervalMs: number): void {
    if (intervalMs <= 0 || this.timer) return;
    this.intervalMs = intervalMs;
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
      // A timer's sweep (wait false) runs only when no instance swept within the interval.
      if (!wait && !(await this.due(now()))) return { report: { ...emptyReport(), skipped: true }, hookRuns: new Set(), t0 };
      await this.core.cfg.store.set(LAST_KEY, JSON.stringify({ at: now() }), Math.max(2 * this.intervalMs, LEASE_MS));
      return { ...(await inReconcile(() => this.sweep(now()))), t0 };
    } finally {
      await lease.release();
    }
  }

  /** True when no sweep of any instance began within the interval (read under the lease). */
  private async due(at: number): Promise<boolean> {
    const last = await this.core.cfg.store.get(LAST_KEY);
    if (!last) return true;
    let began: unknown;
    try {
      began = (JSON.parse(last.value) as { at?: unknown }).at;
    } catch {
      return true;
    }
    // A record from the future (another instance's clock ahead) counts as now, so it cannot stop sweeps for long.
    return typeof began !== 'number' || at - Math.min(began, at) >= this.intervalMs || began > at + this.intervalMs;
  }

  /** One sweep, under the lease: sessions' orders, disputes, orphans, the provider's order list, then hooks and next checks. */
  private async sweep(start: number): Promise<Omit<SweepResult, 't0'>> {
    const sw = newSweep(this.parts, start);
    const { sessions, orphans } = await readDue(sw);
    await sweepOrders(sw, sessions);
    await sweepDisputes(sw, sessions).catch((err: unknown) => {
      sw.report.errors++;
      this.core.logProviderFailure('the dispute part of the sweep failed; it runs again next time', err);
    });
    await sweepOrphans(sw, orphans);
    await sweepProviderOrders(sw).catch((err: unknown) => {
      sw.report.errors++;
      this.core.logProviderFailure('walking the provider order list failed; it runs again next time', err);
    });
    await finishSessions(sw, sessions);
    return { report: sw.report, hookRuns: sw.hookRuns };
  }
}
