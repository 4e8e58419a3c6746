/**
 * The order page's refunds: what was paid and what is left, the refunds made with their payouts'
 * status, and — while something is left — the Refund form: the shopper's phone (SBP) or card number,
 * for a phone the shopper's bank (an SBP payout goes to one bank: chosen by the merchant, preselected
 * only when the order names the shopper's bank), and the amount (what is left, by default), then a
 * confirm step with the payout method, the bank, its fee and the total taken from the balance (the
 * payout form's quote); one Idempotency-Key per form, so a double submit makes one refund
 * (`POST /refunds`, src/console/refunds.ts).
 */
import type { OrderDetail, RefundResponse, RefundView } from '../contract.js';
import { accountKindOf, choiceOfCustomerBank, payoutBankName, phoneRefundChoices, quotePayout, refundMethodFor, type PayoutMethod, type PayoutQuote } from '../payout-rules.js';
import { ApiError, api, isUnauthorized } from './api.js';
import type { ConsoleContext } from './context.js';
import { el } from '../../ui-shared/dom.js';
import { dateTime, shortId } from '../../ui-shared/format.js';
import { methodTypeLabel } from './labels.js';
import { orderLink } from './shop.js';
import { badge, renderRows, type Column } from './table.js';
import type { ConsoleKey } from './texts.js';

const TONES = { sending: 'wait', pending: 'wait', paid: 'ok', failed: 'bad' } as const;

/** An amount as people type it (`1500`, `1 500,5`) with two places, or null. */
function twoPlaces(text: string): string | null {
  const t = text.replace(/[\s\u00a0]/g, '').replace(',', '.');
  const m = /^(\d{1,12})(?:\.(\d{1,2}))?$/.exec(t);
  return m ? `${m[1]}.${(m[2] ?? '').padEnd(2, '0')}` : null;
}

const isPhone = (account: string) => accountKindOf(account) === 'phone';

function newKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return `refund-form-${[...bytes].map((b) => b.toString(16).padStart(2, '0')).join('')}`;
}

/** The refunds section of an order's page; `reload` shows the order again (after a refund). */
export function refundsSection(ctx: ConsoleContext, order: OrderDetail, reload: () => void): HTMLElement {
  const section = el('section', { className: 'card order-section refunds', id: 'order-refunds', 'aria-labelledby': 'order-refunds-title' }, el('h2', { id: 'order-refunds-title', text: ctx.t('r.title') }));
  const r = order.refundable;
  if (r) {
    const left = Number(r.amount) > 0;
    section.append(el('p', { className: 'muted', id: 'refund-left', text: ctx.t(left ? 'r.leftLine' : 'r.nothingLeft', { paid: ctx.money(r.paid, r.currency), left: ctx.money(r.amount, r.currency) }) }));
  }
  if (order.refunds.length === 0) section.append(el('p', { className: 'muted', text: ctx.t('r.none') }));
  else section.append(refundsTable(ctx, order.refunds));
  const customerBank = order.provider && 'order' in order.provider ? order.provider.order.customer_bank : null;
  if (r && order.id && Number(r.amount) > 0) section.append(refundForm(ctx, order.id, r, customerBank, reload));
  return section;
}

function refundsTable(ctx: ConsoleContext, refunds: RefundView[]): HTMLElement {
  const columns: Column<RefundView>[] = [
    { key: 'amount', label: ctx.t('p.amount'), cell: (x) => ctx.money(x.amount, x.currency), num: true },
    { key: 'status', label: ctx.t('r.status'), cell: (x) => badge(ctx.t(`r.status.${x.status}` as ConsoleKey), TONES[x.status]) },
    { key: 'to', label: ctx.t('r.to'), cell: (x) => `${x.account} · ${x.method.name}`, mono: true },
    { key: 'payout', label: ctx.t('r.payout'), cell: (x) => (x.payout_id ? orderLink(ctx, x.payout_id, shortId(x.payout_id), x.payout_id) : '—'), mono: true },
    { key: 'when', label: ctx.t('r.when'), cell: (x) => dateTime(x.created_at, ctx.lang) },
  ];
  const table = el('table', { className: 'cards-on-phone', id: 'refunds-table', 'aria-label': ctx.t('r.title') }, el('thead'), el('tbody'));
  renderRows(table, columns, refunds);
  return el('div', { className: 'table-wrap' }, table);
}

