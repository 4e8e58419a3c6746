import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { GONE_CODES } from '../../../src/element/api.js';
import type { PaydeskErrorCode } from '../../../src/protocol/index.js';
import {
  initialState,
  isOpen,
  isWatching,
  type StateName,
  type Effect,
  type MachineEvent,
  type MachineState,
  type Step,
} from '../../../src/element/machine.js';
import { transition } from '../../../src/element/transition.js';
import { orderView, METHODS } from '../../browser/helpers/orders.js';
import { isOrderOpen } from '../../../src/element/footer.js';
import { isEnded } from '../../../src/element/live.js';
import { canDispute } from '../../../src/element/views.js';
// The CDN build's loader, which makes an integrity failure final (it touches no DOM as it loads).
import '../../../src/element/integrity.js';

const T0 = Date.parse('2026-03-02T10:00:00.000Z');
const at = (ms = 0) => ({ mono: 1000 + ms, wall: T0 + ms });

function run(events: MachineEvent[], from: MachineState = initialState()): Step {
  let step: Step = { state: from, effects: [] };
  for (const e of events) step = transition(step.state, e);
  return step;
}
const emits = (effects: Effect[]) => effects.filter((e) => e.type === 'emit').map((e) => (e as { event: string }).event);
const types = (effects: Effect[]) => effects.map((e) => e.type);

const start = (over: Partial<Extract<MachineEvent, { type: 'start' }>> = {}): MachineEvent => ({
  type: 'start',
  resume: null,
  preselected: null,
  canCreate: true,
  key: 'k1',
  ...over,
});
const created = (order = orderView(), serverTime: string | null = new Date(T0).toISOString(), ms = 0): MachineEvent => ({
  type: 'created',
  session: 'S1',
  order,
  serverTime,
  ...at(ms),
});
const update = (patch: Parameters<typeof orderView>[0], ms = 0, serverTime: string | null = null): MachineEvent => ({
  type: 'order',
  order: orderView(patch),
  serverTime,
  ...at(ms),
});
const failure = (code: string, retryable: boolean): MachineEvent => ({ type: 'failed', error: { code: code as PaydeskErrorCode, message: code, retryable } });
const toPay = [start(), { type: 'methods', methods: METHODS } as MachineEvent, { type: 'choose', selection: { payment_method_id: 'm-sbp' }, key: 'k2' } as MachineEvent, created()];

describe('checkout state machine: starting', () => {
  test('start without preselection loads the methods', () => {
    const { state, effects } = run([start()]);
    assert.equal(state.name, 'loading');
    assert.equal(state.op, 'methods');
    assert.deepEqual(types(effects), ['fetchMethods', 'emit']);
  });

  test('start with a preselection skips the choice and creates at once with the start key', () => {
    const { state, effects } = run([start({ preselected: { method_type: 'SBP', nspk_code: 'bank100000000111' } })]);
    assert.equal(state.name, 'searching');
    assert.deepEqual(effects[0], { type: 'create', selection: { method_type: 'SBP', nspk_code: 'bank100000000111' }, key: 'k1' });
  });

  test('start with a session resumes it instead of creating an order', () => {
    const { state, effects } = run([start({ resume: { session: 'S9' } })]);
    assert.equal(state.name, 'loading');
    assert.equal(state.op, 'resume');
    assert.deepEqual(effects[0], { type: 'resume', session: 'S9' });
    assert.ok(!types(effects).includes('create'));
  });

  test('start without order ref and without session is a configuration error', () => {
    const { state, effects } = run([start({ canCreate: false })]);
    assert.equal(state.name, 'error');
    assert.equal(state.error?.code, 'config');
    assert.equal(state.error?.retryable, false);
    assert.deepEqual(emits(effects), ['error', 'status']);
  });

  test('a second start while running is ignored', () => {
    const first = run([start()]);
    const again = transition(first.state, start({ key: 'other' }));
    assert.equal(again.state, first.state);
    assert.deepEqual(again.effects, []);
  });
});

