/**
 * The claim before `POST /sessions` (see storage.ts): one order per purchase across the tabs of a
 * browser. Part of the element's own module: the create is claimed and sent at once, never after a
 * round trip for code, and no create goes out unclaimed.
 */
import type { CustomerBank } from '../provider/facts.js';
import type { Selection } from './machine.js';
import { loadCheckout, parseAttempt, saveCheckout, type KeyValueStorage, type StoredCheckout } from './storage.js';

/** The part of the Web Locks API used here (`navigator.locks`). */
export interface Locks {
  /** Runs `callback` holding the exclusive lock `name`; released when its promise settles. */
  request<T>(name: string, callback: () => T | Promise<T>): Promise<T>;
  /** The locks held in the origin (`{ held: [{ name }] }`): another tab's attempt under way is read here (without it, claims take the settling wait). */
  query?(): Promise<unknown>;
}

/** How long a stored attempt holds (a create waits at most 65 s for the requisites search). */
export const ATTEMPT_MS = 2 * 60_000;
/** Without Web Locks: how long to wait for another tab's simultaneous write before reading the winner. */
export const SETTLE_MS = 80;

/** What to do instead of (or for) a create: follow another tab's session (its stored record), or send this attempt. */
export type Claim = (StoredCheckout & { session: string }) | { key: string; selection: Selection };

/**
 * Claims the creation of the order for `key` (the purchase's storage key, storage.ts `storageKey`,
 * which also names its lock): another tab's attempt under way wins (send the same request with its
 * key: the server answers the same session); else an unexpired stored session (follow it) or attempt;
 * else `mine` is stored and returned.
 *
 * With Web Locks, the check runs under the purchase's lock, and the attempt sent is announced by a
 * second lock named after it (`<key> <attempt as JSON>`), held until `sent` settles (the create has
 * its answer). The create may go before that lock is granted; the purchase's lock is kept until it
 * is. That lock, not the stored record, is what another tab reads first: the lock manager is one for
 * the whole browser, while a tab in another process may not yet have this tab's localStorage write
 * when it gets the purchase's lock (two tabs opened together then made two orders). By the time the
 * announcing lock is released, the record written a round trip earlier has reached every tab.
 * `signal` aborted while the lock was awaited (a reset): nothing is stored or announced. Without Web
 * Locks, the record is read again after {@link SETTLE_MS} and the last writer's attempt is the one
 * both send.
 */
export async function claimCreate(
  storage: KeyValueStorage | null,
  key: string,
  mine: { key: string; selection: Selection },
  now: () => number,
  locks: Locks | null | undefined,
  wait: (ms: number) => Promise<void>,
  sent: Promise<unknown>,
  signal?: AbortSignal,
): Promise<Claim> {
  if (!storage) return mine;
  // What is stored: another tab's session (follow it) or attempt (join it), else null.
  const read = (): Claim | null => {
    const stored = loadCheckout(storage, key, now());
    return stored?.session ? (stored as Claim) : (stored?.attempt ?? null);
  };
  const decide = (): Claim | null =>
    read() ?? (saveCheckout(storage, key, { session: null, paid: false, attempt: mine, order: null, exp: now() + ATTEMPT_MS }), null);
  if (locks) {
    const tag = `${key} {`;
    try {
      // Settles with the claim as soon as it is decided (this tab's create may go at once); the
      // purchase's lock is kept until the attempt this tab sends is announced, so the next tab sees it.
      return await new Promise<Claim>((claimed, failed) => {
        locks
          .request(key, async () => {
            const held = ((await locks.query!()) as { held: Array<{ name: string }> }).held.find((l) => l.name.startsWith(tag));
            // Given up meanwhile (a reset, a disconnect): nothing stored, nothing announced.
            if (signal?.aborted) return claimed(mine);
            const joined = held && parseAttempt(JSON.parse(held.name.slice(tag.length - 1)));
            const claim = joined || decide() || mine;
            claimed(claim);
            // An attempt no lock names yet (this one, or a stored one sent again after a disconnect).
            if (!joined && !('session' in claim))
              await new Promise((announced) => void locks.request(tag.slice(0, -1) + JSON.stringify(claim), () => (announced(0), sent)).catch(announced));
          })
          .catch(failed);
      });
    } catch {
      // A lock that cannot be taken (opaque origins), a browser without `query`: the settling wait below.
    }
  }
  const first = decide();
  if (first) return first;
  await wait(SETTLE_MS);
  return read() ?? mine;
}

/**
 * The `nspk_code` of each value of the `bank` attribute, as the provider's facts have them
 * (`BANKS` in src/provider/facts.ts; test/node/element/storage.test.ts checks that they agree). Written
 * out here so that the element's own module, which sends the first create, does not carry that table.
 */
export const NSPK_CODES = {
  sberbank: 'bank100000000111',
  tinkoff: 'bank100000000004',
  vtb: 'bank100000000005',
  alfabank: 'bank100000000008',
} as const satisfies Record<CustomerBank, string>;

/** A preselected method type with a preselected bank (`bank` attribute) names the bank's `nspk_code`. */
export function withBank(selection: Selection, bank: string): Selection {
  const code = selection.method_type && !selection.nspk_code ? (NSPK_CODES as Record<string, unknown>)[bank] : undefined;
  return typeof code === 'string' ? { ...selection, nspk_code: code } : selection;
}
