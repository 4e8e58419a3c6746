/**
 * What the contract suite's tests share: the maker of fresh stores, closing what a test opened, and
 * waiting for a condition or a message without sleeping longer than needed.
 */
import type { TestContext } from 'node:test';
import type { CheckoutStore } from '../store.js';

/** Makes a fresh, empty store (another prefix, schema, file … per call). */
export type StoreMaker = () => CheckoutStore | Promise<CheckoutStore>;

/** Options of `describeStoreContract`. */
export interface StoreContractOptions {
  /** A second instance on the same data as `store` (as another process would open it), for the cross-instance tests. */
  otherInstance?: (store: CheckoutStore) => CheckoutStore | Promise<CheckoutStore>;
}

/** A fresh store, closed when the test ends. */
export async function fresh(t: TestContext, makeStore: StoreMaker): Promise<CheckoutStore> {
  const store = await makeStore();
  if (!store || typeof store.get !== 'function') throw new TypeError('makeStore() must return a CheckoutStore');
  t.after(() => store.close());
  return store;
}

/** Two instances on one store's data (the second closed when the test ends). */
export async function pair(t: TestContext, makeStore: StoreMaker, options: StoreContractOptions): Promise<[CheckoutStore, CheckoutStore]> {
  const first = await fresh(t, makeStore);
  if (!options.otherInstance) return [first, first];
  const second = await options.otherInstance(first);
  if (second !== first) t.after(() => second.close());
  return [first, second];
}

/** Waits until `check` holds (every 20 ms), failing with `what` after `ms`. */
export async function until(what: string, check: () => boolean | Promise<boolean>, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** A message box: `next()` resolves with the next message received (or fails after `ms`). */
export function inbox(label: string, ms = 5000) {
  const got: string[] = [];
  let wake: (() => void) | null = null;
  return {
    got,
    listener: (m: string) => {
      got.push(m);
      wake?.();
    },
    async next(count = 1): Promise<string> {
      const deadline = Date.now() + ms;
      while (got.length < count) {
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`${label}: message ${count} did not arrive within ${ms} ms (got ${got.length})`);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, left);
          wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        wake = null;
      }
      return got[count - 1]!;
    },
  };
}
