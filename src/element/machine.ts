/**
 * The checkout flow as a pure state machine: `transition(state, event)` returns the next state and
 * the effects the element must run. No I/O, no clock, no randomness here: events carry the time and
 * the fresh idempotency keys, so every path is tested in node without a browser.
 *
 *   idle → loading (methods) → choose → searching → pay ⇄ confirming → paid | expired | cancelled
 *   idle → searching (preselected) ;  idle → loading (resume a session) → pay | confirming | …
 *   any failure → error (retry when retryable) ;  expired | cancelled → searching (new requisites)
 */
import type { CreateSessionRequest, OrderView, PaymentMethodView } from '../protocol/index.js';
import type { ErrorInfo } from './api.js';
import { remainingMs, syncFrom, type TimeSync } from './countdown.js';

export type StateName =
  | 'idle'
  | 'loading'
  | 'choose'
  | 'searching'
  | 'pay'
  | 'confirming'
  | 'paid'
  | 'expired'
  | 'cancelled'
  | 'error';

/** What `POST /sessions` gets besides `order_ref`. */
export type Selection = Omit<CreateSessionRequest, 'order_ref'>;

export interface Resume {
  session: string;
  /** A session the merchant gave us (`session` attribute) or one this tab stored earlier. */
  from: 'attribute' | 'storage';
  /** `paydesk-paid` already fired for it (stored), so a reload does not fire it again. */
  paidNotified?: boolean;
}

export type Operation = 'methods' | 'create' | 'resume';

export interface MachineState {
  name: StateName;
  methods: PaymentMethodView[];
  /** Preselection from the attributes; null when the shopper chooses. */
  preselected: Selection | null;
  /** False when there is no `order-ref` (only a merchant-made session): no new orders can be made. */
  canCreate: boolean;
  /** What the current order was (or is being) created with. */
  selection: Selection | null;
  /** Idempotency key of the current attempt to create; kept for retries, new for a new attempt. */
  key: string | null;
  session: string | null;
  order: OrderView | null;
  sync: TimeSync | null;
  error: ErrorInfo | null;
  /** The operation under way (loading, searching) or the one that failed (error). */
  op: Operation | null;
  resumeFrom: Resume['from'] | null;
  paidNotified: boolean;
  expiredNotified: boolean;
  /** The countdown ran out here before the server said so (still watching for the server's word). */
  localExpiry: boolean;
}

export type MachineEvent =
  | { type: 'start'; resume: Resume | null; preselected: Selection | null; canCreate: boolean; key: string }
  | { type: 'methods'; methods: PaymentMethodView[] }
  | { type: 'choose'; selection: Selection; key: string }
  | { type: 'created'; session: string; order: OrderView; serverTime: string | null; mono: number; wall: number }
  | { type: 'order'; order: OrderView; serverTime: string | null; mono: number; wall: number }
  | { type: 'failed'; error: ErrorInfo }
  | { type: 'paidPressed' }
  | { type: 'timeUp' }
  | { type: 'retry' }
  | { type: 'renew'; key: string }
  | { type: 'reset' };

export type EmitName = 'session' | 'status' | 'paid' | 'expired' | 'error';

export type Effect =
  | { type: 'fetchMethods' }
  | { type: 'create'; selection: Selection; key: string }
  | { type: 'resume'; session: string }
  /** Ask the server for the status now (`?refresh=1`). */
  | { type: 'check' }
  | { type: 'store'; session: string; paid: boolean }
  | { type: 'forget' }
  | { type: 'emit'; event: EmitName };

export interface Step {
  state: MachineState;
  effects: Effect[];
}

export const initialState = (): MachineState => ({
  name: 'idle',
  methods: [],
  preselected: null,
  canCreate: false,
  selection: null,
  key: null,
  session: null,
  order: null,
  sync: null,
  error: null,
  op: null,
  resumeFrom: null,
  paidNotified: false,
  expiredNotified: false,
  localExpiry: false,
});

/** States in which the element keeps a live status connection. */
export function isWatching(s: MachineState): boolean {
  return s.session !== null && (s.name === 'pay' || s.name === 'confirming' || (s.name === 'expired' && s.localExpiry));
}

/** States in which the return link is shown: the order is open (provider-api.md, `return_url`). */
export function isOrderOpen(s: MachineState): boolean {
  return s.order !== null && (s.name === 'pay' || s.name === 'confirming');
}

const emit = (event: EmitName): Effect => ({ type: 'emit', event });
const stay = (state: MachineState): Step => ({ state, effects: [] });

/** A new order attempt: forget the old order (its flags too) and create with `selection`. */
function create(s: MachineState, selection: Selection, key: string): Step {
  return {
    state: { ...s, name: 'searching', op: 'create', selection, key, error: null, session: null, order: null, paidNotified: false, expiredNotified: false, localExpiry: false },
    effects: [{ type: 'create', selection, key }, emit('status')],
  };
}

function fetchMethods(s: MachineState): Step {
  return { state: { ...s, name: 'loading', op: 'methods', error: null }, effects: [{ type: 'fetchMethods' }, emit('status')] };
}

/** Start without a session: preselected → create at once; otherwise offer the methods. */
function fresh(s: MachineState, key: string): Step {
  return s.preselected ? create(s, s.preselected, key) : fetchMethods({ ...s, key });
}

function fail(s: MachineState, error: ErrorInfo, op: Operation | null): Step {
  return { state: { ...s, name: 'error', error, op }, effects: [emit('error'), emit('status')] };
}

