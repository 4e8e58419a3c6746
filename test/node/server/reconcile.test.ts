/**
 * Money safety with a provider double: every way a paid order could fail to reach the merchant, or
 * reach it twice, driven as it happens — and `handler.reconcile()` (or a read) catching it.
 * The same stories run against the real sandbox, over HTTP and across processes, in chaos.test.ts.
 */
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { ProviderError } from '../../../src/provider/errors.js';
import { MemoryStore } from '../../../src/server/index.js';
import type { OrderEvent, FlaggedOrderEvent } from '../../../src/server/index.js';
import { assertBadOptionOnFirstUse, BASE, createRequest, createSession, deferred, FakeProvider, getSession, makeHarness, SseReader, webhookRequest } from './fake-provider.js';
import type { Harness } from './fake-provider.js';

/**
 * Two paid instances on one store, with clocks that follow real time (leases lapse by the wall
 * clock): the session is created on `a`, paid at the provider and read, then `body` runs.
 */
async function paidOnTwoInstances(a: Harness, b: Harness, provider: FakeProvider, body: (session: string) => Promise<void>): Promise<void> {
  const sync = () => (a.clock.now = b.clock.now = Date.now());
  sync();
  const tick = setInterval(sync, 5);
  try {
    const { session, order } = await createSession(a);
    provider.setStatus(order.id, 'Completed');
    await getSession(a, session, '?refresh=1');
    await body(session);
  } finally {
    clearInterval(tick);
  }
}

const now = (h: Harness) => Math.floor(h.clock.now / 1000);
const view = async (h: Harness, token: string) =>
  ((await (await getSession(h, token)).json()) as { order: { status: string; late: boolean; dispute: { id: string; status: string; outcome: string | null } | null } }).order;
const MINUTE = 60_000;


/** Provider reads of sessions' orders: every getOrder and listOrders, less the pages of the sweep's walk of the provider order list (newest first, sweep/provider-orders.ts). */
const sessionReads = (h: { provider: FakeProvider }) =>
  h.provider.count('getOrder') + h.provider.calls.filter((c) => c.method === 'listOrders' && (c.args[0] as { sort?: string } | undefined)?.sort !== 'desc').length;

