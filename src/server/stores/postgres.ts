/**
 * A PostgreSQL store for several instances on one database. It takes a node-postgres `Pool` the
 * merchant creates (`pg` is imported for its types only, so `paydesk/server` never loads it unless
 * this store is used) and creates its tables (`paydesk_kv`, `paydesk_counters`, `paydesk_ix`,
 * `paydesk_events`) in `schema` on first use — once, under an advisory lock, however many instances
 * start at once.
 *
 * - Conditional writes are single statements, atomic across instances; time is the database's.
 * - Expiry needs no cron: expired rows are ignored by every read, and each instance deletes them
 *   (at most once a minute, on its own writes).
 * - Publish: at once to this instance's listeners, and to the others through `NOTIFY` on one channel
 *   per schema, heard by one dedicated `LISTEN` connection per store (reopened when it drops). A
 *   message over NOTIFY's 8000-byte limit is kept in `paydesk_events` and the notification names it.
 *   Behind a pooler in transaction mode (PgBouncer `pool_mode=transaction`) LISTEN hears nothing:
 *   give `listenClient` a connection that reaches PostgreSQL directly, or `delivery: 'poll'`.
 *
 * @example
 *   import pg from 'pg';
 *   import { createPostgresStore } from 'paydesk/server';
 *   const store = createPostgresStore({ pool: new pg.Pool({ connectionString: process.env.DATABASE_URL }) });
 */
import { createHash, randomBytes } from 'node:crypto';
import { checkLimit, checkScore } from '../store.js';
import type { CheckoutStore, IndexEntry, IndexRangeOptions, StoredValue } from '../store.js';
import { FanOut } from './fan-out.js';
import { NotifyListener } from './postgres-listen.js';
import type { ListenClientLike } from './postgres-listen.js';
import { quote, SCHEMA_NAME, schemaSql, statements, TABLES } from './postgres-sql.js';
import type { Statements } from './postgres-sql.js';

export type { ListenClientLike } from './postgres-listen.js';

/** A query result as node-postgres gives it. */
export interface PostgresQueryResult {
  rows: Array<Record<string, unknown>>;
  rowCount: number | null;
}

/**
 * The part of a node-postgres `Pool` this store uses, written out so the published types of
 * `paydesk/server` do not depend on `pg`. A `pg.Pool` satisfies it.
 */
export interface PostgresPoolLike {
  query(text: string, values?: unknown[]): Promise<PostgresQueryResult>;
  connect(): Promise<{ query(text: string, values?: unknown[]): Promise<PostgresQueryResult>; release(err?: Error | boolean): void }>;
  readonly totalCount: number;
  readonly idleCount: number;
  /** node-postgres's `Pool` is an EventEmitter: an idle client's error is emitted as `error`. */
  on?(event: 'error', listener: (err: Error) => void): unknown;
  off?(event: 'error', listener: (err: Error) => void): unknown;
}

export interface PostgresStoreOptions {
  /** A node-postgres `Pool` (`new pg.Pool({ connectionString })`). Not ended by {@link CheckoutStore.close} (you own it). */
  pool: PostgresPoolLike;
  /** The schema of the tables (default `public`); created when missing. Letters, digits and `_`. */
  schema?: string;
  /**
   * How other instances hear a publish: `notify` (default) — `LISTEN/NOTIFY` on a dedicated
   * connection; `poll` — each instance with listeners reads `paydesk_events` every `pollMs`
   * (works through any pooler, costs one query per `pollMs` per instance).
   */
  delivery?: 'notify' | 'poll';
  /** Poll mode: how often (default 100 ms). */
  pollMs?: number;
  /**
   * Makes the dedicated LISTEN connection (default: a `Client` with the pool's own settings). Behind
   * a transaction pooler, return a `new pg.Client(…)` that reaches PostgreSQL directly.
   */
  listenClient?: () => ListenClientLike;
}

/** How often an instance deletes expired rows (on its own writes, never on a timer of its own). */
const PURGE_EVERY_MS = 60_000;
/** Events kept for poll mode and long messages. */
const EVENT_RETENTION_MS = 60_000;
/** NOTIFY's payload limit is 8000 bytes; above this the message goes through `paydesk_events`. */
const NOTIFY_LIMIT_BYTES = 7000;

/** A notification: from `o`, on channel `c`, message `m` — or the id `e` of a kept event. */
interface Note {
  o: string;
  c?: string;
  m?: string;
  e?: string;
}

