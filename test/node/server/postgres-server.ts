/**
 * A PostgreSQL for tests: PAYDESK_TEST_POSTGRES_URL (.ci/run starts one). Without it, in CI
 * (CI=true) a test that fails says so — the PostgreSQL tests never pass by not running; elsewhere a
 * notice and no PostgreSQL tests. Each store a test makes gets a schema of its own, dropped at the end.
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './redis-server.js';
import pg from 'pg';
import { createPostgresStore } from '../../../src/server/index.js';
import type { PostgresStore, PostgresStoreOptions } from '../../../src/server/index.js';

export interface TestPostgres {
  url: string;
  /** A pool of the test file (each "instance" may take its own with {@link TestPostgres.newPool}). */
  pool: pg.Pool;
  newPool(): pg.Pool;
  /** A fresh schema name, dropped when the file ends. */
  schema(): string;
  /** A store in `schema` (default: a fresh one). */
  store(options?: Partial<PostgresStoreOptions>): PostgresStore;
}

/** The test PostgreSQL, or null (after registering the CI failure or printing the notice). */
export function testPostgres(what: string): TestPostgres | null {
  const url = process.env.PAYDESK_TEST_POSTGRES_URL;
  if (!url) {
    const why = `PAYDESK_TEST_POSTGRES_URL is unset: ${what} did not run`;
    if (process.env.CI) {
      test(`${what} (needs PostgreSQL)`, () => {
        assert.fail(`${why}. CI must start PostgreSQL (.ci/run does: initdb, pg_ctl, PAYDESK_TEST_POSTGRES_URL).`);
      });
    } else {
      console.log(`NOTICE: ${why} (set it to a PostgreSQL URL, e.g. postgres://postgres@127.0.0.1:5439/postgres).`);
    }
    return null;
  }
  const run = randomUUID().slice(0, 8);
  const pools: pg.Pool[] = [];
  const schemas: string[] = [];
  let n = 0;
  const newPool = () => {
    const pool = new pg.Pool({ connectionString: url, max: 10 });
    pool.on('error', () => undefined); // a connection killed by a test: the pool drops it
    pools.push(pool);
    return pool;
  };
  const pool = newPool();
  const schema = () => {
    const name = `paydesk_t_${run}_${++n}`;
    schemas.push(name);
    return name;
  };
  const stores: PostgresStore[] = [];
  after(async () => {
    for (const s of stores) await s.close();
    for (const name of schemas) await pool.query(`DROP SCHEMA IF EXISTS "${name}" CASCADE`).catch(() => undefined);
    for (const p of pools) await p.end();
  });
  return {
    url,
    pool,
    newPool,
    schema,
    store(options = {}) {
      const store = createPostgresStore({ pool, schema: options.schema ?? schema(), ...options });
      stores.push(store);
      return store;
    },
  };
}

export interface OwnPostgres {
  url: string;
  /** Stops the server (fast shutdown: open connections are cut). */
  stop(): void;
  /** Starts it again on the same port and data. */
  start(): void;
  /** Stops it and deletes its data. */
  remove(): void;
}

/**
 * A PostgreSQL cluster of its own, in a temporary folder on a free loopback port — for a test that
 * stops and starts its database, or a benchmark on a machine without PAYDESK_TEST_POSTGRES_URL. From
 * Debian's /usr/lib/postgresql/<version>/bin, run as the postgres user when we are root (initdb
 * refuses root). Null when the machine has no PostgreSQL.
 */
export async function ownPostgres(): Promise<OwnPostgres | null> {
  const versions = existsSync('/usr/lib/postgresql') ? readdirSync('/usr/lib/postgresql').sort((a, b) => Number(b) - Number(a)) : [];
  const bin = versions.map((v) => `/usr/lib/postgresql/${v}/bin`).find((b) => existsSync(join(b, 'initdb')));
  if (!bin) return null;
  const dir = mkdtempSync(join(tmpdir(), 'paydesk-pg-'));
  const root = process.getuid?.() === 0;
  if (root) {
    const uid = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
    if (uid.status !== 0) return null;
    chownSync(dir, Number(uid.stdout.trim()), Number(uid.stdout.trim()));
  }
  const run = (command: string) => {
    const r = root ? spawnSync('su', ['postgres', '-s', '/bin/sh', '-c', command], { encoding: 'utf8' }) : spawnSync('sh', ['-c', command], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`PostgreSQL: ${command}\n${r.stdout}${r.stderr}`);
  };
  const port = await freePort();
  run(`'${bin}/initdb' -D '${dir}/data' -U postgres --auth=trust -E UTF8 >/dev/null`);
  const start = () => run(`'${bin}/pg_ctl' -D '${dir}/data' -l '${dir}/postgres.log' -w -o '-p ${port} -c listen_addresses=127.0.0.1 -k ${dir}' start >/dev/null`);
  const stop = () => run(`'${bin}/pg_ctl' -D '${dir}/data' -m fast -w stop >/dev/null`);
  start();
  let removed = false;
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop,
    start,
    remove() {
      if (removed) return;
      removed = true;
      try {
        stop();
      } catch {
        // already stopped
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
