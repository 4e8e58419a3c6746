/**
 * A provider time as epoch ms: the common `2025-03-01T12:00:00.000Z` by `Date.parse` (exact for
 * that form), anything else by paydesk/provider's `parseIsoDateTime` (no zone means UTC); NaN when
 * it is not a time. Read three to five times per order of an export or the analytics.
 */
import { parseIsoDateTime } from '../provider/time.js';

const PLAIN_UTC = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

export function timeMs(text: string | null | undefined): number {
  if (typeof text !== 'string') return NaN;
  if (text.length === 24 && PLAIN_UTC.test(text)) return Date.parse(text);
  return parseIsoDateTime(text) ?? NaN;
}
