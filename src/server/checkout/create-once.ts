/**
 * Create-once: the rule behind every order the merchant server creates at the provider (a shopper's
 * `Buy` from the token endpoint, src/server/checkout/create.ts; a merchant's `Sell` payout from the
 * console, src/console/payouts.ts). One client order id makes at most one provider order, whatever
 * the provider's delays:
 *
 * - a lease (`creating:<id>` in the store) lets one request at a time create for an id; another one
 *   waits for it a bounded time, then is told "in progress" (409);
 * - a create whose outcome is unknown (a timeout, a lost answer, garbage, a crash while it was sent)
 *   leaves a marker (`uncertain:<id>`: since when, and when it was last sent). The next attempt looks
 *   the order up first; while the earlier create may still land ({@link CREATE_IN_FLIGHT_MS} after
 *   it, or the caller's `inFlightMs`: a payout's is as long as the marker lives) and the lookup finds
 *   nothing, it answers "in progress" and sends nothing;
 * - only an answer that proves nothing was created ({@link provesNotCreated}) lets a later attempt
 *   create without waiting.
 *
 * The markers live in the caller's {@link CheckoutStore}: a durable store keeps the rule across a
 * restart, a shared one across instances.
 */
import { CheckoutError, isAmbiguousProviderFailure, isProviderError } from '../errors.js';
import type { CheckoutStore } from '../store.js';
import { randomId } from '../crypto.js';

/**
 * After a create whose outcome is unknown, the request may still be on its way to the provider for
 * about the client's timeout plus its lookup window; until this long after, a later attempt that does
 * not find the order answers "still being prepared" instead of creating a second one.
 */
export const CREATE_IN_FLIGHT_MS = 60_000;

/**
 * True for a failure that proves nothing was created (a refusal such as no traders or limits, a
 * connection that never opened): not "maybe created".
 */
export function provesNotCreated(err: unknown): boolean {
  const cause = err instanceof CheckoutError ? err.cause : err;
  return isProviderError(cause) && !isAmbiguousProviderFailure(cause);
}

export const uncertainKey = (coid: string) => `uncertain:${coid}`;
export const creatingKey = (coid: string) => `creating:${coid}`;

/** An earlier create of a client order id whose outcome is unknown. */
export interface UncertainCreate {
  /** When the first attempt started (epoch ms): orders older than this are not its own. */
  since?: number;
  /** When it was last sent or failed (epoch ms): it may land until {@link CREATE_IN_FLIGHT_MS} after. */
  at?: number;
}

/** The marker of an earlier create of `coid` whose outcome is unknown, or null. An unreadable one counts, without bounds. */
export async function readUncertain(store: CheckoutStore, coid: string): Promise<UncertainCreate | null> {
  const marker = await store.get(uncertainKey(coid));
  if (!marker) return null;
  const out: UncertainCreate = {};
  try {
    const v = JSON.parse(marker.value) as { since?: unknown; at?: unknown } | number;
    if (typeof v === 'number') out.since = v;
    else if (typeof v === 'object' && v !== null) {
      if (typeof v.since === 'number') out.since = v.since;
      if (typeof v.at === 'number') out.at = v.at;
    }
  } catch {
    // unreadable: look up without a bound
  }
  return out;
}

export async function markUncertain(store: CheckoutStore, coid: string, marker: { since: number; at: number }, ttlMs: number): Promise<void> {
  await store.set(uncertainKey(coid), JSON.stringify(marker), ttlMs);
}

export async function clearUncertain(store: CheckoutStore, coid: string): Promise<void> {
  await store.delete(uncertainKey(coid));
}

/**
 * Marks `coid` uncertain just before its create is sent, so a process that dies while the create is
 * out leaves the mark. Resolves with the function that puts back what was known before, for a
 * failure that proves nothing was created. `known`: the marker the caller read under the lease it
 * still holds (nothing else writes it meanwhile), so it is not read a second time.
 */
export async function markBeforeSend(
  store: CheckoutStore,
  coid: string,
  at: number,
  since: number | undefined,
  ttlMs: number,
  /** The marker as the caller read it under its lease (or null when the id is fresh): not read again. */
  known?: UncertainCreate | null,
): Promise<() => Promise<void>> {
  const earlier = known !== undefined ? known : await readUncertain(store, coid);
  const from = since ?? earlier?.since ?? at;
  await markUncertain(store, coid, { since: from, at }, ttlMs);
  return () => (earlier ? markUncertain(store, coid, { since: earlier.since ?? from, at: earlier.at ?? from }, ttlMs) : clearUncertain(store, coid));
}

/**
 * Until when (epoch ms) the earlier create a marker names may still land (`inFlightMs` after it was
 * last sent); undefined when it does not say.
 */
export function inFlightUntil(marker: UncertainCreate | null, inFlightMs = CREATE_IN_FLIGHT_MS): number | undefined {
  return marker?.at === undefined ? undefined : marker.at + inFlightMs;
}

/** How far ahead a live create lease reaches (renewed every third of it): at most 10 s, like an Idempotency-Key claim's. */
export const createLivenessMs = (leaseMs: number): number => Math.min(leaseMs, 10_000);

/**
 * Takes the create lease of `coid`, waiting up to `waitMs` while another request holds it; then
 * throws `busy()`. Resolves with the function that releases it.
 *
 * The lease is held by a heartbeat, as an Idempotency-Key claim is (idempotency.ts): it reaches a
 * short {@link createLivenessMs} ahead and is renewed every third of that while its holder runs, for
 * at most `leaseMs` in all. A holder killed mid-create lets it lapse within seconds, so the shopper's
 * retry (which looks the order up first) is not kept waiting the whole `leaseMs`; a live but slow
 * holder keeps it. The value is the holder's token: only the holder renews or releases it.
 */