describe('checkout state machine: choosing', () => {
  test('several methods are offered for choice', () => {
    const { state } = run([start(), { type: 'methods', methods: METHODS }]);
    assert.equal(state.name, 'choose');
    assert.equal(state.methods.length, 2);
  });

  test('a single method is chosen automatically with the start key', () => {
    const { state, effects } = run([start(), { type: 'methods', methods: [METHODS[0]!] }]);
    assert.equal(state.name, 'searching');
    assert.deepEqual(effects[0], { type: 'create', selection: { payment_method_id: 'm-sbp' }, key: 'k1' });
  });

  test('no method at all is an error that retrying cannot fix', () => {
    const { state } = run([start(), { type: 'methods', methods: [] }]);
    assert.equal(state.name, 'error');
    assert.equal(state.error?.code, 'method_unavailable');
    assert.equal(state.error?.retryable, false);
  });

  test('choosing creates a session with the chosen method and the new key', () => {
    const { state, effects } = run([start(), { type: 'methods', methods: METHODS }, { type: 'choose', selection: { payment_method_id: 'm-card' }, key: 'k2' }]);
    assert.equal(state.name, 'searching');
    assert.deepEqual(effects[0], { type: 'create', selection: { payment_method_id: 'm-card' }, key: 'k2' });
  });

  test('a methods answer arriving outside loading is ignored', () => {
    const pay = run(toPay).state;
    assert.equal(transition(pay, { type: 'methods', methods: METHODS }).state, pay);
  });
});

