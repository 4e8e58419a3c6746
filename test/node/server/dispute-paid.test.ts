/**
 * A receipt's dispute on an order that ends up paid is followed to its end (probe: it stayed "open"
 * forever in the session view, the event stream and the console). With the real handler and the
 * in-process sandbox delivering its webhooks to it:
 *
 * - A: the receipt opens a dispute on a pending order, then the provider accepts it (the order is
 *   completed, its webhook pays the session);
 * - B: the order is completed while the dispute's create is still on its way (the upload answers
 *   paid with the dispute open), then the provider processes the dispute (accepted or rejected);
 * - a receipt on an expired order processed without money yet, then the order completes late.
 *
 * Each time the session view and the event stream reach the decided dispute (`closed`,
 * `confirmed`), `onOrderPaid` runs once (late only when the order had ended), and nothing is flagged.
 */
import { test, describe, after } from 'node:test';
import assert from 'node:assert/strict';
import type { OrderView } from '../../../src/protocol/index.js';
import { SseReader } from './fake-provider.js';
import { created as createdFor, ENDPOINT, view as read, world as sandboxWorld, type World as SandboxWorld } from './world.js';

const open: Array<() => Promise<unknown>> = [];
after(async () => {
  for (const close of open.reverse()) await close();
});

interface World extends SandboxWorld {
  /** Runs before the provider sees a dispute create (once). */
  beforeDisputeCreate: (() => Promise<void>) | null;
}

function world(): World {
  const w: World = Object.assign(
    sandboxWorld({
      key: 'dispute_paid_terminal_key_0123456789ab',
      secret: 'dispute-paid-session-secret-0123456789abcdef',
      sandboxClock: true,
      record: ['paid', 'flagged'],
      toSandbox: async (req, forward) => {
        const hold = w.beforeDisputeCreate;
        if (hold && req.method === 'POST' && new URL(req.url).pathname === '/api/v1/disputes/create') {
          w.beforeDisputeCreate = null;
          await hold();
        }
        return forward(req);
      },
    }),
    { beforeDisputeCreate: null },
  );
  return w;
}

const created = (w: World) => createdFor(w, { order_ref: 'coffee-beans', method_type: 'SBP' });

/** A PNG's first bytes: enough for the receipt check by content. */
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 0, 1, 0, 0, 0, 1, 8, 6, 0, 0, 0]);

async function upload(w: World, session: string): Promise<{ status: number; order: OrderView }> {
  const form = new FormData();
  form.append('files', new Blob([PNG], { type: 'image/png' }), 'receipt.png');
  const res = await w.handler(new Request(`${ENDPOINT}/sessions/${session}/dispute`, { method: 'POST', headers: { 'x-paydesk': '1' }, body: form }));
  const json = (await res.json()) as { order: OrderView };
  return { status: res.status, order: json.order };
}

/** The session's event stream, read as the widget (or a merchant page) would. */
function stream(w: World, session: string) {
  const reader = w.handler(new Request(`${ENDPOINT}/sessions/${session}/events`)).then((res) => new SseReader(res));
  open.push(async () => (await reader).cancel().catch(() => undefined));
  const seen: OrderView[] = [];
  return {
    seen,
    /** Reads events until one matches (the stream ending first fails). */
    async until(match: (v: OrderView) => boolean): Promise<OrderView> {
      const r = await reader;
      for (;;) {
        const ev = await r.next();
        assert.ok(ev, `the stream ended before the awaited event; seen: ${JSON.stringify(seen.map(brief))}`);
        const v = JSON.parse(ev.data!) as OrderView;
        seen.push(v);
        if (match(v)) return v;
      }
    },
    /** True when the server ended the stream. */
    async ended(): Promise<boolean> {
      return (await (await reader).next()) === null;
    },
  };
}

const brief = (v: OrderView) => [v.status, v.late, v.dispute?.status ?? null, v.dispute?.outcome ?? null];
const paidWithOpenDispute = (v: OrderView) => v.status === 'paid' && v.dispute?.status === 'open';

