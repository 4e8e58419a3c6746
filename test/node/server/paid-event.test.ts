/**
 * onOrderPaid's event always names the provider order (issue 21.3: `PaidOrderEvent.provider_order_id`
 * is a `string`): a session becomes paid only from a provider order read back from the provider, by a
 * webhook, a read or a sweep, in H2H and in hosted-form mode (where the order appears after the
 * session), and late after expiry.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { PaidOrderEvent } from '../../../src/server/index.js';
import { createSession, makeHarness, webhookRequest } from './fake-provider.js';

const now = (h: { clock: { now: number } }) => Math.floor(h.clock.now / 1000);

describe('the paid event names the provider order', () => {
  test('H2H, paid by a webhook', async () => {
    const h = makeHarness();
    await createSession(h);
    const order = h.provider.orders[0]!;
    const res = await h.handler(webhookRequest(h.provider.setStatus(order.id, 'Completed'), { timestamp: now(h) }));
    assert.equal(res.status, 200);
    await h.handler.reconcile();
    assert.equal(h.paid.length, 1);
    const e = h.paid[0] as PaidOrderEvent;
    assert.equal(typeof e.provider_order_id, 'string');
    assert.equal(e.provider_order_id, order.id);
  });

  test('hosted form: the order the shopper picked on the form, found by the sweep', async () => {
    const h = makeHarness({ mode: 'form' });
    await createSession(h, { order_ref: 'tee', mode: 'form' });
    const order = await h.provider.payFormWith(h.provider.forms[0]!.session_id);
    h.provider.setStatus(order.id, 'Completed');
    await h.handler.reconcile();
    await h.handler.reconcile();
    assert.equal(h.paid.length, 1);
    assert.equal((h.paid[0] as PaidOrderEvent).provider_order_id, order.id);
  });

  test('paid late, after the order expired', async () => {
    const h = makeHarness();
    await createSession(h);
    const order = h.provider.orders[0]!;
    h.provider.setStatus(order.id, 'CanceledByTimeout');
    await h.handler.reconcile();
    assert.equal(h.closed.length, 1);
    await h.handler(webhookRequest(h.provider.setStatus(order.id, 'Completed'), { timestamp: now(h) }));
    await h.handler.reconcile();
    assert.equal(h.paid.length, 1);
    const e = h.paid[0] as PaidOrderEvent;
    assert.deepEqual([e.late, e.provider_order_id], [true, order.id]);
  });
});
