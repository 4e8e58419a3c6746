/**
 * A durable store in one SQLite file, for a merchant server on one host: sessions, markers and the
 * reconciliation watch list survive a restart, and several processes (or several handlers in one
 * process) may share the file. It uses `libsql` (prebuilt binaries from the npm registry, no build
 * step), loaded only when the store is first used: `npm install libsql`.
 *
 * - WAL journal, `synchronous=FULL` by default (a committed write survives a power cut), a busy
 *   timeout so concurrent writers wait instead of failing.
 * - Every conditional write is one SQL statement (`INSERT … ON CONFLICT … WHERE`, `UPDATE … WHERE
 *   n = ?`), atomic across processes without explicit transactions.
 * - Pub/sub: a message reaches this instance's listeners at once, and other instances through an
 *   `events` table they poll while they have listeners (every `pollMs`, default 100 ms); old events
 *   are pruned after a minute.
 *
 * @example
 *   import { createCheckoutHandler, createSqliteStore } from 'paydesk/server';
 *   const store = createSqliteStore({ path: '/var/lib/shop/paydesk.db' });
 *   const handler = createCheckoutHandler({ ..., store });
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { checkLimit, checkScore } from '../store.js';
import type { CheckoutStore, IndexEntry, IndexRangeOptions, StoredValue } from '../store.js';
import { FanOut } from './fan-out.js';

export interface SqliteStoreOptions {
  /** The database file (created with its folder when missing). */
  path: string;
  /** How long a write waits for another process's lock before failing (default 5000 ms). */
  busyTimeoutMs?: number;
  /** `full` (default): every commit reaches the disk; `normal`: faster, may lose the last commits on a power cut. */
  synchronous?: 'full' | 'normal';
  /** How often other instances' messages are looked for while listening (default 100 ms). */
  pollMs?: number;
  /** Clock in ms (default Date.now); tests pass a fake one to expire entries. */
  now?: () => number;
}

/** The part of libsql's (better-sqlite3 compatible) API this store uses. */
interface Statement {
  run(...params: unknown[]): { changes: number };
  get(...params: unknown[]): Record<string, unknown> | undefined;
  all(...params: unknown[]): Array<Record<string, unknown>>;
}
interface Database {
  exec(sql: string): void;
  prepare(sql: string): Statement;
  close(): void;
}
type DatabaseConstructor = new (path: string, options?: { timeout?: number }) => Database;

const SCHEMA = `
CREATE TABLE IF NOT EXISTS kv (k TEXT PRIMARY KEY, v TEXT NOT NULL, n INTEGER NOT NULL, exp INTEGER NOT NULL) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS kv_exp ON kv (exp);
CREATE TABLE IF NOT EXISTS counters (k TEXT PRIMARY KEY, c INTEGER NOT NULL, reset INTEGER NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS ix (name TEXT NOT NULL, member TEXT NOT NULL, score REAL NOT NULL, PRIMARY KEY (name, member)) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS ix_score ON ix (name, score, member);
CREATE TABLE IF NOT EXISTS events (id INTEGER PRIMARY KEY AUTOINCREMENT, channel TEXT NOT NULL, message TEXT NOT NULL, origin TEXT NOT NULL, at INTEGER NOT NULL);
`;

/** Events older than this are pruned (a listener that polls less often than this misses nothing it needs: sessions are re-read). */
const EVENT_RETENTION_MS = 60_000;
/** Expired rows are deleted after this many writes. */
const CLEANUP_EVERY_WRITES = 1000;

function loadLibsql(): DatabaseConstructor {
  try {
    return createRequire(import.meta.url)('libsql') as DatabaseConstructor;
  } catch (err) {
    throw new Error('paydesk/server: createSqliteStore needs the libsql package (npm install libsql)', { cause: err });
  }
}

/** The open database and its prepared statements. */
interface Opened {
  db: Database;
  q: Record<string, Statement>;
}

function openDatabase(options: SqliteStoreOptions): Opened {
  const Database = loadLibsql();
  if (options.path !== ':memory:') mkdirSync(dirname(options.path), { recursive: true });
  const busy = options.busyTimeoutMs ?? 5000;
  const db = new Database(options.path, { timeout: busy });
  try {
    db.exec(`PRAGMA busy_timeout = ${Math.max(0, Math.floor(busy))}`);
    db.exec('PRAGMA journal_mode = WAL');
    db.exec(`PRAGMA synchronous = ${options.synchronous === 'normal' ? 'NORMAL' : 'FULL'}`);
    db.exec(SCHEMA);
    return { db, q: prepare(db) };
  } catch (err) {
    db.close();
    throw err;
  }
}

