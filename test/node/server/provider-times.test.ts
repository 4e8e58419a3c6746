/**
 * The provider writes its times without a zone (provider-notes.md: the webhook's `datetime`
 * `2024-08-02T15:34:07.440105`, query dates `Y-m-d H:i:s` in UTC): an order's `created_at` and
 * `expires_at` may come so too. They are UTC, whatever the merchant server's own time zone (a RUB
 * shop's server often runs on Moscow time).
 */
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { createRequest, createSession, makeHarness } from './fake-provider.js';
import type { Harness } from './fake-provider.js';

/** Orders created from now on carry their times as the provider writes them: UTC, no zone, microseconds. */
function zoneLessTimes(h: Harness): void {
  const naive = (iso: string) => iso.replace(/Z$/, '000');
  h.provider.beforeAnswer = async (o) => {
    const stored = h.provider.orders.find((x) => x.id === o.id)!;
    stored.created_at = naive(stored.created_at);
    stored.updated_at = naive(stored.updated_at);
    stored.expires_at = naive(stored.expires_at);
  };
}

/** Runs `body` with the process in a time zone east of UTC (restored after). */
async function inMoscow(body: () => Promise<void>): Promise<void> {
  const saved = process.env.TZ;
  process.env.TZ = 'Europe/Moscow';
  try {
    assert.equal(new Date(Date.UTC(2026, 2, 1, 12)).getHours(), 15, 'the time zone took effect');
    await body();
  } finally {
    if (saved === undefined) delete process.env.TZ;
    else process.env.TZ = saved;
  }
}

describe('provider times without a zone, on a server east of UTC', () => {
  test('a merchant client order id: a second start while its session is pending answers that session, not a second order', async () => {
    await inMoscow(async () => {
      const h = makeHarness({ resolveOrder: () => ({ amount: '1500.00', client_order_id: 'cart-msk' }) });
      zoneLessTimes(h);
      const a = await createSession(h, { order_ref: 'cart', method_type: 'SBP' });
      h.clock.now += 60_000;
      const b = await createSession(h, { order_ref: 'cart', method_type: 'SBP' });
      assert.equal(b.order.id, a.order.id, 'the second tab is shown the first order');
      assert.equal(h.provider.orders.length, 1, 'one provider order for one purchase');
    });
  });

  test('a create whose answer was lost is found by the retry with the same key after the in-flight window: one provider order', async () => {
    await inMoscow(async () => {
      const h = makeHarness();
      zoneLessTimes(h);
      h.provider.loseCreates = 1;
      const post = () => h.handler(createRequest({ order_ref: 'tee', method_type: 'SBP' }, { 'idempotency-key': 'k-msk' }));
      assert.equal((await post()).status, 504);
      assert.equal(h.provider.orders.length, 1, 'the provider made the order; its answer was lost');
      h.clock.now += 2 * 60_000;
      const retry = await post();
      assert.equal(retry.status, 201);
      assert.equal(((await retry.json()) as { order: { id: string } }).order.id, h.provider.orders[0]!.id, 'the lost order is adopted');
      assert.equal(h.provider.orders.length, 1, 'no second order');
    });
  });
});
