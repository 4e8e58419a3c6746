import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ATTEMPT_MS, claimCreate, NSPK_CODES, SETTLE_MS, withBank, type Locks } from '../../../src/element/claim.js';
import { BANKS, CUSTOMER_BANKS } from '../../../src/provider/facts.js';
import { forgetCheckout, loadCheckout, saveCheckout, storageKey, type StoredCheckout } from '../../../src/element/storage.js';
import { MemoryStorage } from '../../browser/helpers/fake-endpoint.js';

const NOW = 1_000_000;
const record = (over: Partial<StoredCheckout> = {}): StoredCheckout => ({ session: 'S1', paid: false, attempt: null, order: null, exp: NOW + 60_000, ...over });
const noWait = async () => {};

describe('the stored checkout (shared by the tabs of a browser)', () => {
  test('saves, loads and forgets a session per endpoint and order ref', () => {
    const s = new MemoryStorage();
    const a = storageKey('/api/paydesk', 'sku-1');
    const b = storageKey('/api/paydesk', 'sku-2');
    saveCheckout(s, a, record({ order: { number: 'sku-1', support: 'https://shop.example/s', back: null } }));
    assert.deepEqual(loadCheckout(s, a, NOW), record({ order: { number: 'sku-1', support: 'https://shop.example/s', back: null } }));
    assert.equal(loadCheckout(s, b, NOW), null);
    forgetCheckout(s, a);
    assert.equal(loadCheckout(s, a, NOW), null);
  });

  test('an expired record is ignored and removed', () => {
    const s = new MemoryStorage();
    saveCheckout(s, 'k', record({ exp: NOW - 1 }));
    assert.equal(loadCheckout(s, 'k', NOW), null);
    assert.equal(s.getItem('k'), null);
  });

  test('forgetting "mine" leaves another tab’s newer order alone', () => {
    const s = new MemoryStorage();
    saveCheckout(s, 'k', record({ session: 'S-new' }));
    forgetCheckout(s, 'k', { session: 'S-old', key: 'k-old' });
    assert.equal(loadCheckout(s, 'k', NOW)?.session, 'S-new');
    forgetCheckout(s, 'k', { session: 'S-new', key: null });
    assert.equal(loadCheckout(s, 'k', NOW), null);
    saveCheckout(s, 'k', record({ session: null, attempt: { key: 'other', selection: {} } }));
    forgetCheckout(s, 'k', { session: null, key: 'mine' });
    assert.equal(loadCheckout(s, 'k', NOW)?.attempt?.key, 'other', 'another tab’s attempt stays');
    forgetCheckout(s, 'k', { session: null, key: 'other' });
    assert.equal(s.getItem('k'), null);
  });

  test('garbage in storage is ignored; a tampered attempt cannot add fields to a request', () => {
    const s = new MemoryStorage();
    for (const raw of ['not json', '{"session":42,"exp":9e15}', '{"session":"","exp":9e15}', 'null', '[]', '{"session":"S"}']) {
      s.setItem('k', raw);
      assert.equal(loadCheckout(s, 'k', NOW), null, raw);
    }
    s.setItem('k', JSON.stringify({ attempt: { key: 'K', selection: { payment_method_id: 'm', amount: '1.00', mode: 5 } }, exp: NOW + 1 }));
    assert.deepEqual(loadCheckout(s, 'k', NOW)?.attempt, { key: 'K', selection: { payment_method_id: 'm' } });
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
    assert.equal(loadCheckout(hostile, 'k', NOW), null);
    assert.doesNotThrow(() => saveCheckout(hostile, 'k', record()));
    assert.doesNotThrow(() => forgetCheckout(hostile, 'k'));
    assert.equal(loadCheckout(null, 'k', NOW), null);
  });
});

