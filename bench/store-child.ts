/**
 * The merchant process's store in the store benchmarks (bench/stores.ts): PAYDESK_BENCH_STORE is
 * `memory`, `sqlite` (PAYDESK_BENCH_STORE_URL: the file), `redis` or `postgres` (the URL).
 * Every call the handler makes to the store is counted by method, and for PostgreSQL every SQL
 * statement the store sends (`GET /__store-calls` answers them, `?reset=1` starts again). Unset, the
 * other benchmarks' merchant keeps the handler's own memory store, nothing counted or loaded.
 */
import { createMemoryStore, createPostgresStore, createRedisStore, createSqliteStore } from '../src/server/index.js';
import type { CheckoutStore } from '../src/server/index.js';

export interface BenchStore {
  kind: string;
  store: CheckoutStore;
  /** Calls by store method, and `sql` statements (PostgreSQL). */
  counts: Record<string, number>;
  close(): Promise<void>;
}

export async function benchStore(): Promise<BenchStore | null> {
  const kind = process.env.PAYDESK_BENCH_STORE;
  if (!kind) return null;
  const url = process.env.PAYDESK_BENCH_STORE_URL ?? '';
  const counts: Record<string, number> = {};
  const count = (name: string) => (counts[name] = (counts[name] ?? 0) + 1);
  let inner: CheckoutStore;
  let closeBackend = async () => {};
  if (kind === 'memory') inner = createMemoryStore();
  else if (kind === 'sqlite') inner = createSqliteStore({ path: url });
  else if (kind === 'redis') {
    const { Redis } = await import('ioredis');
    const client = new Redis(url);
    inner = createRedisStore({ client, prefix: `bench-${process.pid}:`, allowVolatile: true }); // the bench's Redis keeps no file
    closeBackend = async () => void (await client.quit());
  } else if (kind === 'postgres') {
    const { default: pg } = await import('pg');
    const pool = new pg.Pool({ connectionString: url, max: 20 });
    const query = pool.query.bind(pool) as (...args: unknown[]) => Promise<unknown>;
    // Counts the statements the store sends (its LISTEN connection is not the pool's).
    (pool as unknown as { query: (...args: unknown[]) => Promise<unknown> }).query = (...args) => {
      count('sql');
      return query(...args);
    };
    inner = createPostgresStore({ pool, schema: `bench_${process.pid}` });
    closeBackend = async () => {
      await pool.query(`DROP SCHEMA IF EXISTS bench_${process.pid} CASCADE`).catch(() => undefined);
      await pool.end();
    };
  } else throw new Error(`PAYDESK_BENCH_STORE: memory, sqlite, redis or postgres (got ${kind})`);
  const store = new Proxy(inner, {
    get(target, name, receiver) {
      const value = Reflect.get(target, name, receiver) as unknown;
      if (typeof value !== 'function' || typeof name !== 'string') return value;
      return (...args: unknown[]) => {
        if (name !== 'close') count(name);
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return {
    kind,
    store,
    counts,
    async close() {
      await inner.close();
      await closeBackend();
    },
  };
}
