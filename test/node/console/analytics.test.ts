import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createAnalytics, slices, type AnalyticsReport } from '../../../src/console/analytics.js';
import { dayStart, daysOf, isoInZone, localDate } from '../../../src/console/zone.js';
import type { Order, ProviderClient } from '../../../src/provider/index.js';
import { DAY, START, everyRecord, sandboxWorld, syntheticClient } from './export-helpers.js';
import { categoryAxis } from '../../../src/console/ui/analytics-axis.js';
import { methodTypeLabel } from '../../../src/console/ui/labels.js';

const iso = (ms: number) => new Date(ms).toISOString();
const query = (q: Record<string, string>) => new URLSearchParams(q);
const MINUTE = 60_000;

/**
 * The report counted the plain way from the provider's lists (page numbers, every record in memory,
 * days by Intl's own formatting): what the analytics must agree with.
 */
async function countFromLists(client: ProviderClient, fromMs: number, toMs: number, tz: string, nowMs: number) {
  const orders = (await everyRecord((page) => client.listOrders({ start_date: iso(fromMs), end_date: iso(toMs), order_side: 'Buy', page, size: 100 }))) as Order[];
  const disputes = await everyRecord((page) => client.searchDisputes({ start_date: iso(fromMs), end_date: iso(nowMs), page, size: 100 }));
  const disputed = new Set(disputes.map((d) => d.order_id));
  const dayOf = new Intl.DateTimeFormat('en-CA', { timeZone: tz, year: 'numeric', month: '2-digit', day: '2-digit' });
  const days = new Map<string, { created: number; paid: number; expired: number; late: number; disputed: number }>();
  const methods = new Map<string, { created: number; paid: number }>();
  const seconds: number[] = [];
  for (const o of orders) {
    const date = dayOf.format(new Date(o.created_at));
    const d = days.get(date) ?? { created: 0, paid: 0, expired: 0, late: 0, disputed: 0 };
    days.set(date, d);
    const m = methods.get(o.method_type) ?? { created: 0, paid: 0 };
    methods.set(o.method_type, m);
    d.created++;
    m.created++;
    if (o.status === 'Completed') {
      d.paid++;
      m.paid++;
      if (Date.parse(o.updated_at) > Date.parse(o.expires_at)) d.late++;
      seconds.push(Math.round((Date.parse(o.updated_at) - Date.parse(o.created_at)) / 1000));
    }
    if (o.status === 'CanceledByTimeout') d.expired++;
    if (disputed.has(o.id)) d.disputed++;
  }
  seconds.sort((a, b) => a - b);
  const rank = (p: number) => (seconds.length ? seconds[Math.ceil((p / 100) * seconds.length) - 1]! : null);
  return { orders, days, methods, p50: rank(50), p90: rank(90), paid: seconds.length };
}

function sameAsLists(report: AnalyticsReport, plain: Awaited<ReturnType<typeof countFromLists>>) {
  for (const row of report.days) {
    const d = plain.days.get(row.date) ?? { created: 0, paid: 0, expired: 0, late: 0, disputed: 0 };
    assert.deepEqual({ created: row.created, paid: row.paid, expired: row.expired, late: row.late, disputed: row.disputed }, d, row.date);
  }
  assert.equal(
    report.days.reduce((s, d) => s + d.created, 0),
    plain.orders.length,
    'every payment of the period is on one of the days',
  );
  assert.deepEqual(
    Object.fromEntries(report.by_method.map((m) => [m.method, { created: m.created, paid: m.paid }])),
    Object.fromEntries(plain.methods),
  );
  assert.equal(report.time_to_pay.p50_seconds, plain.p50);
  assert.equal(report.time_to_pay.p90_seconds, plain.p90);
  assert.equal(
    report.time_to_pay.histogram.reduce((s, b) => s + b.count, 0),
    plain.paid,
  );
}