describe('claiming the create across tabs', () => {
  const mine = { key: 'k-mine', selection: { payment_method_id: 'm-sbp' } };

  test('nothing stored: the attempt is stored before the request and sent', async () => {
    const s = new MemoryStorage();
    assert.deepEqual(await claimCreate(s, 'k', mine, () => NOW, null, noWait), mine);
    assert.deepEqual(loadCheckout(s, 'k', NOW)?.attempt, mine);
    assert.equal(loadCheckout(s, 'k', NOW)?.exp, NOW + ATTEMPT_MS);
  });

  test('another tab’s session wins: it is followed (its stored record, which this tab then keeps as its own), nothing is created', async () => {
    const s = new MemoryStorage();
    saveCheckout(s, 'k', record({ session: 'S-other' }));
    assert.deepEqual(await claimCreate(s, 'k', mine, () => NOW, null, noWait), record({ session: 'S-other' }));
  });

  test('another tab’s attempt under way wins: the same key and selection are sent (the server replays one session)', async () => {
    const s = new MemoryStorage();
    const theirs = { key: 'k-theirs', selection: { payment_method_id: 'm-card' } };
    saveCheckout(s, 'k', record({ session: null, attempt: theirs }));
    assert.deepEqual(await claimCreate(s, 'k', mine, () => NOW, null, noWait), theirs);
  });

  test('without Web Locks two tabs that write at once both send the last writer’s attempt', async () => {
    const s = new MemoryStorage();
    const a = { key: 'k-a', selection: {} };
    const b = { key: 'k-b', selection: {} };
    let waited = 0;
    // Both read an empty record and write before either settles.
    const [ra, rb] = await Promise.all([
      claimCreate(s, 'k', a, () => NOW, null, async (ms) => {
        waited = ms;
        await new Promise((r) => setTimeout(r, 5));
      }),
      claimCreate(s, 'k', b, () => NOW, null, async () => new Promise((r) => setTimeout(r, 5))),
    ]);
    assert.equal(waited, SETTLE_MS);
    assert.deepEqual(ra, rb, 'one attempt for both');
    assert.deepEqual(loadCheckout(s, 'k', NOW)?.attempt, ra, 'the stored attempt is the one both send');
  });

  test('with Web Locks the check-and-store runs under the lock of the purchase', async () => {
    const s = new MemoryStorage();
    const names: string[] = [];
    let chain = Promise.resolve();
    const locks: Locks = {
      request<T>(name: string, cb: () => T | Promise<T>): Promise<T> {
        names.push(name);
        const run = chain.then(cb);
        chain = run.then(
          () => undefined,
          () => undefined,
        );
        return run;
      },
    };
    const first = await claimCreate(s, 'key-1', mine, () => NOW, locks, noWait);
    const second = await claimCreate(s, 'key-1', { key: 'k-2', selection: {} }, () => NOW, locks, noWait);
    assert.deepEqual(first, mine);
    assert.deepEqual(second, mine, 'the second finds the first attempt');
    assert.deepEqual(names, ['paydesk:v2:key-1', 'paydesk:v2:key-1']);
  });

  test('no storage: the attempt goes out as it is (the server’s idempotency still holds for retries)', async () => {
    assert.deepEqual(await claimCreate(null, 'k', mine, () => NOW, null, noWait), mine);
  });
});

describe('a preselected bank on the create', () => {
  test("each `bank` value names the provider's nspk_code of that bank (facts.ts BANKS)", () => {
    assert.deepEqual(Object.keys(NSPK_CODES).sort(), [...CUSTOMER_BANKS].sort());
    for (const bank of BANKS) assert.equal(NSPK_CODES[bank.customerBank], bank.nspkCode, bank.customerBank);
  });

  test('a method type with a bank sends its nspk_code; without a method type, with a code already chosen or an unknown bank, nothing is added', () => {
    assert.deepEqual(withBank({ method_type: 'SBP' }, 'tinkoff'), { method_type: 'SBP', nspk_code: 'bank100000000004' });
    assert.deepEqual(withBank({ payment_method_id: 'm1' }, 'tinkoff'), { payment_method_id: 'm1' });
    assert.deepEqual(withBank({ method_type: 'SBP', nspk_code: 'bank1' }, 'vtb'), { method_type: 'SBP', nspk_code: 'bank1' });
    assert.deepEqual(withBank({ method_type: 'SBP' }, ''), { method_type: 'SBP' });
    assert.deepEqual(withBank({ method_type: 'SBP' }, 'constructor'), { method_type: 'SBP' });
  });
});