describe('reconcile(): what webhooks and readers missed', () => {
  test('a paid order with every webhook lost and the tab closed: one reconcile() runs onOrderPaid once', async () => {
    const h = makeHarness();
    const { order } = await createSession(h);
    h.provider.setStatus(order.id, 'Completed');
    const first = await h.handler.reconcile();
    assert.equal(first.paid, 1);
    assert.equal(first.hooks_run, 1);
    assert.equal(h.paid.length, 1, 'the hooks it triggered have settled when reconcile() resolves');
    assert.equal((h.paid[0] as OrderEvent).late, false);
    const second = await h.handler.reconcile();
    assert.equal(second.paid, 0);
    assert.equal(second.checked, 0, 'a paid session whose hook ran is not looked at again');
    assert.equal(h.paid.length, 1);
  });

  test('a webhook answered 202 (confirmation too slow, then failed) is finished by the sweep', async () => {
    const h = makeHarness({ webhookConfirmTimeoutMs: 50 });
    const { order } = await createSession(h);
    const o = h.provider.setStatus(order.id, 'Completed');
    const hold = deferred();
    h.provider.failNext('getOrder', async () => {
      await hold.promise;
      throw new ProviderError({ code: 'timeout', message: 'slow', retryable: true });
    });
    const res = await h.handler(webhookRequest(o, { timestamp: now(h) }));
    assert.equal(res.status, 202, 'recorded, not confirmed');
    hold.resolve();
    await h.handler.idle();
    assert.equal(h.paid.length, 0);
    const report = await h.handler.reconcile();
    assert.equal(report.paid, 1);
    assert.equal(h.paid.length, 1);
  });

  test('an onOrderPaid that throws is retried by later sweeps with backoff until it succeeds, once', async () => {
    let calls = 0;
    const h = makeHarness({
      onOrderPaid: () => {
        calls++;
        if (calls < 3) throw new Error(`database down (${calls})`);
      },
    });
    const { order } = await createSession(h);
    h.provider.setStatus(order.id, 'Completed');
    let r = await h.handler.reconcile();
    assert.deepEqual([calls, r.hooks_run, r.hooks_failed], [1, 1, 1]);
    r = await h.handler.reconcile();
    assert.equal(calls, 1, 'not before its backoff');
    h.clock.now += 10_000;
    r = await h.handler.reconcile();
    assert.deepEqual([calls, r.hooks_failed], [2, 1]);
    h.clock.now += 29_000;
    await h.handler.reconcile();
    assert.equal(calls, 2, 'the second wait is longer');
    h.clock.now += 1_000;
    r = await h.handler.reconcile();
    assert.deepEqual([calls, r.hooks_run, r.hooks_failed], [3, 1, 0]);
    h.clock.now += 3_600_000;
    await h.handler.reconcile();
    assert.equal(calls, 3);
    const detail = await h.handler.inspect.session(order.id);
    assert.equal(detail?.hooks.paid.attempts, 2);
    assert.ok(detail?.hooks.paid.done_at);
  });

  test('a hook that runs longer than its lease never runs twice at once, however many reads and sweeps come on two instances', async () => {
    let running = 0;
    let maxRunning = 0;
    let runs = 0;
    const release = deferred();
    const provider = new FakeProvider();
    const store = new MemoryStore();
    const slow = async () => {
      runs++;
      running++;
      maxRunning = Math.max(maxRunning, running);
      await release.promise;
      running--;
    };
    // Two instances: no process-local state is shared, only the store's lease (0.4 s, renewed every
    // 133 ms: short, yet not so short that a loaded machine's pauses let it lapse).
    const a = makeHarness({ store, hookLeaseSeconds: 0.4, onOrderPaid: slow }, provider);
    const b = makeHarness({ store, hookLeaseSeconds: 0.4, onOrderPaid: slow }, provider);
    await paidOnTwoInstances(a, b, provider, async (session) => {
      const deadline = Date.now() + 1600; // four leases
      while (Date.now() < deadline) {
        await Promise.all([getSession(a, session), getSession(b, session)]);
        void b.handler.reconcile();
        await new Promise((r) => setTimeout(r, 30));
      }
      assert.equal(runs, 1, 'started once');
      release.resolve();
      await Promise.all([a.handler.reconcile(), b.handler.reconcile()]);
      await Promise.all([a.handler.idle(), b.handler.idle()]);
      assert.equal(maxRunning, 1);
      assert.equal(runs, 1);
    });
  });

  test('a renewal whose reply is lost (the write landed) does not end the lease: still one run', async () => {
    let runs = 0;
    const release = deferred();
    const provider = new FakeProvider();
    const store = new MemoryStore();
    // The store applies the first renewal of the marker but its caller never hears back.
    let dropped = false;
    const lossy = Object.create(store) as MemoryStore;
    lossy.replace = async (key, version, value, ttl) => {
      const v = await store.replace(key, version, value, ttl);
      if (!dropped && key.startsWith('hook:paid:') && value.includes('"running"')) {
        dropped = true;
        throw new Error('ECONNRESET: the reply was lost');
      }
      return v;
    };
    const hook = async () => {
      runs++;
      await release.promise;
    };
    const a = makeHarness({ store: lossy, hookLeaseSeconds: 0.4, onOrderPaid: hook }, provider);
    const b = makeHarness({ store, hookLeaseSeconds: 0.4, onOrderPaid: hook }, provider);
    await paidOnTwoInstances(a, b, provider, async (session) => {
      const deadline = Date.now() + 1200; // three leases
      while (Date.now() < deadline) {
        await getSession(b, session);
        await new Promise((r) => setTimeout(r, 30));
      }
      assert.ok(dropped, 'a renewal reply was lost');
      release.resolve();
      await Promise.all([a.handler.idle(), b.handler.idle()]);
      assert.equal(runs, 1);
    });
  });

  test('two instances sweep one at a time: while one sweep reads the provider, the other waits for its lease', async () => {
    const provider = new FakeProvider();
    const store = new MemoryStore();
    const a = makeHarness({ store }, provider);
    const b = makeHarness({ store }, provider);
    b.clock.now = a.clock.now;
    await createSession(a);
    const hold = deferred();
    provider.failNext('getOrder', () => hold.promise);
    const first = a.handler.reconcile();
    while (provider.count('getOrder') === 0) await new Promise((r) => setImmediate(r));
    const callsBefore = provider.calls.length;
    const second = b.handler.reconcile();
    await new Promise((r) => setTimeout(r, 400));
    assert.equal(provider.calls.length, callsBefore, 'the second instance made no provider call while the first swept');
    hold.resolve();
    const [ra, rb] = await Promise.all([first, second]);
    assert.ok(!ra.skipped && !rb.skipped);
    assert.ok(provider.calls.length > callsBefore, 'then it swept');
  });

  test('with two instances on one store, concurrent reconcile() calls sweep one at a time and pay once', async () => {
    const provider = new FakeProvider();
    const store = new MemoryStore();
    const paid: unknown[] = [];
    const a = makeHarness({ store, onOrderPaid: (e) => void paid.push(e) }, provider);
    const b = makeHarness({ store, onOrderPaid: (e) => void paid.push(e) }, provider);
    b.clock.now = a.clock.now;
    const { order } = await createSession(a);
    provider.setStatus(order.id, 'Completed');
    const reports = await Promise.all([a.handler.reconcile(), b.handler.reconcile(), a.handler.reconcile()]);
    assert.equal(paid.length, 1);
    assert.equal(reports.reduce((n, r) => n + r.paid, 0), 1);
    assert.ok(reports.every((r) => !r.skipped), 'reconcile() waits for the other sweep instead of skipping');
  });
});

