import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { forgetSession, loadSession, saveSession, storageKey } from '../../../src/element/storage.js';
import { MemoryStorage } from '../../browser/helpers/fake-endpoint.js';

describe('session storage for resuming', () => {
  test('saves, loads and forgets a session per endpoint and order ref', () => {
    const s = new MemoryStorage();
    const a = storageKey('/api/paydesk', 'sku-1');
    const b = storageKey('/api/paydesk', 'sku-2');
    saveSession(s, a, { session: 'S1', paid: false });
    assert.deepEqual(loadSession(s, a), { session: 'S1', paid: false });
    assert.equal(loadSession(s, b), null);
    forgetSession(s, a);
    assert.equal(loadSession(s, a), null);
  });

  test('garbage in storage is ignored', () => {
    const s = new MemoryStorage();
    for (const raw of ['not json', '{"session":42}', '{"session":""}', 'null', '[]']) {
      s.setItem('k', raw);
      assert.equal(loadSession(s, 'k'), null, raw);
    }
  });

  test('a storage that throws (private mode, sandboxed frame) never breaks the checkout', () => {
    const hostile = {
      getItem: () => {
        throw new Error('SecurityError');
      },
      setItem: () => {
        throw new Error('QuotaExceededError');
      },
      removeItem: () => {
        throw new Error('SecurityError');
      },
    };
    assert.equal(loadSession(hostile, 'k'), null);
    assert.doesNotThrow(() => saveSession(hostile, 'k', { session: 'S', paid: false }));
    assert.doesNotThrow(() => forgetSession(hostile, 'k'));
    assert.equal(loadSession(null, 'k'), null);
  });
});