describe('checkout state machine: the order', () => {
  test('a created pending order shows the requisites, stores the session and announces it', () => {
    const { state, effects } = run(toPay);
    assert.equal(state.name, 'pay');
    assert.equal(state.session, 'S1');
    assert.deepEqual(effects.slice(0, 2), [{ type: 'store', session: 'S1', paid: false }, { type: 'emit', event: 'session' }]);
    assert.ok(emits(effects).includes('status'));
    assert.deepEqual(state.sync, { serverMs: T0, monoMs: 1000 });
  });

  test('"I have paid" moves to confirming, stores that it was said (a reload shows confirming), and asks the server at once', () => {
    const { state, effects } = run([...toPay, { type: 'paidPressed' }]);
    assert.equal(state.name, 'confirming');
    assert.equal(state.said, true);
    assert.deepEqual(effects, [{ type: 'store', session: 'S1', paid: false }, { type: 'emit', event: 'status' }, { type: 'check' }]);
  });

  test('a resumed session the shopper said is paid is confirming while pending; a new order after it ended is paid from the start', () => {
    const resumed = run([start({ resume: { session: 'S1', said: true } }), update({}, 0)]).state;
    assert.equal(resumed.name, 'confirming');
    const notSaid = run([start({ resume: { session: 'S1' } }), update({}, 0)]).state;
    assert.equal(notSaid.name, 'pay');
    // It expires unpaid; the shopper takes new requisites: the new order is to be paid, not being checked.
    const next = run([update({ status: 'expired', provider_status: 'CanceledByTimeout' }), { type: 'renew', key: 'k3' }, created(orderView({ id: 'ord-2' }))], { ...resumed, canCreate: true, selection: { payment_method_id: 'm-sbp' } });
    assert.equal(next.state.name, 'pay');
    assert.equal(next.state.said, false);
  });

  test('pending updates keep confirming (the shopper said they paid)', () => {
    const { state } = run([...toPay, { type: 'paidPressed' }, update({ provider_status: 'Unpaid' }, 5000)]);
    assert.equal(state.name, 'confirming');
  });

  test('paid from the server: paid screen, paid event once, session stored as notified', () => {
    const { state, effects } = run([...toPay, update({ status: 'paid', provider_status: 'Completed' })]);
    assert.equal(state.name, 'paid');
    assert.deepEqual(emits(effects), ['status', 'paid']);
    assert.ok(effects.some((e) => e.type === 'store' && e.paid));
  });

  test('paid fires exactly once, whatever repeats', () => {
    const paid = update({ status: 'paid', provider_status: 'Completed' });
    let step = run(toPay);
    let count = 0;
    for (const e of [paid, paid, update({ status: 'paid' }, 10), paid]) {
      step = transition(step.state, e);
      count += emits(step.effects).filter((x) => x === 'paid').length;
    }
    assert.equal(count, 1);
  });

  test('a resumed session whose paid event already fired does not fire it again', () => {
    const { state, effects } = run([
      start({ resume: { session: 'S1', paid: true } }),
      update({ status: 'paid', provider_status: 'Completed' }),
    ]);
    assert.equal(state.name, 'paid');
    assert.ok(!emits(effects).includes('paid'));
  });

  test('the server final word is final: pending after expired is ignored', () => {
    const expired = run([...toPay, update({ status: 'expired', provider_status: 'CanceledByTimeout' })]);
    assert.equal(expired.state.name, 'expired');
    assert.deepEqual(emits(expired.effects), ['status', 'expired']);
    const after = transition(expired.state, update({ status: 'pending' }));
    assert.equal(after.state, expired.state);
  });

  test('cancelled by the service shows the cancelled screen', () => {
    const { state } = run([...toPay, update({ status: 'cancelled', provider_status: 'CanceledByService' })]);
    assert.equal(state.name, 'cancelled');
  });

  test('an update about another order is ignored', () => {
    const pay = run(toPay).state;
    assert.equal(transition(pay, update({ id: 'someone-else', status: 'paid' })).state, pay);
  });

  test('the first order of a hosted-form session (empty id) is matched by client order id and later shows paid', () => {
    const form = { id: '', requisites: null, payment_link: null, method: null, bank: null, form_url: 'https://pay.example/pay?session_id=f1' };
    const pay = run([start({ preselected: {} }), created(orderView(form))]).state;
    assert.equal(pay.name, 'pay');
    const picked = transition(pay, update({ ...form, id: 'ord-77' }, 1000));
    assert.equal(picked.state.name, 'pay');
    assert.equal(picked.state.order?.id, 'ord-77');
    const paid = transition(picked.state, update({ ...form, id: 'ord-77', status: 'paid', provider_status: 'Completed' }, 2000));
    assert.equal(paid.state.name, 'paid');
    assert.deepEqual(emits(paid.effects), ['status', 'paid']);
  });

  test('a hosted-form session without an order id ignores an order of another client order id', () => {
    const form = { id: '', requisites: null, payment_link: null, method: null, bank: null, form_url: 'https://pay.example/pay?session_id=f1' };
    const pay = run([start({ preselected: {} }), created(orderView(form))]).state;
    assert.equal(transition(pay, update({ ...form, id: 'ord-9', client_order_id: 'sku-other', status: 'paid' })).state, pay);
  });

  test('a status update re-syncs the server time', () => {
    const { state } = run([...toPay, update({}, 60_000, new Date(T0 + 90_000).toISOString())]);
    assert.deepEqual(state.sync, { serverMs: T0 + 90_000, monoMs: 61_000 });
  });

  test('an update without server time keeps the last sync', () => {
    const { state } = run([...toPay, update({}, 60_000, null)]);
    assert.deepEqual(state.sync, { serverMs: T0, monoMs: 1000 });
  });
});

