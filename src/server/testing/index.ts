/**
 * `paydesk/server/testing`: the store contract suite, for a merchant who writes a store of their own
 * (and for paydesk's own stores: memory, SQLite, Redis, PostgreSQL run the same suite). It registers
 * tests with `node:test`, so this entry imports `node:test` — `paydesk/server` itself never does.
 *
 * @example
 *   // my-store.test.ts — run with: node --test my-store.test.ts
 *   import { describeStoreContract } from 'paydesk/server/testing';
 *   import { createMyStore } from './my-store.js';
 *   describeStoreContract('my store', () => createMyStore({ prefix: crypto.randomUUID() }));
 */
import { describe } from 'node:test';
import { registerInstanceTests } from './instances.js';
import { registerPrimitiveTests } from './primitives.js';
import type { StoreContractOptions, StoreMaker } from './kit.js';

export type { StoreContractOptions, StoreMaker } from './kit.js';

/**
 * Registers the store contract suite under `describe(name)`: reads and conditional writes (`create`
 * only when absent, `replace` as compare-and-set on the version), values kept exactly, expiry with
 * real time, fixed-window counters, sorted indexes (order, bounds, limits, trim), atomicity under
 * twenty concurrent writers, publish/subscribe, and `close`.
 *
 * @param name  - the suite's name in the test report.
 * @param makeStore - a fresh, empty store per call (each test makes its own and the suite closes it).
 * @param options - `otherInstance(store)`: a second instance on the same data (another connection or
 *   process view), for the cross-instance tests; without it they run on the one store.
 */
export function describeStoreContract(name: string, makeStore: StoreMaker, options: StoreContractOptions = {}): void {
  if (typeof name !== 'string' || typeof makeStore !== 'function') {
    throw new TypeError('describeStoreContract(name, makeStore): a name and a function that returns a fresh, empty store');
  }
  describe(name, () => {
    registerPrimitiveTests(makeStore);
    registerInstanceTests(makeStore, options);
  });
}

export type { CheckoutStore, IndexEntry, IndexRangeOptions, StoredValue } from '../store.js';