describe('analytics of the sandbox', () => {
  const w = sandboxWorld();
  after(() => w.close());

  test("the seeded month: every number agrees with a count made from the provider's lists, in Moscow and in UTC", async () => {
    const analytics = createAnalytics(w.client, { now: () => w.time.now });
    for (const tz of ['Europe/Moscow', 'UTC']) {
      const fromMs = dayStart(tz, localDate(tz, START - 30 * DAY));
      const res = await analytics.handle(query({ from: iso(fromMs), to: iso(START), tz }));
      assert.equal(res.status, 200);
      const report = (await res.json()) as AnalyticsReport;
      assert.deepEqual(Object.keys(report), ['days', 'by_method', 'by_bank', 'time_to_pay']);
      assert.equal(report.days.length, 31);
      assert.equal(report.days[0]!.date, localDate(tz, START - 30 * DAY));
      assert.equal(report.days.at(-1)!.date, localDate(tz, START));
      const plain = await countFromLists(w.client, fromMs, START, tz, w.time.now);
      assert.ok(plain.orders.length > 30 && plain.paid > 5, 'the seeded history has paid orders');
      sameAsLists(report, plain);
      assert.ok(report.days.some((d) => d.disputed > 0), 'seeded disputes are counted');
      assert.equal(
        report.by_bank.reduce((s, b) => s + b.created, 0),
        plain.orders.length,
      );
    }
  });

  test('a payment made after its order expired is paid and late; its time to pay counts from creation', async () => {
    w.time.now = START + 2 * DAY;
    const created = await w.call('POST', '/api/v1/order/', { client_order_id: 'late-1', order_side: 'Buy', method_type: 'SBP', amount: '1500.00' });
    assert.equal(created.status, 201, JSON.stringify(created.json));
    const id = created.json.id as string;
    w.time.now += 45 * MINUTE;
    w.sandbox.sweep();
    const late = await w.call('POST', `/sandbox/orders/${id}/complete`, { late: true });
    assert.equal(late.status, 200, JSON.stringify(late.json));
    const expired = await w.call('POST', '/api/v1/order/', { client_order_id: 'expired-1', order_side: 'Buy', method_type: 'SBP', amount: '1600.00' });
    w.time.now += 45 * MINUTE;
    w.sandbox.sweep();
    await w.call('POST', `/sandbox/orders/${expired.json.id}/dispute`, {});

    const analytics = createAnalytics(w.client, { now: () => w.time.now });
    const day = localDate('UTC', START + 2 * DAY);
    const res = await analytics.handle(query({ from: `${day}T00:00:00Z`, to: `${day}T23:59:59.999Z`, tz: 'UTC' }));
    const report = (await res.json()) as AnalyticsReport;
    assert.deepEqual(report.days, [{ date: day, created: 2, paid: 1, expired: 1, late: 1, disputed: 1 }]);
    assert.equal(report.time_to_pay.p50_seconds, 45 * 60);
    assert.deepEqual(
      report.time_to_pay.histogram.filter((b) => b.count > 0),
      [{ upto_seconds: 3600, count: 1 }],
    );
  });
});

