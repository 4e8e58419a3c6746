/**
 * The requisites screen (`pay`): amount, requisites, QR, bank-app links, "I have paid", the countdown
 * in the heading row, the embedded payment page of form mode, the `confirming` step, and their
 * styles. Loaded with `import()` when the checkout starts looking for requisites (`searching`), in
 * parallel with `POST /sessions`, so the main bundle carries only the steps around it.
 */
import { css, html, nothing, type TemplateResult } from 'lit';
import type { OrderView } from '../protocol/index.js';
import type { BankLinks } from './banks.js';
import { formatAmount, formatCountdown } from './format.js';
import { changedFrom, copyValue, formatAccount } from './requisites.js';
import { fill, safeIntl, type Messages } from './i18n/index.js';
import { actions, center, icons, spinner } from './parts.js';
import { safeHttpUrl } from './url.js';

/** What the view needs from the element. @internal */
export interface PayContext {
  m: Messages;
  lang: string;
  order: OrderView;
  /** The device time (ms) at which the order expires. */
  deviceExpiry: number;
  /** A phone: the QR goes below the links. */
  phone: boolean;
  /** Bank-app links (phones, once loaded). */
  apps: BankLinks | null;
  /** The copy button showing "Copied", or ''. */
  copied: string;
  bankName(customerBank: string | null): string | null;
  nameOf(name: { ru: string; en: string }): string | null;
  copy(id: string, label: string, text: string): void;
  paid(): void;
}

export const styles = css`
.amount{font-size:clamp(24px,10cqi,34px);line-height:1.15;font-weight:700}
.timer{display:flex;align-items:center;gap:6px;padding:4px 10px;border-radius:99px;background:var(--_u);font-weight:600}
.low{color:var(--_no)}
.timer,.amount,.num{font-variant-numeric:tabular-nums;white-space:nowrap}
iframe{display:block;width:100%;height:var(--paydesk-form-height,960px);border:0;border-radius:calc(var(--_r) - 4px)}
.form{padding:var(--_s) var(--_s) calc(var(--_s)*2)}
.form>:not(iframe){margin-inline:calc(var(--_s)*2)}
.form .top{display:contents}
.box{display:grid;gap:4px;padding:calc(var(--_s)*2);border-radius:calc(var(--_r) - 4px);background:var(--_u)}
.row,.banks{display:flex;flex-wrap:wrap;align-items:center;justify-content:space-between;gap:var(--_s)}
.warn{display:flex;gap:8px;padding:10px 12px;border-radius:10px;background:var(--_w);color:var(--_ow);font-size:14px}
.pay{display:grid;gap:calc(var(--_s)*2)}
dl{display:grid;gap:var(--_s)}
dd{font-size:17px;font-weight:600;overflow-wrap:anywhere}
.qr{display:grid;justify-items:center;gap:6px}
canvas{width:176px;height:176px;border:var(--_b);border-radius:10px;image-rendering:pixelated}
canvas:not([data-text]){visibility:hidden}
.copy{min-height:36px;padding:6px 10px;font-size:13px;color:var(--_a)}
.done{color:var(--_ok);border-color:var(--_ok)}
.banks{justify-content:start;margin-top:6px}
.banks .btn{min-height:40px;padding:8px 14px;font-size:14px}
`;

function copyButton(c: PayContext, id: string, label: string, text: string): TemplateResult {
  const done = c.copied === id;
  const word = done ? c.m.copied : c.m.copy;
  return html`<button class="copy ${done ? 'done' : ''}" aria-label="${word}: ${label}" @click=${() => c.copy(id, label, text)}>${
    done ? icons.check : icons.copy
  }<span>${word}</span></button>`;
}

/** `<dt>label</dt><dd>value</dd>`, or nothing without a value. */
const row = (label: string, value: string | null | undefined) => (value ? html`<div><dt>${label}</dt><dd>${value}</dd></div>` : nothing);