describe('a dispute on an order that ends up paid is followed to its end', () => {
  test('A: a receipt on a pending order, then the provider accepts the dispute (the order completes): the view and the stream reach "confirmed"; onOrderPaid once', { timeout: 30_000 }, async () => {
    const w = world();
    const { session, order } = await created(w);
    const events = stream(w, session);
    await events.until((v) => v.status === 'pending');
    const up = await upload(w, session);
    assert.equal(up.status, 201);
    assert.deepEqual(brief(up.order), ['pending', false, 'open', null]);
    await events.until((v) => v.dispute?.status === 'open');

    await w.control(`/sandbox/disputes/${up.order.dispute!.id}/process`, { accepted: true });
    // The order's webhook pays the session; the dispute is still open as far as the server knows.
    assert.deepEqual(brief(await events.until((v) => v.status === 'paid')), ['paid', false, 'open', null]);

    const r = await w.handler.reconcile();
    assert.equal(r.disputes_processed, 1);
    assert.deepEqual(brief(await read(w, session)), ['paid', false, 'closed', 'confirmed']);
    assert.deepEqual(brief(await events.until((v) => v.dispute?.status !== 'open')), ['paid', false, 'closed', 'confirmed']);
    assert.equal(await events.ended(), true, 'the stream ends once the paid order\'s dispute is decided');

    // Later sweeps change nothing and pay nothing again.
    await w.handler.reconcile();
    await w.handler.reconcile();
    assert.deepEqual(
      w.paid.map((e) => [e.provider_order_id, e.late, e.dispute_id]),
      [[order.id, false, null]],
    );
    assert.deepEqual(w.flagged, []);
    const detail = await w.handler.inspect.session(order.id);
    assert.deepEqual(detail?.disputes.map((d) => [d.id, d.processed, d.outcome]), [[up.order.dispute!.id, true, 'paid']]);
  });

  test('a receipt on an expired order, rejected (its money looked for during the grace), then the order completes late: "confirmed", paid once (late), never flagged', { timeout: 30_000 }, async () => {
    const w = world();
    const { session, order } = await created(w);
    const events = stream(w, session);
    await w.control(`/sandbox/orders/${order.id}/expire`);
    await events.until((v) => v.status === 'expired');
    const up = await upload(w, session);
    assert.equal(up.status, 201);
    await w.control(`/sandbox/disputes/${up.order.dispute!.id}/process`, { accepted: false });
    await w.handler.reconcile();
    assert.deepEqual(brief(await read(w, session)), ['expired', false, 'open', null], 'processed, its money looked for during the grace');

    await w.control(`/sandbox/orders/${order.id}/complete`, { late: true });
    assert.deepEqual(brief(await events.until((v) => v.status === 'paid')), ['paid', true, 'open', null]);
    await w.handler.reconcile();
    assert.deepEqual(brief(await read(w, session)), ['paid', true, 'closed', 'confirmed']);
    assert.deepEqual(brief(await events.until((v) => v.dispute?.status !== 'open')), ['paid', true, 'closed', 'confirmed']);
    assert.equal(await events.ended(), true);
    await w.advance(3600);
    await w.handler.reconcile();
    assert.deepEqual(
      w.paid.map((e) => [e.provider_order_id, e.late, e.dispute_id]),
      [[order.id, true, null]],
    );
    assert.deepEqual(w.flagged, []);
  });

  for (const accepted of [true, false]) {
    test(`B: the order completes while the dispute's create is on its way (201 paid, dispute open); the dispute ${accepted ? 'accepted' : 'rejected'} later: "confirmed", paid once, nothing flagged`, { timeout: 30_000 }, async () => {
      const w = world();
      const { session, order } = await created(w);
      const shopper = stream(w, session);
      await shopper.until((v) => v.status === 'pending');
      // The provider holds the dispute's create; meanwhile the order is completed and its webhook lands.
      w.beforeDisputeCreate = async () => {
        await w.control(`/sandbox/orders/${order.id}/complete`);
        await shopper.until((v) => v.status === 'paid');
      };
      const up = await upload(w, session);
      assert.equal(up.status, 201);
      assert.deepEqual(brief(up.order), ['paid', false, 'open', null]);
      // A stream opened now (a reload, the merchant's page) stays open while the dispute is checked.
      const events = stream(w, session);
      assert.deepEqual(brief(await events.until(paidWithOpenDispute)), ['paid', false, 'open', null]);

      // Not processed yet: still checked after sweeps — found in the sweep's dispute listing (one
      // call) while its window holds it, then one call for the order's disputes (the order is not read);
      // each sweep also reads one page of the provider's order list (sweep/provider-orders.ts).
      const calls: number[] = [];
      for (let i = 0; i < 3; i++) {
        if (i > 0) await w.advance(15 * 60);
        calls.push((await w.handler.reconcile()).provider_calls);
      }
      assert.deepEqual(calls, [2, 2, 3]);
      assert.deepEqual(brief(await read(w, session)), ['paid', false, 'open', null]);

      await w.control(`/sandbox/disputes/${up.order.dispute!.id}/process`, { accepted });
      const r = await w.handler.reconcile();
      assert.equal(r.disputes_processed, 1);
      assert.deepEqual([r.paid, r.late_paid], [0, 0], 'not a second payment');
      assert.deepEqual(brief(await read(w, session)), ['paid', false, 'closed', 'confirmed']);
      assert.deepEqual(brief(await events.until((v) => v.dispute?.status !== 'open')), ['paid', false, 'closed', 'confirmed']);
      assert.equal(await events.ended(), true);

      // Decided: no longer followed (only the sweep's dispute listing and its order-list page are left).
      assert.equal((await w.handler.reconcile()).provider_calls, 2);
      assert.deepEqual(
        w.paid.map((e) => [e.provider_order_id, e.late, e.dispute_id]),
        [[order.id, false, null]],
      );
      assert.deepEqual(w.flagged, []);
    });
  }
});