describe('checkout state machine: time', () => {
  test('the countdown running out shows expired locally and asks the server', () => {
    const { state, effects } = run([...toPay, { type: 'timeUp' }]);
    assert.equal(state.name, 'expired');
    assert.equal(state.localExpiry, true);
    assert.ok(types(effects).includes('check'));
    assert.ok(!emits(effects).includes('expired'), 'paydesk-expired waits for the server');
    assert.equal(isWatching(state), true, 'keeps listening for the server');
  });

  test('paid after a local expiry is still shown as paid', () => {
    const { state, effects } = run([...toPay, { type: 'timeUp' }, update({ status: 'paid', provider_status: 'Completed' })]);
    assert.equal(state.name, 'paid');
    assert.ok(emits(effects).includes('paid'));
  });

  test('a pending order already past expires_at by server time arrives as expired locally', () => {
    const { state, effects } = run([start(), { type: 'methods', methods: METHODS }, { type: 'choose', selection: {}, key: 'k' }, created(orderView(), new Date(T0 + 31 * 60_000).toISOString())]);
    assert.equal(state.name, 'expired');
    assert.equal(state.localExpiry, true);
    assert.ok(types(effects).includes('check'));
  });

  test('after a local expiry, the server with time left (clock was off) brings the requisites back', () => {
    const { state } = run([...toPay, { type: 'timeUp' }, update({}, 0, new Date(T0 + 60_000).toISOString())]);
    assert.equal(state.name, 'pay');
    assert.equal(state.localExpiry, false);
  });

  test('time up while confirming does not hide the confirmation', () => {
    const confirming = run([...toPay, { type: 'paidPressed' }]).state;
    assert.equal(transition(confirming, { type: 'timeUp' }).state, confirming);
  });
});

