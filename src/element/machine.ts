/**
 * The checkout flow as a pure state machine (its steps; the `transition` of events is transition.ts):
 * `transition(state, event)` returns the next state and
 * the effects the element must run. No I/O, no clock, no randomness here: events carry the time and
 * the fresh idempotency keys, so every path is tested in node without a browser.
 *
 *   idle → loading (methods) → choose → searching → pay ⇄ confirming → paid | expired | cancelled
 *   idle → searching (preselected) ;  idle → loading (resume a session) → pay | confirming | …
 *   searching (preselected) → loading (methods) → choose: the preselected method is not offered
 *   confirming | expired | cancelled → dispute (a receipt was sent) → paid (late) | dispute (closed)
 *   expired | cancelled → paid (a late payment; they stay watched)
 *   a resumed or watched session the server no longer knows → gone (never a silent new order)
 *   any other failure → error (retry when retryable) ;  expired | cancelled | gone → searching (new order)
 *
 * Money safety: the only effect that creates an order is `create`, emitted once per shopper action
 * (start, choose, renew, retry with the same key); a second start, a second click or an answer that
 * arrives late changes nothing.
 */
import type { CreateSessionRequest, OrderView, PaymentMethodView } from '../protocol/index.js';
import type { ErrorInfo } from './endpoint.js';
import { remainingMs, syncFrom, type TimeSync } from './countdown.js';

export type StateName =
  | 'idle'
  | 'loading'
  | 'choose'
  | 'searching'
  | 'pay'
  | 'confirming'
  | 'dispute'
  | 'paid'
  | 'expired'
  | 'cancelled'
  | 'gone'
  | 'error';

/** What `POST /sessions` gets besides `order_ref`. */
export type Selection = Omit<CreateSessionRequest, 'order_ref'>;

/** What the element knew about an order before asking for it (kept with the stored session). */
export interface KnownOrder {
  /** `client_order_id`: the number support asks for. */
  number: string;
  support: string | null;
  back: string | null;
}

/** A session to resume: the merchant's (`session` attribute) or one this browser stored earlier. */
export interface Resume {
  session: string;
  /** What this browser stored of it (storage.ts `StoredCheckout`): `paydesk-paid` already fired, so a reload does not fire it again. */
  paid?: boolean;
  /** The shopper said it is paid ("I have paid", stored): a reload shows `confirming`, not the requisites again. */
  said?: boolean;
  /** What the `gone` step can say of the order. */
  order?: KnownOrder | null;
}

export type Operation = 'methods' | 'create' | 'resume';

export interface MachineState {
  name: StateName;
  methods: PaymentMethodView[];
  /** The amount to pay, when the methods answer says it (else the views work it out from a method). */
  price: { amount: string; currency: string | null } | null;
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
  /** What was known of the order before it arrived (the stored session's), for the `gone` step. */
  known: KnownOrder | null;
  sync: TimeSync | null;
  error: ErrorInfo | null;
  /** The operation under way (loading, searching) or the one that failed (error). */
  op: Operation | null;
  paidNotified: boolean;
  /** The shopper said this order is paid: while it is pending, the step is `confirming`. */
  said: boolean;
  expiredNotified: boolean;
  /** The countdown ran out here before the server said so (still watching for the server's word). */
  localExpiry: boolean;
}

export type MachineEvent =
  | { type: 'start'; resume: Resume | null; preselected: Selection | null; canCreate: boolean; key: string }
  | { type: 'methods'; methods: PaymentMethodView[]; amount?: string | null; currency?: string | null }
  | { type: 'choose'; selection: Selection; key: string }
  /** `selection` and `key`: those the request went out with, when another tab's attempt was joined. */
  | { type: 'created'; session: string; order: OrderView; serverTime: string | null; mono: number; wall: number; selection?: Selection; key?: string }
  /** Another tab of this browser holds a session for this purchase: follow it instead of creating one. */
  | ({ type: 'adopt' } & Resume)
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
  /**
   * Forget the stored session. `mine`: only when the record is still this element's (its session, or
   * its attempt's key), never another tab's newer order; null: whatever is stored (reset).
   */
  | { type: 'forget'; mine: { session: string | null; key: string | null } | null }
  | { type: 'emit'; event: EmitName };

export interface Step {
  state: MachineState;
  effects: Effect[];
}

export const initialState = (): MachineState => ({
  name: 'idle',
  methods: [],
  price: null,
  preselected: null,
  canCreate: false,
  selection: null,
  key: null,
  session: null,
  order: null,
  known: null,
  sync: null,
  error: null,
  op: null,
  paidNotified: false,
  said: false,
  expiredNotified: false,
  localExpiry: false,
});

/**
 * The order is open: the shopper is paying it (`pay`) or has said it is paid and the server checks
 * (`confirming`). Its countdown runs, the way back to the shop is offered, the live status is quick.
 * Every other step with an order has ended (or waits for a receipt's check).
 */
export const isOpen = (name: StateName): boolean => name === 'pay' || name === 'confirming';

/**
 * States in which the element keeps a live status connection: while the order may still change.
 * An ended order (expired, cancelled) stays watched: a late payment or a dispute's outcome may come.
 */
export function isWatching(s: MachineState): boolean {
  return s.session !== null && ['pay', 'confirming', 'dispute', 'expired', 'cancelled'].includes(s.name);
}