/** The PostgreSQL store (see the module's comment); made by {@link createPostgresStore}. */
export class PostgresStore implements CheckoutStore {
  /** The schema of its tables. */
  readonly schema: string;
  private readonly pool: PostgresPoolLike;
  private readonly q: Statements;
  private readonly delivery: 'notify' | 'poll';
  private readonly pollMs: number;
  private readonly origin = randomBytes(8).toString('hex');
  /** The NOTIFY channel: one per schema (a channel is database-wide, a schema is not). */
  private readonly pgChannel: string;
  private readonly listeners = new FanOut();
  private readonly notify: NotifyListener | null;
  private ready: Promise<void> | null = null;
  private lastPurge = 0;
  private purging: Promise<unknown> | null = null;
  private poller: ReturnType<typeof setInterval> | null = null;
  private lastEventId = '0';
  private polling = false;
  private closed = false;
  /**
   * An idle pooled connection cut by the database (a restart, a failover, `pg_terminate_backend`)
   * is emitted as the pool's `error`; node-postgres drops that connection by itself, but an `error`
   * nobody listens to ends the process — every instance of the shop on a database restart, with the
   * pool as docs/stores.md makes it. The store listens: the next call that needs the database fails
   * (and the handler's store guard says so, once) or gets a new connection.
   */
  private readonly onIdleError = (): void => undefined;

  constructor(options: PostgresStoreOptions) {
    const o = checkOptions(options);
    this.pool = o.pool;
    this.pool.on?.('error', this.onIdleError);
    this.schema = o.schema ?? 'public';
    this.q = statements(this.schema);
    this.delivery = o.delivery ?? 'notify';
    this.pollMs = o.pollMs ?? 100;
    this.pgChannel = `paydesk_${createHash('sha1').update(this.schema).digest('hex').slice(0, 20)}`;
    this.notify =
      this.delivery === 'notify'
        ? new NotifyListener(o.listenClient ?? defaultListenClient(o.pool), this.pgChannel, { payload: (p) => this.hear(p) })
        : null;
  }

  /** The tables, created on the first call (a failure is thrown to that call and tried again by the next). */
  private async setUp(): Promise<void> {
    if (this.closed) throw new Error('paydesk/server: this PostgreSQL store is closed');
    if (!this.ready) {
      this.ready = createTables(this.pool, this.schema, this.q).catch((err: unknown) => {
        this.ready = null;
        throw err;
      });
    }
    await this.ready;
  }

  private async run(text: string, values: unknown[]): Promise<PostgresQueryResult> {
    await this.setUp();
    return this.pool.query(text, values);
  }

  /** After a write: deletes expired rows when this instance has not for a minute (not awaited). */
  private wrote(): void {
    const now = Date.now();
    if (now - this.lastPurge < PURGE_EVERY_MS || this.purging) return;
    this.lastPurge = now;
    const [kv, counters, events] = this.q.purge;
    this.purging = Promise.all([this.pool.query(kv!), this.pool.query(counters!), this.pool.query(events!, [EVENT_RETENTION_MS])])
      .catch(() => undefined) // the next minute's purge tries again; reads ignore expired rows meanwhile
      .finally(() => (this.purging = null));
  }

  async get(key: string): Promise<StoredValue | null> {
    const { rows } = await this.run(this.q.get, [text(key)]);
    const row = rows[0];
    return row ? { value: String(row.v), version: Number(row.n) } : null;
  }

  async create(key: string, value: string, ttlMs: number): Promise<boolean> {
    const created = (await this.run(this.q.create, [text(key), text(value), ttl(ttlMs)])).rowCount === 1;
    if (created) this.wrote();
    return created;
  }

  async replace(key: string, version: number, value: string, ttlMs: number): Promise<number | null> {
    const { rows } = await this.run(this.q.replace, [text(value), ttl(ttlMs), text(key), version]);
    if (!rows[0]) return null;
    this.wrote();
    return Number(rows[0].n);
  }

  async set(key: string, value: string, ttlMs: number): Promise<void> {
    await this.run(this.q.set, [text(key), text(value), ttl(ttlMs)]);
    this.wrote();
  }

  async delete(key: string, version?: number): Promise<boolean> {
    const res =
      version === undefined ? await this.run(this.q.delete, [text(key)]) : await this.run(this.q.deleteVersion, [text(key), version]);
    return (res.rowCount ?? 0) > 0;
  }

