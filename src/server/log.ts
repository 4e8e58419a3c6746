/**
 * The handler's logger: every message and field passes through redaction of the provider key and
 * every secret before it reaches the merchant's logger, so none can leak into a log line.
 */
import type { LogLevel, Logger } from './options.js';

export type SafeLogger = Record<LogLevel, (message: string, fields?: Record<string, unknown>) => void>;

const REDACTED = '[redacted]';

/** Serialisable view of an error (name, message, code, status), without stack or cause chains. */
function describeError(err: Error): Record<string, unknown> {
  const out: Record<string, unknown> = { name: err.name, message: err.message };
  const e = err as Error & { code?: unknown; status?: unknown };
  if (typeof e.code === 'string') out.code = e.code;
  if (typeof e.status === 'number') out.status = e.status;
  return out;
}

export function createSafeLogger(logger: Logger | undefined, secrets: ReadonlyArray<string | undefined>): SafeLogger {
  const words = secrets.filter((s): s is string => typeof s === 'string' && s.length >= 4);
  const scrub = (text: string): string => {
    let out = text;
    for (const w of words) if (out.includes(w)) out = out.split(w).join(REDACTED);
    return out;
  };
  const clean = (value: unknown, depth: number): unknown => {
    if (typeof value === 'string') return scrub(value);
    if (value instanceof Error) return clean(describeError(value), depth);
    if (depth > 4 || value === null || typeof value !== 'object') return value;
    if (Array.isArray(value)) return value.map((v) => clean(v, depth + 1));
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      out[k] = /api[-_]?key|secret|authorization|signature/i.test(k) ? REDACTED : clean(v, depth + 1);
    }
    return out;
  };
  const emit = (level: LogLevel) => (message: string, fields?: Record<string, unknown>) => {
    if (!logger) return;
    const fn = logger[level];
    if (typeof fn !== 'function') return;
    try {
      const m = `paydesk: ${scrub(message)}`;
      if (fields === undefined) fn.call(logger, m);
      else fn.call(logger, m, clean(fields, 0) as Record<string, unknown>);
    } catch {
      // A broken logger never breaks a payment.
    }
  };
  return { debug: emit('debug'), info: emit('info'), warn: emit('warn'), error: emit('error') };
}
