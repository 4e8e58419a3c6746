import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { remainingMs, serverNow, syncFrom } from '../../../src/element/countdown.js';
import { clocksDiverged, crossedThreshold, msToNextSecond } from '../../../src/element/live.js';

const T0 = Date.parse('2026-03-02T10:00:00.000Z');
const expires = new Date(T0 + 30 * 60_000).toISOString();

describe('countdown on server time', () => {
  test('the remaining time follows the server clock, not the device clock', () => {
    const sync = syncFrom(new Date(T0).toISOString(), 5000)!;
    const deviceMinutesAhead = T0 + 7 * 60_000;
    assert.equal(remainingMs(expires, sync, 5000, deviceMinutesAhead), 30 * 60_000);
    assert.equal(remainingMs(expires, sync, 5000 + 61_000, deviceMinutesAhead + 61_000), 30 * 60_000 - 61_000);
  });

  test('changing the device clock does not move the countdown', () => {
    const sync = syncFrom(new Date(T0).toISOString(), 0)!;
    assert.equal(remainingMs(expires, sync, 10_000, T0 - 3_600_000), 30 * 60_000 - 10_000);
  });

  test('a re-sync replaces the instant', () => {
    const later = syncFrom(new Date(T0 + 120_000).toISOString(), 50_000)!;
    assert.equal(serverNow(later, 60_000, 0), T0 + 130_000);
  });

  test('without a sync the wall clock is used', () => {
    assert.equal(remainingMs(expires, null, 0, T0 + 60_000), 29 * 60_000);
  });

  test('never negative; a malformed date counts as expired; a malformed server time gives no sync', () => {
    assert.equal(remainingMs(expires, null, 0, T0 + 3_600_000), 0);
    assert.equal(remainingMs('not a date', null, 0, T0), 0);
    assert.equal(syncFrom('yesterday-ish', 0), null);
    assert.equal(syncFrom(null, 0), null);
  });

  test('ticks land on the second boundary of the remaining time', () => {
    assert.equal(msToNextSecond(30_000), 1000);
    assert.equal(msToNextSecond(29_250), 250);
    assert.equal(msToNextSecond(1), 1);
  });
});

describe('announcement thresholds', () => {
  test('announces 10, 5 and 1 minute when crossed, nothing in between', () => {
    assert.equal(crossedThreshold(600_500, 599_500), 10);
    assert.equal(crossedThreshold(599_500, 598_500), null);
    assert.equal(crossedThreshold(300_200, 299_200), 5);
    assert.equal(crossedThreshold(60_400, 59_400), 1);
    assert.equal(crossedThreshold(59_400, 58_400), null);
  });

  test('after a long sleep only the smallest crossed threshold is announced', () => {
    assert.equal(crossedThreshold(900_000, 30_000), 1);
  });

  test('the first reading (nothing before it) announces nothing, even below a threshold', () => {
    assert.equal(crossedThreshold(Infinity, 1_799_000), null);
    assert.equal(crossedThreshold(Infinity, 240_000), null);
  });
});

describe('sleep and clock-change detection', () => {
  test('wall and monotonic time moving together is normal', () => {
    assert.equal(clocksDiverged(1000, 1000), false);
    assert.equal(clocksDiverged(1800, 1000), false);
  });

  test('a device that slept (monotonic time paused) or a changed clock is noticed', () => {
    assert.equal(clocksDiverged(600_000, 1000), true);
    assert.equal(clocksDiverged(-300_000, 1000), true);
  });
});
