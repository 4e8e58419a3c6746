/**
 * The console's analytics, `GET {basePath}/api/analytics?from=ISO&to=ISO&tz=IANA`: per local day
 * created / paid / expired / paid late / disputed, conversion by method and by bank, time to pay
 * (analytics-tally.ts defines each number). Counted from the provider's order list (payments of the
 * period, page after page, nothing kept) and its dispute list (from the period's start to now),
 * with no call per order.
 *
 * Answers are cached, keyed by the query: at most `cacheSize` (default 32) reports, each for 30 s
 * when the period ends less than a day ago (orders of the last day still get paid, expire, are
 * paid late) and for 10 minutes otherwise. Requests for the same query while it is being counted
 * share that one count; the count stops when every client asking for it has gone away. At most
 * `maxRunning` (default 4) different queries are counted at once; one more is a 429.
 */
import { ORDER_LIFETIME_SECONDS } from '../provider/facts.js';
import type { Dispute, Order } from '../provider/schemas.js';
import type { ProviderClient } from '../provider/types.js';
import { errorResponse, fieldErrorResponse, providerErrorResponse } from './answers.js';
import { ConsoleHttpError } from './errors.js';
import { Tally, type AnalyticsReport } from './analytics-tally.js';
import { FieldError, onlyKnown, readPeriod, type Period } from './period.js';
import { timeMs } from './times.js';
import { walkNewestFirst } from './walk.js';
import { daysOf } from './zone.js';

export type { AnalyticsReport, DayRow } from './analytics-tally.js';
export { HISTOGRAM_BOUNDS } from './analytics-tally.js';

export interface AnalyticsOptions {
  /** Reports kept (default 32). */
  cacheSize?: number;
  /** How long a report of a period that ended a day ago or earlier is kept, ms (default 10 minutes). */
  pastTtlMs?: number;
  /** How long a report of a period that reaches into the last day is kept, ms (default 30 s). */
  liveTtlMs?: number;
  /** Parts of the period whose order lists are read at once (default 4). */
  parallelReads?: number;
  /** Different queries counted at once; one more is a 429 (default 4: each reads the provider hard). */
  maxRunning?: number;
  /** Now, epoch ms (tests). */
  now?: () => number;
}

export interface Analytics {
  /** The answer to a query (`from`, `to`, `tz`): 200 with the report, 400 naming a bad field, 429/502/504 from the provider. */
  handle(params: URLSearchParams, signal?: AbortSignal): Promise<Response>;
  /** The report of a checked period (epoch ms, both ends included; an IANA zone), without the cache. */
  count(period: { fromMs: number; toMs: number; tz: string }, signal?: AbortSignal): Promise<AnalyticsReport>;
}

const DAY_MS = 24 * 3600 * 1000;

interface Running {
  promise: Promise<AnalyticsReport>;
  waiters: number;
  stop: AbortController;
}

/** Settles with `promise`, or rejects when `signal` aborts first. */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (v) => (signal.removeEventListener('abort', onAbort), resolve(v)),
      (e: unknown) => (signal.removeEventListener('abort', onAbort), reject(e)),
    );
  });
}

/** [from, to] cut into `n` adjoining periods (both ends of each included, as the provider reads them). */
export function slices(fromMs: number, toMs: number, n: number): [number, number][] {
  const parts = Math.max(1, Math.min(n, Math.floor((toMs - fromMs) / 1000) + 1));
  const width = Math.ceil((toMs - fromMs + 1) / parts);
  const out: [number, number][] = [];
  for (let start = fromMs; start <= toMs; start += width) out.push([start, Math.min(toMs, start + width - 1)]);
  return out;
}

const createdMs = (row: { created_at: string }) => timeMs(row.created_at);

const answer = (report: AnalyticsReport, cache: 'hit' | 'miss') =>
  new Response(JSON.stringify(report), {
    status: 200,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', 'x-paydesk-cache': cache },
  });

/** `maxRunning` counts are running already. */
const busy = (running: number) =>
  errorResponse(
    new ConsoleHttpError(429, 'rate_limited', `${running} other analytics are being counted: try again in a few seconds`, {
      retryable: true,
      details: { retry_after: 5 },
      headers: { 'Retry-After': '5' },
    }),
  );

