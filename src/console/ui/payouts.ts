/**
 * Payouts: the form (method, amount, destination → the fee and total → confirm → done), and
 * completing a pending payout in the sandbox. One idempotency key per form: every submit of the
 * form sends it, so a double click, a retry after a lost answer or a second tab on the same form
 * makes one payout (src/console/api.ts). A new key comes with a new form, after a payout is made.
 */
import type { CreatePayoutRequest, PayoutResponse, PayoutView } from '../contract.js';
import {
  formatDestination,
  normalizeDestination,
  payoutLimits,
  quotePayout,
  type DestinationKind,
  type PayoutMethod,
  type PayoutQuote,
} from '../payout-rules.js';
import { compareAmounts, parseAmount } from '../../money/index.js';
import { $, el } from '../../ui-shared/dom.js';
import type { ConsoleKey } from './texts.js';
import { ApiError, api, isUnauthorized } from './api.js';
import type { ConsoleContext } from './context.js';
import { methodTypeLabel, orderStatusLabel } from './labels.js';
import { badge } from './table.js';

type Step = 'details' | 'confirm' | 'done';
type Field = 'method' | 'amount' | 'destination';

const PLACEHOLDERS: Record<DestinationKind, string> = { card: '0000 0000 0000 0000', phone: '+7 999 123-45-67', account: '40817 810 0 0000 0000000' };
const INPUT_MODES: Record<DestinationKind, string> = { card: 'numeric', phone: 'tel', account: 'numeric' };

interface Draft {
  key: string;
  step: Step;
  methods: PayoutMethod[] | null;
  /** What the operator is confirming (set when leaving the details step). */
  confirming: { method: PayoutMethod; quote: PayoutQuote; destination: string } | null;
  done: PayoutResponse | null;
  sending: boolean;
  /** The provider has not confirmed an earlier submit (payout_unconfirmed, payout_in_progress): the button checks again, it never pays twice. */
  unconfirmed: boolean;
}

let draft: Draft = newDraft(null);
let bound = false;

/** A new form: a new key; the methods already read are kept. */
function newDraft(methods: PayoutMethod[] | null): Draft {
  return { key: newKey(), step: 'details', methods, confirming: null, done: null, sending: false, unconfirmed: false };
}

/** 16 random bytes, URL-safe base64 (22 characters). */
function newKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** The amount as typed (`1 500,50`) as a decimal string, or null. */
function readAmount(text: string, currency: string): string | null {
  const compact = text.trim().replace(/[\s\u00a0\u202f]/g, '').replace(',', '.');
  try {
    return parseAmount(compact, { currency });
  } catch {
    return null;
  }
}

/** Completes a pending payout in the sandbox; resolves with it as it is now. */
export async function completeInSandbox(ctx: ConsoleContext, payout: PayoutView): Promise<PayoutView> {
  const res = await api<{ payout: PayoutView }>(`/payouts/${encodeURIComponent(payout.id)}/sandbox-complete`, {
    method: 'POST',
    body: { client_order_id: payout.client_order_id },
  });
  ctx.toast(ctx.t('p.completed'));
  await ctx.refreshBalance();
  return res.payout;
}

export function showPayoutForm(ctx: ConsoleContext): void {
  if (draft.step === 'done') draft = newDraft(draft.methods);
  if (!bound) bind(ctx);
  bound = true;
  current = ctx;
  $('#payout-test-values').hidden = !ctx.meta.sandbox;
  renderStep();
  if (draft.methods === null) void loadMethods();
  else renderMethods();
}

/** The context of the last render (language may change while the form is open). */
let current: ConsoleContext;

async function loadMethods(): Promise<void> {
  const select = $<HTMLSelectElement>('#payout-method');
  select.disabled = true;
  try {
    draft.methods = (await api<{ methods: PayoutMethod[] }>('/payout-methods')).methods;
    renderMethods();
  } catch (err) {
    if (isUnauthorized(err)) return current.loggedOut();
    fieldError('method', current.errorText(err));
  } finally {
    select.disabled = false;
  }
}

