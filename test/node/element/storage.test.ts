import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ATTEMPT_MS, claimCreate, NSPK_CODES, SETTLE_MS, withBank, type Locks } from '../../../src/element/claim.js';
import { bankNameIn, CUSTOMER_BANK_NAMES } from '../../../src/element/views.js';
import { BANKS, CUSTOMER_BANKS } from '../../../src/provider/facts.js';
import { loadCheckout, saveCheckout, storageKey, type StoredCheckout } from '../../../src/element/storage.js';
import { forgetCheckout } from '../../../src/element/stored.js';
import { MemoryStorage } from '../../browser/helpers/fake-endpoint.js';

const NOW = 1_000_000;
const record = (over: Partial<StoredCheckout> = {}): StoredCheckout => ({ session: 'S1', paid: false, said: false, attempt: null, order: null, exp: NOW + 60_000, ...over });
const noWait = async () => {};
/**
 * Web Locks as a browser has them for one origin: exclusive locks by name, granted in the order asked,
 * and `query()` listing the held ones (what every tab sees at once, unlike its copy of localStorage).
 */
class FakeLocks implements Locks {
  readonly asked: string[] = [];
  private readonly tails = new Map<string, Promise<unknown>>();
  private readonly holding = new Set<string>();
  request<T>(name: string, callback: () => T | Promise<T>): Promise<T> {
    this.asked.push(name);
    const before = this.tails.get(name) ?? Promise.resolve();
    const run = before.then(async () => {
      this.holding.add(name);
      try {
        return await callback();
      } finally {
        this.holding.delete(name);
      }
    });
    this.tails.set(
      name,
      run.catch(() => undefined),
    );
    return run;
  }
  held(): string[] {
    return [...this.holding].filter((n) => n.includes(' '));
  }
  async query(): Promise<{ held: Array<{ name: string }> }> {
    return { held: [...this.holding].map((name) => ({ name })) };
  }
}