describe('checkout state machine: failures and retries', () => {

  test('a failed create is an error that retries with the same idempotency key', () => {
    const failed = run([start(), { type: 'methods', methods: METHODS }, { type: 'choose', selection: { payment_method_id: 'm-sbp' }, key: 'k2' }, failure('no_traders', true)]);
    assert.equal(failed.state.name, 'error');
    assert.equal(failed.state.op, 'create');
    assert.deepEqual(emits(failed.effects), ['error', 'status']);
    const retried = transition(failed.state, { type: 'retry' });
    assert.equal(retried.state.name, 'searching');
    assert.deepEqual(retried.effects[0], { type: 'create', selection: { payment_method_id: 'm-sbp' }, key: 'k2' });
  });

  test('a failed methods request retries the methods', () => {
    const failed = run([start(), failure('network', true)]);
    assert.equal(failed.state.op, 'methods');
    assert.deepEqual(transition(failed.state, { type: 'retry' }).effects[0], { type: 'fetchMethods' });
  });

  test('retry is refused for an error that is not retryable', () => {
    const failed = run([start(), { type: 'methods', methods: METHODS }, { type: 'choose', selection: {}, key: 'k2' }, failure('amount_out_of_limits', false)]);
    assert.equal(transition(failed.state, { type: 'retry' }).state, failed.state);
  });

  test('a final error (an unknown order, a wrong set-up) is final in the machine: neither retry nor renew acts, even when the server called it retryable', () => {
    for (const code of ['order_not_found', 'config', 'unauthorized']) {
      const failed = run([start(), failure(code, true)]);
      assert.equal(failed.state.name, 'error');
      assert.equal(failed.state.error!.retryable, false, code);
      assert.equal(transition(failed.state, { type: 'retry' }).state, failed.state, code);
      assert.equal(transition(failed.state, { type: 'renew', key: 'k9' }).state, failed.state, code);
    }
  });

  test('a preselected method the order does not offer (method_unavailable) falls back to the method list, no error step (issue 20)', () => {
    const refused = run([start({ preselected: { method_type: 'BankCard' } }), failure('method_unavailable', false)]);
    assert.equal(refused.state.name, 'loading');
    assert.equal(refused.state.op, 'methods');
    assert.equal(refused.state.error, null);
    assert.deepEqual(types(refused.effects), ['forget', 'fetchMethods', 'emit']);
    assert.deepEqual(refused.effects[0], { type: 'forget', mine: { session: null, key: 'k1' } }, 'the refused attempt is not joined by the next create');
    const listed = transition(refused.state, { type: 'methods', methods: METHODS });
    assert.equal(listed.state.name, 'choose');
    const chosen = transition(listed.state, { type: 'choose', selection: { payment_method_id: 'm-sbp' }, key: 'k2' });
    assert.deepEqual(chosen.effects[0], { type: 'create', selection: { payment_method_id: 'm-sbp' }, key: 'k2' });
    // The shopper's own choice refused is an error, not a loop back to the list.
    assert.equal(transition(chosen.state, failure('method_unavailable', false)).state.name, 'error');
    // Any other refusal of a preselected method is still an error.
    assert.equal(run([start({ preselected: { method_type: 'BankCard' } }), failure('limit_exceeded', false)]).state.name, 'error');
  });

  test('starting over after a refused create offers the methods again with a new key', () => {
    const failed = run([start({ preselected: { payment_method_id: 'gone' } }), failure('payment_method_not_found', false)]);
    const renewed = transition(failed.state, { type: 'renew', key: 'k3' });
    assert.equal(renewed.state.name, 'loading');
    assert.equal(renewed.state.key, 'k3');
    assert.deepEqual(types(renewed.effects), ['forget', 'fetchMethods', 'emit']);
    const one = transition(renewed.state, { type: 'methods', methods: [METHODS[1]!] });
    assert.deepEqual(one.effects[0], { type: 'create', selection: { payment_method_id: 'm-card' }, key: 'k3' });
  });

  for (const code of ['session_not_found', 'session_invalid', 'session_expired']) {
    test(`a stored session that is gone (${code}) says so and never makes a new order by itself`, () => {
      const known = { number: 'sku-1', support: 'https://shop.example/support', back: null };
      const { state, effects } = run([start({ resume: { session: 'old', order: known } }), failure(code, false)]);
      assert.equal(state.name, 'gone');
      assert.deepEqual(state.known, known, 'the order number and support link stay for the screen');
      assert.ok(!types(effects).includes('create') && !types(effects).includes('fetchMethods'));
      assert.deepEqual(effects[0], { type: 'forget', mine: { session: 'old', key: 'k1' } });
      assert.deepEqual(emits(effects), ['error', 'status']);
    });
  }

  test('a merchant session that is gone is said to be gone too (never a silent new order)', () => {
    const { state, effects } = run([start({ resume: { session: 'bad' }, canCreate: false }), failure('session_invalid', false)]);
    assert.equal(state.name, 'gone');
    assert.ok(!types(effects).includes('create'));
    assert.equal(transition(state, { type: 'renew', key: 'k9' }).state, state, 'without an order ref no new payment can be started');
  });

  test('"start a new payment" after a lost session: the methods again, with a new key', () => {
    const gone = run([start({ resume: { session: 'old' } }), failure('session_not_found', false)]).state;
    const { state, effects } = transition(gone, { type: 'renew', key: 'k7' });
    assert.equal(state.name, 'loading');
    assert.equal(state.key, 'k7');
    assert.deepEqual(types(effects), ['forget', 'fetchMethods', 'emit']);
  });

  test('a preselected checkout whose session was lost starts the new payment with the preselection', () => {
    const gone = run([start({ resume: { session: 'old' }, preselected: { method_type: 'SBP' } }), failure('session_expired', false)]).state;
    const { effects } = transition(gone, { type: 'renew', key: 'k8' });
    assert.deepEqual(effects[1], { type: 'create', selection: { method_type: 'SBP' }, key: 'k8' });
  });

  test('a session lost while paying (the live status is refused) says so', () => {
    for (const code of GONE_CODES) {
      const { state, effects } = run([...toPay, failure(code, false)]);
      assert.equal(state.name, 'gone', code);
      assert.ok(!types(effects).includes('create'));
      assert.equal(state.order?.client_order_id, 'sku-1', 'the order number is still there');
    }
  });

  test('a resume that failed on the network retries the resume', () => {
    const failed = run([start({ resume: { session: 'S1' } }), failure('network', true)]);
    assert.equal(failed.state.name, 'error');
    assert.deepEqual(transition(failed.state, { type: 'retry' }).effects[0], { type: 'resume', session: 'S1' });
  });

  test('a status request refused for good while paying becomes an error that resumes on retry', () => {
    const failed = run([...toPay, failure('unauthorized', false)]);
    assert.equal(failed.state.name, 'error');
    assert.equal(failed.state.op, 'resume');
  });

  test('reading an order that may be paid (a reload, a status check) refused without a session code is tried again, never left for a new order', () => {
    for (const events of [[...toPay, { type: 'paidPressed' } as const], [start({ resume: { session: 'S1' } })]]) {
      const failed = run([...events, failure('not_found', false)]);
      assert.equal(failed.state.name, 'error');
      assert.equal(failed.state.error?.retryable, true, 'the retry resumes the same session');
      assert.deepEqual(transition(failed.state, { type: 'retry' }).effects[0], { type: 'resume', session: 'S1' });
    }
  });

  test('an integrity failure (CDN build, src/element/integrity.ts: a changed chunk) is never offered as retryable, whatever the step it reaches', () => {
    // Loading the methods, resuming a session (a reload), creating an order, and paying: the same answer.
    const steps = [[start()], [start({ resume: { session: 'S1' } })], [start(), { type: 'methods', methods: METHODS } as MachineEvent, { type: 'choose', selection: { payment_method_id: 'm-sbp' }, key: 'k2' } as MachineEvent], toPay];
    for (const events of steps) {
      const { state, effects } = run([...events, failure('integrity', false)]);
      assert.equal(state.name, 'error', `after ${events.map((e) => e.type).join(', ')}`);
      assert.equal(state.error?.code, 'integrity');
      assert.equal(state.error?.retryable, false, `not retryable after ${events.map((e) => e.type).join(', ')} (op ${state.op})`);
      assert.ok(emits(effects).includes('error'));
      assert.deepEqual(transition(state, { type: 'retry' }).effects, [], 'a retry does nothing');
    }
  });

  test('a passing network failure of the live status does not interrupt the payment', () => {
    const pay = run(toPay).state;
    assert.equal(transition(pay, failure('network', true)).state, pay);
  });
});

