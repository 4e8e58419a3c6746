/**
 * The storefront's sandbox bar: complete, expire or dispute the order on screen, accept or reject
 * any open dispute of it — the one the bar opened, or the one the widget's order carries (the
 * shopper's receipt, or one opened before a reload) — through POST /demo/api/sandbox/…
 * (demo/sandbox-bar.ts). A control that becomes usable right under a finger waits a moment before
 * it takes taps.
 */
import { $$ } from '../../../src/ui-shared/dom.js';
import { toast } from '../../../src/ui-shared/toast.js';
import { OPEN_STATES, SETTLED_STATES, endpoint, isNetworkError, state } from './store-state.js';

export const SANDBOX_ACTIONS = ['complete', 'expire', 'dispute', 'accept', 'reject'] as const;
export type SandboxAction = (typeof SANDBOX_ACTIONS)[number];

/** The dispute the bar opened for the order on screen (one at a time), or null. */
let sandboxDispute: { session: string; id: string } | null = null;
/** Disputes the bar decided: the widget may still show one open until the server's next status. */
const decided = new Set<string>();

/**
 * The open dispute of the order on screen: the one the bar opened, else the one the widget's order
 * carries (opened by the shopper's receipt, or by the bar before a reload), unless the bar decided it.
 */
function openDispute(): string | null {
  if (!state.session) return null;
  if (sandboxDispute?.session === state.session) return sandboxDispute.id;
  const dispute = state.order?.dispute;
  return dispute?.status === 'open' && !decided.has(dispute.id) ? dispute.id : null;
}
/** How long a control that just became usable ignores taps (the second tap of a double tap elsewhere). */
const APPEAR_GUARD_MS = 500;
const enabledAt = new WeakMap<HTMLButtonElement, number>();

export function renderSandbox(): void {
  // An order under dispute that is still pending can still be paid or expired.
  const disputedPending = state.orderState === 'dispute' && state.order?.status === 'pending';
  const active = Boolean(state.session) && (state.orderState === null || OPEN_STATES.has(state.orderState) || disputedPending);
  const disputeOpen = openDispute() !== null;
  for (const button of $$<HTMLButtonElement>('[data-sandbox]')) {
    const action = button.dataset.sandbox;
    let usable: boolean;
    if (action === 'accept' || action === 'reject') usable = disputeOpen;
    // A dispute can be opened on a paid or ended order too; while one is open the button says so.
    else if (action === 'dispute') usable = Boolean(state.session) && (active || state.orderState === 'dispute' || SETTLED_STATES.has(String(state.orderState)));
    else usable = active;
    if (action === 'dispute') {
      button.setAttribute('aria-pressed', String(disputeOpen));
      const label = button.querySelector<HTMLElement>('[data-i18n]');
      const key = disputeOpen ? 'sandbox.disputeOpen' : 'sandbox.dispute';
      // The key itself changes, so a change of language keeps the right label.
      if (label) {
        label.dataset.i18n = key;
        label.textContent = state.t(key);
      }
    }
    setUsable(button, usable);
  }
}

/** The next look at a control that waits out APPEAR_GUARD_MS (one per control at a time). */
const looks = new WeakMap<HTMLButtonElement, ReturnType<typeof setTimeout>>();

/**
 * Enables a control only once it has been usable for APPEAR_GUARD_MS: a control that becomes usable
 * right after a tap (under the same finger) must not take the second tap of a double tap. A timer may
 * fire before its time by the clock the page reads (Firefox and WebKit fire a 500 ms timer at
 * 499.99 ms by `performance.now()`): a look too early schedules another for what is left, so the
 * control never stays disabled.
 */
function setUsable(button: HTMLButtonElement, usable: boolean): void {
  if (!usable || button.dataset.busy) {
    button.disabled = true;
    enabledAt.delete(button);
    return;
  }
  if (!button.disabled) return;
  const now = performance.now();
  const since = enabledAt.get(button) ?? now;
  enabledAt.set(button, since);
  const left = APPEAR_GUARD_MS - (now - since);
  if (left <= 0) {
    button.disabled = false;
    enabledAt.delete(button);
  } else if (!looks.has(button)) {
    looks.set(
      button,
      setTimeout(() => {
        looks.delete(button);
        renderSandbox();
      }, Math.ceil(left)),
    );
  }
}

export async function sandboxAction(action: SandboxAction, button: HTMLButtonElement): Promise<void> {
  if (!state.session) return toast(state.t('sandbox.noOrder'), 'error');
  const session = state.session;
  // One dispute at a time: pressing "Dispute" again while it is open changes nothing.
  const open = openDispute();
  if (action === 'dispute' && open !== null) return toast(state.t('sandbox.disputeAlready'));
  button.dataset.busy = '1';
  button.disabled = true;
  try {
    const res = await fetch(`/demo/api/sandbox/${action}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-paydesk': '1' },
      body: JSON.stringify({ session, endpoint: endpoint() }),
    });
    const body = (await res.json().catch(() => null)) as { error?: { message?: string }; dispute?: { id?: unknown; status?: unknown } | null } | null;
    if (!res.ok) {
      if (action !== 'dispute' && res.status === 409) forget(session, open);
      throw new Error(body?.error?.message ?? `HTTP ${res.status}`);
    }
    const dispute = body?.dispute;
    if (action === 'dispute' && typeof dispute?.id === 'string') sandboxDispute = { session, id: dispute.id };
    if (action === 'accept' || action === 'reject') forget(session, open);
    toast(state.t(`sandbox.done.${action}`));
  } catch (err) {
    toast(isNetworkError(err) ? state.t('error.offline') : err instanceof Error ? err.message : String(err), 'error');
  } finally {
    delete button.dataset.busy;
    renderSandbox();
  }
}

/** The open dispute `id` of `session` is decided (or gone): accept and reject no longer apply to it. */
function forget(session: string, id: string | null): void {
  if (sandboxDispute?.session === session) sandboxDispute = null;
  if (id !== null) decided.add(id);
}