/**
 * The "Shopper's bank" field of a refund to a phone: a required `<select>` of the banks that pay out
 * by SBP (payout-rules.ts `phoneRefundChoices`), preselected only when the order names the shopper's
 * bank (`customer_bank`); shown while the account is a phone.
 */
function bankField(ctx: ConsoleContext, customerBank: string | null) {
  const select = el('select', { id: 'refund-bank', name: 'payment_method_id', required: true, 'aria-describedby': 'refund-bank-hint refund-bank-error' });
  const hint = el('span', { className: 'field-hint', id: 'refund-bank-hint', text: ctx.t('r.bankHint') });
  const error = el('span', { className: 'field-error', id: 'refund-bank-error', hidden: true });
  const field = el('div', { className: 'field', id: 'refund-bank-field', hidden: true }, el('label', { for: 'refund-bank', text: ctx.t('r.bank') }), select, hint, error);
  let filled = false;
  return {
    field,
    select,
    error,
    /** Fills the choices once the payout methods are read (the order's bank preselected). */
    fill(methods: readonly PayoutMethod[]) {
      if (filled) return;
      filled = true;
      const choices = phoneRefundChoices(methods);
      const pick = el('option', { value: '', text: ctx.t('r.bankPick') });
      select.replaceChildren(pick, ...choices.map((m) => el('option', { value: m.id, text: payoutBankName(m, ctx.lang) })));
      const ordered = choiceOfCustomerBank(choices, customerBank);
      if (ordered) {
        select.value = ordered.id;
        hint.textContent = ctx.t('r.bankFromOrder', { bank: payoutBankName(ordered, ctx.lang) });
      }
    },
  };
}

/** Shows `text` in the error `node` (hides it for null) and marks `input` invalid or not. */
function setError(node: HTMLElement, input: HTMLElement | null, text: string | null): void {
  node.textContent = text ?? '';
  node.hidden = text === null;
  if (input) {
    if (text === null) input.removeAttribute('aria-invalid');
    else input.setAttribute('aria-invalid', 'true');
  }
}

/** The confirm step: what the refund costs and where it goes, before anything is sent. */
function confirmStep(ctx: ConsoleContext) {
  const formError = el('p', { className: 'form-error', id: 'refund-error', role: 'alert', hidden: true });
  const summary = el('dl', { className: 'summary', id: 'refund-summary' });
  const submitButton = el('button', { className: 'btn primary', type: 'button', id: 'refund-submit', text: ctx.t('r.confirm') });
  const editButton = el('button', { className: 'btn', type: 'button', id: 'refund-edit', text: ctx.t('r.edit') });
  const confirm = el(
    'div',
    { id: 'refund-confirm', hidden: true },
    el('h3', { id: 'refund-confirm-title', tabindex: '-1', text: ctx.t('r.confirmTitle') }),
    el('p', { className: 'muted', text: ctx.t('r.confirmLead') }),
    summary,
    formError,
    el('div', { className: 'form-actions' }, editButton, submitButton),
  );
  return { confirm, summary, formError, submitButton, editButton };
}

