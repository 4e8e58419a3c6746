/**
 * Countdown math on server time. The server says what time it is (`server_time`); we keep that
 * instant together with a monotonic reading (`performance.now()`), so the countdown neither depends
 * on a device clock that is minutes off nor jumps when somebody changes it. After the machine sleeps
 * (the monotonic clock may pause) or the wall clock jumps, the caller re-syncs from the server.
 */

/** A server instant paired with the monotonic reading taken when it arrived. */
export interface TimeSync {
  serverMs: number;
  monoMs: number;
}

/** A clock the element reads; tests inject a fake one. */
export interface Clock {
  /** Wall time, ms since the epoch (`Date.now()`). */
  now(): number;
  /** Monotonic time in ms (`performance.now()`). */
  mono(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(id: unknown): void;
}

export const systemClock: Clock = {
  now: Date.now,
  mono: () => performance.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (id) => clearTimeout(id as ReturnType<typeof setTimeout>),
};

/** A sync from a `server_time` string; null when it is not a date. */
export function syncFrom(serverTime: string | null | undefined, monoNow: number): TimeSync | null {
  const ms = Date.parse(serverTime ?? '');
  return isNaN(ms) ? null : { serverMs: ms, monoMs: monoNow };
}

/** The server's current time, by the last sync (or the wall clock without one). */
export function serverNow(sync: TimeSync | null, monoNow: number, wallNow: number): number {
  return sync ? sync.serverMs + (monoNow - sync.monoMs) : wallNow;
}

/** Milliseconds left until `expiresAt` (never negative); 0 for a malformed date. */
export function remainingMs(expiresAt: string, sync: TimeSync | null, monoNow: number, wallNow: number): number {
  return Math.max(0, Date.parse(expiresAt) - serverNow(sync, monoNow, wallNow)) || 0;
}