  async increment(key: string, windowMs: number): Promise<{ count: number; resetMs: number }> {
    const { rows } = await this.run(this.q.increment, [text(key), ttl(windowMs)]);
    this.wrote();
    return { count: Number(rows[0]!.c), resetMs: Math.max(0, Number(rows[0]!.left_ms)) };
  }

  async indexSet(index: string, member: string, score: number): Promise<void> {
    checkScore(score);
    await this.run(this.q.indexSet, [text(index), text(member), score]);
  }

  async indexRemove(index: string, member: string): Promise<void> {
    await this.run(this.q.indexRemove, [text(index), text(member)]);
  }

  async indexRange(index: string, o: IndexRangeOptions): Promise<IndexEntry[]> {
    checkLimit(o.limit);
    const { rows } = await this.run(o.reverse ? this.q.rangeDesc : this.q.rangeAsc, [text(index), o.min ?? null, o.max ?? null, o.limit]);
    return rows.map((r) => ({ member: String(r.member), score: Number(r.score) }));
  }

  async indexTrim(index: string, keep: number): Promise<number> {
    return (await this.run(this.q.trim, [text(index), Math.max(0, Math.floor(keep))])).rowCount ?? 0;
  }

  async publish(channel: string, message: string): Promise<void> {
    this.listeners.deliver(channel, message);
    if (this.delivery === 'poll') {
      await this.run(this.q.keepEvent, [text(channel), text(message), this.origin]);
      this.wrote();
      return;
    }
    let payload = JSON.stringify({ o: this.origin, c: channel, m: message } satisfies Note);
    if (Buffer.byteLength(payload) > NOTIFY_LIMIT_BYTES) {
      const { rows } = await this.run(this.q.keepEvent, [text(channel), text(message), this.origin]);
      payload = JSON.stringify({ o: this.origin, e: String(rows[0]!.id) } satisfies Note);
      this.wrote();
    }
    await this.run(this.q.notify, [this.pgChannel, payload]);
  }

  /** Notifications are handled one after the other, so a long message read back from the table keeps its place. */
  private hearing: Promise<void> = Promise.resolve();
  private hear(payload: string): void {
    this.hearing = this.hearing.then(() => this.heard(payload));
  }

  /** A notification from the LISTEN connection: another instance's message (ours were delivered at once). */
  private async heard(payload: string): Promise<void> {
    let note: Note;
    try {
      note = JSON.parse(payload) as Note;
    } catch {
      return; // not ours
    }
    if (note.o === this.origin || this.closed) return;
    if (typeof note.c === 'string' && typeof note.m === 'string') return this.listeners.deliver(note.c, note.m);
    if (typeof note.e !== 'string') return;
    try {
      const row = (await this.pool.query(this.q.readEvent, [note.e])).rows[0];
      if (row) this.listeners.deliver(String(row.channel), String(row.message));
    } catch {
      // Lost like a message during a dropped connection: streams re-read their session on their heartbeat.
    }
  }

  async subscribe(channel: string, listener: (message: string) => void): Promise<() => Promise<void>> {
    await this.setUp();
    const remove = this.listeners.add(channel, listener);
    try {
      if (this.notify) await this.notify.listen();
      else await this.startPolling();
    } catch (err) {
      remove();
      throw err;
    }
    return async () => {
      remove();
      if (this.listeners.channelCount === 0 && this.poller) {
        clearInterval(this.poller);
        this.poller = null;
      }
    };
  }

  private async startPolling(): Promise<void> {
    if (this.poller || this.closed) return;
    this.lastEventId = String((await this.pool.query(this.q.lastEvent)).rows[0]?.id ?? '0');
    if (this.poller || this.closed) return;
    // Not unref'd: a process with listeners is waiting for their messages (the last unsubscribe stops it).
    this.poller = setInterval(() => void this.poll(), this.pollMs);
  }

  private async poll(): Promise<void> {
    if (this.polling || this.closed) return;
    this.polling = true;
    try {
      const { rows } = await this.pool.query(this.q.poll, [this.lastEventId]);
      for (const row of rows) {
        this.lastEventId = String(row.id);
        if (row.origin !== this.origin) this.listeners.deliver(String(row.channel), String(row.message));
      }
    } catch {
      // The database is away: the next poll reads from the same place.
    } finally {
      this.polling = false;
    }
  }