export const emit = (event: EmitName): Effect => ({ type: 'emit', event });
export const stay = (state: MachineState): Step => ({ state, effects: [] });

/** A new order attempt: forget the old order (its flags too) and create with `selection`. */
export function create(s: MachineState, selection: Selection, key: string): Step {
  return {
    state: { ...s, name: 'searching', op: 'create', selection, key, error: null, session: null, order: null, known: null, paidNotified: false, said: false, expiredNotified: false, localExpiry: false },
    effects: [{ type: 'create', selection, key }, emit('status')],
  };
}

export function fetchMethods(s: MachineState): Step {
  return { state: { ...s, name: 'loading', op: 'methods', error: null }, effects: [{ type: 'fetchMethods' }, emit('status')] };
}

export function resume(s: MachineState, session: string): Step {
  return {
    state: { ...s, name: 'loading', op: 'resume', session, error: null },
    effects: [{ type: 'resume', session }, emit('status')],
  };
}

/** Resume a session with what this browser stored of it (paid already said, "I have paid" pressed, the order). */
export const resumeStored = (s: MachineState, r: Resume): Step => resume({ ...s, known: r.order ?? null, paidNotified: !!r.paid, said: !!r.said }, r.session);

/** Start without a session: preselected → create at once; otherwise offer the methods. */
export function fresh(s: MachineState, key: string): Step {
  return s.preselected ? create(s, s.preselected, key) : fetchMethods({ ...s, key });
}

/**
 * Errors no retry and no new attempt can mend (a wrong set-up, an unknown order, a refused shopper):
 * a final screen with the support link, never a loop of "try again".
 */
export const FINAL_CODES: readonly string[] = ['config', 'order_not_found', 'forbidden_origin', 'form_not_activated', 'customer_blacklisted', 'unauthorized', 'missing_protocol_header'];
export const isFinalError = (error: ErrorInfo | null | undefined): boolean => !!error && FINAL_CODES.includes(error.code);

export function fail(s: MachineState, error: ErrorInfo, op: Operation | null): Step {
  // Reading an order that may be paid is tried again, never left for a new order (a final error aside).
  error = { ...error, retryable: !isFinalError(error) && (error.retryable || op === 'resume') };
  return { state: { ...s, name: 'error', error, op }, effects: [emit('error'), emit('status')] };
}

const sameOrder = (a: OrderView, b: OrderView) =>
  // A hosted-form session has no order id until the shopper picks a method on the form; its order is
  // then recognised by the client order id.
  a.id ? a.id === b.id : a.client_order_id === b.client_order_id;

function applyOrder(s: MachineState, order: OrderView, serverTime: string | null, mono: number, wall: number): Step {
  const before = s.order;
  // Ignored: a late answer about another order; anything after paid (final); an ended order reopening
  // (the server's final word stays: it may still turn paid, or get a dispute); a receipt's dispute
  // vanishing (an answer without it is older than the receipt's).
  if (before && (!sameOrder(before, order) || before.status === 'paid' || (before.status !== 'pending' && order.status === 'pending') || (before.dispute && !order.dispute))) return stay(s);
  const sync = syncFrom(serverTime, mono) ?? s.sync;
  let name: StateName;
  let localExpiry = false;
  if (order.status === 'paid') name = 'paid';
  else if (order.dispute) name = 'dispute';
  else if (order.status === 'pending') {
    if (s.said) name = 'confirming';
    else if (remainingMs(order.expires_at, sync, mono, wall) <= 0) {
      name = 'expired';
      localExpiry = true;
    } else name = 'pay';
  } else name = order.status;
  const next: MachineState = { ...s, name, order, sync, localExpiry, op: null, error: null };
  const effects: Effect[] = [];
  if (name !== s.name || order.status !== before?.status || order.dispute?.status !== before?.dispute?.status) effects.push(emit('status'));
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

/**
 * The steps a first paint needs (first.ts, paint.ts, paydesk/ssr) without the rest of the machine
 * (transition.ts): `start` from idle, and the answer that brings the order (`created`, `order`).
 */
export function started(s: MachineState, e: Extract<MachineEvent, { type: 'start' }>): Step {
  if (s.name !== 'idle') return stay(s);
  const base: MachineState = { ...initialState(), preselected: e.preselected, canCreate: e.canCreate, key: e.key };
  if (e.resume) return resumeStored(base, e.resume);
  if (!e.canCreate) return fail(base, { code: 'config', message: 'order-ref or session is required', retryable: false }, null);
  return fresh(base, e.key);
}

/** A create's answer (`created`) or an order read (`order`). */
export function answered(s: MachineState, e: Extract<MachineEvent, { type: 'created' | 'order' }>): Step {
  if (e.type === 'created') {
    if (s.name !== 'searching') return stay(s);
    const joined = { ...s, session: e.session, order: null, selection: e.selection ?? s.selection, key: e.key ?? s.key };
    const step = applyOrder(joined, e.order, e.serverTime, e.mono, e.wall);
    step.effects.unshift({ type: 'store', session: e.session, paid: false }, emit('session'));
    return step;
  }
  const resuming = s.name === 'loading' && s.op === 'resume';
  // Idle and searching have no order (they are caught by the line above).
  if (!resuming && !s.order) return stay(s);
  if (s.name === 'error' || s.name === 'gone') return stay(s);
  return applyOrder(s, e.order, e.serverTime, e.mono, e.wall);
}
