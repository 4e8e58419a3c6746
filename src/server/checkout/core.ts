/**
 * What every part of the checkout shares: the configuration, the session repository, the tracking
 * of background work (hooks, confirmations) that `idle()` and `close()` wait for, and one way to log
 * a provider failure at the right level.
 */
import { isAmbiguousProviderFailure, isProviderError } from '../errors.js';
import { SessionRepository, type SessionRecord } from '../sessions.js';
import type { CheckoutConfig } from './config.js';

export class CheckoutCore {
  readonly repo: SessionRepository;
  private readonly background = new Set<Promise<unknown>>();

  constructor(readonly cfg: CheckoutConfig) {
    this.repo = new SessionRepository(cfg.store, cfg.now);
  }

  /** Runs `promise` in the background: its failure is logged, never thrown; `idle()` waits for it. */
  track<T>(promise: Promise<T>): Promise<T | undefined> {
    const p = promise.catch((err: unknown) => {
      this.cfg.log.error('background task failed', { err });
      return undefined;
    });
    this.background.add(p);
    void p.finally(() => this.background.delete(p));
    return p;
  }

  /**
   * Runs `promise` in the background ({@link track}) and waits for it at most `ms`: its value, or
   * `late` when it takes longer (it goes on; `idle()` still waits for it).
   */
  async within<T, L>(promise: Promise<T>, ms: number, late: L): Promise<T | L | undefined> {
    const task = this.track(promise);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<L>((resolve) => {
      timer = setTimeout(() => resolve(late), ms);
    });
    try {
      return await Promise.race([task, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  async idle(): Promise<void> {
    while (this.background.size > 0) await Promise.all([...this.background]);
  }

  logProviderFailure(message: string, err: unknown, fields: Record<string, unknown> = {}): void {
    const level = isProviderError(err) && !isAmbiguousProviderFailure(err) ? 'warn' : 'error';
    this.cfg.log[level](message, { ...fields, err });
  }

  /** How long a record is kept: past its token and the late window. */
  retainUntil(createdAt: number): number {
    return createdAt + Math.max(this.cfg.sessionTtlMs, this.cfg.lateWindowMs) + 24 * 3600 * 1000;
  }

  /**
   * `rec` kept at least a late window (and a day) past `at`, when its order ended or was paid then:
   * its token works that long (`tokenUsableUntil` in sessions.ts), so the record must outlive it, however long
   * after the session's creation the provider reported the end.
   */
  retainedPast(rec: SessionRecord, at: number): SessionRecord {
    const until = at + this.cfg.lateWindowMs + 24 * 3600 * 1000;
    return until > rec.retain_until ? { ...rec, retain_until: until } : rec;
  }
}
