/**
 * The store behind the token endpoint: a small key-value contract with the few atomic primitives the
 * server needs, so one implementation serves one process (memory, for tests), another one host or
 * several processes on one machine (SQLite, durable), and another several hosts (Redis), and a
 * merchant can write a fourth.
 *
 * What the server keeps in it: sessions (with their OrderView and event number), the index from
 * client_order_id / provider order id to session, idempotency records, the exactly-once markers and
 * leases of the hooks and of the reconciliation sweep, rate-limit counters, the watch list of orders
 * the sweep re-reads, the webhook log and the purchases paid twice (sorted indexes), the paid
 * sessions of each purchase; and pub/sub channels that carry every session change to every instance.
 */
import { FanOut } from './stores/fan-out.js';

/** A value as the store holds it, with its version. */
export interface StoredValue {
  value: string;
  /** Starts at 1 and grows by one on every write; the token of {@link CheckoutStore.replace}. */
  version: number;
}

/** One member of a sorted index. */
export interface IndexEntry {
  member: string;
  score: number;
}

export interface IndexRangeOptions {
  /** Lowest score, inclusive (default: no bound). */
  min?: number;
  /** Highest score, inclusive (default: no bound). */
  max?: number;
  /** At most this many members (1 or more). */
  limit: number;
  /** Highest scores first (default: lowest first). */
  reverse?: boolean;
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
  /** Adds `member` to the sorted index `index`, or moves it to `score` (an index has no expiry of its own). */
  indexSet(index: string, member: string, score: number): Promise<void>;
  /** Removes `member` from `index` (nothing when absent). */
  indexRemove(index: string, member: string): Promise<void>;
  /** Members of `index` with `min ≤ score ≤ max`, ordered by score (ties by member), at most `limit`. */
  indexRange(index: string, options: IndexRangeOptions): Promise<IndexEntry[]>;
  /** Keeps the `keep` highest-scored members of `index` and removes the rest; returns how many went. */
  indexTrim(index: string, keep: number): Promise<number>;
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
}

interface Entry {
  value: string;
  version: number;
  expiresAt: number;
}

/**
 * In-memory store for one process: for tests and trying things out. Everything is lost when the
 * process ends, so a restart forgets every session (a shopper's reload finds nothing, a webhook
 * finds no session): production uses {@link createSqliteStore} (one host) or a Redis store.
 *
 * Expired entries are dropped lazily on read and by a sweep every thousand writes (each entry is
 * visited once per sweep, no sorting), so memory is bounded by what is alive. A live entry is never
 * evicted: dropping a session or an exactly-once marker to save memory would lose money.
 */
export class MemoryStore implements CheckoutStore {
  private readonly entries = new Map<string, Entry>();
  private readonly counters = new Map<string, { count: number; resetAt: number }>();
  private readonly indexes = new Map<string, SortedIndex>();
  private readonly channels = new FanOut();
  private readonly now: () => number;
  private writes = 0;

  constructor(options: MemoryStoreOptions = {}) {
    this.now = options.now ?? Date.now;
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
    if (++this.writes % 1000 === 0) this.sweep();
  }

  private sweep(): void {
    const now = this.now();
    for (const [k, e] of this.entries) if (e.expiresAt <= now) this.entries.delete(k);
    for (const [k, c] of this.counters) if (c.resetAt <= now) this.counters.delete(k);
  }