function prepare(db: Database): Record<string, Statement> {
  const p = (sql: string) => db.prepare(sql);
  return {
    get: p('SELECT v, n FROM kv WHERE k = ? AND exp > ?'),
    create: p(
      'INSERT INTO kv (k, v, n, exp) VALUES (?, ?, 1, ?) ON CONFLICT (k) DO UPDATE SET v = excluded.v, n = 1, exp = excluded.exp WHERE kv.exp <= ?',
    ),
    replace: p('UPDATE kv SET v = ?, n = n + 1, exp = ? WHERE k = ? AND n = ? AND exp > ?'),
    set: p(
      'INSERT INTO kv (k, v, n, exp) VALUES (?, ?, 1, ?) ON CONFLICT (k) DO UPDATE SET v = excluded.v, n = CASE WHEN kv.exp > ? THEN kv.n + 1 ELSE 1 END, exp = excluded.exp',
    ),
    delete: p('DELETE FROM kv WHERE k = ? AND exp > ?'),
    deleteVersion: p('DELETE FROM kv WHERE k = ? AND exp > ? AND n = ?'),
    increment: p(
      'INSERT INTO counters (k, c, reset) VALUES (?, 1, ?) ON CONFLICT (k) DO UPDATE SET ' +
        'c = CASE WHEN counters.reset <= ? THEN 1 ELSE counters.c + 1 END, ' +
        'reset = CASE WHEN counters.reset <= ? THEN excluded.reset ELSE counters.reset END RETURNING c, reset',
    ),
    indexSet: p('INSERT INTO ix (name, member, score) VALUES (?, ?, ?) ON CONFLICT (name, member) DO UPDATE SET score = excluded.score'),
    indexRemove: p('DELETE FROM ix WHERE name = ? AND member = ?'),
    rangeAsc: p('SELECT member, score FROM ix WHERE name = ? AND score >= ? AND score <= ? ORDER BY score ASC, member ASC LIMIT ?'),
    rangeDesc: p('SELECT member, score FROM ix WHERE name = ? AND score >= ? AND score <= ? ORDER BY score DESC, member DESC LIMIT ?'),
    trim: p(
      'DELETE FROM ix WHERE name = ? AND member IN (SELECT member FROM ix WHERE name = ? ORDER BY score ASC, member ASC ' +
        'LIMIT max(0, (SELECT count(*) FROM ix WHERE name = ?) - ?))',
    ),
    publish: p('INSERT INTO events (channel, message, origin, at) VALUES (?, ?, ?, ?)'),
    poll: p('SELECT id, channel, message, origin FROM events WHERE id > ? ORDER BY id ASC LIMIT 1000'),
    lastEvent: p('SELECT coalesce(max(id), 0) AS id FROM events'),
    pruneEvents: p('DELETE FROM events WHERE at < ?'),
    pruneKv: p('DELETE FROM kv WHERE exp <= ?'),
    pruneCounters: p('DELETE FROM counters WHERE reset <= ?'),
  };
}

/**
 * The store. Creating it opens nothing: the file is opened (and created, with its folder) on the
 * first call, so a module can create the store at its top level and be imported by a build that must
 * not touch the database. A bad path or a missing `libsql` then fails that first call.
 */
export class SqliteStore implements CheckoutStore {
  private opened: Opened | null = null;
  private readonly now: () => number;
  private readonly pollMs: number;
  private readonly origin = randomBytes(8).toString('hex');
  private readonly listeners = new FanOut();
  private lastEventId = 0;
  private poller: ReturnType<typeof setInterval> | null = null;
  private writes = 0;
  private closed = false;

  constructor(private readonly options: SqliteStoreOptions) {
    this.now = options?.now ?? Date.now;
    this.pollMs = options?.pollMs ?? 100;
  }

  /** The prepared statements, opening the database on the first call. */
  private get q(): Record<string, Statement> {
    if (this.opened) return this.opened.q;
    if (this.closed) throw new Error('paydesk/server: this SQLite store is closed');
    const o = this.options;
    if (!o || typeof o.path !== 'string' || o.path === '') {
      throw new TypeError('paydesk/server: createSqliteStore needs { path: the database file }');
    }
    this.opened = openDatabase(o);
    this.lastEventId = Number(this.opened.q.lastEvent!.get()?.id ?? 0);
    return this.opened.q;
  }

