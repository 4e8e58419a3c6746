/**
 * The provider's times (src/provider/time.ts): a time written without a zone is UTC, whatever the
 * reading process's time zone. The one unit test of that rule; the client's query checks, the
 * sandbox's date filters and the server's order view all read times through these functions.
 */
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { parseIsoDateTime, providerIso, providerTime } from '../../../src/provider/time.js';

describe('parseIsoDateTime', () => {
  test('reads dates and date-times as UTC unless a zone says otherwise', () => {
    assert.equal(parseIsoDateTime('2025-01-31'), Date.UTC(2025, 0, 31));
    assert.equal(parseIsoDateTime('2025-01-31T23:59'), Date.UTC(2025, 0, 31, 23, 59));
    assert.equal(parseIsoDateTime('2025-01-31 23:59:59.5'), Date.UTC(2025, 0, 31, 23, 59, 59, 500));
    assert.equal(parseIsoDateTime('2025-01-31T23:59:59.123456Z'), Date.UTC(2025, 0, 31, 23, 59, 59, 123));
    assert.equal(parseIsoDateTime('2025-02-01T02:59:59+03:00'), Date.UTC(2025, 0, 31, 23, 59, 59));
    assert.equal(parseIsoDateTime('2025-01-31T18:59:59-0500'), Date.UTC(2025, 0, 31, 23, 59, 59));
    assert.equal(parseIsoDateTime('2025-02-01T02:59:59 03:00'), Date.UTC(2025, 0, 31, 23, 59, 59), 'a + decoded to a space');
    assert.equal(parseIsoDateTime('2024-02-29'), Date.UTC(2024, 1, 29));
    assert.equal(parseIsoDateTime('0099-01-01'), Date.parse('0099-01-01T00:00:00Z'), 'years below 100 are not taken for 19xx');
  });

  test('refuses other formats and impossible times', () => {
    for (const bad of ['', '1', '2025', '2025-1-1', '2025-02-29', '2025-04-31', '2025-01-01T24:00', '2025-01-01T10:60', '2025-01-01T10:00:00+15:00', '31.01.2025', 'yesterday', `2025-01-01T00:00:00.${'1'.repeat(80)}Z`]) {
      assert.equal(parseIsoDateTime(bad), null, bad);
    }
  });
});

describe('provider times', () => {
  test('a zone-less provider time is UTC in a process east of UTC; with a zone it is read as written', () => {
    const tz = process.env.TZ;
    process.env.TZ = 'Europe/Moscow'; // Date.parse would read a zone-less time as this local time
    try {
      assert.equal(new Date(Date.UTC(2026, 2, 1, 12)).getHours(), 15, 'the time zone took effect');
      assert.equal(providerTime('2024-08-02T15:34:07.440105'), Date.UTC(2024, 7, 2, 15, 34, 7, 440));
      assert.equal(providerTime('2024-08-02 16:04:07'), Date.UTC(2024, 7, 2, 16, 4, 7));
      assert.equal(providerTime('2024-08-02T18:34:07+03:00'), Date.UTC(2024, 7, 2, 15, 34, 7));
      assert.equal(providerIso('2024-08-02T15:34:07.440105'), '2024-08-02T15:34:07.440Z');
    } finally {
      if (tz === undefined) delete process.env.TZ;
      else process.env.TZ = tz;
    }
  });

  test('an unreadable time: NaN, and as ISO the fallback time or else the text itself', () => {
    assert.ok(Number.isNaN(providerTime('soon')));
    assert.equal(providerIso('soon', Date.UTC(2025, 0, 1)), '2025-01-01T00:00:00.000Z');
    assert.equal(providerIso('soon'), 'soon');
  });
});
