/** Wire formats of the provider: timestamps and identifiers. */
import { randomUUID } from 'node:crypto';

/** ISO 8601 UTC with milliseconds: `2024-08-02T15:34:07.440Z` (orders, transactions, disputes). */
export function isoMillis(ms: number): string {
  return new Date(ms).toISOString();
}

/** ISO 8601 UTC with microseconds: `2024-08-02T15:34:07.440000Z` (form sessions). */
export function isoMicros(ms: number): string {
  const text = new Date(ms).toISOString();
  return `${text.slice(0, -1)}000Z`;
}

/** The webhook envelope's `datetime`, as seen in public samples: microseconds, UTC, no zone suffix. */
export function webhookDatetime(ms: number): string {
  return isoMicros(ms).slice(0, -1);
}

/** An NSPK QR identifier: 32 upper-case letters and digits (random, from a UUID's 128 bits). */
export function nspkQrId(): string {
  return randomUUID().replace(/-/g, '').toUpperCase();
}

/** Parses a date-time query value to epoch milliseconds (the schemas have already checked it parses). */
export function parseDateQuery(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? undefined : ms;
}
