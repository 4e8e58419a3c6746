/**
 * The store contract against the SQLite store: every "instance" is its own connection to one file,
 * as several processes on one host would have; plus what only a file gives: a reopened store has
 * everything, and entries still expire.
 */
import { test, describe, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSqliteStore } from '../../../src/server/index.js';
import { describeStoreContract } from '../../../src/server/testing/index.js';
import type { CheckoutStore } from '../../../src/server/index.js';
import { handlerContract } from './store-contract.js';

const dir = mkdtempSync(join(tmpdir(), 'paydesk-sqlite-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const file = join(dir, 'shared.db');

let n = 0;
// The packaged suite: a fresh file per test; the other instance is another connection to that file.
const pathOf = new WeakMap<CheckoutStore, string>();
let files = 0;
describeStoreContract(
  'sqlite store contract',
  () => {
    const path = join(dir, `contract-${++files}.db`);
    const store = createSqliteStore({ path, pollMs: 20 });
    pathOf.set(store, path);
    return store;
  },
  { otherInstance: (store) => createSqliteStore({ path: pathOf.get(store)!, pollMs: 20 }) },
);
handlerContract('sqlite', { make: async () => createSqliteStore({ path: file, pollMs: 20 }), unique: () => `t${++n}:` });

describe('sqlite store on disk', () => {
  test('a reopened store (a restarted process) finds every value, version and index entry', async () => {
    const path = join(dir, 'restart.db');
    const a = createSqliteStore({ path });
    await a.create('s:1', '{"status":"pending"}', 60_000);
    await a.replace('s:1', 1, '{"status":"paid"}', 60_000);
    await a.indexSet('watch', 's1', 1234);
    await a.close();
    const b = createSqliteStore({ path });
    assert.deepEqual(await b.get('s:1'), { value: '{"status":"paid"}', version: 2 });
    assert.deepEqual(await b.indexRange('watch', { limit: 5 }), [{ member: 's1', score: 1234 }]);
    await b.close();
  });

  test('entries and counters expire with their ttl (fake clock); an expired key can be created again', async () => {
    let now = 1_000_000;
    const s = createSqliteStore({ path: join(dir, 'expiry.db'), now: () => now });
    await s.create('k', 'v', 1000);
    await s.increment('c', 1000);
    now += 999;
    assert.notEqual(await s.get('k'), null);
    assert.equal((await s.increment('c', 1000)).count, 2);
    now += 1;
    assert.equal(await s.get('k'), null);
    assert.equal(await s.replace('k', 1, 'late', 1000), null, 'an expired entry cannot be replaced');
    assert.equal(await s.create('k', 'again', 1000), true);
    assert.deepEqual(await s.get('k'), { value: 'again', version: 1 });
    assert.equal((await s.increment('c', 1000)).count, 1);
    await s.close();
  });

  test('a missing path is a clear error, on first use', async () => {
    const s = createSqliteStore({ path: '' });
    await assert.rejects(s.get('k'), /path/);
    await s.close();
  });

  test('creating the store opens nothing: the file and its folder appear on the first call', async () => {
    const path = join(dir, 'lazy', 'nested', 'store.db');
    const s = createSqliteStore({ path });
    assert.equal(existsSync(join(dir, 'lazy')), false, 'no folder after creation');
    assert.equal(await s.get('k'), null);
    assert.equal(existsSync(path), true, 'the file exists after the first call');
    await s.close();
    const unused = createSqliteStore({ path: join(dir, 'never', 'used.db') });
    await unused.close();
    assert.equal(existsSync(join(dir, 'never')), false, 'closing an unused store opens nothing');
  });
});