describe('checkout state machine: new requisites and reset', () => {
  test('"get new requisites" after expiry creates a new order with the same method and a new key', () => {
    const expired = run([...toPay, update({ status: 'expired', provider_status: 'CanceledByTimeout' })]).state;
    const { state, effects } = transition(expired, { type: 'renew', key: 'k9' });
    assert.equal(state.name, 'searching');
    assert.equal(state.order, null);
    assert.equal(state.paidNotified, false);
    assert.deepEqual(effects.slice(0, 2), [{ type: 'forget', mine: { session: 'S1', key: 'k2' } }, { type: 'create', selection: { payment_method_id: 'm-sbp' }, key: 'k9' }]);
  });

  test('no new requisites without an order ref', () => {
    const expired = run([start({ resume: { session: 'S1' }, canCreate: false }), update({ status: 'expired' })]).state;
    assert.equal(expired.name, 'expired');
    assert.equal(transition(expired, { type: 'renew', key: 'k' }).state, expired);
  });

  test('reset goes back to idle and forgets the stored session', () => {
    const { state, effects } = run([...toPay, { type: 'reset' }]);
    assert.deepEqual(state, initialState());
    assert.deepEqual(types(effects), ['forget', 'emit']);
  });

  test('answers arriving after a reset are ignored', () => {
    const idle = run([...toPay, { type: 'reset' }]).state;
    assert.equal(transition(idle, created()).state, idle);
    assert.equal(transition(idle, update({ status: 'paid' })).state, idle);
  });
});

