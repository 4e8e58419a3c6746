/**
 * createOnce (src/server/checkout/create-once.ts), the rule every order the server creates follows:
 * a create that is out when its process stops still blocks a second one while it may land; a proven
 * refusal does not; a lost answer does, until its window passes.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ProviderError } from '../../../src/provider/errors.js';
import { CREATE_IN_FLIGHT_MS, createOnce, creatingKey, readUncertain, type CreateOnceOptions } from '../../../src/server/checkout/create-once.js';
import { createMemoryStore } from '../../../src/server/store.js';

class InProgress extends Error {
  constructor(readonly retryAfterMs: number) {
    super('in progress');
  }
}

function setup() {
  let clock = 1_700_000_000_000;
  const store = createMemoryStore({ now: () => clock });
  const opts: CreateOnceOptions = { store, now: () => clock, leaseMs: 90_000, waitMs: 0, ttlMs: 3_600_000, inProgress: (ms) => new InProgress(ms) };
  return { store, opts, advance: (ms: number) => (clock += ms) };
}

describe('createOnce', () => {
  test('a create still out when its process stopped blocks the next attempt until it may no longer land; then it is looked up, then created', async () => {
    const { store, opts, advance } = setup();
    let sent = 0;
    // The first attempt sends and never hears back (its process stops): only its lease ends.
    void createOnce('c-1', opts, {
      find: async () => undefined,
      prepare: async () => () => {
        sent++;
        return new Promise<never>(() => undefined);
      },
    });
    await new Promise((r) => setImmediate(r));
    assert.equal(sent, 1);
    await store.delete(creatingKey('c-1')); // the crashed holder's lease ran out
    const earlier: unknown[] = [];
    const again = () =>
      createOnce('c-1', opts, {
        find: async (e) => {
          earlier.push(e);
          return undefined;
        },
        prepare: async () => async () => {
          sent++;
          return 'order-2';
        },
      });
    const err = await again().then(
      () => null,
      (e: unknown) => e,
    );
    assert.ok(err instanceof InProgress);
    assert.ok(err.retryAfterMs > 0 && err.retryAfterMs <= CREATE_IN_FLIGHT_MS);
    assert.equal(sent, 1, 'nothing was sent');
    assert.ok(earlier[0], 'the lookup knew of the earlier create');
    advance(CREATE_IN_FLIGHT_MS + 1);
    assert.deepEqual(await again(), { value: 'order-2', found: false });
    assert.equal(sent, 2);
    assert.equal(await readUncertain(store, 'c-1'), null, 'created: nothing left uncertain');
  });

  test('with inFlightMs as long as the marker lives (a payout), a create whose outcome is unknown is only looked up, never sent again', async () => {
    const { opts, advance } = setup();
    const payout = { ...opts, inFlightMs: opts.ttlMs };
    let sent = 0;
    let landed: string | undefined;
    const steps = {
      find: async () => landed,
      prepare: async () => async (): Promise<string> => {
        sent++;
        throw new ProviderError({ code: 'timeout', message: 'no answer', retryable: true, outcome: 'unknown' });
      },
    };
    await assert.rejects(createOnce('p-1', payout, steps), ProviderError);
    for (const wait of [CREATE_IN_FLIGHT_MS + 1, 30 * 60_000]) {
      advance(wait);
      await assert.rejects(createOnce('p-1', payout, steps), InProgress);
    }
    assert.equal(sent, 1, 'never sent again');
    landed = 'payout-1'; // the provider made it late
    assert.deepEqual(await createOnce('p-1', payout, steps), { value: 'payout-1', found: true });
    assert.equal(sent, 1);
  });

  test('a lost answer blocks a second create; once the order is found it is answered, never created again', async () => {
    const { opts } = setup();
    let landed: string | undefined;
    let sent = 0;
    const steps = {
      find: async () => landed,
      prepare: async () => async (): Promise<string> => {
        sent++;
        throw new ProviderError({ code: 'timeout', message: 'no answer', retryable: true, outcome: 'unknown' });
      },
    };
    await assert.rejects(createOnce('c-2', opts, steps), (e: unknown) => e instanceof ProviderError);
    await assert.rejects(createOnce('c-2', opts, steps), (e: unknown) => e instanceof InProgress);
    landed = 'order-1';
    assert.deepEqual(await createOnce('c-2', opts, steps), { value: 'order-1', found: true });
    assert.equal(sent, 1);
  });

  test('a refusal that proves nothing was created lets the next attempt create at once', async () => {
    const { store, opts } = setup();
    let refuse = true;
    const steps = {
      find: async () => undefined,
      prepare: async () => async () => {
        if (refuse) throw new ProviderError({ code: 'insufficient_funds', message: 'no money', status: 402, outcome: 'not_created' });
        return 'order-1';
      },
    };
    await assert.rejects(createOnce('c-3', opts, steps), (e: unknown) => e instanceof ProviderError && e.code === 'insufficient_funds');
    assert.equal(await readUncertain(store, 'c-3'), null);
    refuse = false;
    assert.deepEqual(await createOnce('c-3', opts, steps), { value: 'order-1', found: false });
  });

  test('a check that fails before sending leaves nothing behind', async () => {
    const { store, opts } = setup();
    await assert.rejects(
      createOnce('c-4', opts, {
        find: async () => undefined,
        prepare: async () => {
          throw new Error('the fee changed');
        },
      }),
      /fee changed/,
    );
    assert.equal(await readUncertain(store, 'c-4'), null);
    assert.equal(await store.get(creatingKey('c-4')), null, 'the lease is released');
  });
});
