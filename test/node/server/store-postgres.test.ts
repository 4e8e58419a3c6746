/**
 * The PostgreSQL store on a real PostgreSQL (PAYDESK_TEST_POSTGRES_URL; CI starts one): the packaged
 * contract suite (NOTIFY and poll delivery), the handler's two-instance guarantees, and what only
 * PostgreSQL has: tables made once by many instances at once, expiry purged by the store itself, a
 * LISTEN connection that is killed and comes back, clear errors for bad options.
 */
import { test, describe } from 'node:test';
import { createHash } from 'node:crypto';
import assert from 'node:assert/strict';
import pg from 'pg';
import { createPostgresStore } from '../../../src/server/index.js';
import type { CheckoutStore, PostgresStore } from '../../../src/server/index.js';
import { describeStoreContract } from '../../../src/server/testing/index.js';
import { handlerContract } from './store-contract.js';
import { testPostgres } from './postgres-server.js';

const db = testPostgres('the PostgreSQL store tests');

async function until(what: string, check: () => boolean | Promise<boolean>, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/**
 * Kills the LISTEN connections of the stores on `schema` (their channel is paydesk_ + a hash of the
 * schema), and no other: test files running beside this one keep theirs.
 */
async function killListeners(schema: string): Promise<number> {
  const channel = `paydesk_${createHash('sha1').update(schema).digest('hex').slice(0, 20)}`;
  const killed = await db!.pool.query(
    `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query = $1 AND pid <> pg_backend_pid()`,
    [`LISTEN "${channel}"`],
  );
  return killed.rows.length;
}

if (db) {
  // Another instance: its own pool (as another process has), the same schema.
  const other = db.newPool();
  describeStoreContract('postgres store contract (LISTEN/NOTIFY)', () => db.store(), {
    otherInstance: (s) => createPostgresStore({ pool: other, schema: (s as PostgresStore).schema }),
  });
  describeStoreContract('postgres store contract (delivery: poll)', () => db.store({ delivery: 'poll', pollMs: 20 }), {
    otherInstance: (s) => createPostgresStore({ pool: other, schema: (s as PostgresStore).schema, delivery: 'poll', pollMs: 20 }),
  });

  const shared = db.schema();
  let n = 0;
  handlerContract('postgres', { make: async () => db.store({ schema: shared }), unique: () => `t${++n}:` });

  describe('postgres store specifics', () => {
    test('ten instances starting at once on an empty schema: the tables are made once, no instance fails', async () => {
      const schema = db.schema();
      const pools = Array.from({ length: 3 }, () => db.newPool());
      const stores = Array.from({ length: 10 }, (_, i) => createPostgresStore({ pool: pools[i % 3]!, schema }));
      const created = await Promise.all(stores.map((s, i) => s.create('first-use', String(i), 60_000)));
      assert.equal(created.filter(Boolean).length, 1);
      const { rows } = await db.pool.query(
        `SELECT table_name FROM information_schema.tables WHERE table_schema = $1 ORDER BY table_name`,
        [schema],
      );
      assert.deepEqual(
        rows.map((r) => r.table_name),
        ['paydesk_counters', 'paydesk_events', 'paydesk_ix', 'paydesk_kv'],
      );
      for (const s of stores) await s.close();
    });

    test('expired rows are deleted by the store itself (no cron), live ones kept', async () => {
      const schema = db.schema();
      const writer = db.store({ schema });
      // Rows that live 1.5 s: the writer purges on its own first write too, which must not find them
      // expired yet (with 1 ms rows it sometimes did, and the count below failed).
      const BRIEF_MS = 1500;
      for (let i = 0; i < 20; i++) await writer.create(`brief${i}`, 'v', BRIEF_MS);
      await writer.increment('brief-counter', BRIEF_MS);
      await writer.create('alive', 'v', 600_000);
      const count = async (table: string) => Number((await db.pool.query(`SELECT count(*) AS n FROM "${schema}".${table}`)).rows[0].n);
      assert.ok((await count('paydesk_kv')) >= 20, 'the rows are there before they expire');
      await new Promise((r) => setTimeout(r, BRIEF_MS + 200));
      assert.ok((await count('paydesk_kv')) >= 20, 'expired rows are still there before a purge');
      // A new instance purges on its first write (then at most once a minute).
      const next = db.store({ schema });
      await next.set('trigger', 'v', 600_000);
      await until('the expired rows to be purged', async () => (await count('paydesk_kv')) === 2 && (await count('paydesk_counters')) === 0);
      assert.deepEqual(await next.get('alive'), { value: 'v', version: 1 });
    });

    test('a killed LISTEN connection comes back, and publish reaches the other instance again', async () => {
      const schema = db.schema();
      const a = db.store({ schema });
      const b = createPostgresStore({ pool: other, schema });
      const got: string[] = [];
      const unsubscribe = await b.subscribe('ch', (m) => got.push(m));
      await a.publish('ch', 'before');
      await until('the first message', () => got.length === 1);
      assert.ok((await killListeners(schema)) >= 1, 'a LISTEN connection was killed');
      await until('b to notice the drop', () => !b.listening);
      await until('b to listen again', () => b.listening);
      await a.publish('ch', 'after');
      await until('the message after the reconnect', () => got.includes('after'));
      assert.deepEqual(got, ['before', 'after']);
      await unsubscribe();
      await b.close();
    });

    test('a subscribe while the LISTEN connection is down is kept and hears the channel once it is back', async () => {
      const schema = db.schema();
      const a = db.store({ schema });
      const b = createPostgresStore({ pool: other, schema });
      const early: string[] = [];
      const u1 = await b.subscribe('x', (m) => early.push(m));
      assert.ok((await killListeners(schema)) >= 1, 'a LISTEN connection was killed');
      await until('b to notice the drop', () => !b.listening);
      const late: string[] = [];
      const u2 = await b.subscribe('y', (m) => late.push(m));
      await until('b to listen again', () => b.listening);
      await a.publish('y', 'to the late one');
      await until('the late subscriber to hear', () => late.length === 1);
      await u1();
      await u2();
      await b.close();
    });

    test('listenClient makes the LISTEN connection (a direct connection beside a transaction pooler)', async () => {
      let made = 0;
      const store = db.store({
        listenClient: () => {
          made++;
          return new pg.Client({ connectionString: db.url });
        },
      });
      const got: string[] = [];
      await store.subscribe('c', (m) => got.push(m));
      await createPostgresStore({ pool: other, schema: store.schema }).publish('c', 'through the direct connection');
      await until('the message', () => got.length === 1);
      assert.equal(made, 1);
    });

    test('bad options are clear errors', async () => {
      const client = new pg.Client({ connectionString: db.url });
      assert.throws(() => createPostgresStore({ pool: client as never }), /single pg\.Client: give a Pool/);
      assert.throws(() => createPostgresStore({} as never), /needs \{ pool: a node-postgres Pool \}/);
      assert.throws(() => createPostgresStore(undefined as never), /needs \{ pool/);
      assert.throws(() => createPostgresStore({ pool: { query: 1 } as never }), /needs \{ pool/);
      for (const schema of ['bad-name', '1abc', 'x'.repeat(64), 'a"b', 'pg_catalog', '']) {
        assert.throws(() => createPostgresStore({ pool: db.pool, schema }), /schema must be a plain PostgreSQL name/, schema);
      }
      assert.throws(() => createPostgresStore({ pool: db.pool, delivery: 'carrier-pigeon' as never }), /delivery is 'notify' or 'poll'/);
      assert.throws(() => createPostgresStore({ pool: db.pool, pollMs: 0 }), /pollMs/);
      const s: CheckoutStore = db.store();
      await assert.rejects(s.set('k', 'nul \u0000 inside', 1000), /NUL character/);
    });

    test('a database that refuses the connection fails the first call with the store named, and the next call tries again', async () => {
      const down = new pg.Pool({ connectionString: 'postgres://postgres@127.0.0.1:1/postgres', connectionTimeoutMillis: 2000 });
      const s = createPostgresStore({ pool: down, schema: db.schema() });
      await assert.rejects(s.get('k'), /PostgreSQL store could not set up its tables in schema "paydesk_t_/);
      await assert.rejects(s.get('k'), /PostgreSQL store could not set up its tables/);
      await s.close();
      await down.end();
    });
  });
}
