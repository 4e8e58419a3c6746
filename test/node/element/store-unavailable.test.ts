/**
 * The widget and a store that fails (issue 30): the token endpoint's `503 store_unavailable` is a code
 * the element has no sentence of its own for; it is read as a retryable error (the internal_error
 * sentence), and a create retried after it uses the same Idempotency-Key (never a second order).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ApiError, createApi } from '../../../src/element/api.js';
import en from '../../../src/element/i18n/en.js';
import { errorText } from '../../../src/element/i18n/text.js';
import { initialState } from '../../../src/element/machine.js';
import { transition } from '../../../src/element/transition.js';
import type { MachineEvent, MachineState } from '../../../src/element/machine.js';
import { METHODS } from '../../browser/helpers/orders.js';

const storeDown = () =>
  new Response(JSON.stringify({ error: { code: 'store_unavailable', message: 'The Redis store did not answer; retry after Retry-After.', retryable: true } }), {
    status: 503,
    headers: { 'content-type': 'application/json; charset=utf-8', 'retry-after': '5' },
  });

test('503 store_unavailable: a retryable error; the create is retried with the same key', async () => {
  const keys: string[] = [];
  const api = createApi('/api/paydesk', {
    fetch: async (_url, init) => {
      keys.push(new Headers(init?.headers).get('idempotency-key') ?? '');
      return storeDown();
    },
  });
  const err = await api.create({ order_ref: 'tee', method_type: 'SBP' }, 'k-store', undefined).then(
    () => assert.fail('expected a failure'),
    (e: unknown) => e,
  );
  assert.ok(err instanceof ApiError);
  assert.deepEqual([err.code, err.retryable, err.status], ['store_unavailable', true, 503]);
  assert.equal(errorText(en, err.code), en.errors.internal_error, 'the shopper sees the internal_error sentence');

  let s: MachineState = initialState();
  for (const e of [
    { type: 'start', resume: null, preselected: null, canCreate: true, key: 'k1' },
    { type: 'methods', methods: METHODS },
    { type: 'choose', selection: { payment_method_id: 'm-sbp' }, key: 'k-store' },
    { type: 'failed', error: { code: err.code, message: err.message, retryable: err.retryable } },
  ] as MachineEvent[]) s = transition(s, e).state;
  assert.deepEqual([s.name, s.error?.retryable], ['error', true]);
  const retried = transition(s, { type: 'retry' });
  assert.deepEqual(retried.effects[0], { type: 'create', selection: { payment_method_id: 'm-sbp' }, key: 'k-store' });
  assert.deepEqual(keys, ['k-store']);
});
