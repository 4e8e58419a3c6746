import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { setImmediate as tick } from 'node:timers/promises';
import { runInNewContext } from 'node:vm';
import { setFlagsFromString } from 'node:v8';
import { BOM, csvCell, csvRow } from '../../../src/console/csv.js';
import { exportCsv } from '../../../src/console/exports.js';
import { createConsole } from '../../../src/console/index.js';
import { numberAmount } from '../../../src/console/export-kinds.js';
import { DAY, START, everyRecord, sandboxWorld, syntheticClient } from './export-helpers.js';

/** RFC 4180 records of a CSV text (a reader written apart from the writer). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') (cell += '"'), i++;
      else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') row.push(cell), (cell = '');
    else if (ch === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      (row = []), (cell = ''), i++;
    } else cell += ch;
  }
  assert.equal(cell + row.join(''), '', 'the file ends with CRLF');
  return rows;
}

const iso = (ms: number) => new Date(ms).toISOString();
const query = (q: Record<string, string>) => new URLSearchParams(q);

describe('CSV cells', () => {
  test('commas, quotes, CR and LF are quoted; quotes doubled; rows end with CRLF', () => {
    assert.equal(csvCell('plain'), 'plain');
    assert.equal(csvCell('a,b'), '"a,b"');
    assert.equal(csvCell('say "hi"'), '"say ""hi"""');
    assert.equal(csvCell('two\nlines'), '"two\nlines"');
    assert.equal(csvCell('cr\rhere'), '"cr\rhere"');
    assert.equal(csvCell(null), '');
    assert.equal(csvCell(undefined), '');
    assert.equal(csvCell(false), 'false');
    assert.equal(csvRow(['a', 'b,c', 1]), 'a,"b,c",1\r\n');
  });

  test('a cell a spreadsheet would run as a formula starts with an apostrophe; amounts stay numbers', () => {
    assert.equal(csvCell('=HYPERLINK("http://x","y")'), `"'=HYPERLINK(""http://x"",""y"")"`);
    assert.equal(csvCell('+79991234567'), "'+79991234567");
    assert.equal(csvCell('-2+3'), "'-2+3");
    assert.equal(csvCell('@SUM(A1)'), "'@SUM(A1)");
    assert.equal(csvCell('\tcmd'), "'\tcmd");
    assert.equal(csvCell('\r=1'), `"'\r=1"`);
    assert.equal(csvCell('-150.00'), '-150.00');
    assert.equal(csvCell('1500.00'), '1500.00');
    assert.equal(csvCell('Иван = Петров'), 'Иван = Петров');
  });

  test('a JSON-number amount gets the currency digits and is never rounded', () => {
    assert.equal(numberAmount(1500, 'RUB'), '1500.00');
    assert.equal(numberAmount(1500.5, 'RUB'), '1500.50');
    assert.equal(numberAmount(0.125, 'RUB'), '0.125');
  });
});

describe('exports of the sandbox', () => {
  const w = sandboxWorld();
  after(() => w.close());
  const month = { from: iso(START - 31 * DAY), to: iso(START) };

  test('orders.csv: BOM, header, the provider list of the period row for row (newest first), amounts and times as given', async () => {
    const res = await exportCsv(w.client, 'orders', query(month));
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'text/csv; charset=utf-8');
    assert.equal(res.headers.get('content-disposition'), 'attachment; filename="orders_2025-01-29_2025-03-01.csv"');
    const bytes = new Uint8Array(await res.arrayBuffer());
    assert.deepEqual([...bytes.slice(0, 3)], [0xef, 0xbb, 0xbf], 'UTF-8 byte order mark');
    const text = new TextDecoder().decode(bytes); // drops the BOM
    const [header, ...rows] = parseCsv(text);
    for (const column of ['id', 'client_order_id', 'status', 'amount', 'currency', 'created_at']) assert.ok(header!.includes(column), column);
    const at = (name: string) => header!.indexOf(name);
    const listed = await everyRecord((page) =>
      w.client.listOrders({ start_date: month.from, end_date: month.to, sort_by: 'created_at', sort: 'desc', page, size: 100 }),
    );
    assert.ok(listed.length >= 50, 'the seeded month has its orders');
    assert.deepEqual(
      rows.map((r) => r[at('id')]),
      listed.map((o) => o.id),
    );
    for (const [i, o] of listed.entries()) {
      const r = rows[i]!;
      assert.equal(r[at('client_order_id')], o.client_order_id);
      assert.equal(r[at('status')], o.status);
      assert.equal(r[at('amount')], o.amount);
      assert.equal(r[at('fee')], o.fee);
      assert.equal(r[at('currency')], o.currency);
      assert.equal(r[at('created_at')], new Date(Date.parse(o.created_at)).toISOString());
      assert.match(r[at('created_at')]!, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      assert.equal(r[at('paid_at')], o.status === 'Completed' ? r[at('updated_at')] : '');
    }
  });

  test('tz writes times at the zone offset; the file name takes the dates there', async () => {
    const res = await exportCsv(w.client, 'orders', query({ ...month, tz: 'Europe/Moscow' }));
    assert.equal(res.headers.get('content-disposition'), 'attachment; filename="orders_2025-01-29_2025-03-01.csv"');
    const [header, first] = parseCsv(await res.text());
    const created = first![header!.indexOf('created_at')]!;
    assert.match(created, /\+03:00$/);
    const listed = await w.client.listOrders({ start_date: month.from, end_date: month.to, sort_by: 'created_at', sort: 'desc', size: 1 });
    assert.equal(Date.parse(created), Date.parse(listed.items[0]!.created_at));
  });

  test("the list's filters: status, order_side; payouts are the Sell orders", async () => {
    const completed = parseCsv(await (await exportCsv(w.client, 'orders', query({ ...month, status: 'completed' }))).text());
    const status = completed[0]!.indexOf('status');
    assert.ok(completed.length > 2);
    assert.ok(completed.slice(1).every((r) => r[status] === 'Completed'));
    const payouts = parseCsv(await (await exportCsv(w.client, 'payouts', query(month))).text());
    const sells = await everyRecord((page) => w.client.listOrders({ start_date: month.from, end_date: month.to, order_side: 'Sell', page, size: 100 }));
    assert.deepEqual(
      payouts.slice(1).map((r) => r[0]),
      sells.map((o) => o.id),
    );
  });

  test('disputes.csv and transactions.csv match their lists', async () => {
    const disputes = parseCsv(await (await exportCsv(w.client, 'disputes', query(month))).text());
    assert.deepEqual(disputes[0], ['dispute_id', 'order_id', 'client_order_id', 'amount', 'currency', 'processed', 'created_at']);
    const listedDisputes = await everyRecord((page) => w.client.searchDisputes({ start_date: month.from, end_date: month.to, page, size: 100 }));
    assert.ok(listedDisputes.length > 0);
    assert.deepEqual(
      disputes.slice(1).map((r) => [r[0], r[1], r[5]]),
      listedDisputes.map((d) => [d.dispute_id, d.order_id, String(d.processed)]),
    );
    const processed = parseCsv(await (await exportCsv(w.client, 'disputes', query({ ...month, processed: 'true' }))).text());
    assert.ok(processed.slice(1).every((r) => r[5] === 'true'));

    const transactions = parseCsv(await (await exportCsv(w.client, 'transactions', query({ ...month, transaction_type: 'deposit' }))).text());
    const listedTransactions = await everyRecord((page) =>
      w.client.listTransactions({ start_date: month.from, end_date: month.to, transaction_type: 'deposit', page, size: 100 }),
    );
    assert.ok(listedTransactions.length > 0);
    assert.deepEqual(
      transactions.slice(1).map((r) => [r[0], r[3]]),
      listedTransactions.map((t) => [t.id, t.amount]),
    );
  });

  test('bad queries are a 400 naming the field; an unknown export a 404', async () => {
    const cases: [Record<string, string>, string][] = [
      [{ to: month.to }, 'from'],
      [{ from: 'yesterday', to: month.to }, 'from'],
      [{ from: month.from, to: '2025-02-30T00:00:00Z' }, 'to'],
      [{ from: month.to, to: month.from }, 'from'],
      [{ from: iso(START - 400 * DAY), to: month.to }, 'to'],
      [{ ...month, status: 'Paidd' }, 'status'],
      [{ ...month, order_side: 'buy' }, 'order_side'],
      [{ ...month, tz: 'Mars/Olympus' }, 'tz'],
      [{ ...month, page: '2' }, 'page'],
    ];
    for (const [q, field] of cases) {
      const res = await exportCsv(w.client, 'orders', query(q));
      assert.equal(res.status, 400, JSON.stringify(q));
      const body = await res.json();
      assert.equal(body.error.field, field, JSON.stringify(q));
      assert.match(body.error.message, new RegExp(`^${field}: `));
    }
    const twice = new URLSearchParams(month);
    twice.append('from', month.from);
    assert.equal((await (await exportCsv(w.client, 'orders', twice)).json()).error.field, 'from');
    const transactions = await exportCsv(w.client, 'transactions', query({ ...month, status: 'Completed' }));
    assert.equal((await transactions.json()).error.field, 'status');
    const unknown = await exportCsv(w.client, 'refunds', query(month));
    assert.equal(unknown.status, 404);
  });
});

describe('streaming', () => {
  test('a page is read only when the client takes the one before; a client that goes away stops the reading', async () => {
    const from = START - DAY;
    const { client, pagesRead } = syntheticClient(1000, from);
    const res = await exportCsv(client, 'orders', query({ from: iso(from), to: iso(START) }));
    assert.equal(pagesRead(), 1, 'the first page is read before answering (its error would be the answer)');
    const reader = res.body!.getReader();
    await reader.read(); // BOM, header and the first page
    await tick();
    assert.equal(pagesRead(), 1, 'nothing read ahead');
    await reader.read();
    await tick();
    assert.equal(pagesRead(), 2);
    await reader.cancel();
    await tick();
    assert.equal(pagesRead(), 2, 'no page after the client went away');
  });

  test('an aborted request signal stops the reading before the next page', async () => {
    const from = START - DAY;
    const { client, pagesRead } = syntheticClient(1000, from);
    const abort = new AbortController();
    const res = await exportCsv(client, 'orders', query({ from: iso(from), to: iso(START) }), abort.signal);
    const reader = res.body!.getReader();
    await reader.read();
    abort.abort();
    await assert.rejects(reader.read());
    assert.equal(pagesRead(), 1);
  });

  test('100,000 orders read slowly: every row once, newest first, and the heap stays bounded', async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const count = 100_000;
    const from = START - 2 * DAY;
    const { client, pagesRead } = syntheticClient(count, from);
    gc();
    const base = process.memoryUsage().heapUsed;
    const res = await exportCsv(client, 'orders', query({ from: iso(from), to: iso(from + count * 1000) }));
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let bytes = 0;
    let rows = 0;
    let expected = count - 1;
    let peak = 0;
    let tail = '';
    for (let chunk = 0; ; chunk++) {
      const r = await reader.read();
      if (r.done) break;
      bytes += r.value.byteLength;
      const lines = (tail + decoder.decode(r.value, { stream: true })).split('\r\n');
      tail = lines.pop()!;
      for (const line of lines) {
        if (line.startsWith('\uFEFF') || line.startsWith('id,')) continue;
        assert.ok(line.startsWith(`order-${String(expected).padStart(7, '0')},`), `row ${rows}: ${line.slice(0, 20)}`);
        expected--;
        rows++;
      }
      if (chunk % 100 === 0) {
        await tick(); // a slow client
        gc();
        peak = Math.max(peak, process.memoryUsage().heapUsed - base);
      }
    }
    assert.equal(rows, count);
    // One request a page; the record at the cursor is read again by the next (the period's ends are inclusive).
    assert.ok(pagesRead() <= Math.ceil(count / 99) + 1, `${pagesRead()} pages`);
    assert.ok(bytes > 20_000_000, `the file is large (${bytes} B)`);
    console.log(`streamed ${bytes} B, heap grew at most ${peak} B`);
    assert.ok(peak < 8_000_000, `heap grew at most ${Math.round(peak / 1e6)} MB while streaming ${Math.round(bytes / 1e6)} MB`);
  });
});

test('BOM is U+FEFF', () => assert.equal(BOM, '\uFEFF'));

describe('mounted by createConsole', () => {
  const w = sandboxWorld();
  after(() => w.close());
  const period = `from=${iso(START - 7 * DAY)}&to=${iso(START)}`;

  test('GET {basePath}/api/export/{kind}.csv and /api/analytics answer behind the merchant authorize, and only with it', async () => {
    let allowed = true;
    const console_ = createConsole({ client: w.client, basePath: '/back-office', authorize: () => allowed });
    const get = (path: string) => console_.fetch(new Request(`http://merchant.test/back-office/api${path}`));
    const csv = await get(`/export/transactions.csv?${period}`);
    assert.equal(csv.status, 200);
    assert.equal(csv.headers.get('content-type'), 'text/csv; charset=utf-8');
    const bytes = new Uint8Array(await csv.arrayBuffer());
    assert.deepEqual([...bytes.slice(0, 3)], [0xef, 0xbb, 0xbf]);
    assert.match(new TextDecoder().decode(bytes), /^id,created_at,transaction_type,amount/);
    const analytics = await get(`/analytics?${period}&tz=UTC`);
    assert.equal(analytics.status, 200);
    assert.equal((await analytics.json()).days.length, 8);
    assert.equal((await get('/export/orders.txt')).status, 404);
    assert.equal((await (await get(`/export/orders.csv?${period}&status=nope`)).json()).error.field, 'status');
    allowed = false;
    assert.equal((await get(`/export/orders.csv?${period}`)).status, 401);
    assert.equal((await get(`/analytics?${period}&tz=UTC`)).status, 401);
  });
});