describe('time zones', () => {
  test('an order at 22:30 UTC is on the next day in Moscow', async () => {
    const w = sandboxWorld({ seed: false });
    try {
      w.time.now = Date.parse('2025-03-01T22:30:00Z');
      await w.call('POST', '/api/v1/order/', { client_order_id: 'tz-1', order_side: 'Buy', method_type: 'SBP', amount: '1500.00' });
      w.time.now = Date.parse('2025-03-01T20:30:00Z');
      await w.call('POST', '/api/v1/order/', { client_order_id: 'tz-2', order_side: 'Buy', method_type: 'SBP', amount: '1500.00' });
      w.time.now = Date.parse('2025-03-02T12:00:00Z');
      const analytics = createAnalytics(w.client, { now: () => w.time.now });
      const moscow = (await (await analytics.handle(query({ from: '2025-03-01T00:00:00+03:00', to: '2025-03-02T23:59:59+03:00', tz: 'Europe/Moscow' }))).json()) as AnalyticsReport;
      assert.deepEqual(
        moscow.days.map((d) => [d.date, d.created]),
        [
          ['2025-03-01', 1],
          ['2025-03-02', 1],
        ],
      );
      const utc = (await (await analytics.handle(query({ from: '2025-03-01T00:00:00Z', to: '2025-03-02T23:59:59Z', tz: 'UTC' }))).json()) as AnalyticsReport;
      assert.deepEqual(
        utc.days.map((d) => [d.date, d.created]),
        [
          ['2025-03-01', 2],
          ['2025-03-02', 0],
        ],
      );
    } finally {
      await w.close();
    }
  });

  test('days of 23 and 25 hours (Berlin) and a day that starts at 01:00 (Santiago) are one day each', () => {
    const spring = daysOf('Europe/Berlin', Date.parse('2025-03-29T12:00Z'), Date.parse('2025-03-31T12:00Z'));
    assert.deepEqual(spring.dates, ['2025-03-29', '2025-03-30', '2025-03-31']);
    assert.equal(spring.starts[2]! - spring.starts[1]!, 23 * 3600_000);
    const autumn = daysOf('Europe/Berlin', Date.parse('2025-10-26T05:00Z'), Date.parse('2025-10-26T05:00Z'));
    assert.equal(autumn.end - autumn.starts[0]!, 25 * 3600_000);
    assert.equal(isoInZone('America/Santiago', dayStart('America/Santiago', '2025-09-07')), '2025-09-07T01:00:00.000-03:00');
    assert.equal(isoInZone('Asia/Kolkata', Date.parse('2025-03-01T22:30Z')), '2025-03-02T04:00:00.000+05:30');
    assert.equal(isoInZone('UTC', Date.parse('2025-03-01T22:30Z')), '2025-03-01T22:30:00.000Z');
  });
});

describe('the query, the cache, the reading', () => {
  const from = START - 2 * DAY;
  const synthetic = () => syntheticClient(1000, from);

  test('bad queries are a 400 naming the field', async () => {
    const analytics = createAnalytics(synthetic().client);
    const ok = { from: iso(from), to: iso(START), tz: 'Europe/Moscow' };
    const cases: [Record<string, string>, string][] = [
      [{ from: ok.from, to: ok.to }, 'tz'],
      [{ ...ok, tz: 'Moscow' }, 'tz'],
      [{ ...ok, tz: '../../etc' }, 'tz'],
      [{ ...ok, from: 'now' }, 'from'],
      [{ ...ok, to: '' }, 'to'],
      [{ ...ok, from: ok.to, to: ok.from }, 'from'],
      [{ ...ok, from: iso(START - 367 * DAY) }, 'to'],
      [{ ...ok, status: 'Completed' }, 'status'],
    ];
    for (const [q, field] of cases) {
      const res = await analytics.handle(query(q));
      assert.equal(res.status, 400, JSON.stringify(q));
      assert.equal((await res.json()).error.field, field, JSON.stringify(q));
    }
  });

  test('a report is cached by its query: 30 s for a period of the last day, 10 minutes for an older one', async () => {
    const { client, pagesRead } = synthetic();
    const clock = { now: START };
    const analytics = createAnalytics(
      { ...client, searchDisputes: async () => ({ items: [], total: 0, page: 1, size: 100, pages: 0 }) } as unknown as ProviderClient,
      { now: () => clock.now },
    );
    const recent = query({ from: iso(from), to: iso(START), tz: 'UTC' });
    const first = await analytics.handle(recent);
    assert.equal(first.headers.get('x-paydesk-cache'), 'miss');
    const pages = pagesRead();
    assert.ok(pages >= 10);
    clock.now += 29_000;
    assert.equal((await analytics.handle(recent)).headers.get('x-paydesk-cache'), 'hit');
    assert.equal(pagesRead(), pages);
    clock.now += 2_000;
    assert.equal((await analytics.handle(recent)).headers.get('x-paydesk-cache'), 'miss', 'a live period is counted again after 30 s');
    clock.now = START + 3 * DAY;
    const old = query({ from: iso(from), to: iso(START), tz: 'UTC' });
    await analytics.handle(old);
    clock.now += 9 * MINUTE;
    assert.equal((await analytics.handle(old)).headers.get('x-paydesk-cache'), 'hit');
    assert.equal((await analytics.handle(query({ from: iso(from), to: iso(START), tz: 'Europe/Moscow' }))).headers.get('x-paydesk-cache'), 'miss', 'the zone is part of the key');
  });

  test('requests for the same query share one count; it stops when its only client goes away', async () => {
    const { client, pagesRead } = synthetic();
    const analytics = createAnalytics({ ...client, searchDisputes: async () => ({ items: [], total: 0, page: 1, size: 100, pages: 0 }) } as unknown as ProviderClient);
    const q = { from: iso(from), to: iso(from + 999_000), tz: 'UTC' };
    const [a, b] = await Promise.all([analytics.handle(query(q)), analytics.handle(query(q))]);
    assert.deepEqual(await a.json(), await b.json());
    assert.ok(pagesRead() <= 1000 / 99 + 4 + 1, `${pagesRead()} pages for both`);

    const gone = new AbortController();
    const before = pagesRead();
    const pending = analytics.handle(query({ ...q, tz: 'Europe/Moscow' }), gone.signal);
    gone.abort();
    assert.equal((await pending).status, 499);
    await new Promise((r) => setTimeout(r, 50));
    assert.ok(pagesRead() - before <= 4, 'at most the pages already asked for');
  });

  test('more different queries at once than maxRunning: a 429 with Retry-After, nothing read for it', async () => {
    const { client, pagesRead } = synthetic();
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const slow = {
      listOrders: async (q: Parameters<ProviderClient['listOrders']>[0]) => (await gate, client.listOrders(q)),
      searchDisputes: async () => ({ items: [], total: 0, page: 1, size: 100, pages: 0 }),
    } as unknown as ProviderClient;
    const analytics = createAnalytics(slow, { maxRunning: 1 });
    const q = { from: iso(from), to: iso(from + 999_000) };
    const first = analytics.handle(query({ ...q, tz: 'UTC' }));
    const same = analytics.handle(query({ ...q, tz: 'UTC' }));
    await new Promise((r) => setTimeout(r, 20));
    const other = await analytics.handle(query({ ...q, tz: 'Asia/Tokyo' }));
    assert.equal(other.status, 429);
    assert.equal(other.headers.get('retry-after'), '5');
    assert.equal((await other.json()).error.code, 'rate_limited');
    release();
    assert.equal((await first).status, 200);
    assert.equal((await same).status, 200, 'the same query joins the running count');
    assert.ok(pagesRead() > 0);
    assert.equal((await analytics.handle(query({ ...q, tz: 'Asia/Tokyo' }))).status, 200, 'once it is done, another may run');
  });

  test('the period is read in adjoining slices that cover it once', () => {
    assert.deepEqual(slices(0, 99_999, 4), [
      [0, 24_999],
      [25_000, 49_999],
      [50_000, 74_999],
      [75_000, 99_999],
    ]);
    assert.deepEqual(slices(5, 5, 4), [[5, 5]]);
  });
});

