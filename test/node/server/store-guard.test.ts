/**
 * The store guard (src/server/store-guard.ts) with a store that hangs: the first call waits its bound
 * and fails; while the store is failing, one call at a time goes to it and the others fail at once
 * (a create's several store calls answer 503 after one bound, not three); the first call answered
 * shows the store back, and calls go through again.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { guardStore, StoreUnavailableError } from '../../../src/server/store-guard.js';
import { createSafeLogger } from '../../../src/server/log.js';
import { createMemoryStore } from '../../../src/server/store.js';

test('a failing store: one bound, then every other call fails at once while one call finds out; answered again, all calls go through', async () => {
  const inner = createMemoryStore();
  let hanging = true;
  const get = inner.get.bind(inner);
  inner.get = (key: string) => (hanging ? new Promise<never>(() => {}) : get(key));
  const lines: string[] = [];
  const log = createSafeLogger({ warn: (m) => lines.push(`warn ${m}`), error: (m) => lines.push(`error ${m}`) }, []);
  const store = guardStore(inner, { timeoutMs: 300, log, now: Date.now });

  const first = Date.now();
  await assert.rejects(store.get('a'), StoreUnavailableError);
  assert.ok(Date.now() - first >= 290, 'the first call waited its bound');

  // Down: a probe goes to the store; the calls made meanwhile fail at once.
  const probe = store.get('b');
  const fast = Date.now();
  await assert.rejects(store.get('c'), StoreUnavailableError);
  await assert.rejects(store.set('d', 'x', 1000), StoreUnavailableError);
  assert.ok(Date.now() - fast < 100, `the others failed at once (${Date.now() - fast} ms)`);
  await assert.rejects(probe, StoreUnavailableError);

  hanging = false;
  assert.equal(await store.get('e'), null, 'the store answers: the next call is its probe, and it goes through');
  await store.set('f', 'y', 1000);
  assert.equal((await store.get('f'))?.value, 'y');
  assert.deepEqual(lines.map((l) => l.split(' ')[0]), ['error', 'warn'], `one error line and one back line: ${lines.join(' | ')}`);
});