  /** Live entries (tests and metrics). */
  get size(): number {
    this.sweep();
    return this.entries.size;
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
      if (++this.writes % 1000 === 0) this.sweep();
    }
    c.count++;
    return { count: c.count, resetMs: c.resetAt - now };
  }

  async indexSet(index: string, member: string, score: number): Promise<void> {
    checkScore(score);
    let ix = this.indexes.get(index);
    if (!ix) this.indexes.set(index, (ix = new SortedIndex()));
    ix.set(member, score);
  }

  async indexRemove(index: string, member: string): Promise<void> {
    const ix = this.indexes.get(index);
    if (!ix) return;
    ix.remove(member);
    if (ix.size === 0) this.indexes.delete(index);
  }

  async indexRange(index: string, options: IndexRangeOptions): Promise<IndexEntry[]> {
    checkLimit(options.limit);
    return this.indexes.get(index)?.range(options) ?? [];
  }

  async indexTrim(index: string, keep: number): Promise<number> {
    const ix = this.indexes.get(index);
    return ix ? ix.trim(Math.max(0, Math.floor(keep))) : 0;
  }

  async publish(channel: string, message: string): Promise<void> {
    this.channels.deliver(channel, message);
  }

  async subscribe(channel: string, listener: (message: string) => void): Promise<() => Promise<void>> {
    const remove = this.channels.add(channel, listener);
    return async () => {
      remove();
    };
  }

  /** Number of channels with listeners (for tests and metrics). */
  get channelCount(): number {
    return this.channels.channelCount;
  }

  async close(): Promise<void> {
    this.channels.clear();
  }
}

export function createMemoryStore(options?: MemoryStoreOptions): MemoryStore {
  return new MemoryStore(options);
}

export function checkScore(score: number): void {
  if (typeof score !== 'number' || !Number.isFinite(score)) throw new TypeError('paydesk store: an index score must be a finite number');
}

export function checkLimit(limit: number): void {
  if (!Number.isInteger(limit) || limit < 1) throw new TypeError('paydesk store: indexRange needs a whole limit of 1 or more');
}

/** Orders two index entries by score, then member (the order every store answers in). */
export function compareEntries(a: IndexEntry, b: IndexEntry): number {
  return a.score - b.score || (a.member < b.member ? -1 : a.member > b.member ? 1 : 0);
}

/**
 * A sorted index in memory: a map of member → score, and the members in order, sorted again only
 * when a read finds them changed. Writes cost O(1); a read after writes sorts once (the sweep writes
 * many scores and reads once per sweep; nothing sorts per write).
 */
class SortedIndex {
  private readonly scores = new Map<string, number>();
  private sorted: IndexEntry[] | null = [];

  get size(): number {
    return this.scores.size;
  }

  set(member: string, score: number): void {
    if (this.scores.get(member) === score) return;
    this.scores.set(member, score);
    this.sorted = null;
  }

  remove(member: string): void {
    if (this.scores.delete(member)) this.sorted = null;
  }

  private ordered(): IndexEntry[] {
    if (!this.sorted) {
      this.sorted = [];
      for (const [member, score] of this.scores) this.sorted.push({ member, score });
      this.sorted.sort(compareEntries);
    }
    return this.sorted;
  }

  /** Position of the first entry not below `entry`. */
  private position(list: IndexEntry[], entry: IndexEntry): number {
    let lo = 0;
    let hi = list.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (compareEntries(list[mid]!, entry) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  range(o: IndexRangeOptions): IndexEntry[] {
    const list = this.ordered();
    const min = o.min ?? -Infinity;
    const max = o.max ?? Infinity;
    const out: IndexEntry[] = [];
    if (o.reverse) {
      let i = this.position(list, { member: '', score: max });
      while (i < list.length && list[i]!.score <= max) i++;
      for (i--; i >= 0 && out.length < o.limit; i--) {
        const e = list[i]!;
        if (e.score < min) break;
        out.push({ ...e });
      }
    } else {
      for (let i = this.position(list, { member: '', score: min }); i < list.length && out.length < o.limit; i++) {
        const e = list[i]!;
        if (e.score > max) break;
        out.push({ ...e });
      }
    }
    return out;
  }

  trim(keep: number): number {
    const list = this.ordered();
    const drop = list.length - keep;
    if (drop <= 0) return 0;
    for (const e of list.splice(0, drop)) this.scores.delete(e.member);
    return drop;
  }
}