/** The create's answer, already there (the claim's announcing lock, if any, is released at once). */
const sent = Promise.resolve();

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

  test('"I have paid" is kept with the session; anything but true in its place reads as not said', () => {
    const s = new MemoryStorage();
    saveCheckout(s, 'k', record({ said: true }));
    assert.equal(loadCheckout(s, 'k', NOW)?.said, true);
    s.setItem('k', JSON.stringify({ ...record(), said: 'yes' }));
    assert.equal(loadCheckout(s, 'k', NOW)?.said, false);
    s.setItem('k', JSON.stringify({ ...record(), said: undefined }));
    assert.equal(loadCheckout(s, 'k', NOW)?.said, false, 'a record stored before this field');
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
    assert.deepEqual(await claimCreate(s, 'k', mine, () => NOW, null, noWait, sent), mine);
    assert.deepEqual(loadCheckout(s, 'k', NOW)?.attempt, mine);
    assert.equal(loadCheckout(s, 'k', NOW)?.exp, NOW + ATTEMPT_MS);
  });

  test('another tab’s session wins: it is followed (its stored record, which this tab then keeps as its own), nothing is created', async () => {
    const s = new MemoryStorage();
    saveCheckout(s, 'k', record({ session: 'S-other' }));
    assert.deepEqual(await claimCreate(s, 'k', mine, () => NOW, null, noWait, sent), record({ session: 'S-other' }));
  });

  test('another tab’s attempt under way wins: the same key and selection are sent (the server replays one session)', async () => {
    const s = new MemoryStorage();
    const theirs = { key: 'k-theirs', selection: { payment_method_id: 'm-card' } };
    saveCheckout(s, 'k', record({ session: null, attempt: theirs }));
    assert.deepEqual(await claimCreate(s, 'k', mine, () => NOW, null, noWait, sent), theirs);
  });

  test('without Web Locks two tabs that write at once both send the last writer’s attempt', async () => {
    const s = new MemoryStorage();
    const a = { key: 'k-a', selection: {} };
    const b = { key: 'k-b', selection: {} };
    let waited = 0;
    // Both read an empty record and write before either settles.
    const [ra, rb] = await Promise.all([
      claimCreate(
        s,
        'k',
        a,
        () => NOW,
        null,
        async (ms) => {
          waited = ms;
          await new Promise((r) => setTimeout(r, 5));
        },
        sent,
      ),
      claimCreate(s, 'k', b, () => NOW, null, async () => new Promise((r) => setTimeout(r, 5)), sent),
    ]);
    assert.equal(waited, SETTLE_MS);
    assert.deepEqual(ra, rb, 'one attempt for both');
    assert.deepEqual(loadCheckout(s, 'k', NOW)?.attempt, ra, 'the stored attempt is the one both send');
  });

  test('with Web Locks the check-and-store runs under the lock of the purchase', async () => {
    const s = new MemoryStorage();
    const locks = new FakeLocks();
    const first = await claimCreate(s, 'key-1', mine, () => NOW, locks, noWait, sent);
    const second = await claimCreate(s, 'key-1', { key: 'k-2', selection: {} }, () => NOW, locks, noWait, sent);
    assert.deepEqual(first, mine);
    assert.deepEqual(second, mine, 'the second finds the first attempt');
    assert.deepEqual(
      locks.asked.filter((n) => n === 'key-1'),
      ['key-1', 'key-1'],
    );
  });

  test('with Web Locks a tab whose copy of the storage has not caught up joins the attempt under way: its lock names it until the create has its answer', async () => {
    // Two tabs in two processes: the same lock manager, two copies of localStorage (the second has not
    // received the first's write yet).
    const locks = new FakeLocks();
    const [tabA, tabB, tabC] = [new MemoryStorage(), new MemoryStorage(), new MemoryStorage()];
    let answered!: () => void;
    const createUnderWay = new Promise<void>((r) => (answered = r));
    const a = await claimCreate(tabA, 'k', mine, () => NOW, locks, noWait, createUnderWay);
    assert.deepEqual(a, mine);
    assert.deepEqual(locks.held(), [`k ${JSON.stringify(mine)}`], 'the attempt is announced while its create is under way');
    const b = await claimCreate(tabB, 'k', { key: 'k-b', selection: { method_type: 'SBP' } }, () => NOW, locks, noWait, sent);
    assert.deepEqual(b, mine, 'the second tab sends the first tab’s key and selection');
    assert.equal(loadCheckout(tabB, 'k', NOW), null, 'and writes no attempt of its own');
    answered();
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(locks.held(), [], 'released once the create has its answer');
    // By then the first tab's record has reached every tab; a tab that has nothing makes its own.
    assert.deepEqual(await claimCreate(tabC, 'k', { key: 'k-c', selection: {} }, () => NOW, locks, noWait, sent), { key: 'k-c', selection: {} });
  });

  test('with Web Locks an announced attempt is checked like a stored one: a forged lock name cannot add fields to a request', async () => {
    const locks = new FakeLocks();
    void locks.request(`k ${JSON.stringify({ key: 'k-x', selection: { method_type: 'SBP', amount: '1.00' } })}`, () => new Promise(() => {}));
    assert.deepEqual(await claimCreate(new MemoryStorage(), 'k', mine, () => NOW, locks, noWait, sent), { key: 'k-x', selection: { method_type: 'SBP' } });
    const garbage = new FakeLocks();
    void garbage.request('k {"key":', () => new Promise(() => {}));
    const s = new MemoryStorage();
    // A name that is not JSON: the lock path gives up, the settling path (storage alone) decides.
    assert.deepEqual(await claimCreate(s, 'k', mine, () => NOW, garbage, noWait, sent), mine);
    assert.deepEqual(loadCheckout(s, 'k', NOW)?.attempt, mine);
  });

  test('with Web Locks a stored attempt sent again (after a disconnect, a failed create) is announced too', async () => {
    const s = new MemoryStorage();
    const locks = new FakeLocks();
    saveCheckout(s, 'k', record({ session: null, attempt: mine }));
    let answered!: () => void;
    const again = await claimCreate(s, 'k', { key: 'k-new', selection: {} }, () => NOW, locks, noWait, new Promise<void>((r) => (answered = r)));
    assert.deepEqual(again, mine, 'the stored attempt, its key kept');
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(locks.held(), [`k ${JSON.stringify(mine)}`]);
    answered();
  });

  test('with Web Locks the lock of another order ref whose key begins like this one is not joined', async () => {
    const locks = new FakeLocks();
    // Order ref "sku 2" while "sku" is claimed: `paydesk:v2:…|sku 2 {…}` begins with `…|sku `.
    void locks.request(`k 2 ${JSON.stringify({ key: 'k-other', selection: {} })}`, () => new Promise(() => {}));
    const s = new MemoryStorage();
    let settled = false;
    const settling = async () => void (settled = true);
    assert.deepEqual(await claimCreate(s, 'k', mine, () => NOW, locks, settling, sent), mine);
    assert.deepEqual(loadCheckout(s, 'k', NOW)?.attempt, mine);
    assert.equal(settled, false, 'decided under the lock, not by the settling wait of a failed lock path');
  });

  test('with Web Locks a claim given up while it waited for the lock (a reset) stores and announces nothing', async () => {
    const locks = new FakeLocks();
    const s = new MemoryStorage();
    let free!: () => void;
    void locks.request('k', () => new Promise<void>((r) => (free = r)));
    await new Promise((r) => setImmediate(r));
    const gaveUp = new AbortController();
    const claim = claimCreate(s, 'k', mine, () => NOW, locks, noWait, sent, gaveUp.signal);
    gaveUp.abort();
    free();
    await claim;
    assert.equal(loadCheckout(s, 'k', NOW), null, 'no attempt written back after the reset');
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(locks.held(), []);
  });

  test('Web Locks without query (an older polyfill): the claim still decides, by the settling wait', async () => {
    const s = new MemoryStorage();
    const bare: Locks = { request: (_name, callback) => Promise.resolve().then(callback) };
    assert.deepEqual(await claimCreate(s, 'k', mine, () => NOW, bare, noWait, sent), mine);
    assert.deepEqual(loadCheckout(s, 'k', NOW)?.attempt, mine);
  });

  test('no storage: the attempt goes out as it is (the server’s idempotency still holds for retries)', async () => {
    assert.deepEqual(await claimCreate(null, 'k', mine, () => NOW, null, noWait, sent), mine);
  });
});

