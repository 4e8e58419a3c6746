/**
 * One sweep's shared state: what it has done so far (the report), the hooks it started, the orders
 * it has read, and the parts of the checkout it works with. Each part of the sweep (sessions.ts,
 * disputes.ts, orphans.ts) takes a {@link Sweep}; reconcile.ts schedules and leases the sweeps.
 */
import type { Order } from '../../../provider/schemas.js';
import type { CheckoutCore } from '../core.js';
import type { Disputes } from '../disputes.js';
import type { Hooks, LeaseRun } from '../hooks.js';
import { isEnded } from '../status.js';
import type { Applied, StatusSync } from '../status.js';

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

export type HookRun = Promise<LeaseRun | { ran: boolean; ok: boolean } | undefined>;

/** The checkout parts a sweep works with. */
export interface SweepParts {
  core: CheckoutCore;
  status: StatusSync;
  hooks: Hooks;
  disputes: Disputes;
}

export interface Sweep extends SweepParts {
  /** When the sweep began (the store's clock, ms). */
  start: number;
  report: ReconcileReport;
  hookRuns: Set<HookRun>;
  /** Orders read from the provider by this sweep, by id. */
  seen: Map<string, Order>;
  /** Makes a provider call, counted in the report. */
  call<T>(f: () => Promise<T>): Promise<T>;
  /** Counts a session update (paid, late paid, closed) and keeps the hook runs it started. */
  count(res: Applied | null): void;
}

/** Pages of disputes or deposits read per sweep at most. */
export const MAX_PAGES = 100;

export const iso = (ms: number) => new Date(ms).toISOString();

export function newSweep(parts: SweepParts, start: number): Sweep {
  const report = emptyReport();
  const hookRuns = new Set<HookRun>();
  return {
    ...parts,
    start,
    report,
    hookRuns,
    seen: new Map(),
    call: <T>(f: () => Promise<T>): Promise<T> => {
      report.provider_calls++;
      return f();
    },
    count: (res) => {
      for (const run of res?.hooks ?? []) hookRuns.add(run);
      if (!res || res.before.view.status === res.after.view.status) return;
      const s = res.after.view.status;
      if (s === 'paid') {
        if (res.after.payment?.late) report.late_paid++;
        else report.paid++;
      } else if (isEnded(s)) report.closed++;
    },
  };
}