  /** True while the LISTEN connection listens (tests and health checks; always false in poll mode). */
  get listening(): boolean {
    return this.notify?.listening ?? false;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.poller) clearInterval(this.poller);
    this.poller = null;
    this.listeners.clear();
    await this.notify?.stop();
    await this.purging;
    this.pool.off?.('error', this.onIdleError);
  }
}

/** Creates the tables unless all are there; under a transaction-scoped advisory lock per schema. */
async function createTables(pool: PostgresPoolLike, schema: string, q: Statements): Promise<void> {
  try {
    const present = await pool.query(q.tablesPresent, [quote(schema), [...TABLES]]);
    if (Number(present.rows[0]?.n) === TABLES.length) return;
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`paydesk_schema:${schema}`]);
      const [createSchema, ...tables] = schemaSql(schema);
      const exists = await client.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [schema]);
      if (exists.rows.length === 0) await client.query(createSchema!);
      for (const sql of tables) await client.query(sql);
      await client.query('COMMIT');
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw err;
    } finally {
      client.release();
    }
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    throw new Error(`paydesk/server: the PostgreSQL store could not set up its tables in schema "${schema}": ${why}`, { cause: err });
  }
}

function checkOptions(options: PostgresStoreOptions): PostgresStoreOptions {
  const pool = (options as Partial<PostgresStoreOptions> | undefined)?.pool as unknown as Record<string, unknown> | undefined;
  const usage = 'createPostgresStore needs { pool: a node-postgres Pool } (import pg from "pg"; new pg.Pool({ connectionString }))';
  if (!pool || typeof pool !== 'object' || typeof pool.query !== 'function' || typeof pool.connect !== 'function') {
    throw new TypeError(`paydesk/server: ${usage}`);
  }
  if (typeof pool.totalCount !== 'number') {
    throw new TypeError(`paydesk/server: ${usage}; this looks like a single pg.Client: give a Pool, the store runs queries concurrently`);
  }
  const { schema, delivery, pollMs, listenClient } = options;
  if (schema !== undefined && (typeof schema !== 'string' || !SCHEMA_NAME.test(schema) || /^pg_/i.test(schema))) {
    throw new TypeError(
      `paydesk/server: createPostgresStore's schema must be a plain PostgreSQL name — letters, digits and _, not starting with a digit or pg_, at most 63 characters (got ${JSON.stringify(schema)})`,
    );
  }
  if (delivery !== undefined && delivery !== 'notify' && delivery !== 'poll') {
    throw new TypeError(`paydesk/server: createPostgresStore's delivery is 'notify' or 'poll' (got ${JSON.stringify(delivery)})`);
  }
  if (pollMs !== undefined && !(typeof pollMs === 'number' && Number.isFinite(pollMs) && pollMs >= 10)) {
    throw new TypeError(`paydesk/server: createPostgresStore's pollMs is a number of milliseconds, 10 or more (got ${String(pollMs)})`);
  }
  if (listenClient !== undefined && typeof listenClient !== 'function') {
    throw new TypeError('paydesk/server: createPostgresStore\'s listenClient is a function that returns a new pg.Client');
  }
  return options;
}

/** A new connection like the pool's own (pg's Pool keeps its Client class and settings). */
function defaultListenClient(pool: PostgresPoolLike): () => ListenClientLike {
  const { Client, options } = pool as unknown as { Client?: new (config: unknown) => ListenClientLike; options?: unknown };
  return () => {
    if (typeof Client !== 'function') {
      throw new TypeError('paydesk/server: this pool does not say how to open a connection: give createPostgresStore a listenClient');
    }
    return new Client(options);
  };
}

/** PostgreSQL text holds any string but one with a NUL character. */
function text(s: string): string {
  if (typeof s !== 'string') throw new TypeError('paydesk store: keys and values are strings');
  if (s.includes('\u0000')) throw new TypeError('paydesk store: PostgreSQL text cannot hold a NUL character (\\u0000)');
  return s;
}

function ttl(ms: number): number {
  return Math.max(1, Math.ceil(ms));
}

/**
 * A store on PostgreSQL for several instances: `createPostgresStore({ pool: new pg.Pool({ connectionString }) })`.
 * Tables are created in `schema` (default `public`) on first use; the pool stays yours to end.
 */
export function createPostgresStore(options: PostgresStoreOptions): PostgresStore {
  return new PostgresStore(options);
}
