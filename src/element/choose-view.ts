/**
 * The method choice (`choose`), as a shopper thinks of it: by way of paying (SBP, card transfer, bank
 * transfer, SBP link, from abroad…), in the widget's language, the amount once above the list and a
 * fee only where there is one. The bank comes as a second step only where it matters: a card transfer
 * offered by several banks (a transfer within one bank is faster). SBP works between any banks, so
 * its bank-specific methods fold into one. Loaded with `import()` in parallel with `GET /methods`.
 */
import { css, html, nothing, type TemplateResult } from 'lit';
import { compareAmounts, formatMoney, subtractAmounts } from '../money/index.js';
import { BANKS } from '../provider/facts.js';
import type { PaymentMethodView } from '../protocol/index.js';
import type { Messages } from './i18n/index.js';
import { fill } from './i18n/text.js';
import { emit } from './events.js';
import { bankNameIn, key, viewStyles, WAY_KINDS, wayName, type ViewHost, type WayKind } from './views.js';

/**
 * The line under a way to pay, or ''. "Outside Russia" fits a rouble terminal only: a cross-border
 * transfer to a terminal in another currency (sums, tenge…) comes from a bank in another country.
 */
export function wayHint(m: Messages, type: string, currency = 'RUB'): string {
  const kind = WAY_KINDS[type];
  if (kind === 'cardAbroad' && currency.toUpperCase() !== 'RUB') return m.wayCardAbroadOtherHint;
  return kind ? m[key(kind, 'Hint') as 'waySbpHint'] : '';
}

export type { WayKind } from './views.js';

/** What the view needs from the element. */
export interface ChooseContext {
  m: Messages;
  lang: string;
  methods: readonly PaymentMethodView[];
  /** The amount to pay, when the server said it. */
  price: { amount: string; currency: string | null } | null;
  bankName(customerBank: string | null): string | null;
  /** Chooses a method (a tap on the list). */
  pick(method: PaymentMethodView): void;
}

/** The context from the element. */
export function contextOf(host: ViewHost): ChooseContext {
  const s = host.machine;
  return {
    m: host.m,
    lang: host.language,
    methods: s.methods,
    price: s.price,
    bankName: (b) => bankNameIn(host.language, b),
    pick: (method) => {
      // A second tap while the order is being made changes nothing (the machine takes one choice): no second event.
      if (host.machine.name !== 'choose') return;
      emit(host.el, 'paydesk-method', { method: { id: method.id, type: method.type, bank: method.bank }, order: host.machine.order });
      host.send({ type: 'choose', selection: { payment_method_id: method.id }, key: host.env$.newKey() });
    },
  };
}

export { footer } from './footer.js';

export const styles = [viewStyles, css`
.to-pay{display:grid;gap:2px;padding:calc(var(--_s)*2);border-radius:calc(var(--_r) - 4px);background:var(--_u)}
.to-pay .amount{font-size:clamp(22px,9cqi,30px);line-height:1.15;font-weight:700;white-space:nowrap}
.method{width:100%;display:grid;grid-template-columns:minmax(0,1fr);justify-items:start;gap:2px;padding:12px 14px;text-align:start;list-style:none}
.method::-webkit-details-marker{display:none}
.method .muted{font-weight:400}
.fee{font-size:13px;font-weight:600}
details[open]>.method{border-color:var(--_a)}
.bank-step{display:grid;gap:var(--_s);padding:calc(var(--_s)*1.5) 0 0 calc(var(--_s)*1.5)}
.bank-step h3{font-size:15px}
`];

/** Ways where the shopper's bank is worth a second step (a transfer within one bank). */
const BANK_STEP: ReadonlySet<WayKind | null> = new Set<WayKind | null>(['card', 'cardAbroad']);

export interface Way {
  /** null: a type this widget does not know (shown by the method's own name). */
  kind: WayKind | null;
  /** The method a tap on the way chooses (the aggregate one, else the cheapest). */
  method: PaymentMethodView;
  /** The second step: one method per bank; empty when there is none. */
  banks: PaymentMethodView[];
}

