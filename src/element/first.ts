/**
 * The CDN entry's first move (src/cdn.ts), before the element's own code has arrived: for each
 * `<paydesk-checkout>` already in the page, the request the element would send first — `POST
 * /sessions` (claimed across tabs first, claim.ts) or the stored session's resume — is sent at once,
 * decided by the element's own rules (requests.ts `startOf`, the machine's `start`). The answer is
 * left on the element (`FIRST`): the first paint draws the requisites from it (paint.ts),
 * and the element, once defined, takes that answer instead of sending the request again.
 *
 * An element the page has set properties on (`env`, `messages`…), one whose attributes the element
 * would refuse, and one that starts with the method choice are left to the element.
 */
import { sessionsApi } from './endpoint.js';
import { configProblem, type Attributes } from './config.js';
import { nearestLang } from './i18n/index.js';
import { withDefaults, type CheckoutEnv } from './env.js';
import { initialState, started, type Effect, type MachineEvent, type MachineState } from './machine.js';
import { createSession, purchaseKey, resumeSession, startOf, storedCheckout } from './requests.js';
import { normaliseEndpoint } from '../protocol/url.js';

/**
 * Where the CDN entry (first.ts) leaves, on an element whose code has not arrived yet, the request it
 * started for it: the machine's `start` it decided and the answer under way, which the element takes
 * instead of sending the same request again.
 */
export const FIRST = Symbol.for('paydesk.first');
export interface FirstRequest {
  /** The machine's `start`, as the element would have sent it (its key is the create's). */
  start: Extract<MachineEvent, { type: 'start' }>;
  /** The request it started (`create` or `resume`) and the machine's event that answers it. */
  fx: Effect['type'];
  answer: Promise<MachineEvent | null>;
}

/** A first request started, with what its paint needs. */
export interface Started extends FirstRequest {
  el: HTMLElement;
  /** The machine after `start` (the answer's event is applied to it). */
  state: MachineState;
  env: CheckoutEnv;
  attrs: Attributes;
  /** The language the element will read (`locale`, else the nearest `lang`, else the browser's). */
  tag: string;
}

/** The attributes the element reads, by property. */
const ATTRIBUTES: Record<keyof Attributes, string> = {
  endpoint: 'endpoint',
  orderRef: 'order-ref',
  session: 'session',
  mode: 'mode',
  methodType: 'method-type',
  paymentMethodId: 'payment-method-id',
  bank: 'bank',
  buttonName: 'button-name',
  supportUrl: 'support-url',
};

/** Starts the element's first request for `el`, or null when the element should decide (see above). */
export function startFirst(el: HTMLElement): Started | null {
  if (Object.keys(el).length > 0 || FIRST in el) return null;
  const attrs = Object.fromEntries(Object.entries(ATTRIBUTES).map(([key, name]) => [key, el.getAttribute(name) ?? ''])) as unknown as Attributes;
  const endpoint = normaliseEndpoint(attrs.endpoint);
  if (!endpoint || configProblem(attrs)) return null;
  const env = withDefaults({});
  const key = purchaseKey(endpoint, attrs.orderRef, attrs.session);
  const start = startOf(attrs, storedCheckout(env, key, attrs.session), env.newKey());
  const { state, effects } = started(initialState(), start);
  const fx = effects[0];
  if (fx?.type !== 'create' && fx?.type !== 'resume') return null;
  const context = { env, api: sessionsApi(endpoint, { fetch: env.fetch }), key, orderRef: attrs.orderRef, bank: attrs.bank, mode: attrs.mode };
  // Never aborted: the element takes the answer, whenever its code arrives.
  const signal = new AbortController().signal;
  const answer = fx.type === 'create' ? createSession(context, fx, signal) : resumeSession(context, fx.session, signal);
  // A failure is the element's to show (it takes this promise); here it is only not left unhandled.
  answer.catch(() => {});
  const first: FirstRequest = { start, fx: fx.type, answer };
  (el as unknown as Record<symbol, FirstRequest>)[FIRST] = first;
  const tag = el.getAttribute('locale') || nearestLang(el) || navigator.language || 'en';
  return { ...first, el, state, env, attrs, tag };
}
