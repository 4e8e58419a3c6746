/**
 * Per-terminal lists kept sorted by creation time (then by sequence number), so a date range is a
 * binary search and "newest first" is a walk from the end.
 */

/** A record with a creation time and a per-terminal sequence number (the tie-breaker). */
export interface Timed {
  createdMs: number;
  seq: number;
}

const before = (a: Timed, b: Timed) => a.createdMs < b.createdMs || (a.createdMs === b.createdMs && a.seq < b.seq);

/** Inserts in order; appending (the common case: a record created now) costs no search. */
export function insertByTime<T extends Timed>(list: T[], item: T): void {
  const last = list[list.length - 1];
  if (!last || before(last, item)) {
    list.push(item);
    return;
  }
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (before(list[mid]!, item)) lo = mid + 1;
    else hi = mid;
  }
  list.splice(lo, 0, item);
}

export function sortByTime<T extends Timed>(list: T[]): void {
  list.sort((a, b) => a.createdMs - b.createdMs || a.seq - b.seq);
}

/** First index whose createdMs >= ms. */
export function lowerBound(list: readonly Timed[], ms: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (list[mid]!.createdMs < ms) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** First index whose createdMs > ms. */
export function upperBound(list: readonly Timed[], ms: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (list[mid]!.createdMs <= ms) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
