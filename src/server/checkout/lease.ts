/**
 * A lease in the store, owned by a random token: taken with `create`, renewed while held, ended by
 * its owner only. Ownership is checked by the token in the value, never by the version alone — a
 * renewal whose reply was lost leaves a stale local version (the write landed), and a key that
 * expired and was created again starts its versions over; both would otherwise let a lease lapse
 * under a running hook, or let one owner delete another's lease.
 */
import { randomId } from '../crypto.js';
import type { SafeLogger } from '../log.js';
import type { CheckoutStore } from '../store.js';

interface LeaseValue {
  owner: string;
  state: string;
  [extra: string]: unknown;
}

function parse(value: string): LeaseValue | null {
  try {
    const v = JSON.parse(value) as LeaseValue;
    return typeof v === 'object' && v !== null && typeof v.owner === 'string' ? v : null;
  } catch {
    return null;
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export class Lease {
  private version: number;
  private timer: ReturnType<typeof setInterval> | null = null;
  /** True once another owner holds the key (the store lost it and someone else took it). */
  private lost = false;

  private constructor(
    private readonly store: CheckoutStore,
    private readonly key: string,
    private readonly ttlMs: number,
    private readonly owner: string,
    private value: string,
    private readonly log: SafeLogger,
    private readonly what: string,
  ) {
    this.version = 1;
  }

  /** Takes the lease, or null when another owner holds it. */
  static async acquire(store: CheckoutStore, key: string, ttlMs: number, log: SafeLogger, what: string): Promise<Lease | null> {
    const owner = randomId(9);
    const value = JSON.stringify({ owner, state: 'running' });
    if (!(await store.create(key, value, ttlMs))) return null;
    return new Lease(store, key, ttlMs, owner, value, log, what);
  }

  /** The state of a key another owner may hold (`running`, `done`, …), or null. */
  static async stateOf(store: CheckoutStore, key: string): Promise<string | null> {
    const v = await store.get(key);
    if (!v) return null;
    if (v.value === 'done' || v.value === 'running') return v.value; // an earlier version's plain markers
    return parse(v.value)?.state ?? null;
  }

  /** Writes `value` if this owner still holds the key: by version, else (a stale version) after re-reading it. */
  private async write(value: string, ttlMs: number): Promise<boolean> {
    const v = await this.store.replace(this.key, this.version, value, ttlMs);
    if (v !== null) {
      this.version = v;
      return true;
    }
    const cur = await this.store.get(this.key);
    if (!cur || parse(cur.value)?.owner !== this.owner) return false;
    const again = await this.store.replace(this.key, cur.version, value, ttlMs);
    if (again === null) return false;
    this.version = again;
    return true;
  }

  /** Renews every third of the lease until stopped. */
  keepAlive(): void {
    if (this.timer) return;
    this.timer = setInterval(() => {
      void this.write(this.value, this.ttlMs).then(
        (ok) => {
          if (!ok && !this.lost) {
            this.lost = true;
            this.log.error(`${this.what}: its lease was taken by another owner while it ran (was the store cleared?)`, { key: this.key });
          }
        },
        (err: unknown) => this.log.warn(`renewing the lease of ${this.what} failed; retried`, { err }),
      );
    }, this.ttlMs / 3);
    (this.timer as { unref?: () => void }).unref?.();
  }

  private stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /**
   * Ends the lease in a final state kept `ttlMs` (e.g. `done`), retrying a failing store for about a
   * minute while still renewing, so a store hiccup never lets the lease lapse into a second run.
   */
  async settle(state: string, ttlMs: number): Promise<boolean> {
    const value = JSON.stringify({ owner: this.owner, state, at: Date.now() });
    this.keepAlive();
    try {
      for (let attempt = 0; attempt < 8; attempt++) {
        try {
          if (await this.write(value, ttlMs)) return true;
          return false; // another owner holds it: nothing of ours to settle
        } catch (err) {
          this.log.warn(`recording the end of ${this.what} failed; retried`, { err, attempt });
          await sleep(Math.min(16_000, 500 * 2 ** attempt));
        }
      }
      this.log.error(`could not record the end of ${this.what}; it may run again after its lease`, { key: this.key });
      return false;
    } finally {
      this.stop();
    }
  }

  /** Gives the lease up (only ours). */
  async release(): Promise<void> {
    this.stop();
    try {
      const cur = await this.store.get(this.key);
      if (cur && parse(cur.value)?.owner === this.owner) await this.store.delete(this.key, cur.version);
    } catch (err) {
      this.log.warn(`releasing the lease of ${this.what} failed; it ends by itself`, { err });
    }
  }
}
