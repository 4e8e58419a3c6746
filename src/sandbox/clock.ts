/**
 * The sandbox clock: an injectable time source plus an offset that scenario controls move forward
 * (`POST /sandbox/clock/advance`). Every timestamp, expiry and default list period follows it.
 */
export interface SandboxClock {
  /** Current sandbox time in epoch milliseconds. */
  now(): number;
  /** Moves the sandbox time forward; negative or non-finite values are refused. */
  advance(seconds: number): void;
  /** Total milliseconds added by {@link advance} so far. */
  readonly offsetMs: number;
}

/** `initialOffsetMs`: where an earlier run left the clock (the state file). */
export function createClock(base: () => number = Date.now, initialOffsetMs = 0): SandboxClock {
  let offsetMs = Math.max(0, Math.round(initialOffsetMs));
  return {
    now: () => base() + offsetMs,
    advance(seconds: number) {
      if (!Number.isFinite(seconds) || seconds < 0) throw new RangeError('seconds must be a finite, non-negative number');
      offsetMs += Math.round(seconds * 1000);
    },
    get offsetMs() {
      return offsetMs;
    },
  };
}