/** "Pay by 14:30", in the device's own clock, so it matches the phone even when its clock is off. */
function payBy(c: PayContext): string {
  const time = { hour: '2-digit', minute: '2-digit' } as const;
  const fmt = safeIntl(
    () => new Intl.DateTimeFormat(c.lang, time),
    () => new Intl.DateTimeFormat('en', time),
  );
  return fill(c.m.payBy, { time: fmt.format(c.deviceExpiry) });
}

/** The countdown to `expires_at` in the heading row; `left` in milliseconds. */
export function timer(m: Messages, left: number): TemplateResult {
  return html`<div part="countdown" class="timer ${left < 60_000 ? 'low' : ''}" role="timer" aria-label=${m.timerLabel}>${
    icons.clock
  }<span>${formatCountdown(left)}</span></div>`;
}

/** The link to the provider's payment page, in a new tab. */
const openForm = (m: Messages, url: string) => html`<a class="btn" href=${url} target="_blank" rel="noopener noreferrer">${m.openForm}</a>`;

/** Form mode: the provider's payment page embedded, and the link to open it in a new tab. */
export function form(m: Messages, url: string): TemplateResult {
  return html`<iframe part="form" src=${url} title=${m.formTitle}></iframe>${actions(openForm(m, url))}`;
}

/** `confirming`: the server is checking the transfer of this amount. */
export function confirming(m: Messages, lang: string, order: OrderView): TemplateResult {
  return center(spinner, html`<p>${m.confirmingText}</p>`, html`<p class="amount">${formatAmount(order.amount, order.currency, lang)}</p>`);
}

export function view(c: PayContext): TemplateResult {
  const { m, order, apps, phone } = c;
  const money = (a: string) => formatAmount(a, order.currency, c.lang);
  const amount = money(order.amount);
  const requested = changedFrom(order);
  const req = order.requisites;
  const formUrl = safeHttpUrl(order.form_url);
  const label = req ? m[`${req.kind}Label`] : '';
  const qr = safeHttpUrl(order.payment_link)
    ? html`<figure part="qr" class="qr"><canvas role="img" aria-label=${fill(m.qrLabel, { amount })}></canvas><figcaption class="muted">${
        m.qrHint
      }</figcaption></figure>`
    : nothing;
  return html`<div class="pay"><div part="amount" class="box"><span class="muted">${m.amountLabel}</span><div class="row"><span class="amount">${amount}</span>${
    copyButton(c, 'amount', m.amountLabel, order.amount)
  }</div><span class="muted">${requested ? '' : `${m.amountExact} `}${payBy(c)}</span></div>${
    requested
      ? html`<p class="warn">${icons.alert}<span>${fill(m.amountChanged, { amount, requested: money(requested) })}</span></p>`
      : nothing
  }${phone ? nothing : qr}${
    req
      ? html`<dl part="requisites"><div><dt>${label}</dt><dd class="row">${
          req.kind === 'link' && safeHttpUrl(req.holder_account)
            ? html`<a href=${safeHttpUrl(req.holder_account)!} rel="noopener noreferrer">${m.linkLabel}</a>`
            : html`<span class="num">${formatAccount(req.holder_account, req.kind)}</span>`
        }${copyButton(c, 'account', label, copyValue(req.holder_account, req.kind))}</dd></div>${row(m.holderLabel, req.holder_name)}${
          row(m.bankLabel, c.bankName(order.bank))
        }${row(m.methodLabel, order.method?.name)}</dl>`
      : nothing
  }${apps?.primary ? html`<a class="btn primary" href=${apps.primary}>${m.openBankApp}</a>` : nothing}${
    apps && apps.banks.length > 0
      ? html`<div><p class="muted">${m.otherBanks}</p><ul class="banks" part="banks">${apps.banks.map((b) => {
          const name = c.nameOf(b.name);
          return html`<li><a class="btn" href=${b.href} aria-label=${fill(m.openInBank, { bank: name! })}>${name}</a></li>`;
        })}</ul></div>`
      : nothing
  }${phone ? qr : nothing}${formUrl ? openForm(m, formUrl) : nothing}<div part="actions"><button class="primary" @click=${c.paid}>${m.iPaid}</button></div></div>`;
}