function methodOf(id: string): PayoutMethod | undefined {
  return draft.methods?.find((m) => m.id === id);
}

function renderMethods(): void {
  const ctx = current;
  const select = $<HTMLSelectElement>('#payout-method');
  const chosen = select.value;
  const methods = draft.methods ?? [];
  select.replaceChildren(...methods.map((m) => el('option', { value: m.id, text: `${m.name} · ${methodTypeLabel(ctx.lang, m.type)}` })));
  if (methods.length === 0) fieldError('method', ctx.t('p.noMethods'));
  if (methodOf(chosen)) select.value = chosen;
  onMethod();
}

/** The method changed: its hint, the destination's label and keyboard, and the quote. */
function onMethod(): void {
  const ctx = current;
  const method = methodOf($<HTMLSelectElement>('#payout-method').value);
  const hint = $('#payout-method-hint');
  const input = $<HTMLInputElement>('#payout-destination');
  if (!method) {
    hint.textContent = '';
    return;
  }
  fieldError('method', null);
  const limits = payoutLimits(method);
  const fees = method.ranges.map((r) => `${r.fee}%${r.fixed_fee ? ` + ${ctx.money(r.fixed_fee, method.currency)}` : ''}`);
  hint.textContent = ctx.t('p.methodHint', {
    kind: ctx.t(`p.kind.${method.kind}`),
    min: ctx.money(limits.min, method.currency),
    max: ctx.money(limits.max, method.currency),
    fee: [...new Set(fees)].join(' / '),
  });
  $('#payout-destination-label').textContent = ctx.t(`p.destination.${method.kind}`);
  input.placeholder = PLACEHOLDERS[method.kind];
  input.inputMode = INPUT_MODES[method.kind];
  input.autocomplete = method.kind === 'phone' ? 'tel' : 'off';
  $('#payout-currency').textContent = method.currency;
  renderQuote();
}

/** The fee and total for what is typed now (or a line saying when they appear). */
function renderQuote(): PayoutQuote | null {
  const ctx = current;
  const method = methodOf($<HTMLSelectElement>('#payout-method').value);
  const amount = method ? readAmount($<HTMLInputElement>('#payout-amount').value, method.currency) : null;
  const quoted = method && amount ? quotePayout(method, amount) : null;
  const box = $('#payout-quote');
  if (!quoted?.ok) {
    box.replaceChildren(el('p', { className: 'muted', text: ctx.t('p.quoteEmpty') }));
    return null;
  }
  const q = quoted.quote;
  box.replaceChildren(
    el(
      'dl',
      {},
      el('div', {}, el('dt', { text: ctx.t('p.fee') }), el('dd', { text: ctx.money(q.fee, q.currency) })),
      el('div', { className: 'total' }, el('dt', { text: ctx.t('p.totalCharged') }), el('dd', { text: ctx.money(q.total, q.currency) })),
    ),
  );
  return q;
}

function fieldError(field: Field, message: string | null): void {
  const input = $(`#payout-${field}`);
  const error = $(`#payout-${field}-error`);
  error.textContent = message ?? '';
  error.hidden = message === null;
  if (message === null) input.removeAttribute('aria-invalid');
  else input.setAttribute('aria-invalid', 'true');
}