describe('late payments', () => {
  async function endedSession(h: Harness) {
    const { session, order } = await createSession(h);
    h.provider.setStatus(order.id, 'CanceledByTimeout');
    const r = await h.handler.reconcile();
    assert.equal(r.closed, 1);
    assert.equal((await view(h, session)).status, 'expired');
    return { session, order };
  }

  test('Completed after CanceledByTimeout: the session becomes paid with late: true, onOrderPaid once (event.late)', async () => {
    const h = makeHarness();
    const { session, order } = await endedSession(h);
    assert.equal(h.closed.length, 1);
    h.clock.now += 5 * MINUTE;
    h.provider.setStatus(order.id, 'Completed');
    const r = await h.handler.reconcile();
    assert.equal(r.late_paid, 1);
    const v = await view(h, session);
    assert.equal(v.status, 'paid');
    assert.equal(v.late, true);
    assert.equal(h.paid.length, 1);
    assert.equal((h.paid[0] as OrderEvent).late, true);
    assert.equal((h.paid[0] as OrderEvent).dispute_id, null);
    await h.handler.reconcile();
    assert.equal(h.paid.length, 1);
    const detail = await h.handler.inspect.session(session.split('.')[0]!) ?? (await h.handler.inspect.session(order.id));
    assert.deepEqual(
      detail!.history.map((e) => [e.status, e.via, e.note ?? null]),
      [
        ['pending', 'create', null],
        ['expired', 'sweep', null],
        ['paid', 'sweep', 'late'],
      ],
    );
  });

  test('an ended order the shopper paid late reaches an open widget: the event stream stays open and sends paid (late)', async () => {
    const h = makeHarness();
    const { session, order } = await endedSession(h);
    const stream = new SseReader(await h.handler(new Request(`${BASE}/sessions/${session}/events`)));
    assert.equal(JSON.parse((await stream.next())!.data!).status, 'expired');
    const o = h.provider.setStatus(order.id, 'Completed');
    assert.equal((await h.handler(webhookRequest(o, { timestamp: now(h) }))).status, 200);
    const ev = JSON.parse((await stream.next())!.data!) as { status: string; late: boolean };
    assert.deepEqual([ev.status, ev.late], ['paid', true]);
    assert.equal(await stream.next(), null, 'the stream ends once paid');
  });

  test('an accepted dispute whose order stays cancelled: paid late on the deposit that names the order (event.dispute_id)', async () => {
    const h = makeHarness();
    const { session, order } = await endedSession(h);
    const d = h.provider.openDispute(order.id);
    let r = await h.handler.reconcile();
    assert.equal((await view(h, session)).dispute?.status, 'open', 'a dispute filed with the provider is found and shown');
    h.provider.processDispute(d.dispute_id, true);
    r = await h.handler.reconcile();
    assert.equal(r.late_paid, 1);
    assert.equal(r.disputes_processed, 1);
    const v = await view(h, session);
    assert.deepEqual([v.status, v.late, v.dispute?.status], ['paid', true, 'closed']);
    assert.equal(h.paid.length, 1);
    const event = h.paid[0] as OrderEvent;
    assert.deepEqual([event.late, event.dispute_id], [true, d.dispute_id]);
    await h.handler.reconcile();
    assert.equal(h.paid.length, 1);
  });

  test('a rejected dispute pays nothing: onOrderFlagged (dispute_unconfirmed) once, never onOrderPaid', async () => {
    const h = makeHarness();
    const { session, order } = await endedSession(h);
    const d = h.provider.openDispute(order.id);
    await h.handler.reconcile();
    h.provider.processDispute(d.dispute_id, false);
    let r = await h.handler.reconcile();
    assert.equal(r.flagged, 0, 'not before the deposit had time to appear');
    assert.equal((await view(h, session)).dispute?.status, 'open', 'still being checked');
    h.clock.now += 10 * MINUTE;
    r = await h.handler.reconcile();
    assert.equal(r.flagged, 1);
    await h.handler.reconcile();
    assert.equal(h.paid.length, 0);
    assert.equal(h.flagged.length, 1);
    const f = h.flagged[0] as FlaggedOrderEvent;
    assert.deepEqual([f.reason, f.dispute_id], ['dispute_unconfirmed', d.dispute_id]);
    const v = await view(h, session);
    assert.deepEqual([v.status, v.dispute?.status], ['expired', 'closed']);
  });

  test('the order view says a dispute\'s outcome: null while it is checked, "confirmed" once the money is found', async () => {
    const h = makeHarness();
    const { session, order } = await endedSession(h);
    const d = h.provider.openDispute(order.id);
    await h.handler.reconcile();
    assert.deepEqual([(await view(h, session)).dispute?.outcome], [null]);
    h.provider.processDispute(d.dispute_id, true);
    await h.handler.reconcile();
    const v = await view(h, session);
    assert.deepEqual([v.status, v.dispute?.status, v.dispute?.outcome], ['paid', 'closed', 'confirmed']);
    const detail = await h.handler.inspect.session(order.id);
    assert.equal(detail?.disputes[0]?.deposit?.amount, order.amount, 'the deposit that confirmed it is kept');
  });

  test('the order view says "unconfirmed" once the grace after processing ends without a record of the money', async () => {
    const h = makeHarness();
    const { session, order } = await endedSession(h);
    const d = h.provider.openDispute(order.id);
    await h.handler.reconcile();
    h.provider.processDispute(d.dispute_id, false);
    await h.handler.reconcile();
    assert.deepEqual([(await view(h, session)).dispute?.outcome], [null], 'still checked during the grace');
    h.clock.now += 10 * MINUTE;
    await h.handler.reconcile();
    const v = await view(h, session);
    assert.deepEqual([v.status, v.dispute?.status, v.dispute?.outcome], ['expired', 'closed', 'unconfirmed']);
  });

  test('disputeGraceSeconds sets the grace: 60 s flags a minute after processing, 0 at the sweep that sees it processed', async () => {
    for (const [grace, waitMs] of [[60, MINUTE], [0, 0]] as const) {
      const h = makeHarness({ disputeGraceSeconds: grace });
      const { session, order } = await endedSession(h);
      const d = h.provider.openDispute(order.id);
      await h.handler.reconcile();
      h.provider.processDispute(d.dispute_id, false);
      let r = await h.handler.reconcile();
      if (waitMs > 0) {
        assert.equal(r.flagged, 0, `grace ${grace}: not before it ends`);
        h.clock.now += waitMs - 1000;
        r = await h.handler.reconcile();
        assert.equal(r.flagged, 0, `grace ${grace}: not a second early`);
        h.clock.now += 1000;
        r = await h.handler.reconcile();
      }
      assert.equal(r.flagged, 1, `grace ${grace}`);
      assert.equal((await view(h, session)).dispute?.outcome, 'unconfirmed');
    }
  });

  test('disputeGraceSeconds is validated: a negative, non-finite or longer-than-the-late-window value is a clear error (on first use)', async () => {
    for (const bad of [-1, Number.NaN, Number.POSITIVE_INFINITY, '60' as unknown as number]) {
      await assertBadOptionOnFirstUse({ disputeGraceSeconds: bad }, /disputeGraceSeconds must be 0 or a positive number/);
    }
    await assertBadOptionOnFirstUse({ lateWindowSeconds: 3600, disputeGraceSeconds: 7200 }, /disputeGraceSeconds must not be longer than lateWindowSeconds/);
    const short = makeHarness({ lateWindowSeconds: 300 });
    await assert.doesNotReject(short.handler.reconcile(), 'the default grace fits a short late window');
    await short.handler.close();
  });

  test('a deposit that names the order after its dispute was flagged unconfirmed still pays it (late) within the late window', async () => {
    const h = makeHarness();
    const { session, order } = await endedSession(h);
    const d = h.provider.openDispute(order.id);
    await h.handler.reconcile();
    h.provider.processDispute(d.dispute_id, false);
    await h.handler.reconcile();
    h.clock.now += 10 * MINUTE;
    await h.handler.reconcile();
    assert.equal(h.flagged.length, 1);
    // The provider's operators credit the money an hour later (a decision revised by hand).
    h.clock.now += 60 * MINUTE;
    h.provider.transactions.push({
      id: 't-late',
      deposit_id: 'd-late',
      amount: order.amount,
      transaction_type: 'deposit',
      created_at: new Date(h.clock.now).toISOString(),
      terminal: { id: 'terminal', currency: 'RUB', name: 'Shop' },
      client_description: `Dispute ${d.dispute_id} accepted: order ${order.id}`,
      client_id: 'client',
    });
    for (let i = 0; i < 30 && h.paid.length === 0; i++) {
      h.clock.now += 60 * MINUTE;
      await h.handler.reconcile();
    }
    assert.deepEqual((h.paid as OrderEvent[]).map((e) => [e.late, e.dispute_id]), [[true, d.dispute_id]]);
    const v = await view(h, session);
    assert.deepEqual([v.status, v.dispute?.outcome], ['paid', 'confirmed']);
  });

  test('a merchant client order id shared by two attempts: the other attempt\'s deposit never confirms this one\'s rejected dispute', async () => {
    const h = makeHarness({ resolveOrder: () => ({ amount: '1500.00', client_order_id: 'cart-42' }) });
    const a = await createSession(h, { order_ref: 'cart', method_type: 'SBP' });
    h.provider.setStatus(a.order.id, 'CanceledByTimeout');
    await h.handler.reconcile();
    const d = h.provider.openDispute(a.order.id);
    await h.handler.reconcile();
    // Attempt B of the same cart is paid normally; the provider's deposit for it names the cart id.
    h.clock.now += MINUTE;
    const b = await createSession(h, { order_ref: 'cart', method_type: 'SBP' });
    assert.notEqual(b.order.id, a.order.id);
    h.provider.setStatus(b.order.id, 'Completed');
    h.provider.transactions.push({
      id: 't-b',
      deposit_id: 'd-b',
      amount: '1500.00',
      transaction_type: 'deposit',
      created_at: new Date(h.clock.now).toISOString(),
      terminal: { id: 'terminal', currency: 'RUB', name: 'Shop' },
      client_description: `Payment of order ${b.order.id} (client_order_id cart-42)`,
      client_id: 'client',
    });
    h.provider.processDispute(d.dispute_id, false);
    await h.handler.reconcile();
    h.clock.now += 10 * MINUTE;
    await h.handler.reconcile();
    await h.handler.reconcile();
    const paidOrders = (h.paid as OrderEvent[]).map((e) => [e.provider_order_id, e.late]);
    assert.deepEqual(paidOrders, [[b.order.id, false]], 'only B is paid');
    assert.deepEqual((h.flagged as FlaggedOrderEvent[]).map((f) => [f.reason, f.provider_order_id]), [['dispute_unconfirmed', a.order.id]]);
  });

  for (const newestFirst of [true, false]) {
    test(`more dispute pages than one sweep reads (listed ${newestFirst ? 'newest' : 'oldest'} first): later sweeps go on, and an accepted dispute beyond the limit pays the order late`, async () => {
      const h = makeHarness();
      h.provider.disputesNewestFirst = newestFirst;
      const { session, order } = await endedSession(h);
      // Over 100 pages of 100 of other orders' disputes (other shops on the terminal), all within a
      // minute, with this order's accepted dispute on the last page: beyond the 100 pages one sweep reads.
      const noise = (n: number) => {
        for (let i = 0; i < n; i++) {
          h.clock.now += 5;
          h.provider.disputes.push({
            dispute_id: `noise-${h.provider.disputes.length}`,
            order_id: `other-${i}`,
            client_order_id: `other-${i}`,
            amount: 700,
            currency: 'RUB',
            processed: false,
            created_at: new Date(h.clock.now).toISOString(),
          });
        }
      };
      if (!newestFirst) noise(10_050);
      h.clock.now += 5;
      const d = h.provider.openDispute(order.id);
      if (newestFirst) noise(10_050);
      h.provider.processDispute(d.dispute_id, true);
      assert.ok(h.provider.disputes.length > 100 * 100);
      h.clock.now += MINUTE;
      let sweeps = 0;
      while (h.paid.length === 0 && sweeps < 5) {
        const r = await h.handler.reconcile();
        assert.equal(r.errors, 0);
        sweeps++;
        h.clock.now += MINUTE;
      }
      assert.ok(sweeps > 1, 'one sweep did not read them all');
      const v = await view(h, session);
      assert.deepEqual([v.status, v.late, v.dispute?.status], ['paid', true, 'closed']);
      assert.deepEqual((h.paid as OrderEvent[]).map((e) => [e.provider_order_id, e.late, e.dispute_id]), [[order.id, true, d.dispute_id]]);
    });
  }

  test('many ended orders are listed, not read one by one; a late legacy Paid counts as a Completed one', async () => {
    const h = makeHarness();
    const ended = [];
    for (let i = 0; i < 5; i++) ended.push(await endedSession(h));
    h.clock.now += 5 * MINUTE;
    h.provider.setStatus(ended[1]!.order.id, 'Completed');
    h.provider.setStatus(ended[3]!.order.id, 'Paid'); // the older API's word for it (provider-notes.md)
    const gets = h.provider.count('getOrder');
    const r = await h.handler.reconcile();
    assert.equal(r.late_paid, 2);
    assert.equal(h.provider.count('getOrder'), gets, 'read through the list');
    assert.deepEqual(
      (h.paid as OrderEvent[]).map((e) => [e.provider_order_id, e.late]).sort(),
      [[ended[1]!.order.id, true], [ended[3]!.order.id, true]].sort(),
    );
    for (const [i, e] of ended.entries()) assert.equal((await view(h, e.session)).status, i === 1 || i === 3 ? 'paid' : 'expired');
  });

  test('the last late check, made by a sweep within the grace after the late window closed, still catches a late Completed', async () => {
    const h = makeHarness({ lateWindowSeconds: 3600 });
    const { session, order } = await endedSession(h);
    const endedAt = h.clock.now;
    h.clock.now = endedAt + 30 * MINUTE;
    await h.handler.reconcile(); // the check at 30 min: the next one is due when the window closes
    h.provider.setStatus(order.id, 'Completed');
    // No sweep ran at the close (a restart, a slow interval): the next one comes 20 minutes after it.
    h.clock.now = endedAt + 3600_000 + 20 * MINUTE;
    const reads = sessionReads(h);
    const r = await h.handler.reconcile();
    assert.equal(sessionReads(h), reads + 1, 'read once');
    assert.equal(r.late_paid, 1);
    assert.deepEqual([(await view(h, session)).status, (await view(h, session)).late], ['paid', true]);
    assert.deepEqual((h.paid as OrderEvent[]).map((e) => [e.provider_order_id, e.late]), [[order.id, true]]);
    h.clock.now += 10 * MINUTE;
    const again = await h.handler.reconcile();
    assert.equal(again.checked, 0, 'that was the last check');
    assert.equal(h.paid.length, 1);
  });

  test('after the late window an ended session is no longer read', async () => {
    const h = makeHarness({ lateWindowSeconds: 3600 });
    const { order } = await endedSession(h);
    h.clock.now += 3 * 3600_000; // past the window and the grace of its last check
    h.provider.setStatus(order.id, 'Completed');
    const before = sessionReads(h);
    const r = await h.handler.reconcile();
    assert.equal(r.late_paid, 0);
    assert.equal(sessionReads(h), before);
  });
});

