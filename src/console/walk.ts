/**
 * Every record of a provider list within a period, newest first, one page at a time, in bounded
 * memory: the exports and the analytics read 100,000 orders through it without holding them.
 *
 * Pages are walked by a time cursor, not by page number: after each page the period's end moves to
 * the oldest time read so far, and the next request is page 1 of that shorter period. A list read by
 * page number skips a record when one before it leaves the filter meanwhile (an `Unpaid` order paid
 * while a `status=Unpaid` export runs) and repeats one when a record is added on top; the cursor does
 * neither. Records newer than the cursor are known to have been read; of those at the cursor's own
 * time, the ids read are kept (a tie of more than a page at one instant is walked by page number
 * within it). The end is sent rounded up to the whole second and the start down (a provider that
 * reads `Y-m-d H:i:s` loses nothing); records outside the period asked for, or without a creation
 * time that reads, are dropped here.
 */

/** One request of the walk: the provider's `start_date`/`end_date` (ISO 8601, UTC), page and size. */
export interface WalkRequest {
  start_date: string;
  end_date: string;
  page: number;
  size: number;
}

/** What a list answers: its page of records and how many pages the request's period has. */
export interface WalkPage<T> {
  items: readonly T[];
  pages: number;
}

export interface WalkOptions<T> {
  /** The period, epoch ms, both ends included (as the provider's `start_date`/`end_date`). */
  fromMs: number;
  toMs: number;
  /** A page of the list (newest first) for a request. */
  read: (request: WalkRequest) => Promise<WalkPage<T>>;
  /** A record's creation time, epoch ms (NaN when it has none that reads). */
  createdMs: (item: T) => number;
  id: (item: T) => string;
  /** Records a page (default 100, the provider's most). */
  size?: number;
  /** Stops the walk before its next request. */
  signal?: AbortSignal;
}

const SECOND = 1000;
const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');

/** The records of the period, newest first, each once (see the file comment). */
export async function* walkNewestFirst<T>(o: WalkOptions<T>): AsyncGenerator<T, void, undefined> {
  for await (const page of walkPages(o)) yield* page;
}

/** The same, a provider page at a time: the records each request brought that were not read before (never empty). */
export async function* walkPages<T>(o: WalkOptions<T>): AsyncGenerator<T[], void, undefined> {
  const size = o.size ?? 100;
  const start = iso(Math.floor(o.fromMs / SECOND) * SECOND);
  let end = Math.ceil(o.toMs / SECOND) * SECOND;
  let page = 1;
  let cursor = Infinity;
  const atCursor = new Set<string>();
  for (;;) {
    o.signal?.throwIfAborted();
    const res = await o.read({ start_date: start, end_date: iso(end), page, size });
    const fresh: T[] = [];
    for (const item of res.items) {
      const at = o.createdMs(item);
      // Outside the period (a provider that reads whole seconds), or no time to place it by.
      if (!(at >= o.fromMs && at <= o.toMs)) continue;
      if (at > cursor) continue; // newer than the cursor: read before
      if (at === cursor) {
        const key = o.id(item);
        if (atCursor.has(key)) continue;
        atCursor.add(key);
      } else if (at < cursor) {
        cursor = at;
        atCursor.clear();
        atCursor.add(o.id(item));
      }
      fresh.push(item);
    }
    if (fresh.length > 0) yield fresh;
    if (res.items.length < size || page >= res.pages) return;
    const next = Math.ceil(cursor / SECOND) * SECOND;
    if (next < end) {
      end = next;
      page = 1;
    } else {
      page++; // the whole page is at the cursor's second: the next page of the same request
    }
  }
}
