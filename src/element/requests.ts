/**
 * The checkout's first requests as plain functions, each answering with the event the machine takes:
 * the stored record of a purchase (a reload, a second tab), the create (claimed across tabs first,
 * claim.ts) and the resume. The element's session controller (session.ts) runs them as the machine's
 * effects; the CDN entry (first.ts) runs the same ones before the element's code has arrived, and the
 * element then takes their answer instead of asking again.
 */
import type { IntegrationMode } from '../protocol/index.js';
import type { SessionsApi } from './endpoint.js';
import { claimCreate, withBank } from './claim.js';
import { preselection, type Attributes } from './config.js';
import type { CheckoutEnv } from './env.js';
import type { MachineEvent, Selection } from './machine.js';
import { loadCheckout, saveCheckout, storageKey, type StoredCheckout } from './storage.js';

/** What a request reads of the element: its attributes, the outside world, the purchase's storage key. */
export interface RequestContext {
  env: CheckoutEnv;
  api: SessionsApi;
  /** The purchase's storage key ({@link purchaseKey}). */
  key: string;
  orderRef: string;
  bank: string;
  mode: string;
}

/** The purchase's storage key: its order ref, else (a session given by attribute) that session. */
export const purchaseKey = (endpoint: string, orderRef: string, session: string): string => storageKey(endpoint, orderRef || `#${session}`);

/**
 * The stored record of a purchase: this tab's own first (the order it showed, even when another tab
 * has made a newer one for the same ref since), else the shared one. `session`: the session the page
 * gives (its attribute), which is shown instead of any other stored.
 */
export function storedCheckout(env: CheckoutEnv, key: string, session: string): StoredCheckout | null {
  const now = env.clock.now();
  const stored = loadCheckout(env.tabStorage, key, now) ?? loadCheckout(env.storage, key, now);
  // This tab shows it from now on: a reload of this tab resumes it, whatever another tab makes next.
  if (stored?.session && (!session || session === stored.session)) saveCheckout(env.tabStorage, key, stored);
  return stored;
}

/**
 * The machine's `start` for the element's attributes: with what this browser stored of the purchase
 * (a reload: "paid" already said, "I have paid" pressed), `key` for a create.
 */
export function startOf(a: Attributes, stored: StoredCheckout | null, key: string): Extract<MachineEvent, { type: 'start' }> {
  const { session } = a;
  return {
    type: 'start',
    resume: session
      ? { ...(stored?.session === session && stored), session }
      : stored?.session
        ? { ...stored, session: stored.session }
        : null,
    preselected: preselection(a),
    canCreate: !!a.orderRef,
    key,
  };
}

const time = (env: CheckoutEnv) => ({ mono: env.clock.mono(), wall: env.clock.now() });

/**
 * The machine's create: claims the attempt (another tab's session is followed, another tab's attempt
 * joined), then `POST /sessions`. The event for the machine (`created` or `adopt`); null when
 * `signal` was aborted while the claim waited.
 */
export async function createSession(c: RequestContext, fx: { key: string; selection: Selection }, signal: AbortSignal): Promise<MachineEvent | null> {
  const { env } = c;
  // Settles once the create has its answer: until then, this tab's attempt is announced (claim.ts).
  let sent!: (v?: unknown) => void;
  const done = new Promise((r) => (sent = r));
  const wait = (ms: number) => new Promise<void>((r) => env.clock.setTimeout(r, ms));
  try {
    const claim = await claimCreate(env.storage, c.key, { key: fx.key, selection: withBank(fx.selection, c.bank) }, () => env.clock.now(), env.locks, wait, done, signal);
    if (signal.aborted) return null;
    if ('session' in claim) {
      // Another tab's order, followed: this tab's from now on (as in `storedCheckout`).
      saveCheckout(env.tabStorage, c.key, claim);
      return { ...claim, type: 'adopt' };
    }
    const mode = c.mode ? { mode: c.mode as IntegrationMode } : {};
    const r = await c.api.create({ order_ref: c.orderRef, ...claim.selection, ...mode }, claim.key, signal);
    return { type: 'created', ...r, ...time(env), selection: claim.selection, key: claim.key };
  } finally {
    sent();
  }
}

/** The machine's resume: the session's order now (`?refresh=1`). */
export async function resumeSession(c: RequestContext, session: string, signal: AbortSignal): Promise<MachineEvent> {
  const r = await c.api.session(session, true, signal);
  return { type: 'order', ...r, ...time(c.env) };
}