function applyOrder(s: MachineState, order: OrderView, serverTime: string | null, mono: number, wall: number): Step {
  // A late answer about another order. A hosted-form session has no order id until the shopper picks a
  // method on the form; its order is then recognised by the client order id.
  if (s.order && (s.order.id ? s.order.id !== order.id : s.order.client_order_id !== order.client_order_id)) return stay(s);
  if (s.order && s.order.status !== 'pending') return stay(s); // the server's final word is final
  const sync = syncFrom(serverTime, mono) ?? s.sync;
  let name: StateName;
  let localExpiry = false;
  if (order.status === 'pending') {
    if (s.name === 'confirming') name = 'confirming';
    else if (remainingMs(order.expires_at, sync, mono, wall) <= 0) {
      name = 'expired';
      localExpiry = true;
    } else name = 'pay';
  } else name = order.status;
  const next: MachineState = { ...s, name, order, sync, localExpiry, op: null, error: null };
  const effects: Effect[] = [];
  if (name !== s.name || order.status !== s.order?.status) effects.push(emit('status'));
  if (name === 'paid' && !s.paidNotified) {
    next.paidNotified = true;
    effects.push(emit('paid'));
    if (s.session) effects.push({ type: 'store', session: s.session, paid: true });
  }
  if (order.status === 'expired' && !s.expiredNotified) {
    next.expiredNotified = true;
    effects.push(emit('expired'));
  }
  if (localExpiry && !s.localExpiry) effects.push({ type: 'check' });
  return { state: next, effects };
}

export function transition(s: MachineState, e: MachineEvent): Step {
  switch (e.type) {
    case 'reset':
      return { state: initialState(), effects: s.name === 'idle' ? [] : [{ type: 'forget' }, emit('status')] };

    case 'start': {
      if (s.name !== 'idle') return stay(s);
      const base: MachineState = { ...initialState(), preselected: e.preselected, canCreate: e.canCreate, key: e.key };
      if (e.resume) {
        return {
          state: { ...base, name: 'loading', op: 'resume', session: e.resume.session, resumeFrom: e.resume.from, paidNotified: e.resume.paidNotified === true },
          effects: [{ type: 'resume', session: e.resume.session }, emit('status')],
        };
      }
      if (!e.canCreate) return fail(base, { code: 'config', message: 'order-ref or session is required', retryable: false }, null);
      return fresh(base, e.key);
    }

    case 'methods': {
      if (s.name !== 'loading' || s.op !== 'methods') return stay(s);
      const methods = e.methods;
      if (methods.length === 0) return fail(s, { code: 'method_unavailable', message: 'no payment method', retryable: false }, 'methods');
      if (methods.length === 1) return create({ ...s, methods }, { payment_method_id: methods[0]!.id }, s.key ?? '');
      return { state: { ...s, name: 'choose', methods, op: null }, effects: [emit('status')] };
    }

    case 'choose':
      return s.name === 'choose' ? create(s, e.selection, e.key) : stay(s);

    case 'created': {
      if (s.name !== 'searching') return stay(s);
      const step = applyOrder({ ...s, session: e.session, order: null }, e.order, e.serverTime, e.mono, e.wall);
      step.effects.unshift({ type: 'store', session: e.session, paid: false }, emit('session'));
      return step;
    }

    case 'order': {
      const resuming = s.name === 'loading' && s.op === 'resume';
      if (!resuming && !s.order) return stay(s);
      if (s.name === 'error' || s.name === 'searching' || s.name === 'idle') return stay(s);
      return applyOrder(s, e.order, e.serverTime, e.mono, e.wall);
    }

    case 'failed': {
      if (s.name === 'loading' && s.op === 'resume' && s.resumeFrom === 'storage' && !e.error.retryable) {
        // A stored session that is gone: start over as if there were none.
        const step = fresh({ ...s, session: null, resumeFrom: null }, s.key ?? '');
        if (!s.canCreate) return fail(s, e.error, null);
        step.effects.unshift({ type: 'forget' });
        return step;
      }
      if (s.name === 'loading' || s.name === 'searching') return fail(s, e.error, s.op);
      if ((s.name === 'pay' || s.name === 'confirming') && !e.error.retryable) return fail(s, e.error, 'resume');
      if (s.name === 'idle') return fail(s, e.error, null);
      return stay(s);
    }

    case 'paidPressed':
      return s.name === 'pay' ? { state: { ...s, name: 'confirming' }, effects: [emit('status'), { type: 'check' }] } : stay(s);

    case 'timeUp':
      if (s.name !== 'pay') return stay(s);
      return { state: { ...s, name: 'expired', localExpiry: true }, effects: [emit('status'), { type: 'check' }] };

    case 'retry': {
      if (s.name !== 'error' || !s.error?.retryable) return stay(s);
      if (s.op === 'create' && s.selection && s.key) return create(s, s.selection, s.key); // same key: never two orders
      if (s.op === 'resume' && s.session) {
        return { state: { ...s, name: 'loading', op: 'resume', error: null }, effects: [{ type: 'resume', session: s.session }, emit('status')] };
      }
      if (s.op === 'methods') return fetchMethods(s);
      return stay(s);
    }

    case 'renew': {
      if (!s.canCreate) return stay(s);
      const clean: MachineState = { ...s, session: null, order: null, localExpiry: false };
      if (s.name === 'expired' || s.name === 'cancelled') {
        const step = s.selection ? create(clean, s.selection, e.key) : fresh(clean, e.key);
        step.effects.unshift({ type: 'forget' });
        return step;
      }
      if (s.name === 'error') {
        // The attempt was refused for good (method, limits, bank…): choose again, with a new key.
        const step = fetchMethods({ ...clean, key: e.key, selection: null });
        step.effects.unshift({ type: 'forget' });
        return step;
      }
      return stay(s);
    }
  }
}
