/**
 * A stored session's index entries (client order id, provider order id, the sessions and watch
 * indexes) are written together after the record (issue 33: POST /sessions' store work). A generated
 * client order id's index is created without a read first: a second session of the same id (an
 * Idempotency-Key retry after a failure) must still be added to it, not replace it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createMemoryStore } from '../../../src/server/store.js';
import { generateClientOrderId, SessionRepository, SESSIONS_INDEX, WATCH_INDEX, type SessionRecord } from '../../../src/server/sessions.js';

const NOW = 1_800_000_000_000;

function record(sid: string, coid: string, orderId: string): SessionRecord {
  return {
    sid,
    mode: 'h2h',
    order_ref: 'ref-1',
    client_order_id: coid,
    client_order_id_generated: coid.startsWith('pd_'),
    provider_order_id: orderId,
    form_session_id: null,
    requested_amount: '100.00',
    currency: 'RUB',
    unique_amount: false,
    expected_amount: '100.00',
    view: { status: 'pending' },
    event: 1,
    created_at: NOW,
    expires_at: NOW + 3_600_000,
    retain_until: NOW + 7_200_000,
    refreshed_at: NOW,
    confirm_pending: false,
    ended_at: null,
    payment: null,
    dispute: null,
    disputes: [],
    flagged: null,
    flags: [],
    hooks: {},
    history: [],
  } as unknown as SessionRecord;
}

for (const [what, coid] of [
  ['a generated client order id', generateClientOrderId()],
  ["a merchant's client order id", 'merchant-order-7'],
] as const) {
  test(`two sessions of ${what}: both indexed, in order, with their orders and in the sweep's indexes`, async () => {
    const store = createMemoryStore();
    const repo = new SessionRepository(store, () => NOW);
    await repo.create(record('sid-a', coid, 'order-a'));
    await repo.create(record('sid-b', coid, 'order-b'));
    assert.deepEqual(await repo.sessionsOfClientOrder(coid), ['sid-a', 'sid-b']);
    assert.equal((await repo.findByOrderId('order-a'))?.sid, 'sid-a');
    assert.equal((await repo.findByOrderId('order-b'))?.sid, 'sid-b');
    for (const index of [SESSIONS_INDEX, WATCH_INDEX]) {
      const members = (await store.indexRange(index, { limit: 100 })).map((e) => e.member).sort();
      assert.deepEqual(members, ['sid-a', 'sid-b'], index);
    }
    // A merchant's id is remembered for late webhooks; a generated one is known by its shape.
    assert.equal((await store.get(`seen:${coid}`)) !== null, !coid.startsWith('pd_'));
    await store.close?.();
  });
}