describe('a preselected bank on the create', () => {
  test("each `bank` value names the provider's nspk_code of that bank (facts.ts BANKS)", () => {
    assert.deepEqual(Object.keys(NSPK_CODES).sort(), [...CUSTOMER_BANKS].sort());
    for (const bank of BANKS) assert.equal(NSPK_CODES[bank.customerBank], bank.nspkCode, bank.customerBank);
  });

  test("each `customer_bank`'s name in the views is the provider facts' name of that bank (facts.ts BANKS)", () => {
    assert.deepEqual(Object.keys(CUSTOMER_BANK_NAMES).sort(), [...CUSTOMER_BANKS].sort());
    for (const bank of BANKS) assert.deepEqual(CUSTOMER_BANK_NAMES[bank.customerBank], bank.name, bank.customerBank);
    assert.equal(bankNameIn('ru', 'vtb'), 'ВТБ');
    assert.equal(bankNameIn('en', 'vtb'), 'VTB');
    assert.equal(bankNameIn('en', 'toString'), null, 'not a key of the object');
  });

  test('a method type with a bank sends its nspk_code; without a method type, with a code already chosen or an unknown bank, nothing is added', () => {
    assert.deepEqual(withBank({ method_type: 'SBP' }, 'tinkoff'), { method_type: 'SBP', nspk_code: 'bank100000000004' });
    assert.deepEqual(withBank({ payment_method_id: 'm1' }, 'tinkoff'), { payment_method_id: 'm1' });
    assert.deepEqual(withBank({ method_type: 'SBP', nspk_code: 'bank1' }, 'vtb'), { method_type: 'SBP', nspk_code: 'bank1' });
    assert.deepEqual(withBank({ method_type: 'SBP' }, ''), { method_type: 'SBP' });
    assert.deepEqual(withBank({ method_type: 'SBP' }, 'constructor'), { method_type: 'SBP' });
  });
});
