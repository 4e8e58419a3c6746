/**
 * The checkout's state machine (machine.ts holds its states, events, effects and the steps they share):
 * `transition(state, event)` returns the next state and the effects the element must run. Its own
 * module, so that the CDN entry's first request and first paint (first.ts, paint.ts), which need only
 * `start` and the answer that brings the order (machine.ts `started`, `answered`), do not carry it.
 */
import { GONE_CODES, type ErrorInfo } from './api.js';
import {
  answered,
  create,
  emit,
  fail,
  fetchMethods,
  fresh,
  initialState,
  isFinalError,
  isOpen,
  isWatching,
  resume,
  resumeStored,
  started,
  stay,
  type Effect,
  type MachineEvent,
  type MachineState,
  type Step,
} from './machine.js';

// The steps only the element's machine takes (the CDN entry's first request does not carry them).

/** Forget this element's stored session or attempt (never another tab's newer one). */
export const forget = (s: MachineState): Effect => ({ type: 'forget', mine: { session: s.session, key: s.key } });

/** The session is gone: say so (with what is known of the order), forget it, never make a new order by itself. */
export function gone(s: MachineState, error: ErrorInfo): Step {
  return { state: { ...s, name: 'gone', error, op: null, localExpiry: false }, effects: [forget(s), emit('error'), emit('status')] };
}

export function transition(s: MachineState, e: MachineEvent): Step {
  switch (e.type) {
    case 'reset':
      return { state: initialState(), effects: s.name === 'idle' ? [{ type: 'forget', mine: null }] : [{ type: 'forget', mine: null }, emit('status')] };

    case 'start':
      return started(s, e);

    case 'methods': {
      if (s.name !== 'loading' || s.op !== 'methods') return stay(s);
      const methods = e.methods;
      s = { ...s, price: e.amount ? { amount: e.amount, currency: e.currency ?? null } : null };
      if (methods.length === 0) return fail(s, { code: 'method_unavailable', message: 'no payment method', retryable: false }, 'methods');
      if (methods.length === 1) return create({ ...s, methods }, { payment_method_id: methods[0]!.id }, s.key ?? '');
      return { state: { ...s, name: 'choose', methods, op: null }, effects: [emit('status')] };
    }

    case 'choose':
      return s.name === 'choose' ? create(s, e.selection, e.key) : stay(s);

    case 'adopt': {
      // Only before this element has an order of its own (or while its own attempt is under way).
      const before = s.name === 'idle' || s.name === 'choose' || s.name === 'searching' || (s.name === 'loading' && s.op === 'methods') || (s.name === 'error' && s.op !== 'resume');
      return before && s.canCreate && e.session !== s.session ? resumeStored({ ...s, order: null }, e) : stay(s);
    }

    case 'created':
    case 'order':
      return answered(s, e);

    case 'failed': {
      const goneCode = GONE_CODES.includes(e.error.code);
      const resuming = s.name === 'loading' && s.op === 'resume';
      if (goneCode && (resuming || isWatching(s))) return gone(s, e.error);
      // The preselected method is not offered for this order (a terminal without it, another currency): the shopper chooses.
      // The refused attempt is forgotten, so the shopper's choice is not joined to it (claim.ts).
      if (s.name === 'searching' && e.error.code === 'method_unavailable' && s.selection === s.preselected) {
        const step = fetchMethods(s);
        step.effects.unshift(forget(s));
        return step;
      }
      if (s.name === 'loading' || s.name === 'searching') return fail(s, e.error, s.op);
      if (isOpen(s.name) && !e.error.retryable) return fail(s, e.error, 'resume');
      if (s.name === 'idle') return fail(s, e.error, null);
      return stay(s);
    }

    case 'paidPressed':
      // Stored: a reload shows this step again, not the requisites (a shopper might pay twice).
      return s.name === 'pay' ? { state: { ...s, name: 'confirming', said: true }, effects: [{ type: 'store', session: s.session!, paid: false }, emit('status'), { type: 'check' }] } : stay(s);

    case 'timeUp':
      if (s.name !== 'pay') return stay(s);
      return { state: { ...s, name: 'expired', localExpiry: true }, effects: [emit('status'), { type: 'check' }] };

    case 'retry': {
      if (s.name !== 'error' || !s.error!.retryable) return stay(s); // the error step always has its error
      if (s.op === 'create' && s.selection && s.key) return create(s, s.selection, s.key); // same key: never two orders
      if (s.op === 'resume' && s.session) return resume(s, s.session);
      if (s.op === 'methods') return fetchMethods(s);
      return stay(s);
    }

    case 'renew': {
      if (!s.canCreate) return stay(s);
      const clean: MachineState = { ...s, session: null, order: null, known: null, localExpiry: false };
      const ended = s.name === 'expired' || s.name === 'cancelled' || (s.name === 'dispute' && s.order?.status !== 'pending');
      if (ended || s.name === 'gone') {
        const step = s.selection && s.name !== 'gone' ? create(clean, s.selection, e.key) : fresh(clean, e.key);
        step.effects.unshift(forget(s));
        return step;
      }
      if (s.name === 'error') {
        if (isFinalError(s.error)) return stay(s);
        // The attempt was refused for good (method, limits, bank…): choose again, with a new key.
        const step = fetchMethods({ ...clean, key: e.key, selection: null });
        step.effects.unshift(forget(s));
        return step;
      }
      return stay(s);
    }
  }
}