export function createAnalytics(client: ProviderClient, options: AnalyticsOptions = {}): Analytics {
  const now = options.now ?? Date.now;
  const cacheSize = options.cacheSize ?? 32;
  const pastTtl = options.pastTtlMs ?? 10 * 60_000;
  const liveTtl = options.liveTtlMs ?? 30_000;
  const parallelReads = options.parallelReads ?? 4;
  const maxRunning = options.maxRunning ?? 4;
  /** Query → report and when it expires; a Map keeps insertion order, so the first key is the oldest. */
  const cache = new Map<string, { report: AnalyticsReport; expires: number }>();
  const running = new Map<string, Running>();

  async function disputedOrders(period: Period, signal: AbortSignal): Promise<Set<string>> {
    const ids = new Set<string>();
    // A dispute is opened after its order was created: from the period's start until now.
    const disputes = walkNewestFirst<Dispute>({
      fromMs: period.fromMs,
      toMs: Math.max(period.fromMs, now()),
      read: (request) => client.searchDisputes(request, { signal }),
      createdMs,
      id: (d) => d.dispute_id,
      signal,
    });
    for await (const d of disputes) ids.add(d.order_id);
    return ids;
  }

  async function count(period: { fromMs: number; toMs: number; tz: string }, signal?: AbortSignal): Promise<AnalyticsReport> {
    const stop = signal ?? new AbortController().signal;
    const days = daysOf(period.tz, period.fromMs, period.toMs);
    const disputed = await disputedOrders(period, stop);
    const tally = new Tally(days, disputed);
    // The period in `parallelReads` slices read at once (a provider's latency, not its speed, bounds one walk).
    await Promise.all(
      slices(period.fromMs, period.toMs, parallelReads).map(async ([fromMs, toMs]) => {
        const orders = walkNewestFirst<Order>({
          fromMs,
          toMs,
          // Both sides are read and payouts skipped here: a filter makes some providers scan the period per page.
          read: (request) => client.listOrders({ ...request, sort_by: 'created_at', sort: 'desc' }, { signal: stop }),
          createdMs,
          id: (o) => o.id,
          signal: stop,
        });
        for await (const order of orders) tally.add(order);
      }),
    );
    return tally.report();
  }

  function remember(key: string, period: Period, report: AnalyticsReport): void {
    const live = period.toMs > now() - DAY_MS - ORDER_LIFETIME_SECONDS * 1000;
    cache.delete(key);
    cache.set(key, { report, expires: now() + (live ? liveTtl : pastTtl) });
    while (cache.size > cacheSize) cache.delete(cache.keys().next().value!);
  }

  function start(key: string, period: Period & { tz: string }): Running {
    const stop = new AbortController();
    const run: Running = { stop, waiters: 0, promise: count(period, stop.signal) };
    running.set(key, run);
    run.promise.then(
      (report) => {
        if (running.get(key) === run) running.delete(key);
        remember(key, period, report);
      },
      () => {
        if (running.get(key) === run) running.delete(key);
      },
    );
    return run;
  }

  return {
    count,
    async handle(params, signal) {
      let period: Period & { tz: string };
      try {
        onlyKnown(params, ['from', 'to', 'tz']);
        period = readPeriod(params, { tzRequired: true }) as Period & { tz: string };
      } catch (err) {
        if (err instanceof FieldError) return fieldErrorResponse(err);
        throw err;
      }
      const key = `${period.fromMs}|${period.toMs}|${period.tz}`;
      const hit = cache.get(key);
      if (hit && hit.expires > now()) return answer(hit.report, 'hit');
      if (hit) cache.delete(key);
      if (!running.has(key) && running.size >= maxRunning) {
        return busy(running.size);
      }
      const run = running.get(key) ?? start(key, period);
      run.waiters++;
      try {
        return answer(await untilAborted(run.promise, signal), 'miss');
      } catch (err) {
        if (signal?.aborted) return errorResponse(new ConsoleHttpError(499, 'bad_request', 'the client went away before the analytics were counted'));
        const provider = providerErrorResponse(err);
        if (provider) return provider;
        throw err;
      } finally {
        run.waiters--;
        // Nobody waits for it any more: stop reading the provider (a later request starts afresh).
        if (run.waiters === 0 && running.get(key) === run && signal?.aborted) {
          running.delete(key);
          run.stop.abort(signal.reason);
        }
      }
    },
  };
}
