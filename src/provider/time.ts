/**
 * The provider's times, read in one place. The rule: a time written without a zone is UTC (the
 * provider writes its times so, provider-notes.md: `2024-08-02T15:34:07.440105`, query dates
 * `Y-m-d H:i:s`), whatever the time zone of the process that reads it; `Date.parse` would read it
 * as local time. The client's request checks, the merchant server and the sandbox all read times here.
 */

/**
 * `YYYY-MM-DD`, or with a time `THH:MM[:SS[.fraction]]` and an optional zone (`Z`, `±HH:MM`, `±HHMM`,
 * `±HH`). A space may stand for `T`, and for the `+` of a zone (what an unencoded `+` in a query
 * string becomes). No zone means UTC.
 */
const ISO_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}(?::?\d{2})?| \d{2}:?\d{2})?)?$/i;

/**
 * Epoch milliseconds of an ISO 8601 date or date-time of the provider's query parameters, or null
 * when the text is not one or names no real time (`2025-02-30`, `24:00`). Unlike `Date.parse` it
 * takes no other formats (`1`, `12/31/2024`) and never reads a time as local time.
 */
export function parseIsoDateTime(value: string): number | null {
  if (typeof value !== 'string' || value.length > 64) return null;
  const m = ISO_DATE_TIME.exec(value.trim());
  if (!m) return null;
  const [year, month, day, hour, minute, second] = [m[1], m[2], m[3], m[4] ?? '0', m[5] ?? '0', m[6] ?? '0'].map(Number) as [
    number, number, number, number, number, number,
  ];
  const millis = Number(((m[7] ?? '') + '000').slice(0, 3));
  if (month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59) return null;
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  if (date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return null; // 2025-02-30
  date.setUTCHours(hour, minute, second, millis);
  let offsetMinutes = 0;
  const zone = m[8];
  if (zone !== undefined && zone.toUpperCase() !== 'Z') {
    const digits = zone.slice(1).replace(':', '');
    const hours = Number(digits.slice(0, 2));
    const minutes = digits.length > 2 ? Number(digits.slice(2)) : 0;
    if (hours > 14 || minutes > 59) return null;
    offsetMinutes = (zone[0] === '-' ? -1 : 1) * (hours * 60 + minutes);
  }
  return date.getTime() - offsetMinutes * 60_000;
}

/**
 * Epoch ms of a time the provider wrote (`created_at`, `expires_at`, …), NaN when unreadable. The
 * provider's times are UTC and may come without a zone (provider-notes.md: `2024-08-02T15:34:07.440105`,
 * `Y-m-d H:i:s`); `Date.parse` would read those as the server's local time.
 */
export function providerTime(value: string): number {
  return parseIsoDateTime(value) ?? Date.parse(value);
}

/**
 * A time the provider wrote, as ISO 8601 in UTC with its zone (`…Z`), which any reader (a shopper's
 * browser too) reads the same. Unreadable: `fallbackMs` as such a time, or without one the text as it is.
 */
export function providerIso(value: string, fallbackMs?: number): string {
  const t = providerTime(value);
  return Number.isFinite(t) ? new Date(t).toISOString() : fallbackMs === undefined ? value : new Date(fallbackMs).toISOString();
}
