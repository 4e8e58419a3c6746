/**
 * Fixed-window rate limits kept in the store, so they hold across instances.
 */
import { CheckoutError } from './errors.js';
import type { CheckoutStore } from './store.js';

export interface RateLimitRule {
  /** Requests allowed in one window. */
  limit: number;
  windowSeconds: number;
}

export interface RateLimits {
  /** Every browser-facing request, per client address (default 300 / 60 s). */
  perAddress: RateLimitRule | false;
  /** `POST /sessions` per client address (default 30 / 60 s). */
  createPerAddress: RateLimitRule | false;
  /** `GET /sessions/S` and its events, per session (default 240 / 60 s). */
  perSession: RateLimitRule | false;
  /** `GET /sessions/S?refresh=1` (a provider read), per session (default 12 / 60 s). */
  refreshPerSession: RateLimitRule | false;
  /** `POST /sessions/S/dispute` (receipt uploads), per session (default 10 / hour). */
  disputePerSession: RateLimitRule | false;
  /**
   * `POST /webhooks` that FAIL verification, per client address (default 30 / 60 s; beyond it 429
   * and nothing is logged). Verified deliveries are checked first and never counted or limited.
   */
  unverifiedWebhooksPerAddress: RateLimitRule | false;
}

export const DEFAULT_RATE_LIMITS: RateLimits = {
  perAddress: { limit: 300, windowSeconds: 60 },
  createPerAddress: { limit: 30, windowSeconds: 60 },
  perSession: { limit: 240, windowSeconds: 60 },
  refreshPerSession: { limit: 12, windowSeconds: 60 },
  disputePerSession: { limit: 10, windowSeconds: 3600 },
  unverifiedWebhooksPerAddress: { limit: 30, windowSeconds: 60 },
};

export function resolveRateLimits(option: Partial<RateLimits> | false | undefined): RateLimits {
  if (option === false) {
    return { perAddress: false, createPerAddress: false, perSession: false, refreshPerSession: false, disputePerSession: false, unverifiedWebhooksPerAddress: false };
  }
  const out = { ...DEFAULT_RATE_LIMITS, ...(option ?? {}) };
  for (const [name, rule] of Object.entries(out)) {
    if (rule === false) continue;
    if (!rule || !Number.isInteger(rule.limit) || rule.limit < 1 || !(rule.windowSeconds > 0)) {
      throw new TypeError(`paydesk/server: rateLimits.${name} must be false or { limit: integer ≥ 1, windowSeconds: > 0 }`);
    }
  }
  return out;
}

export class RateLimiter {
  constructor(private readonly store: CheckoutStore) {}

  /** Counts one request against `rule` for `key`; throws 429 with Retry-After beyond the limit. */
  async hit(rule: RateLimitRule | false, key: string): Promise<void> {
    if (rule === false) return;
    const windowMs = rule.windowSeconds * 1000;
    const { count, resetMs } = await this.store.increment(`rl:${key}`, windowMs);
    if (count > rule.limit) {
      const seconds = Math.max(1, Math.ceil(resetMs / 1000));
      throw new CheckoutError(429, 'rate_limited', `Too many requests from this client or session; retry after ${seconds} s.`, {
        retryable: true,
        headers: { 'retry-after': String(seconds) },
      });
    }
  }
}