describe('checkout state machine: late payments and receipts', () => {
  const dispute = (status: 'open' | 'closed') => ({ id: 'dsp-1', status, created_at: new Date(T0 + 60_000).toISOString(), outcome: status === 'open' ? null : ('unconfirmed' as const) });

  test('an expired order that turns paid (late) shows paid and fires paydesk-paid once', () => {
    const expired = run([...toPay, update({ status: 'expired', provider_status: 'CanceledByTimeout' })]).state;
    const late = transition(expired, update({ status: 'paid', provider_status: 'Completed', late: true }, 60_000));
    assert.equal(late.state.name, 'paid');
    assert.equal(late.state.order?.late, true);
    assert.deepEqual(emits(late.effects), ['status', 'paid']);
    assert.ok(late.effects.some((e) => e.type === 'store' && e.paid));
    const again = transition(late.state, update({ status: 'paid', late: true }, 70_000));
    assert.ok(!emits(again.effects).includes('paid'));
  });

  test('a cancelled order paid late shows paid too', () => {
    const { state } = run([...toPay, update({ status: 'cancelled' }), update({ status: 'paid', late: true })]);
    assert.equal(state.name, 'paid');
  });

  test('a receipt sent while confirming: the dispute step, watched; accepted → paid (late)', () => {
    const confirming = run([...toPay, { type: 'paidPressed' }]).state;
    assert.equal(canDispute(confirming), true);
    const open = transition(confirming, update({ dispute: dispute('open') }, 1000));
    assert.equal(open.state.name, 'dispute');
    assert.equal(isWatching(open.state), true);
    assert.equal(canDispute(open.state), false, 'one dispute at a time');
    assert.ok(emits(open.effects).includes('status'));
    const paid = transition(open.state, update({ status: 'paid', late: true, dispute: dispute('closed') }, 2000));
    assert.equal(paid.state.name, 'paid');
    assert.deepEqual(emits(paid.effects), ['status', 'paid']);
  });

  test('a receipt after expiry whose check found nothing: the dispute step (closed), a new payment offered', () => {
    const expired = run([...toPay, update({ status: 'expired' })]).state;
    assert.equal(canDispute(expired), true);
    const open = transition(expired, update({ status: 'expired', dispute: dispute('open') }));
    assert.equal(open.state.name, 'dispute');
    const closed = transition(open.state, update({ status: 'expired', dispute: dispute('closed') }));
    assert.equal(closed.state.name, 'dispute');
    assert.equal(closed.state.order?.dispute?.status, 'closed');
    assert.ok(emits(closed.effects).includes('status'), 'the dispute status change is announced');
    const renewed = transition(closed.state, { type: 'renew', key: 'k5' });
    assert.equal(renewed.state.name, 'searching');
  });

  test('a status answer older than the receipt (no dispute yet) does not bring the requisites back', () => {
    const open = run([...toPay, { type: 'paidPressed' }, update({ dispute: dispute('open') }, 1000)]).state;
    assert.equal(open.name, 'dispute');
    const stale = transition(open, update({}, 2000));
    assert.equal(stale.state.name, 'dispute', 'not "pay" with "I have paid" for an order the shopper paid and sent a receipt for');
    assert.equal(stale.state.order?.dispute?.status, 'open');
    const expired = run([...toPay, update({ status: 'expired' }), update({ status: 'expired', dispute: dispute('open') })]).state;
    assert.equal(transition(expired, update({ status: 'expired' })).state.order?.dispute?.status, 'open', 'no second receipt offered');
    assert.equal(transition(stale.state, update({ status: 'paid', late: true, dispute: dispute('closed') })).state.name, 'paid');
  });

  test('no receipt from the requisites (before "I have paid") or without a session', () => {
    assert.equal(canDispute(run(toPay).state), false);
    assert.equal(canDispute(initialState()), false);
  });
});