/** The confirm step's rows: the method, the shopper's bank (a phone refund), the amount, fee, total, account and order. */
function summaryRows(ctx: ConsoleContext, r: { orderId: string; method: PayoutMethod; quote: PayoutQuote; amount: string; currency: string; account: string; phone: boolean }): HTMLElement[] {
  const row = (label: string, text: string, attrs: { id?: string; className?: string } = {}) => el('div', {}, el('dt', { text: label }), el('dd', { ...attrs, text }));
  return [
    row(ctx.t('p.method'), `${methodTypeLabel(ctx.lang, r.method.type)} · ${r.method.name}`, { id: 'refund-method' }),
    ...(r.phone ? [row(ctx.t('r.bank'), payoutBankName(r.method, ctx.lang), { id: 'refund-bank-chosen' })] : []),
    row(ctx.t('r.amount'), ctx.money(r.amount, r.currency)),
    row(ctx.t('p.fee'), ctx.money(r.quote.fee, r.quote.currency), { id: 'refund-fee' }),
    el('div', { className: 'total' }, el('dt', { text: ctx.t('p.totalCharged') }), el('dd', { id: 'refund-total', text: ctx.money(r.quote.total, r.quote.currency) })),
    row(ctx.t('r.to'), `${r.account} (${ctx.t(r.phone ? 'r.byPhone' : 'r.byCard')})`),
    row(ctx.t('r.order'), r.orderId, { className: 'mono' }),
  ];
}

