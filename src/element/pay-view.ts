/**
 * The requisites screen's templates and styles: `pay` (the amount, the requisites, on a desktop the QR
 * ("pay from your phone") and the online banks, on a phone the bank apps (the bank sheet), "I have
 * paid", the order number), the countdown in the heading row, and `confirming` (the requisites one
 * tap away, the receipt upload one tap away). Drawn by the element (pay-step.ts, which also embeds
 * form mode's payment page), by the CDN files' first paint (paint.ts) and by paydesk/ssr.
 */
import { css, html, nothing, type TemplateResult } from 'lit';
import type { OrderView } from '../protocol/index.js';
import { remainingMs, type Clock, type TimeSync } from './countdown.js';
import { formatMoney } from '../money/display.js';
import { formatCountdown } from './format.js';
import type { Messages } from './i18n/index.js';
import { safeIntl } from './i18n/intl.js';
import { fill } from './i18n/text.js';
import { actions, center, spinner } from './parts.js';
import { changedFrom, copyValue, formatAccount, hasBankApps, paymentLinkOf } from './requisites.js';
import { safeHttpUrl } from '../protocol/url.js';
import { LATIN_NAMES } from './bank-names.js';
import { amountOf, contextOf, copyButton, icons, nameIn, orderNumber, viewStyles, wayName, type ViewContext, type ViewHost } from './views.js';

export { footer } from './footer.js';

export const styles = [viewStyles, css`
.amount{font-size:clamp(24px,10cqi,34px);line-height:1.15;font-weight:700}
.timer{display:flex;align-items:center;gap:6px;padding:4px 10px;border-radius:99px;background:var(--_u);font-weight:600}
.low{color:var(--_no)}
.timer,.amount,.num{font-variant-numeric:tabular-nums}
.timer,.amount{white-space:nowrap}
.box{display:grid;gap:4px;padding:calc(var(--_s)*2);border-radius:calc(var(--_r) - 4px);background:var(--_u)}
.row{display:flex;flex-wrap:wrap;align-items:center;justify-content:space-between;gap:var(--_s);min-width:0}
.warn{display:flex;gap:8px;padding:10px 12px;border-radius:10px;background:var(--_w);color:var(--_ow);font-size:14px}
.pay{display:grid;gap:calc(var(--_s)*2)}
dl{display:grid;gap:var(--_s)}
dd{font-size:17px;font-weight:600}
dd,.wrap{overflow-wrap:anywhere;min-width:0}
.qr{display:grid;justify-items:center;gap:6px;text-align:center}
.qr h3{font-size:16px}
canvas{width:176px;height:176px;border:var(--_b);border-radius:10px;image-rendering:pixelated}
canvas:not([data-text]){visibility:hidden}
.qr svg{width:176px;height:176px;fill:#000;stroke:none;background:#fff;border:var(--_b);border-radius:10px}
.copy{min-height:36px;padding:6px 10px;font-size:13px;color:var(--_a)}
.done{color:var(--_ok);border-color:var(--_ok)}
.order{display:grid;gap:2px}
.order .num{font-weight:600}
details{border:var(--_b);border-radius:calc(var(--_r) - 4px)}
summary{min-height:44px;padding:10px 14px;font-weight:600;cursor:pointer}
details[open]>summary{border-bottom:var(--_b)}
details>.pay{padding:calc(var(--_s)*2)}
`];

/** "Pay by 14:30", in the device's own clock, so it matches the phone even when its clock is off. */
function payBy(c: ViewContext): string {
  // A time zone given (the server's render) is named: the shopper's own may differ.
  const zone = c.timeZone;
  const time: Intl.DateTimeFormatOptions = { hour: '2-digit', minute: '2-digit', ...(zone && { timeZone: zone, timeZoneName: 'short' }) };
  const fmt = safeIntl(
    () => new Intl.DateTimeFormat(c.lang, time),
    () => new Intl.DateTimeFormat('en', time),
  );
  return fill(c.m.payBy, { time: fmt.format(c.deviceExpiry) });
}

/** Time left to pay (ms) by the server's clock. */
export function left(order: OrderView, sync: TimeSync | null, clock: Clock): number {
  return remainingMs(order.expires_at, sync, clock.mono(), clock.now());
}

/** The countdown to `expires_at` in the heading row; `left` in milliseconds. */
export function timer(m: Messages, left: number): TemplateResult {
  return html`<div part="countdown" class="timer ${left < 60_000 ? 'low' : ''}" role="timer" aria-label=${m.timerLabel}>${
    icons.clock
  }<span>${formatCountdown(left)}</span></div>`;
}

/** The link to the provider's payment page, in a new tab. */
export const openForm = (m: Messages, url: string) => html`<a class="btn" href=${url} target="_blank" rel="noopener noreferrer">${m.openForm}</a>`;

/** `<div><dt>label</dt><dd>value</dd></div>`, or nothing without a value. */
const row = (label: string, value: string | null | undefined) => (value ? html`<div><dt>${label}</dt><dd>${value}</dd></div>` : nothing);

/** The amount box: what to send, exactly, and by when. */
function amountBox(c: ViewContext): TemplateResult {
  const { m, order } = c;
  const amount = amountOf(c);
  const requested = changedFrom(order);
  return html`<div part="amount" class="box"><span class="muted">${m.amountLabel}</span><div class="row"><span class="amount">${amount}</span>${
    copyButton(c, 'amount', m.amountLabel, order.amount)
  }</div><span class="muted">${requested ? '' : `${m.amountExact} `}${payBy(c)}</span></div>${
    requested
      ? html`<p class="warn">${icons.alert}<span>${fill(m.amountChanged, { amount, requested: formatMoney(requested, order.currency, c.lang) })}</span></p>`
      : nothing
  }`;
}

