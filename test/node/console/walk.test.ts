import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { walkNewestFirst, type WalkRequest } from '../../../src/console/walk.js';

interface Rec {
  id: string;
  at: number;
  status: string;
}

const T0 = Date.parse('2025-03-01T00:00:00Z');

/** A provider list over `records` as it is at each request: the period (inclusive), an optional status filter, newest first, by page. */
function listOf(records: Rec[], status?: string) {
  const requests: WalkRequest[] = [];
  const read = async (r: WalkRequest) => {
    requests.push(r);
    const start = Date.parse(r.start_date);
    const end = Date.parse(r.end_date);
    const matches = records.filter((x) => x.at >= start && x.at <= end && (status === undefined || x.status === status)).sort((a, b) => b.at - a.at);
    return { items: matches.slice((r.page - 1) * r.size, r.page * r.size), pages: Math.ceil(matches.length / r.size) };
  };
  return { read, requests };
}

async function walk(records: Rec[], read: (r: WalkRequest) => Promise<{ items: Rec[]; pages: number }>, size = 10, onItem?: (r: Rec, n: number) => void) {
  const out: string[] = [];
  const last = records.reduce((m, r) => Math.max(m, r.at), T0);
  for await (const r of walkNewestFirst({ fromMs: T0, toMs: last, read, createdMs: (x) => x.at, id: (x) => x.id, size })) {
    onItem?.(r, out.length);
    out.push(r.id);
  }
  return out;
}

describe('the time-cursor walk', () => {
  test('every record once, newest first, with times in milliseconds', async () => {
    const records = Array.from({ length: 95 }, (_, i) => ({ id: `r${i}`, at: T0 + i * 1234, status: 'Unpaid' }));
    const { read } = listOf(records);
    assert.deepEqual(await walk(records, read), [...records].reverse().map((r) => r.id));
  });

  test('a record that leaves the filter while the walk runs does not make it skip another (page numbers would)', async () => {
    const records = Array.from({ length: 50 }, (_, i) => ({ id: `r${i}`, at: T0 + i * 60_000, status: 'Unpaid' }));
    const { read } = listOf(records, 'Unpaid');
    // After the first page is read, the newest order is paid: the status=Unpaid list loses it.
    const seen = await walk(records, read, 10, (_, n) => {
      if (n === 9) records[49]!.status = 'Completed';
    });
    assert.deepEqual(seen, [...records].reverse().map((r) => r.id));
  });

  test('records added on top while the walk runs are not read twice', async () => {
    const records = Array.from({ length: 40 }, (_, i) => ({ id: `r${i}`, at: T0 + i * 60_000, status: 'Unpaid' }));
    const { read } = listOf(records);
    const seen = await walk(records, read, 10, (_, n) => {
      if (n % 10 === 0) records.push({ id: `new${n}`, at: T0 + 39 * 60_000, status: 'Unpaid' });
    });
    assert.equal(new Set(seen).size, seen.length, 'no record twice');
    for (const r of records.slice(0, 40)) assert.ok(seen.includes(r.id), r.id);
  });

  test('more records at one second than a page holds: walked by page number within it', async () => {
    const records = [
      ...Array.from({ length: 25 }, (_, i) => ({ id: `same${i}`, at: T0 + 5000, status: 'Unpaid' })),
      ...Array.from({ length: 5 }, (_, i) => ({ id: `older${i}`, at: T0 + i * 100, status: 'Unpaid' })),
    ];
    const { read } = listOf(records);
    const seen = await walk(records, read, 10);
    assert.equal(seen.length, 30);
    assert.equal(new Set(seen).size, 30);
  });

  test('the end is sent rounded up to the whole second, the start down; records outside the period are dropped', async () => {
    const records = [
      { id: 'before', at: T0 - 300, status: 'Unpaid' },
      { id: 'in', at: T0 + 200, status: 'Unpaid' },
      { id: 'after', at: T0 + 700, status: 'Unpaid' },
    ];
    const { read, requests } = listOf(records);
    const out: string[] = [];
    for await (const r of walkNewestFirst({ fromMs: T0 - 100, toMs: T0 + 500, read, createdMs: (x) => x.at, id: (x) => x.id })) out.push(r.id);
    assert.deepEqual(out, ['in']);
    assert.equal(requests[0]!.start_date, '2025-02-28T23:59:59Z');
    assert.equal(requests[0]!.end_date, '2025-03-01T00:00:01Z');
  });
});