export async function holdCreateLease(
  store: CheckoutStore,
  coid: string,
  opts: { leaseMs: number; waitMs: number },
  busy: () => Error,
): Promise<() => Promise<void>> {
  const lease = creatingKey(coid);
  const liveMs = createLivenessMs(opts.leaseMs);
  const owner = randomId(9);
  const deadline = performance.now() + opts.waitMs;
  while (!(await store.create(lease, owner, liveMs))) {
    if (performance.now() > deadline) throw busy();
    await new Promise((r) => setTimeout(r, 100));
  }
  const heldUntil = performance.now() + opts.leaseMs;
  let renewals: Promise<unknown> = Promise.resolve();
  const renew = async (): Promise<boolean> => {
    const cur = await store.get(lease);
    if (!cur || cur.value !== owner) return false;
    return (await store.replace(lease, cur.version, owner, Math.min(liveMs, Math.max(1, heldUntil - performance.now())))) !== null;
  };
  const heartbeat = setInterval(() => {
    if (performance.now() >= heldUntil) {
      clearInterval(heartbeat);
      return;
    }
    renewals = renewals.then(renew).then(
      (ok) => (ok ? undefined : clearInterval(heartbeat)),
      () => undefined, // a store hiccup: the next beat tries again
    );
  }, liveMs / 3);
  (heartbeat as { unref?: () => void }).unref?.();
  return async () => {
    clearInterval(heartbeat);
    await renewals;
    try {
      const cur = await store.get(lease);
      if (cur && cur.value === owner) await store.delete(lease, cur.version);
    } catch {
      // it lapses by itself within createLivenessMs
    }
  };
}

export interface CreateOnceOptions {
  store: CheckoutStore;
  now?: () => number;
  /** How long one request may hold the right to create (a crashed holder's lease ends then). */
  leaseMs: number;
  /** How long a second request waits for the holder before it is told "in progress". */
  waitMs: number;
  /** How long an unknown outcome is remembered. */
  ttlMs: number;
  /**
   * How long after a create whose outcome is unknown it is taken to be still on its way: until then a
   * lookup that finds nothing sends nothing (default {@link CREATE_IN_FLIGHT_MS}). A provider that
   * queues requests can make an order later than that; where a second order would move money twice
   * (a payout), set it to `ttlMs`: an unknown create is then never sent again, only looked up.
   */
  inFlightMs?: number;
  /** The "in progress" error; `retryAfterMs` says when asking again may tell more. */
  inProgress: (retryAfterMs: number) => Error;
  log?: (message: string, fields: Record<string, unknown>) => void;
}

export interface CreateOnceSteps<T> {
  /**
   * Looks up an order an earlier attempt made (`earlier`: the marker of one whose outcome is
   * unknown, or null). Called first, every time, under the lease.
   */
  find(earlier: UncertainCreate | null): Promise<T | undefined>;
  /**
   * Checks what can be checked before anything is sent and returns the sender; its errors mean
   * nothing was sent. The sender is called once, with a signal that ends before the lease does.
   */
  prepare(): Promise<(signal: AbortSignal) => Promise<T>>;
}

/**
 * Finds the order of `coid` or creates it, at most once (see the file comment). `found` is true when
 * an earlier attempt made it.
 */
export async function createOnce<T>(coid: string, opts: CreateOnceOptions, steps: CreateOnceSteps<T>): Promise<{ value: T; found: boolean }> {
  const { store } = opts;
  const now = opts.now ?? Date.now;
  const release = await holdCreateLease(store, coid, opts, () => opts.inProgress(1000));
  try {
    const earlier = await readUncertain(store, coid);
    const found = await steps.find(earlier);
    if (found !== undefined) {
      if (earlier) await clearUncertain(store, coid).catch(() => undefined);
      return { value: found, found: true };
    }
    const until = inFlightUntil(earlier, opts.inFlightMs);
    if (until !== undefined && now() < until) {
      opts.log?.('an earlier create of this order may still reach the provider; not creating another yet', { client_order_id: coid });
      throw opts.inProgress(until - now());
    }
    const send = await steps.prepare();
    // Marked before it is sent: if this process ends while the create is out, the next attempt
    // (after a restart too, with a durable store) looks it up first and waits while it may land.
    const since = earlier?.since ?? now();
    await markUncertain(store, coid, { since, at: now() }, opts.ttlMs);
    const ms = Math.max(1000, opts.leaseMs - 5000);
    const bound = new AbortController();
    const timer = setTimeout(() => bound.abort(new DOMException(`the creation took longer than ${ms} ms`, 'TimeoutError')), ms);
    (timer as { unref?: () => void }).unref?.();
    try {
      const value = await send(bound.signal);
      await clearUncertain(store, coid).catch(() => undefined);
      return { value, found: false };
    } catch (err) {
      try {
        if (provesNotCreated(err)) {
          // Nothing was created by this attempt: what was known before stands.
          if (earlier) await markUncertain(store, coid, { since, at: earlier.at ?? since }, opts.ttlMs);
          else await clearUncertain(store, coid);
        } else {
          await markUncertain(store, coid, { since, at: now() }, opts.ttlMs);
        }
      } catch (storeErr) {
        opts.log?.('could not remember the outcome of a create', { client_order_id: coid, err: storeErr });
      }
      throw err;
    } finally {
      clearTimeout(timer);
    }
  } finally {
    await release();
  }
}
