/**
 * Time zones of the console's periods, over `Intl` only: an IANA name checked, the local date of an
 * instant, the instants a zone's days start at (DST-correct: a day of 23 or 25 hours is one day), and
 * ISO 8601 text of an instant with the zone's offset (`2026-03-29T02:30:00.000+03:00`).
 */

const MINUTE = 60_000;
/** Offsets are looked up once per quarter hour (every zone's transitions since 1970 fall on one). */
const SLOT = 15 * MINUTE;
const MAX_CACHED_SLOTS = 100_000;

interface Zone {
  parts: Intl.DateTimeFormat;
  /** Offset (minutes east of UTC) by quarter-hour slot. */
  offsets: Map<number, number>;
}

const zones = new Map<string, Zone>();

/** A time zone name as `Intl` knows it (`Europe/Moscow`, `UTC`), or null when it names none. */
export function checkTimeZone(name: string): string | null {
  if (typeof name !== 'string' || name.length === 0 || name.length > 64 || !/^[A-Za-z0-9_+\-/]+$/.test(name)) return null;
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
}

function zone(tz: string): Zone {
  let z = zones.get(tz);
  if (!z) {
    const parts = new Intl.DateTimeFormat('en-US', {
      timeZone: tz,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    z = { parts, offsets: new Map() };
    if (zones.size > 64) zones.clear();
    zones.set(tz, z);
  }
  return z;
}

/** The wall clock of `ms` in `tz`: year, month (1–12), day, hour, minute, second. */
function wallClock(z: Zone, ms: number): [number, number, number, number, number, number] {
  const out = [0, 0, 0, 0, 0, 0] as [number, number, number, number, number, number];
  for (const p of z.parts.formatToParts(ms)) {
    const i = ['year', 'month', 'day', 'hour', 'minute', 'second'].indexOf(p.type);
    if (i >= 0) out[i] = Number(p.value);
  }
  return out;
}

/** Minutes east of UTC that `tz` is at the instant `ms`. */
export function offsetMinutes(tz: string, ms: number): number {
  const z = zone(tz);
  const slot = Math.floor(ms / SLOT);
  const cached = z.offsets.get(slot);
  if (cached !== undefined) return cached;
  const at = slot * SLOT;
  const [y, mo, d, h, mi, s] = wallClock(z, at);
  const offset = Math.round((Date.UTC(y, mo - 1, d, h, mi, s) - at) / MINUTE);
  if (z.offsets.size >= MAX_CACHED_SLOTS) z.offsets.clear();
  z.offsets.set(slot, offset);
  return offset;
}

/** `YYYY-MM-DD` of `ms` in `tz`. */
export function localDate(tz: string, ms: number): string {
  return new Date(ms + offsetMinutes(tz, ms) * MINUTE).toISOString().slice(0, 10);
}

/** ISO 8601 text of `ms` as the wall clock of `tz` with its offset (`Z` for UTC itself). */
export function isoInZone(tz: string, ms: number): string {
  const offset = offsetMinutes(tz, ms);
  const local = new Date(ms + offset * MINUTE).toISOString().slice(0, 23);
  if (tz === 'UTC' || tz === 'Etc/UTC') return `${local}Z`;
  const abs = Math.abs(offset);
  return `${local}${offset < 0 ? '-' : '+'}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

/** The first instant whose local date in `tz` is `date` (`YYYY-MM-DD`) or later: where that day starts. */
export function dayStart(tz: string, date: string): number {
  const midnightUtc = Date.parse(`${date}T00:00:00Z`);
  // Usually midnight at the offset midnight has; a day that starts at 01:00 (DST at midnight) is searched.
  const guess = midnightUtc - offsetMinutes(tz, midnightUtc) * MINUTE;
  if (localDate(tz, guess) === date && localDate(tz, guess - 1) < date) return guess;
  let lo = midnightUtc - 26 * 60 * MINUTE; // local date before `date` here (offsets are −12 h to +14 h)
  let hi = midnightUtc + 26 * 60 * MINUTE; // and at or after it here
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (localDate(tz, mid) >= date) hi = mid;
    else lo = mid;
  }
  return hi;
}

/** The date after `date` (`YYYY-MM-DD`). */
export function nextDate(date: string): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + 24 * 60 * MINUTE).toISOString().slice(0, 10);
}

/** The local days of `tz` that [fromMs, toMs] touches, each with the instant it starts; `end`: where the last one ends. */
export function daysOf(tz: string, fromMs: number, toMs: number): { dates: string[]; starts: number[]; end: number } {
  const dates: string[] = [];
  const starts: number[] = [];
  const last = localDate(tz, toMs);
  for (let date = localDate(tz, fromMs); date <= last; date = nextDate(date)) {
    dates.push(date);
    starts.push(dayStart(tz, date));
  }
  return { dates, starts, end: dayStart(tz, nextDate(last)) };
}
