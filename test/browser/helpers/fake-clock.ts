import type { Clock } from '../../../src/element/countdown.js';

interface Timer {
  id: number;
  at: number;
  fn: () => void;
}

/**
 * A controllable clock: wall time and monotonic time advance together with `advance()`; `sleep()`
 * moves only the wall clock (a device that slept), `setWall()` changes the device clock.
 */
export class FakeClock implements Clock {
  wall: number;
  monoMs = 10_000;
  private timers: Timer[] = [];
  private nextId = 1;

  constructor(wall = Date.parse('2026-03-02T10:00:00.000Z')) {
    this.wall = wall;
  }

  now(): number {
    return this.wall;
  }

  mono(): number {
    return this.monoMs;
  }

  setTimeout(fn: () => void, ms: number): number {
    const id = this.nextId++;
    this.timers.push({ id, at: this.monoMs + Math.max(0, ms), fn });
    return id;
  }

  clearTimeout(id: unknown): void {
    this.timers = this.timers.filter((t) => t.id !== id);
  }

  /** Timers waiting to fire. */
  get pending(): number {
    return this.timers.length;
  }

  /** Moves both clocks forward, firing due timers in order. */
  advance(ms: number): void {
    const target = this.monoMs + ms;
    for (;;) {
      const due = this.timers.filter((t) => t.at <= target).sort((a, b) => a.at - b.at || a.id - b.id)[0];
      if (!due) break;
      this.timers = this.timers.filter((t) => t !== due);
      this.wall += due.at - this.monoMs;
      this.monoMs = due.at;
      due.fn();
    }
    this.wall += target - this.monoMs;
    this.monoMs = target;
  }

  /** The device slept for `ms`: the wall clock moved, the monotonic clock did not. */
  sleep(ms: number): void {
    this.wall += ms;
  }

  /** The device clock was set to `wall` (monotonic time unchanged). */
  setWall(wall: number): void {
    this.wall = wall;
  }
}