/** Checks the details; on success the operator sees the confirmation step. */
function toConfirm(): void {
  const ctx = current;
  const method = methodOf($<HTMLSelectElement>('#payout-method').value);
  const errors: Partial<Record<Field, string>> = {};
  let quote: PayoutQuote | null = null;
  let destination: string | null = null;
  if (!method) errors.method = ctx.t('p.err.method');
  else {
    const amount = readAmount($<HTMLInputElement>('#payout-amount').value, method.currency);
    if (!amount) errors.amount = ctx.t('p.err.amount');
    else {
      const quoted = quotePayout(method, amount);
      if (quoted.ok) quote = quoted.quote;
      else errors.amount = ctx.t('p.err.limits', { min: ctx.money(quoted.min, method.currency), max: ctx.money(quoted.max, method.currency) });
    }
    const dest = normalizeDestination(method.kind, $<HTMLInputElement>('#payout-destination').value, method.type);
    if (dest.ok) destination = dest.value;
    else errors.destination = ctx.t(`p.err.${dest.problem}` as ConsoleKey);
  }
  for (const field of ['method', 'amount', 'destination'] as const) fieldError(field, errors[field] ?? null);
  const first = (['method', 'amount', 'destination'] as const).find((f) => errors[f]);
  if (first || !method || !quote || !destination) {
    if (first) $(`#payout-${first}`).focus();
    return;
  }
  draft.confirming = { method, quote, destination };
  draft.step = 'confirm';
  $('#payout-error').hidden = true;
  renderStep();
  $('#payout-confirm-title').focus();
}

function renderConfirm(): void {
  const ctx = current;
  const c = draft.confirming;
  if (!c) return;
  const money = (a: string) => ctx.money(a, c.quote.currency);
  $('#payout-summary').replaceChildren(
    row(ctx.t('p.method'), `${c.method.name} · ${methodTypeLabel(ctx.lang, c.method.type)}`),
    row(ctx.t(`p.destination.${c.method.kind}`), formatDestination(c.method.kind, c.destination), 'mono'),
    row(ctx.t('p.amount'), money(c.quote.amount)),
    row(ctx.t('p.fee'), money(c.quote.fee)),
    row(ctx.t('p.totalCharged'), money(c.quote.total), 'total'),
  );
  const available = ctx.balance?.available;
  const low = $('#payout-low-balance');
  low.hidden = !(available !== undefined && compareAmounts(c.quote.total, available) > 0);
  if (!low.hidden && available !== undefined) low.textContent = ctx.t('p.lowBalance', { available: money(available) });
  const submit = $<HTMLButtonElement>('#payout-submit');
  submit.disabled = draft.sending;
  submit.textContent = ctx.t(draft.sending ? 'p.sending' : draft.unconfirmed ? 'p.checkAgain' : 'p.confirm');
}

function row(term: string, value: string | Node, className?: string): HTMLElement {
  return el('div', { className: className ?? null }, el('dt', { text: term }), el('dd', {}, value));
}

async function submit(): Promise<void> {
  const c = draft.confirming;
  if (!c || draft.sending) return;
  const ctx = current;
  draft.sending = true;
  renderConfirm();
  const error = $('#payout-error');
  error.hidden = true;
  const body: CreatePayoutRequest = { key: draft.key, method_id: c.method.id, amount: c.quote.amount, destination: c.destination, total: c.quote.total };
  try {
    draft.done = await api<PayoutResponse>('/payouts', { method: 'POST', body });
    draft.step = 'done';
    draft.sending = false;
    renderStep();
    $('#payout-done-title').focus();
    void ctx.refreshBalance();
  } catch (err) {
    draft.sending = false;
    if (isUnauthorized(err)) return ctx.loggedOut();
    // Once the provider left a submit unconfirmed, the button only ever checks again (the same key: it cannot pay twice).
    draft.unconfirmed ||= err instanceof ApiError && (err.code === 'payout_in_progress' || err.code === 'payout_unconfirmed');
    if (err instanceof ApiError && err.code === 'quote_changed' && err.details.fee && err.details.total) {
      // The provider's ranges changed since the form was filled: show the new figures to confirm.
      c.quote = { ...c.quote, fee: err.details.fee, total: err.details.total };
    }
    if (err instanceof ApiError && err.code === 'insufficient_funds') void ctx.refreshBalance();
    if (err instanceof ApiError && err.field) {
      const field: Field | null = err.field === 'method_id' ? 'method' : err.field === 'amount' || err.field === 'destination' ? err.field : null;
      if (field) fieldError(field, ctx.errorText(err));
    }
    renderConfirm();
    error.textContent = ctx.errorText(err);
    error.hidden = false;
  }
}