/** Where to send: the account (by kind), the recipient, the bank, the method; for an SBP link, the link. */
function requisites(c: ViewContext): TemplateResult | typeof nothing {
  const { m, order } = c;
  const req = order.requisites;
  const link = paymentLinkOf(order);
  if (!req && !link) return nothing;
  let account: TemplateResult | typeof nothing = nothing;
  if (req?.kind === 'link' || (!req && link)) {
    // The NSPK link method: the link (its host shown, the whole link copied), or a code that is no link.
    account = link
      ? html`<div><dt>${m.linkLabel}</dt><dd class="row"><a class="wrap" href=${link} target="_blank" rel="noopener noreferrer">${new URL(link).host}</a>${
          copyButton(c, 'account', m.linkLabel, link)
        }</dd></div>`
      : html`<div><dt>${m.codeLabel}</dt><dd class="row"><span class="num wrap">${req!.holder_account}</span>${copyButton(c, 'account', m.codeLabel, req!.holder_account.trim())}</dd></div>`;
  } else if (req) {
    const label = m[`${req.kind}Label`];
    account = html`<div><dt>${label}</dt><dd class="row"><span class="num">${formatAccount(req.holder_account, req.kind)}</span>${
      copyButton(c, 'account', label, copyValue(req.holder_account, req.kind))
    }</dd></div>`;
  }
  return html`<dl part="requisites">${account}${row(m.holderLabel, req?.holder_name)}${recipientBank(c) ?? row(m.bankLabel, c.bankName(order.bank))}${row(m.methodLabel, order.method && wayName(m, order.method))}</dl>`;
}

/** The Latin names of the well-known banks by their Russian names (generated, bank-names.ts). */
let latinNames: Map<string, string> | null = null;

/**
 * The recipient's bank as the shopper reads it: `requisites.bank_name`, in Latin letters for a language
 * written in them where the bank table has the bank's own Latin name (ВТБ → VTB).
 */
export function recipientBankName(lang: string, bankName: string | null | undefined): string | null {
  const name = bankName?.trim();
  if (!name) return null;
  latinNames ??= new Map(LATIN_NAMES.split('\n').map((l) => l.split('|') as [string, string]));
  return nameIn(lang, { ru: name, en: latinNames.get(name) ?? name });
}

/** The row of the recipient's bank (copyable: a shopper may search for it in the bank app), or null. */
function recipientBank(c: ViewContext): TemplateResult | null {
  const { m, order } = c;
  const name = recipientBankName(c.lang, order.requisites?.bank_name);
  return name
    ? html`<div class="recipient-bank"><dt>${m.recipientBank}</dt><dd class="row"><span class="wrap">${name}</span>${copyButton(c, 'bank', m.recipientBank, name)}</dd></div>`
    : null;
}

/** Desktop: the QR of the SBP link, to scan with the phone. */
function qr(c: ViewContext, link: string): TemplateResult {
  const { m } = c;
  const label = fill(m.qrLabel, { amount: amountOf(c) });
  return html`<figure part="qr" class="qr"><h3>${m.payFromPhone}</h3>${
    c.qrImage?.(link, label) ?? html`<canvas role="img" data-qr=${link} aria-label=${label}></canvas>`
  }<figcaption class="muted">${
    m.payFromPhoneHint
  }</figcaption></figure>`;
}

/** The ways to the money: the bank sheet (phones: apps; desktop: online banks), the link, the QR. */
function routes(c: ViewContext, primary: boolean): unknown[] {
  const { m, order } = c;
  const link = paymentLinkOf(order);
  const phone = c.platform !== 'desktop';
  const sheet = (text: string) =>
    html`<button class=${primary ? 'primary' : ''} aria-haspopup="dialog" @click=${(e: Event) => c.openSheet(e.currentTarget as HTMLElement)}>${text}</button>`;
  if (phone) return [hasBankApps(order) ? sheet(m.payInBankApp) : nothing];
  return link ? [qr(c, link), sheet(m.payOnline)] : [];
}

/** While the browser is offline: the status shown may be out of date (it is checked when the network is back). */
const offline = (c: ViewContext): unknown => (c.offline ? html`<p part="offline" class="warn">${icons.alert}<span>${c.m.offlineStatus}</span></p>` : nothing);

/** The requisites of an open order (also rendered on the server: paydesk/ssr). */
export function pay(c: ViewContext): TemplateResult {
  const { m, order } = c;
  const phone = c.platform !== 'desktop';
  const apps = phone && hasBankApps(order);
  const formUrl = c.embedded ? null : safeHttpUrl(order.form_url);
  return html`<div class="pay">${offline(c)}${amountBox(c)}${phone ? nothing : routes(c, false)}${requisites(c)}${apps ? routes(c, true) : nothing}${
    formUrl ? openForm(m, formUrl) : nothing
  }${orderNumber(c, order.client_order_id)}<div part="actions"><button class=${apps ? '' : 'primary'} @click=${c.paid}>${m.iPaid}</button></div></div>`;
}

/**
 * `confirming`: the server is checking the transfer. The requisites stay one tap away (a disclosure),
 * the countdown in the heading row, and a receipt can be sent.
 */
export function confirming(c: ViewContext): TemplateResult {
  const { m, order } = c;
  return html`${offline(c)}${center(spinner, html`<p>${m.confirmingText}</p>`, html`<p class="amount">${amountOf(c)}</p>`)}<details><summary>${m.showDetails}</summary><div class="pay">${amountBox(c)}${
    requisites(c)
  }${c.platform !== 'desktop' && hasBankApps(order) ? routes(c, false) : nothing}</div></details>${orderNumber(c, order.client_order_id)}${
    c.receipt ? actions(html`<button @click=${c.receipt}>${m.sendReceipt}</button>`) : nothing
  }`;
}
