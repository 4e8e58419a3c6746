/**
 * The provider's status words: provider-notes.md says merchants' webhook receivers compare
 * `payload.status` case-insensitively, so its case is not to be relied on. A paid order in another
 * case must still be paid, never "unknown, still pending" until the merchant never hears of it.
 */
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import type { OrderEvent } from '../../../src/server/index.js';
import { createSession, getSession, makeHarness } from './fake-provider.js';

describe('order status in another case', () => {
  test('COMPLETED (webhook lost, tab closed): one sweep marks the session paid and runs onOrderPaid once', async () => {
    const h = makeHarness();
    const { session, order } = await createSession(h);
    h.provider.setStatus(order.id, 'COMPLETED');
    const report = await h.handler.reconcile();
    assert.equal(report.paid, 1);
    assert.equal(h.paid.length, 1);
    assert.equal((h.paid[0] as OrderEvent).late, false);
    const view = ((await (await getSession(h, session)).json()) as { order: { status: string } }).order;
    assert.equal(view.status, 'paid');
    await h.handler.reconcile();
    assert.equal(h.paid.length, 1);
  });

  test('completed after canceledbytimeout: paid late, onOrderPaid once', async () => {
    const h = makeHarness();
    const { order } = await createSession(h);
    h.provider.setStatus(order.id, 'canceledbytimeout');
    await h.handler.reconcile();
    assert.equal(h.closed.length, 1, 'the timeout ended the session');
    h.clock.now += 60_000;
    h.provider.setStatus(order.id, 'completed');
    const report = await h.handler.reconcile();
    assert.equal(report.late_paid, 1);
    assert.equal(h.paid.length, 1);
    assert.equal((h.paid[0] as OrderEvent).late, true);
  });
});