describe('checkout state machine: one order per purchase', () => {
  test('a second start, a second choice or a second click changes nothing: one create', () => {
    const chosen = run([start(), { type: 'methods', methods: METHODS }, { type: 'choose', selection: { payment_method_id: 'm-sbp' }, key: 'k2' }]);
    const again = transition(chosen.state, { type: 'choose', selection: { payment_method_id: 'm-card' }, key: 'k3' });
    assert.equal(again.state, chosen.state);
    assert.deepEqual(again.effects, []);
    assert.deepEqual(transition(chosen.state, start({ key: 'k4' })).effects, []);
  });

  test('another tab already has the session: follow it (resume) instead of creating', () => {
    const searching = run([start({ preselected: { method_type: 'SBP' } })]).state;
    const { state, effects } = transition(searching, { type: 'adopt', session: 'S-other' });
    assert.equal(state.name, 'loading');
    assert.equal(state.op, 'resume');
    assert.deepEqual(effects[0], { type: 'resume', session: 'S-other' });
    const pay = run(toPay).state;
    assert.equal(transition(pay, { type: 'adopt', session: 'S-other' }).state, pay, 'never while showing an order of its own');
  });

  test("joining another tab's attempt keeps the selection and key it went out with", () => {
    const searching = run([start(), { type: 'methods', methods: METHODS }, { type: 'choose', selection: { payment_method_id: 'm-card' }, key: 'k2' }]).state;
    const { state } = transition(searching, { ...(created() as Extract<MachineEvent, { type: 'created' }>), selection: { payment_method_id: 'm-sbp' }, key: 'k-first' });
    assert.deepEqual(state.selection, { payment_method_id: 'm-sbp' });
    assert.equal(state.key, 'k-first');
  });

  test('the methods answer may say the amount to pay', () => {
    const { state } = run([start(), { type: 'methods', methods: METHODS, amount: '1500.00', currency: 'RUB' }]);
    assert.deepEqual(state.price, { amount: '1500.00', currency: 'RUB' });
  });
});

describe('checkout state machine: derived facts', () => {
  test('watching while the order may still change: paying, confirming, a receipt checked, and after it ended (a late payment)', () => {
    const pay = run(toPay).state;
    assert.equal(isWatching(pay), true);
    assert.equal(isWatching(transition(pay, { type: 'paidPressed' }).state), true);
    assert.equal(isWatching(run([...toPay, update({ status: 'paid' })]).state), false, 'paid is final');
    assert.equal(isWatching(run([...toPay, update({ status: 'expired' })]).state), true);
    assert.equal(isWatching(run([...toPay, update({ status: 'cancelled' })]).state), true);
    assert.equal(isWatching(run([...toPay, failure('session_not_found', false)]).state), false, 'a lost session is not watched');
    assert.equal(isEnded(pay), false);
    assert.equal(isEnded(run([...toPay, update({ status: 'expired' })]).state), true, 'an ended order is polled slowly');
  });

  test('the order is open (return link shown) while paying and confirming only', () => {
    const pay = run(toPay).state;
    assert.equal(isOrderOpen(pay), true);
    assert.equal(isOrderOpen(transition(pay, { type: 'paidPressed' }).state), true);
    assert.equal(isOrderOpen(run([...toPay, update({ status: 'paid' })]).state), false);
    assert.equal(isOrderOpen(run([...toPay, { type: 'timeUp' }]).state), false);
  });

  test('one rule says which steps are open (pay, confirming); the live status is slow on every other', () => {
    const names: StateName[] = ['idle', 'loading', 'choose', 'searching', 'pay', 'confirming', 'dispute', 'paid', 'expired', 'cancelled', 'gone', 'error'];
    assert.deepEqual(names.filter(isOpen), ['pay', 'confirming']);
    for (const name of names) assert.equal(isEnded({ ...initialState(), name }), !isOpen(name), name);
  });
});