function renderDone(): void {
  const ctx = current;
  const done = draft.done;
  if (!done) return;
  const p = done.payout;
  const status = orderStatusLabel(ctx.lang, p.status, 'Sell');
  $('#payout-done-title').textContent = ctx.t(done.replayed ? 'p.replayedTitle' : 'p.doneTitle');
  $('#payout-done-lead').textContent = p.outcome === 'pending' ? ctx.t('p.doneLead', { total: ctx.money(p.total, p.currency) }) : '';
  $('#payout-done-summary').replaceChildren(
    row(ctx.t('p.status'), badge(status.text, status.tone)),
    row(ctx.t('p.to'), p.destination, 'mono'),
    row(ctx.t('p.totalCharged'), ctx.money(p.total, p.currency), 'total'),
    row(ctx.t('p.id'), p.id, 'mono'),
  );
  $('#payout-complete').hidden = !(ctx.meta.sandbox && p.outcome === 'pending');
}

/** How long a step's controls ignore pointer taps after the step appears (see guardStep). */
export const STEP_GUARD_MS = 500;
let shownStep: string | null = null;

/**
 * A step's buttons appear where the finger that moved to it just tapped ("Continue" → "Confirm payout",
 * "Confirm payout" → "Complete in the sandbox" / "Another payout"): for a moment they take no pointer
 * taps, so the second tap of a double tap presses nothing (the keyboard is not affected).
 */
function guardStep(section: HTMLElement): void {
  section.classList.add('arming');
  setTimeout(() => section.classList.remove('arming'), STEP_GUARD_MS);
}

function renderStep(): void {
  $('#payout-form').hidden = draft.step !== 'details';
  $('#payout-confirm').hidden = draft.step !== 'confirm';
  $('#payout-done').hidden = draft.step !== 'done';
  if (draft.step !== shownStep) {
    if (shownStep !== null && draft.step !== 'details') guardStep($(draft.step === 'confirm' ? '#payout-confirm' : '#payout-done'));
    shownStep = draft.step;
  }
  for (const item of document.querySelectorAll<HTMLElement>('#payout-steps [data-step]')) {
    const here = item.dataset.step === draft.step || (draft.step === 'done' && item.dataset.step === 'confirm');
    if (here) item.setAttribute('aria-current', 'step');
    else item.removeAttribute('aria-current');
  }
  if (draft.step === 'confirm') renderConfirm();
  if (draft.step === 'done') renderDone();
}

/** Texts that follow the language (called by the page when it changes). */
export function relabelPayoutForm(ctx: ConsoleContext): void {
  current = ctx;
  if (draft.methods) renderMethods();
  renderStep();
}

function bind(ctx: ConsoleContext): void {
  current = ctx;
  const form = $<HTMLFormElement>('#payout-form');
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    toConfirm();
  });
  $('#payout-method').addEventListener('change', onMethod);
  $('#payout-amount').addEventListener('input', () => {
    fieldError('amount', null);
    renderQuote();
  });
  $('#payout-destination').addEventListener('input', () => fieldError('destination', null));
  $('#payout-edit').addEventListener('click', () => {
    draft.step = 'details';
    renderStep();
    $('#payout-amount').focus();
  });
  $('#payout-submit').addEventListener('click', () => void submit());
  $('#payout-another').addEventListener('click', () => {
    draft = newDraft(draft.methods);
    form.reset();
    for (const field of ['method', 'amount', 'destination'] as const) fieldError(field, null);
    renderStep();
    renderMethods();
    $('#payout-method').focus();
  });
  $('#payout-complete').addEventListener('click', async () => {
    const done = draft.done;
    const button = $<HTMLButtonElement>('#payout-complete');
    if (!done) return;
    button.disabled = true;
    try {
      done.payout = await completeInSandbox(current, done.payout);
      renderDone();
    } catch (err) {
      if (isUnauthorized(err)) return current.loggedOut();
      current.toast(current.errorText(err), 'error');
    } finally {
      button.disabled = false;
    }
  });
}
