/**
 * The database restarts under a running app: a PostgreSQL of the test's own (ownPostgres: stopped and
 * started by the test, so it cannot be the shared one). While it is down a store call fails at once
 * with the database's error (nothing hangs); once it is back the same store objects read what was
 * written before, write again, and the LISTEN connection listens again by itself — no restart of the
 * app, nothing lost.
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { createPostgresStore } from '../../../src/server/index.js';
import { ownPostgres } from './postgres-server.js';

const own = await ownPostgres();

async function until(what: string, check: () => boolean, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

if (!own) {
  const why = 'no PostgreSQL under /usr/lib/postgresql: the database-restart test did not run';
  if (process.env.CI) test('the database restarts under a running app (needs PostgreSQL)', () => assert.fail(`${why}. CI installs Debian's postgresql package (.ci/run).`));
  else console.log(`NOTICE: ${why}.`);
} else {
  after(() => own.remove());

  test('the database restarts: calls fail fast while it is down; afterwards the same stores read, write and hear each other again', async () => {
    // Pools as docs/stores.md makes them: no 'error' listener of the app's own. The shutdown cuts
    // their idle connections; the store's listener keeps that from ending the process.
    const pools = [0, 1].map(() => new pg.Pool({ connectionString: own.url, connectionTimeoutMillis: 5000 }));
    const a = createPostgresStore({ pool: pools[0]!, schema: 'restart' });
    const b = createPostgresStore({ pool: pools[1]!, schema: 'restart' });
    try {
      const heard: string[] = [];
      await b.subscribe('orders', (m) => heard.push(m));
      await a.create('session:1', '{"status":"paid"}', 600_000);
      await a.indexSet('watch', 'session:1', 1);

      own.stop();
      await until('b to notice its LISTEN connection dropped', () => !b.listening);
      const started = Date.now();
      await assert.rejects(a.get('session:1'), /ECONNREFUSED|terminat|connect/i);
      assert.ok(Date.now() - started < 5000, 'a call while the database is down fails at once');

      own.start();
      assert.deepEqual(await a.get('session:1'), { value: '{"status":"paid"}', version: 1 }, 'what was written before is there');
      assert.deepEqual(await b.indexRange('watch', { limit: 5 }), [{ member: 'session:1', score: 1 }]);
      assert.equal(await b.replace('session:1', 1, '{"status":"paid","hook":"done"}', 600_000), 2, 'writes work again');
      await until('b to listen again', () => b.listening);
      await a.publish('orders', 'after the restart');
      await until('the message published after the restart', () => heard.length === 1);
      assert.deepEqual(heard, ['after the restart']);
    } finally {
      await a.close();
      await b.close();
      for (const p of pools) await p.end();
    }
  });
}