describe('receipts: POST /sessions/S/dispute', () => {
  const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 73, 72, 68, 82]);
  const PDF = new TextEncoder().encode('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
  const upload = (token: string, parts: Array<[string, Blob | string, string?]>, headers: Record<string, string> = { 'x-paydesk': '1' }) => {
    const form = new FormData();
    for (const [name, value, filename] of parts) {
      if (typeof value === 'string') form.append(name, value);
      else form.append(name, value, filename);
    }
    return new Request(`${BASE}/sessions/${token}/dispute`, { method: 'POST', headers, body: form });
  };

  test('a PNG and a PDF open the provider dispute with the order id and amount; the view shows it open', async () => {
    const h = makeHarness();
    const { session, order } = await createSession(h);
    const res = await h.handler(
      upload(session, [
        ['files', new Blob([PNG], { type: 'image/png' }), 'screen.png'],
        ['files', new Blob([PDF], { type: 'application/pdf' }), 'чек.pdf'],
        ['comment', 'Paid from Sber at 12:01'],
      ]),
    );
    assert.equal(res.status, 201);
    const body = (await res.json()) as { order: { dispute: { id: string; status: string } } };
    assert.equal(body.order.dispute.status, 'open');
    const call = h.provider.calls.find((c) => c.method === 'createDispute')!.args[0] as { order_id: string; amount: string; files: Array<{ name: string; type: string }> };
    assert.equal(call.order_id, order.id);
    assert.equal(call.amount, order.amount);
    assert.deepEqual(call.files.map((f) => [f.name, f.type]), [['screen.png', 'image/png'], ['чек.pdf', 'application/pdf']]);
    const again = await h.handler(upload(session, [['files', new Blob([PNG]), 'again.png']]));
    assert.equal(again.status, 409);
    assert.equal(((await again.json()) as { error: { code: string } }).error.code, 'dispute_open');
    assert.equal(h.provider.count('createDispute'), 1);
  });

  test('refused: an HTML page named .png (415), no files or six (400), a text field as file, no header (403), a paid order (409)', async () => {
    const h = makeHarness();
    const { session, order } = await createSession(h);
    const code = async (res: Response) => [res.status, ((await res.json()) as { error: { code: string } }).error.code];
    assert.deepEqual(await code(await h.handler(upload(session, [['files', new Blob(['<html><script>alert(1)</script>']), 'x.png']]))), [415, 'unsupported_file']);
    assert.deepEqual(await code(await h.handler(upload(session, [['comment', 'no file']]))), [400, 'validation_failed']);
    assert.deepEqual(
      await code(await h.handler(upload(session, Array.from({ length: 6 }, (_, i) => ['files', new Blob([PNG]), `${i}.png`] as [string, Blob, string])))),
      [400, 'validation_failed'],
    );
    assert.deepEqual(await code(await h.handler(upload(session, [['files', new Blob([PNG]), 'a.png']], {}))), [403, 'missing_protocol_header']);
    const json = new Request(`${BASE}/sessions/${session}/dispute`, { method: 'POST', headers: { 'x-paydesk': '1', 'content-type': 'application/json' }, body: '{}' });
    assert.deepEqual(await code(await h.handler(json)), [415, 'unsupported_media_type']);
    assert.equal(h.provider.count('createDispute'), 0);
    h.provider.setStatus(order.id, 'Completed');
    await getSession(h, session, '?refresh=1');
    assert.deepEqual(await code(await h.handler(upload(session, [['files', new Blob([PNG]), 'a.png']]))), [409, 'dispute_not_allowed']);
  });

  test('a file over 10 MB is 413 before the provider is called', async () => {
    const h = makeHarness();
    const { session } = await createSession(h);
    const big = new Uint8Array(10 * 1024 * 1024 + 1);
    big.set(PNG);
    const res = await h.handler(upload(session, [['files', new Blob([big]), 'big.png']]));
    assert.equal(res.status, 413);
    assert.equal(h.provider.count('createDispute'), 0);
  });

  test('an upload after expiry opens the dispute; its acceptance ends paid (late) through the sweep', async () => {
    const h = makeHarness();
    const { session, order } = await createSession(h);
    h.provider.setStatus(order.id, 'CanceledByTimeout');
    await h.handler.reconcile();
    const res = await h.handler(upload(session, [['files', new Blob([PDF]), 'r.pdf']]));
    assert.equal(res.status, 201);
    h.provider.processDispute(h.provider.disputes[0]!.dispute_id, true);
    await h.handler.reconcile();
    const v = await view(h, session);
    assert.deepEqual([v.status, v.late, v.dispute?.status], ['paid', true, 'closed']);
    assert.equal(h.paid.length, 1);
  });
});

