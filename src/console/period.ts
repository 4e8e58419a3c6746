/**
 * The query of the exports and the analytics, checked: `from` and `to` (ISO 8601; without a zone,
 * UTC, as the provider reads it), `tz` (an IANA time zone), and the filters each route names. A bad
 * value is a {@link FieldError} that names the field; the route answers it as a 400.
 */
import { parseIsoDateTime } from '../provider/time.js';
import { checkTimeZone } from './zone.js';

/** The longest period an export or the analytics takes, in days. */
export const MAX_PERIOD_DAYS = 366;
const DAY_MS = 24 * 3600 * 1000;

/** A value of the query that cannot be used; `field` names it. */
export class FieldError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(`${field}: ${message}`);
    this.name = 'FieldError';
  }
}

export interface Period {
  /** Epoch ms, both ends included. */
  fromMs: number;
  toMs: number;
  /** The time zone asked for, as `Intl` names it; null when none was given. */
  tz: string | null;
}

/** The single value of `name` (empty counts as absent), or a FieldError when it is given twice. */
export function single(params: URLSearchParams, name: string): string | undefined {
  const values = params.getAll(name).filter((v) => v !== '');
  if (values.length > 1) throw new FieldError(name, 'give it once');
  return values[0];
}

/** Every parameter is one of `known` (else a FieldError naming the first stranger). */
export function onlyKnown(params: URLSearchParams, known: readonly string[]): void {
  for (const key of params.keys()) {
    if (!known.includes(key)) throw new FieldError(key, `is not a filter here; the filters are ${known.join(', ')}`);
  }
}

function instant(params: URLSearchParams, name: 'from' | 'to'): number {
  const value = single(params, name);
  if (value === undefined) throw new FieldError(name, 'is required: an ISO 8601 date-time such as 2026-11-01T00:00:00+03:00');
  const ms = parseIsoDateTime(value);
  if (ms === null) throw new FieldError(name, `must be an ISO 8601 date or date-time such as 2026-11-01T00:00:00+03:00, got "${value.slice(0, 40)}"`);
  return ms;
}

/** `from`, `to` and `tz` of the query, checked (`tz` required or optional). */
export function readPeriod(params: URLSearchParams, o: { tzRequired: boolean }): Period {
  const fromMs = instant(params, 'from');
  const toMs = instant(params, 'to');
  if (fromMs > toMs) throw new FieldError('from', 'must not be after to');
  if (toMs - fromMs > MAX_PERIOD_DAYS * DAY_MS) throw new FieldError('to', `the period is at most ${MAX_PERIOD_DAYS} days`);
  const tzText = single(params, 'tz');
  if (tzText === undefined) {
    if (o.tzRequired) throw new FieldError('tz', 'is required: an IANA time zone such as Europe/Moscow');
    return { fromMs, toMs, tz: null };
  }
  const tz = checkTimeZone(tzText);
  if (tz === null) throw new FieldError('tz', `must be an IANA time zone such as Europe/Moscow or UTC, got "${tzText.slice(0, 64)}"`);
  return { fromMs, toMs, tz };
}
