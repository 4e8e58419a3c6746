/**
 * The method choice (`choose`): one button per payment method with what the shopper pays and the fee,
 * and its styles. Loaded with `import()` when the checkout asks for the methods, in parallel with
 * `GET /methods`, so the main bundle carries only the steps around it.
 */
import { css, html, type TemplateResult } from 'lit';
import type { PaymentMethodView } from '../protocol/index.js';
import { formatAmount } from './format.js';
import { fill, type Messages } from './i18n/index.js';

/** What the view needs from the element. @internal */
export interface ChooseContext {
  m: Messages;
  lang: string;
  methods: readonly PaymentMethodView[];
  bankName(customerBank: string | null): string | null;
  pick(method: PaymentMethodView): void;
}

export const styles = css`
.method{width:100%;display:grid;grid-template-columns:1fr auto;justify-items:start;gap:2px 12px;padding:12px 14px;text-align:start}
.method .muted{font-weight:400}
.total{grid-area:1/2/3;align-self:center}
`;

export function view(c: ChooseContext): TemplateResult {
  const { m } = c;
  // The methods answer has no currency: the provider's is the rouble.
  const money = (amount: string) => formatAmount(amount, 'RUB', c.lang);
  return html`<p class="muted">${m.chooseHint}</p><ul part="methods">${c.methods.map((method) => {
    const bank = c.bankName(method.bank);
    return html`<li><button class="method" part="method" @click=${() => c.pick(method)}><span>${method.name}${
      bank && !method.name.includes(bank) ? ` · ${bank}` : ''
    }</span><span class="total">${fill(m.total, { total: money(method.total) })}</span><span class="muted">${
      /[1-9]/.test(method.fee) ? fill(m.fee, { fee: money(method.fee) }) : m.noFee
    }</span></button></li>`;
  })}</ul>`;
}