describe('restarts, lost sessions, form attempts, creations', () => {
  test('a webhook for an order of this handler whose session the store lost: recorded (200), reported once when paid (onOrderPaid by the order_ref its id carries)', async () => {
    const provider = new FakeProvider();
    const before = makeHarness({ webhookUrl: 'https://shop.example/api/paydesk/webhooks' }, provider);
    const { order } = await createSession(before);
    // The process restarts with the memory store: the new one knows nothing.
    const after = makeHarness({ webhookUrl: 'https://shop.example/api/paydesk/webhooks' }, provider);
    after.clock.now = before.clock.now;
    const o = provider.setStatus(order.id, 'Completed');
    const res = await after.handler(webhookRequest(o, { timestamp: now(after) }));
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), { received: true, recorded: 'orphan' });
    await after.handler.idle();
    assert.equal(after.paid.length, 1, 'reported by the webhook, not left for the sweep');
    await after.handler.reconcile();
    await after.handler.reconcile();
    assert.equal(after.paid.length, 1);
    const p = after.paid[0] as OrderEvent;
    assert.deepEqual([p.order_ref, p.session_id, p.provider_order_id], ['tee', '', order.id]);
    assert.equal(after.flagged.length, 0);
  });

  test("a webhook that outruns the create's answer is kept as an orphan; once the session is stored it alone pays, and the sweep drops the orphan (no session_lost)", async () => {
    const h = makeHarness({ webhookUrl: 'https://shop.example/api/paydesk/webhooks' });
    let early: Response | null = null;
    h.provider.beforeAnswer = async (o) => void (early = await h.handler(webhookRequest(o, { timestamp: now(h) })));
    const { order } = await createSession(h);
    h.provider.beforeAnswer = null;
    assert.deepEqual(await early!.json(), { received: true, recorded: 'orphan' });
    const o = h.provider.setStatus(order.id, 'Completed');
    assert.equal((await h.handler(webhookRequest(o, { timestamp: now(h) }))).status, 200);
    await h.handler.reconcile();
    h.clock.now += 10 * MINUTE;
    await h.handler.reconcile();
    assert.deepEqual((h.paid as OrderEvent[]).map((e) => e.provider_order_id), [order.id]);
    assert.deepEqual(h.flagged, [], 'an order with a session is not lost');
  });

  test("a hosted-form order with the merchant's own client order id, whose session the store let go: its webhook is recorded (the id is remembered), flagged session_lost once when paid", async () => {
    const webhookUrl = 'https://shop.example/api/paydesk/webhooks';
    const h = makeHarness({ mode: 'form', webhookUrl, lateWindowSeconds: 3600, resolveOrder: () => ({ amount: '1500.00', client_order_id: 'cart-77' }) });
    await createSession(h, { order_ref: 'cart', mode: 'form' });
    // The shopper picks a method on the hosted form: the provider's order carries no webhook_url of
    // ours, and 'cart-77' is not an id of the shape this handler generates.
    const order = await h.provider.payFormWith(h.provider.forms[0]!.session_id);
    assert.equal(order.webhook_url, null);
    h.provider.setStatus(order.id, 'CanceledByTimeout');
    await h.handler.reconcile();
    assert.equal((await h.handler.inspect.session(order.id))?.order.status, 'expired');
    // Two days on, the store has let the session go (its retention ended); then the provider completes
    // the order (an accepted appeal) and sends its webhook.
    h.clock.now += 49 * 3600_000;
    assert.equal(await h.handler.inspect.session(order.id), null, 'the session is gone');
    assert.equal(await h.handler.inspect.session('cart-77'), null);
    const o = h.provider.setStatus(order.id, 'Completed');
    const res = await h.handler(webhookRequest(o, { timestamp: now(h) }));
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), { received: true, recorded: 'orphan' });
    // The same kind of order for a merchant id this handler never created orders for is not ours.
    const form_data = await h.provider.createForm({ order_data: { client_order_id: 'other-shop-5', order_side: 'Buy', amount: '1500.00' } });
    const foreign = h.provider.setStatus((await h.provider.payFormWith(form_data.session_id)).id, 'Completed');
    const ignored = await h.handler(webhookRequest(foreign, { timestamp: now(h) }));
    assert.deepEqual([ignored.status, await ignored.json()], [200, { received: true, ignored: 'unknown order' }]);
    await h.handler.idle();
    assert.equal(h.flagged.length, 1, 'flagged by the webhook, not left for the sweep');
    await h.handler.reconcile();
    await h.handler.reconcile();
    assert.equal(h.flagged.length, 1);
    const f = h.flagged[0] as FlaggedOrderEvent;
    assert.deepEqual(
      [f.reason, f.order_ref, f.session_id, f.provider_order_id, f.client_order_id],
      ['session_lost', null, null, order.id, 'cart-77'],
    );
    assert.equal(h.paid.length, 0);
  });

  test('an unknown order that is not ours is acknowledged and ignored; an unreadable one is 503 (retried)', async () => {
    const h = makeHarness();
    const other = new FakeProvider();
    const { order } = await createSession(makeHarness({}, other));
    const foreign = other.setStatus(order.id, 'Completed');
    let res = await h.handler(webhookRequest(foreign, { timestamp: now(h) }));
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), { received: true, ignored: 'unknown order' });
    h.provider.failNext('getOrder', () => {
      throw new ProviderError({ code: 'network', message: 'down', retryable: true });
    });
    res = await h.handler(webhookRequest(foreign, { timestamp: now(h) }));
    assert.equal(res.status, 503);
    const log = await h.handler.inspect.webhooks();
    assert.deepEqual(log.map((e) => e.outcome), ['failed', 'ignored']);
  });

  test('hosted form, two attempts with one client_order_id: the webhook binds each to its own order; the first paid runs onOrderPaid', async () => {
    const h = makeHarness({ mode: 'form', resolveOrder: () => ({ amount: '1500.00', client_order_id: 'cart-77' }) });
    const a = await createSession(h, { order_ref: 'cart', mode: 'form' });
    h.clock.now += 31 * MINUTE; // the first attempt's session is no longer pending: a second attempt is made
    const formA = h.provider.forms[0]!;
    formA.state = 'expired';
    await h.handler.reconcile();
    const b = await createSession(h, { order_ref: 'cart', mode: 'form' });
    assert.notEqual(a.session, b.session);
    const formB = h.provider.forms[1]!;
    // The shopper picks a method on both forms (B last), then pays the FIRST one.
    const orderA = await h.provider.payFormWith(formA.session_id);
    formA.state = 'requisites_found';
    await h.provider.payFormWith(formB.session_id);
    const paidA = h.provider.setStatus(orderA.id, 'Completed');
    assert.equal((await h.handler(webhookRequest(paidA, { timestamp: now(h) }))).status, 200);
    await h.handler.idle();
    assert.equal(h.paid.length, 1);
    assert.equal((h.paid[0] as OrderEvent).session_id.length > 0, true);
    assert.equal((h.paid[0] as OrderEvent).provider_order_id, orderA.id);
    assert.equal((await view(h, b.session)).status, 'pending', 'the other attempt is not marked paid');
  });

  test('a create answered after the timeout (the order lands late): the retry with the same key adopts it — one provider order', async () => {
    const h = makeHarness();
    h.provider.failNext('createOrder', () => {
      throw new ProviderError({ code: 'timeout', message: 'no answer', retryable: true });
    });
    const post = () =>
      h.handler(
        new Request(`${BASE}/sessions`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-paydesk': '1', origin: 'https://shop.example', 'idempotency-key': 'k-slow' },
          body: JSON.stringify({ order_ref: 'tee', method_type: 'SBP' }),
        }),
      );
    const first = await post();
    assert.equal(first.status, 504);
    assert.equal(h.provider.orders.length, 0, 'nothing there yet');
    // The provider finally processes the first request.
    const saved = h.provider.calls.length;
    const landed = await h.provider.createOrder((h.provider.calls.find((c) => c.method === 'createOrder')!.args[0]) as never);
    h.provider.calls.length = saved;
    const retry = await post();
    assert.equal(retry.status, 201);
    assert.equal(((await retry.json()) as { order: { id: string } }).order.id, landed.id);
    assert.equal(h.provider.orders.length, 1);
    assert.equal(h.provider.count('createOrder'), 1);
  });

  test("a lost create never adopts another session's order: the same merchant client order id and amount, created a minute earlier", async () => {
    const h = makeHarness({ resolveOrder: () => ({ amount: '1500.00', client_order_id: 'cart-42' }) });
    const post = () => h.handler(createRequest({ order_ref: 'cart', method_type: 'SBP' }));
    // Attempt A of the cart: its order finds no trader and the provider cancels it.
    const a = await createSession(h, { order_ref: 'cart', method_type: 'SBP' });
    h.provider.setStatus(a.order.id, 'CanceledByService');
    await h.handler.reconcile();
    assert.equal((await view(h, a.session)).status, 'cancelled');
    // Attempt B, a minute later: its create times out before the provider made anything.
    h.clock.now += MINUTE;
    h.provider.failNext('createOrder', () => {
      throw new ProviderError({ code: 'timeout', message: 'no answer', retryable: true });
    });
    assert.equal((await post()).status, 504);
    // The retry looks the order up: A's order has the same client order id, side, amount and a
    // creation time within the lookup's clock slack, so only "it belongs to a session" keeps it out.
    h.clock.now += 10_000;
    const lookups = h.provider.count('searchOrdersByClientOrderId');
    const early = await post();
    assert.equal(h.provider.count('searchOrdersByClientOrderId'), lookups + 1, 'the retry looked the order up');
    assert.equal(early.status, 409, 'not adopted; nothing created while the lost create may still land');
    assert.equal(((await early.json()) as { error: { code: string } }).error.code, 'idempotency_in_progress');
    h.clock.now += MINUTE;
    const late = await post();
    assert.equal(late.status, 201);
    const b = (await late.json()) as { session: string; order: { id: string } };
    assert.notEqual(b.order.id, a.order.id, "B is not bound to A's order");
    assert.equal(h.provider.count('createOrder'), 3, 'B made its own order');
    assert.equal((await h.handler.inspect.session(a.order.id))?.session_id, a.session.split('.')[0], "A's order still points at A");
    assert.deepEqual([(await view(h, a.session)).status, (await view(h, b.session)).status], ['cancelled', 'pending']);
  });

  test('a merchant client order id: a second start while its session is pending answers that session (two tabs, no key)', async () => {
    const h = makeHarness({ resolveOrder: () => ({ amount: '1500.00', client_order_id: 'cart-9' }) });
    const [a, b] = await Promise.all([createSession(h, { order_ref: 'cart', method_type: 'SBP' }), createSession(h, { order_ref: 'cart', method_type: 'SBP' })]);
    assert.equal(a.order.id, b.order.id);
    assert.equal(h.provider.orders.length, 1);
  });
});

describe('rate limits without a client address', () => {
  test('warned once, naming the options to set', async () => {
    const h = makeHarness();
    await createSession(h);
    await createSession(h);
    const warnings = h.logs.filter((l) => /per-address rate limits are OFF/.test(l.message));
    assert.equal(warnings.length, 1);
    assert.match(warnings[0]!.message, /getClientAddress/);
    assert.match(warnings[0]!.message, /trustProxy/);
  });
});
