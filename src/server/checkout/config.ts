/**
 * What the checkout core is built from (createCheckoutHandler checks the options and fills this), and
 * the timing constants of its money-safety machinery in one place.
 */
import type { ProviderClient } from '../../provider/types.js';
import type { SafeLogger } from '../log.js';
import type { FeePayer } from '../methods.js';
import type { CheckoutTiming, FlaggedOrderEvent, OrderEvent, PaidOrderEvent, ResolvedOrder } from '../options.js';
import type { CheckoutStore } from '../store.js';
import type { SessionTokens } from '../tokens.js';

export interface CheckoutConfig extends CheckoutTiming {
  client: ProviderClient;
  store: CheckoutStore;
  tokens: SessionTokens;
  log: SafeLogger;
  now: () => number;
  resolveOrder: (orderRef: string, request: Request) => ResolvedOrder | null | Promise<ResolvedOrder | null>;
  currency: string;
  feePayer: FeePayer;
  webhookUrl: string | null;
  hooks: {
    paid?: ((event: PaidOrderEvent) => void | Promise<void>) | undefined;
    closed?: ((event: OrderEvent) => void | Promise<void>) | undefined;
    flagged?: ((event: FlaggedOrderEvent) => void | Promise<void>) | undefined;
  };
}

/** A running hook holds its lease this long, renewed every third of it while it runs. */
export const HOOK_LEASE_MS = 30_000;
/** After a hook failed: the waits before the next runs (the last one repeats). */
export const HOOK_BACKOFF_MS = [10_000, 30_000, 60_000, 120_000, 300_000, 600_000, 1_800_000, 3_600_000] as const;
/** A provider order older than its session by more than this is not the session's own (a reused client_order_id). */
export const ORDER_CLOCK_SLACK_MS = 10 * 60 * 1000;
/** A session record stays this long after the later of its token's end and the late window. */
export const RETENTION_MARGIN_MS = 24 * 3600 * 1000;
/**
 * After a session ended expired or cancelled, the sweep looks for a late payment at every sweep for
 * this long (late confirmations come soon after the deadline), then at the {@link LATE_CHECK_AFTER_MS}
 * ages, then every {@link LATE_CHECK_EVERY_MS} until the late window closes.
 */
export const LATE_DENSE_MS = 15 * 60 * 1000;
export const LATE_CHECK_AFTER_MS = [30 * 60_000, 60 * 60_000, 2 * 3600_000, 4 * 3600_000, 8 * 3600_000] as const;
export const LATE_CHECK_EVERY_MS = 12 * 3600_000;
/** A widget watching an ended session re-reads the provider at most this often. */
export const ENDED_STALE_MS = 60_000;

export function hookBackoff(attempts: number): number {
  return HOOK_BACKOFF_MS[Math.min(Math.max(attempts, 1), HOOK_BACKOFF_MS.length) - 1]!;
}

/** When the sweep should next look at a session that ended at `endedAt`, checked at `now`; null once the window closed. */
export function nextLateCheck(endedAt: number, now: number, windowMs: number): number | null {
  const closes = endedAt + windowMs;
  if (now >= closes) return null;
  const age = now - endedAt;
  if (age < LATE_DENSE_MS) return now;
  for (const at of LATE_CHECK_AFTER_MS) if (age < at) return Math.min(endedAt + at, closes);
  return Math.min(now + LATE_CHECK_EVERY_MS, closes);
}