/** Compares two decimal strings exactly (no binary floats). */
export const compareDecimal = compareAmounts;

/** `a - b` of two decimal strings, with `b`'s or `a`'s fraction digits (whichever has more). */
export function subtractDecimal(a: string, b: string): string {
  return subtractAmounts(a, b, Math.max(a.split('.')[1]?.length ?? 0, b.split('.')[1]?.length ?? 0));
}

const cheapest = (list: readonly PaymentMethodView[]) => list.reduce((a, b) => (compareDecimal(b.total, a.total) < 0 ? b : a));
const bankOrder = (m: PaymentMethodView) => BANKS.findIndex((b) => b.customerBank === m.bank);

/** The methods grouped into ways to pay, in the order their types first appear. */
export function ways(methods: readonly PaymentMethodView[]): Way[] {
  const groups = new Map<string, PaymentMethodView[]>();
  for (const method of methods) {
    const kind = WAY_KINDS[method.type];
    const key = kind ?? `other:${method.id}`;
    groups.set(key, [...(groups.get(key) ?? []), method]);
  }
  return [...groups.entries()].map(([key, list]) => {
    const kind = key.startsWith('other:') ? null : (key as WayKind);
    const aggregate = list.find((m) => m.bank === null);
    const method = aggregate ?? cheapest(list);
    const perBank = list.filter((m) => m.bank !== null).sort((a, b) => bankOrder(a) - bankOrder(b));
    // A bank step only where it matters, and only when there is more than one thing to pick.
    const banks = BANK_STEP.has(kind) && perBank.length + (aggregate ? 1 : 0) > 1 ? perBank : [];
    return { kind, method, banks };
  });
}

/** The amount to pay: the server's, else a method's total without its fee. */
export function amountToPay(c: Pick<ChooseContext, 'methods' | 'price'>): { amount: string; currency: string } | null {
  if (c.price) return { amount: c.price.amount, currency: c.price.currency ?? 'RUB' };
  const first = c.methods[0];
  // The methods answer has no currency: the provider's is the rouble.
  return first ? { amount: subtractDecimal(first.total, first.fee), currency: 'RUB' } : null;
}

export function view(host: ViewHost): TemplateResult {
  return list(contextOf(host));
}

export function list(c: ChooseContext): TemplateResult {
  const { m } = c;
  const price = amountToPay(c);
  const money = (amount: string) => formatMoney(amount, price?.currency ?? 'RUB', c.lang);
  const fee = (method: PaymentMethodView) =>
    /[1-9]/.test(method.fee) ? html`<span class="fee">${fill(m.feeLine, { fee: money(method.fee), total: money(method.total) })}</span>` : nothing;
  const pick = (method: PaymentMethodView) => () => c.pick(method);
  const title = (way: Way) => wayName(m, way.method);
  const hint = (way: Way) => wayHint(m, way.method.type, price?.currency);
  const inside = (way: Way) => html`<span>${title(way)}</span>${hint(way) ? html`<span class="muted">${hint(way)}</span>` : nothing}${way.banks.length ? nothing : fee(way.method)}`;
  return html`${price ? html`<div class="to-pay"><span class="muted">${m.toPay}</span><span class="amount">${money(price.amount)}</span></div>` : nothing}<ul part="methods">${ways(
    c.methods,
  ).map((way) =>
    way.banks.length
      ? html`<li><details><summary class="method btn" part="method">${inside(way)}</summary><div class="bank-step"><h3>${m.bankTitle}</h3><p class="muted">${m.bankHint}</p><ul>${[
          ...way.banks.map((method) => html`<li><button class="method" part="method" @click=${pick(method)}><span>${c.bankName(method.bank) ?? method.name}</span>${fee(method)}</button></li>`),
          way.banks.includes(way.method)
            ? nothing
            : html`<li><button class="method" part="method" @click=${pick(way.method)}><span>${m.otherBank}</span>${fee(way.method)}</button></li>`,
        ]}</ul></div></details></li>`
      : html`<li><button class="method" part="method" @click=${pick(way.method)}>${inside(way)}</button></li>`,
  )}</ul>`;
}
