/**
 * A store that fails, fails fast and loud: every store call the handler makes goes through
 * {@link guardStore}, which bounds it (`storeTimeoutMs`) and turns a call that fails or does not answer
 * in time into {@link StoreUnavailableError} — a `503 store_unavailable` with `Retry-After` for the
 * shopper, a 503 for a webhook (the provider delivers it again). The first failure is logged once at
 * error level naming the store and the failure, its return once; each failed call counts
 * `paydesk.store.errors`. While the store is failing, one call at a time goes to it (to see it back);
 * the others fail at once, so a request that makes several store calls (a create: the record, the
 * session, the lease) answers 503 after one bound, not one bound per call. Nothing is restarted: the
 * next call that succeeds is the store back.
 */
import { CheckoutError } from './errors.js';
import type { ProtocolErrorCode } from '../protocol/index.js';
import type { SafeLogger } from './log.js';
import type { CheckoutStore } from './store.js';
import { noteStoreError } from './telemetry.js';

/** Seconds a shopper (or the provider) is told to wait before trying again. */
const RETRY_AFTER_SECONDS = 5;

/** The store did not answer in time or failed: the request is answered 503 store_unavailable. */
export class StoreUnavailableError extends CheckoutError {
  constructor(store: string, cause: unknown) {
    // store_unavailable is a server code outside the element's table: a widget shows its
    // internal_error sentence and retries (retryable), as for any code it does not know.
    super(503, 'store_unavailable' as ProtocolErrorCode, `The ${store} did not answer; retry after Retry-After.`, {
      retryable: true,
      headers: { 'retry-after': String(RETRY_AFTER_SECONDS) },
      cause,
    });
    this.name = 'StoreUnavailableError';
  }
}

/** A readable name of a store for the log: `Redis store`, `SQLite store`, `memory store`, else its class. */
export function storeName(store: CheckoutStore): string {
  const cls = (store as { constructor?: { name?: string } }).constructor?.name ?? '';
  const known: Record<string, string> = { RedisStore: 'Redis store', SqliteStore: 'SQLite store', MemoryStore: 'memory store', PostgresStore: 'PostgreSQL store' };
  return known[cls] ?? (cls && cls !== 'Object' ? `store (${cls})` : 'store');
}

const describe = (err: unknown): string => (err instanceof Error ? `${err.name}: ${err.message}` : String(err)).slice(0, 300);

export interface StoreGuardOptions {
  timeoutMs: number;
  log: SafeLogger;
  now: () => number;
}

type Method = Exclude<keyof CheckoutStore, 'close' | 'subscribe'>;
const METHODS: readonly Method[] = ['get', 'create', 'replace', 'set', 'delete', 'increment', 'indexSet', 'indexRemove', 'indexRange', 'indexTrim', 'publish'];

/** The store each guarded store wraps, so a check of the configuration (`paydesk doctor`) sees the merchant's own. */
const wrapped = new WeakMap<CheckoutStore, CheckoutStore>();

/** The merchant's store behind a guarded one (or the store itself when it is not guarded). */
export function unguardedStore(store: CheckoutStore): CheckoutStore {
  return wrapped.get(store) ?? store;
}

/** The store, each call bounded and its failures made {@link StoreUnavailableError}; `close` passes through. */
export function guardStore(store: CheckoutStore, o: StoreGuardOptions): CheckoutStore {
  const name = storeName(store);
  /** Since when the store is failing (wall clock, for the log line when it is back), or null. */
  let down: { since: number; failures: number; epoch: number } | null = null;
  let epoch = 0;
  /** While down: a call is under way to the store, the one that will tell whether it is back. */
  let probing = false;

  const failed = (method: string, err: unknown): StoreUnavailableError => {
    noteStoreError(name, method);
    if (down) down.failures++;
    else {
      down = { since: Date.now(), failures: 1, epoch: ++epoch };
      o.log.error(`the ${name} is failing (${method}: ${describe(err)}); requests answer 503 store_unavailable until it answers again`, { store: name });
    }
    return err instanceof StoreUnavailableError ? err : new StoreUnavailableError(name, err);
  };
  const answered = (startedInEpoch: number) => {
    // Only a call started while the store was failing proves it back (one started before may have
    // been answered just before it went).
    if (!down || startedInEpoch < down.epoch) return;
    const seconds = ((Date.now() - down.since) / 1000).toFixed(1);
    o.log.warn(`the ${name} answers again after ${seconds} s (${down.failures} failed calls)`, { store: name });
    down = null;
  };

  async function call<T>(method: string, run: () => Promise<T>): Promise<T> {
    if (down && probing) throw failed(method, new Error('failing; another call is finding out whether it is back'));
    const probe = down !== null;
    if (probe) probing = true;
    const started = down ? down.epoch : epoch;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer in ${o.timeoutMs} ms (storeTimeoutMs)`)), o.timeoutMs);
    });
    try {
      const value = await Promise.race([run(), late]);
      answered(started);
      return value;
    } catch (err) {
      // A bad argument is a bug of the caller, not the store being down.
      if (err instanceof TypeError || err instanceof RangeError) throw err;
      throw failed(method, err);
    } finally {
      clearTimeout(timer);
      if (probe) probing = false;
    }
  }

  const guarded = {} as Record<string, unknown>;
  for (const m of METHODS) {
    const fn = store[m] as (...args: unknown[]) => Promise<unknown>;
    guarded[m] = (...args: unknown[]) => call(m, () => fn.apply(store, args));
  }
  guarded.subscribe = (channel: string, listener: (message: string) => void) =>
    call('subscribe', () => store.subscribe(channel, listener));
  guarded.close = () => store.close();
  wrapped.set(guarded as unknown as CheckoutStore, store);
  return guarded as unknown as CheckoutStore;
}

/**
 * The handler's logger while a store may fail: a message about a failure that was the store being
 * unavailable goes to debug (the guard said it once at error level), so an outage is not one error
 * line per request or per background task.
 */
export function quietStoreFailures(log: SafeLogger): SafeLogger {
  const quiet = (level: keyof SafeLogger) => (message: string, fields?: Record<string, unknown>) =>
    (fields?.err instanceof StoreUnavailableError ? log.debug : log[level])(message, fields);
  return { debug: log.debug, info: log.info, warn: quiet('warn'), error: quiet('error') };
}
