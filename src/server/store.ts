/**
 * The store behind the token endpoint: a small key-value contract with the few atomic primitives the
 * server needs, so one implementation serves one process (memory) and another several instances
 * behind a load balancer (Redis), and a merchant can write a third.
 *
 * What the server keeps in it: sessions (with their OrderView and event number), the index from
 * client_order_id / provider order id to session, idempotency records, the exactly-once markers of
 * the hooks, refresh locks, rate-limit counters; and pub/sub channels that carry every session change
 * to every instance.
 */

export interface StoredValue {
  value: string;
  /** Starts at 1 and grows by one on every write; the token of {@link CheckoutStore.replace}. */
  version: number;
}

export interface CheckoutStore {
  get(key: string): Promise<StoredValue | null>;
  /** Writes `key` only when it does not exist (atomic). True when this call created it. */
  create(key: string, value: string, ttlMs: number): Promise<boolean>;
  /** Writes `key` only when its version is still `version` (atomic compare-and-set). The new version, or null. */
  replace(key: string, version: number, value: string, ttlMs: number): Promise<number | null>;
  /** Writes `key` unconditionally. */
  set(key: string, value: string, ttlMs: number): Promise<void>;
  /** Deletes `key`; with `version`, only when it still has that version. True when deleted. */
  delete(key: string, version?: number): Promise<boolean>;
  /** Fixed-window counter: adds one and returns the count in the window and the ms until it resets. */
  increment(key: string, windowMs: number): Promise<{ count: number; resetMs: number }>;
  /** Delivers `message` to every subscriber of `channel` on every instance. */
  publish(channel: string, message: string): Promise<void>;
  /** Listens to `channel`; resolves once listening, with a function that stops it. */
  subscribe(channel: string, listener: (message: string) => void): Promise<() => Promise<void>>;
  /** Releases timers and connections the store itself opened. */
  close(): Promise<void>;
}

export interface MemoryStoreOptions {
  /** Clock in ms (default Date.now); tests pass a fake one to expire entries. */
  now?: () => number;
  /** Upper bound on entries; the oldest-expiring are dropped first beyond it (default 100 000). */
  maxEntries?: number;
}

interface Entry {
  value: string;
  version: number;
  expiresAt: number;
}

/**
 * In-memory store for one process (the default). Expired entries are dropped lazily on read and by a
 * sweep every thousand writes, so memory stays bounded without a timer.
 */
export class MemoryStore implements CheckoutStore {
  private readonly entries = new Map<string, Entry>();
  private readonly counters = new Map<string, { count: number; resetAt: number }>();
  private readonly channels = new Map<string, Set<(message: string) => void>>();
  private readonly now: () => number;
  private readonly maxEntries: number;
  private writes = 0;

  constructor(options: MemoryStoreOptions = {}) {
    this.now = options.now ?? Date.now;
    this.maxEntries = options.maxEntries ?? 100_000;
  }

  private live(key: string): Entry | undefined {
    const e = this.entries.get(key);
    if (!e) return undefined;
    if (e.expiresAt <= this.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return e;
  }

  private write(key: string, value: string, version: number, ttlMs: number): void {
    this.entries.set(key, { value, version, expiresAt: this.now() + Math.max(1, ttlMs) });
    if (++this.writes % 1000 === 0 || this.entries.size > this.maxEntries) this.sweep();
  }

  private sweep(): void {
    const now = this.now();
    for (const [k, e] of this.entries) if (e.expiresAt <= now) this.entries.delete(k);
    for (const [k, c] of this.counters) if (c.resetAt <= now) this.counters.delete(k);
    if (this.entries.size > this.maxEntries) {
      const sorted = [...this.entries].sort((a, b) => a[1].expiresAt - b[1].expiresAt);
      for (const [k] of sorted.slice(0, this.entries.size - this.maxEntries)) this.entries.delete(k);
    }
  }

  async get(key: string): Promise<StoredValue | null> {
    const e = this.live(key);
    return e ? { value: e.value, version: e.version } : null;
  }

  async create(key: string, value: string, ttlMs: number): Promise<boolean> {
    if (this.live(key)) return false;
    this.write(key, value, 1, ttlMs);
    return true;
  }

  async replace(key: string, version: number, value: string, ttlMs: number): Promise<number | null> {
    const e = this.live(key);
    if (!e || e.version !== version) return null;
    this.write(key, value, version + 1, ttlMs);
    return version + 1;
  }

  async set(key: string, value: string, ttlMs: number): Promise<void> {
    const e = this.live(key);
    this.write(key, value, (e?.version ?? 0) + 1, ttlMs);
  }

  async delete(key: string, version?: number): Promise<boolean> {
    const e = this.live(key);
    if (!e || (version !== undefined && e.version !== version)) return false;
    this.entries.delete(key);
    return true;
  }

  async increment(key: string, windowMs: number): Promise<{ count: number; resetMs: number }> {
    const now = this.now();
    let c = this.counters.get(key);
    if (!c || c.resetAt <= now) {
      c = { count: 0, resetAt: now + windowMs };
      this.counters.set(key, c);
      if (this.counters.size > this.maxEntries) this.sweep();
    }
    c.count++;
    return { count: c.count, resetMs: c.resetAt - now };
  }

  async publish(channel: string, message: string): Promise<void> {
    const listeners = this.channels.get(channel);
    if (!listeners) return;
    for (const listener of [...listeners]) {
      queueMicrotask(() => {
        try {
          listener(message);
        } catch {
          // A listener's failure is its own; the others still get the message.
        }
      });
    }
  }

  async subscribe(channel: string, listener: (message: string) => void): Promise<() => Promise<void>> {
    let set = this.channels.get(channel);
    if (!set) this.channels.set(channel, (set = new Set()));
    // Wrap so the same function subscribed twice is two subscriptions.
    const wrapped = (m: string) => listener(m);
    set.add(wrapped);
    return async () => {
      const s = this.channels.get(channel);
      if (!s) return;
      s.delete(wrapped);
      if (s.size === 0) this.channels.delete(channel);
    };
  }

  /** Number of channels with listeners (for tests and metrics). */
  get channelCount(): number {
    return this.channels.size;
  }

  async close(): Promise<void> {
    this.channels.clear();
  }
}

export function createMemoryStore(options?: MemoryStoreOptions): MemoryStore {
  return new MemoryStore(options);
}