  private wrote(): void {
    if (++this.writes % CLEANUP_EVERY_WRITES !== 0) return;
    const now = this.now();
    this.q.pruneKv!.run(now);
    this.q.pruneCounters!.run(now);
    this.q.pruneEvents!.run(now - EVENT_RETENTION_MS);
  }

  private expiry(ttlMs: number): number {
    return this.now() + Math.max(1, Math.ceil(ttlMs));
  }

  async get(key: string): Promise<StoredValue | null> {
    const row = this.q.get!.get(key, this.now());
    return row ? { value: String(row.v), version: Number(row.n) } : null;
  }

  async create(key: string, value: string, ttlMs: number): Promise<boolean> {
    const now = this.now();
    const created = this.q.create!.run(key, value, this.expiry(ttlMs), now).changes === 1;
    if (created) this.wrote();
    return created;
  }

  async replace(key: string, version: number, value: string, ttlMs: number): Promise<number | null> {
    const changed = this.q.replace!.run(value, this.expiry(ttlMs), key, version, this.now()).changes === 1;
    if (!changed) return null;
    this.wrote();
    return version + 1;
  }

  async set(key: string, value: string, ttlMs: number): Promise<void> {
    this.q.set!.run(key, value, this.expiry(ttlMs), this.now());
    this.wrote();
  }

  async delete(key: string, version?: number): Promise<boolean> {
    const now = this.now();
    const res = version === undefined ? this.q.delete!.run(key, now) : this.q.deleteVersion!.run(key, now, version);
    return res.changes > 0;
  }

  async increment(key: string, windowMs: number): Promise<{ count: number; resetMs: number }> {
    const now = this.now();
    const row = this.q.increment!.get(key, now + Math.max(1, Math.ceil(windowMs)), now, now)!;
    this.wrote();
    return { count: Number(row.c), resetMs: Math.max(0, Number(row.reset) - now) };
  }

  async indexSet(index: string, member: string, score: number): Promise<void> {
    checkScore(score);
    this.q.indexSet!.run(index, member, score);
  }

  async indexRemove(index: string, member: string): Promise<void> {
    this.q.indexRemove!.run(index, member);
  }

  async indexRange(index: string, o: IndexRangeOptions): Promise<IndexEntry[]> {
    checkLimit(o.limit);
    const rows = (o.reverse ? this.q.rangeDesc! : this.q.rangeAsc!).all(
      index,
      o.min ?? Number.MIN_SAFE_INTEGER * 1e6,
      o.max ?? Number.MAX_SAFE_INTEGER * 1e6,
      o.limit,
    );
    return rows.map((r) => ({ member: String(r.member), score: Number(r.score) }));
  }

  async indexTrim(index: string, keep: number): Promise<number> {
    return this.q.trim!.run(index, index, index, Math.max(0, Math.floor(keep))).changes;
  }

  async publish(channel: string, message: string): Promise<void> {
    this.listeners.deliver(channel, message);
    this.q.publish!.run(channel, message, this.origin, this.now());
    this.wrote();
  }

  /** Reads the events other instances wrote since the last poll. */
  private poll(): void {
    if (this.closed) return;
    let rows: Array<Record<string, unknown>>;
    try {
      rows = this.q.poll!.all(this.lastEventId);
    } catch {
      return; // busy: the next poll reads them
    }
    for (const row of rows) {
      this.lastEventId = Number(row.id);
      if (row.origin !== this.origin) this.listeners.deliver(String(row.channel), String(row.message));
    }
  }

  async subscribe(channel: string, listener: (message: string) => void): Promise<() => Promise<void>> {
    const remove = this.listeners.add(channel, listener);
    if (!this.poller && !this.closed) {
      this.lastEventId = Number(this.q.lastEvent!.get()?.id ?? 0);
      // Not unref'd: a process with listeners is waiting for their messages (the last unsubscribe stops it).
      this.poller = setInterval(() => this.poll(), this.pollMs);
    }
    return async () => {
      remove();
      if (this.listeners.channelCount === 0 && this.poller) {
        clearInterval(this.poller);
        this.poller = null;
      }
    };
  }

  /** Number of channels with listeners (tests and metrics). */
  get channelCount(): number {
    return this.listeners.channelCount;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.poller) clearInterval(this.poller);
    this.poller = null;
    this.listeners.clear();
    this.opened?.db.close();
    this.opened = null;
  }
}

export function createSqliteStore(options: SqliteStoreOptions): SqliteStore {
  return new SqliteStore(options);
}