function refundForm(ctx: ConsoleContext, orderId: string, refundable: NonNullable<OrderDetail['refundable']>, customerBank: string | null, reload: () => void): HTMLElement {
  const key = newKey();
  const account = el('input', { type: 'text', id: 'refund-account', name: 'account', autocomplete: 'off', spellcheck: 'false', required: true, 'aria-describedby': 'refund-account-hint refund-account-error' });
  const amount = el('input', { type: 'text', id: 'refund-amount', name: 'amount', inputmode: 'decimal', autocomplete: 'off', required: true, value: refundable.amount, 'aria-describedby': 'refund-amount-error' });
  const accountError = el('span', { className: 'field-error', id: 'refund-account-error', hidden: true });
  const amountError = el('span', { className: 'field-error', id: 'refund-amount-error', hidden: true });
  const { confirm, summary, formError, submitButton, editButton } = confirmStep(ctx);
  const bank = bankField(ctx, customerBank);
  const amountProblem = () => ctx.t('r.err.amount', { left: ctx.money(refundable.amount, refundable.currency) });

  const form = el(
    'form',
    { id: 'refund-form', novalidate: true },
    el('div', { className: 'field' }, el('label', { for: 'refund-account', text: ctx.t('r.account') }), account, el('span', { className: 'field-hint', id: 'refund-account-hint', text: ctx.t('r.accountHint') }), accountError),
    bank.field,
    el(
      'div',
      { className: 'field' },
      el('label', { for: 'refund-amount', text: ctx.t('r.amount') }),
      el('div', { className: 'affixed' }, amount, el('span', { className: 'affix', 'aria-hidden': 'true', text: refundable.currency })),
      amountError,
    ),
    el('div', { className: 'form-actions' }, el('button', { className: 'btn primary', type: 'submit', id: 'refund-continue', text: ctx.t('r.continue') })),
  );

  let sending = false;
  /** The payout method and quote the confirm step shows; the refund is sent with this method. */
  let chosen: { method: PayoutMethod; quote: PayoutQuote } | null = null;
  let methods: PayoutMethod[] | null = null;
  /** The payout methods, read once (the bank's choices come from them); a failed read is tried again on submit. */
  const loadMethods = async (): Promise<PayoutMethod[]> => {
    methods ??= (await api<{ methods: PayoutMethod[] }>('/payout-methods')).methods;
    bank.fill(methods);
    return methods;
  };
  void loadMethods().catch(() => undefined);
  const phone = () => isPhone(account.value);
  account.addEventListener('input', () => {
    bank.field.hidden = !phone();
    if (!phone()) setError(bank.error, bank.select, null);
  });
  bank.select.addEventListener('change', () => bank.select.value && setError(bank.error, bank.select, null));
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const value = twoPlaces(amount.value);
    const tooMuch = value !== null && Number(value) > Number(refundable.amount);
    const digits = account.value.replace(/[\s\-().\u00a0+]/g, '');
    const accountOk = /^\d{11,19}$/.test(digits);
    // The bank's choices come with the payout methods: a first read that failed is tried again here.
    if (accountOk && phone() && !methods) await loadMethods().catch(() => undefined);
    // Unread methods (the read's error is shown below) or no bank paying out by SBP (said on the account): not the bank's fault.
    const bankOk = !accountOk || !phone() || methods === null || phoneRefundChoices(methods).length === 0 || bank.select.value !== '';
    bank.field.hidden = !phone();
    setError(accountError, account, accountOk ? null : ctx.t('r.err.account'));
    setError(amountError, amount, value === null || Number(value) <= 0 || tooMuch ? amountProblem() : null);
    setError(bank.error, bank.select, bankOk ? null : ctx.t('r.err.bank'));
    if (!accountOk || value === null || Number(value) <= 0 || tooMuch || !bankOk) {
      form.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
      return;
    }
    amount.value = value;
    // The same quote as the payout form's (payout-rules.ts), for the method the refund is sent with.
    try {
      await loadMethods();
    } catch (err) {
      if (isUnauthorized(err)) return ctx.loggedOut();
      return setError(accountError, account, ctx.errorText(err));
    }
    const pick = refundMethodFor(methods!, account.value, phone() && bank.select.value ? { payment_method_id: bank.select.value } : {});
    if (!pick.ok) {
      if (pick.field === 'payment_method_id') return setError(bank.error, bank.select, ctx.t('r.err.bank'));
      return setError(accountError, account, pick.problem === 'no_method' ? ctx.t('r.err.noMethod') : ctx.t('r.err.account'));
    }
    const quoted = quotePayout(pick.method, value);
    if (!quoted.ok) return setError(amountError, amount, ctx.t('p.err.limits', { min: ctx.money(quoted.min, pick.method.currency), max: ctx.money(quoted.max, pick.method.currency) }));
    chosen = { method: pick.method, quote: quoted.quote };
    summary.replaceChildren(...summaryRows(ctx, { orderId, method: pick.method, quote: quoted.quote, amount: value, currency: refundable.currency, account: account.value.trim(), phone: phone() }));
    setError(formError, null, null);
    form.hidden = true;
    confirm.hidden = false;
    confirm.querySelector<HTMLElement>('#refund-confirm-title')?.focus();
  });
  editButton.addEventListener('click', () => {
    confirm.hidden = true;
    form.hidden = false;
    account.focus();
  });
  submitButton.addEventListener('click', async () => {
    if (sending) return;
    sending = true;
    submitButton.disabled = true;
    submitButton.textContent = ctx.t('r.sending');
    try {
      const { refund } = await api<RefundResponse>('/refunds', {
        method: 'POST',
        headers: { 'Idempotency-Key': key },
        body: { order_id: orderId, account: account.value.trim(), amount: amount.value, ...(chosen && { payment_method_id: chosen.method.id }) },
      });
      ctx.toast(ctx.t('r.done', { id: refund.payout_id ? shortId(refund.payout_id) : '—' }));
      void ctx.refreshBalance();
      reload();
    } catch (err) {
      if (isUnauthorized(err)) return ctx.loggedOut();
      const field = err instanceof ApiError && err.code === 'validation_failed' ? err.field : undefined;
      if (field === 'account' || field === 'amount' || (field === 'payment_method_id' && phone())) {
        confirm.hidden = true;
        form.hidden = false;
        if (field === 'account') setError(accountError, account, ctx.t('r.err.account'));
        else if (field === 'amount') setError(amountError, amount, amountProblem());
        else setError(bank.error, bank.select, ctx.t('r.err.bank'));
      } else setError(formError, null, field === 'order_id' ? ctx.t('r.err.order') : ctx.errorText(err));
    } finally {
      sending = false;
      submitButton.disabled = false;
      submitButton.textContent = ctx.t('r.confirm');
    }
  });
  return el('div', { className: 'refund-box' }, el('h3', { text: ctx.t('r.open') }), form, confirm);
}