describe('the bar charts’ category names (analytics-axis.ts)', () => {
  const seven = (text: string) => text.length * 7;
  // The console's names of the provider's method types, as the by-method chart shows them.
  const methods = ['SBP', 'BankCard', 'NSPKLink', 'TransBankCard', 'BankAccount', 'TransSBP'].map((t) => methodTypeLabel('en', t));

  test('on a 390 px phone (a chart about 330 px wide) the six methods stand upright, whole, in a band tall enough for the longest', () => {
    assert.deepEqual(methods, ['SBP', 'Card', 'NSPK link', 'Card (cross-border)', 'Bank account', 'SBP (cross-border)']);
    const axis = categoryAxis(methods, 330, seven);
    assert.equal(axis.rotate, -90);
    assert.deepEqual(axis.names, methods, 'none cut');
    assert.ok(axis.size >= Math.max(...methods.map(seven)), `the band (${axis.size} px) holds the longest name`);
  });

  test('a name longer than the band is shortened with "…" (the table has it whole); on a wide chart the names lie level', () => {
    const long = categoryAxis(['Банк не указан ни в одном заказе этого дня', 'ВТБ'], 330, seven);
    assert.equal(long.rotate, -90);
    assert.match(long.names[0]!, /…$/);
    assert.ok(seven(long.names[0]!) <= 150);
    assert.equal(long.names[1], 'ВТБ');
    assert.deepEqual(categoryAxis(methods, 1100, seven), { rotate: 0, size: 40, names: methods });
  });
});
