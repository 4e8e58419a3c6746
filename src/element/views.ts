/**
 * What the views loaded on demand share (choose-view.ts, pay-view.ts, closed-view.ts, receipt.ts):
 * what they read from the element (`ViewHost`), the context they derive from it, and the parts several
 * of them show (copy buttons, the order number, the amount). Only views import this module, so it
 * travels in their chunks, never in the element's own module.
 */
import { css, html, nothing, svg, type TemplateResult } from 'lit';
import type { CustomerBank } from '../provider/facts.js';
import type { OrderView } from '../protocol/index.js';
import { serverNow } from './countdown.js';
import { formatMoney } from '../money/display.js';
import type { Messages } from './i18n/index.js';
import type { MachineState } from './machine.js';
import type { PaydeskCopyField } from './events.js';
import { alert, BY_HAND, icon } from './parts.js';
import type { ViewHost } from './hosts.js';
import { platformOf, type Platform } from './platform.js';

/**
 * The rules of the markup every view shares (lists, links, definition terms, the footer, the "ok"
 * badge), after the element's own (paydesk-checkout.styles.ts): each view's `styles` starts with them,
 * and the element adopts them once.
 */
export const viewStyles = css`
.ok{color:var(--_ok)}
ul{display:grid;gap:var(--_s);list-style:none}
dt{color:var(--_m);font-size:13px}
a{color:var(--_a);font-weight:600}
footer{display:flex;flex-wrap:wrap;align-items:center;justify-content:space-between;gap:var(--_s);padding-top:calc(var(--_s)*1.5);border-top:var(--_b)}
footer a{min-height:24px}
`;

/** The icons of the views (the element's own module carries only the alert, parts.ts). */
export const icons = {
  check: icon(svg`<path d="M5 12.5l4.5 4.5L19 7.5"/>`),
  clock: icon(svg`<circle cx="12" cy="12" r="9"/><path d="M12 7v5l3 2"/>`),
  alert,
  copy: icon(svg`<rect x="9" y="9" width="11" height="11" rx="2"/><path d="M5 15V5a2 2 0 0 1 2-2h8"/>`),
};

export type { ViewHost } from './hosts.js';

/** What the pay and closed views work with. */
export interface ViewContext {
  host: ViewHost;
  m: Messages;
  lang: string;
  order: OrderView;
  platform: Platform;
  embedded: boolean;
  /** The device time (ms) at which the order expires. */
  deviceExpiry: number;
  copied: string;
  bankName(customerBank: string | null): string | null;
  copy(id: PaydeskCopyField, label: string, text: string): void;
  /** "I have paid". */
  paid(): void;
  /** Opens the bank sheet (the button that opened it gets the focus back). */
  openSheet(opener: HTMLElement): void;
  /** Opens the receipt upload; null where a receipt cannot be sent. */
  receipt: (() => void) | null;
  /** A new order; null when none can be made (no order ref). */
  renew: (() => void) | null;
  redirectUrl: string | null;
  redirectIn: number;
  /** The browser is offline: the status shown may be out of date (absent: online, as on the server). */
  offline?: boolean;
  /** The time zone of the pay-by time (paydesk/ssr, which cannot know the device's); the device's when absent. */
  timeZone?: string;
  /** The QR of a link as an image (paydesk/ssr: inline SVG); absent, a canvas the QR encoder draws on. */
  qrImage?: (text: string, label: string) => unknown;
}

/** True when a receipt may be sent from this step (the server decides whether it is too late). */
export function canDispute(s: MachineState): boolean {
  return s.session !== null && s.order !== null && !s.order.dispute && ['confirming', 'expired', 'cancelled'].includes(s.name);
}

/** Languages whose readers get the Russian names of banks. */
const CYRILLIC = /^(ru|be|uk|kk|ky|tg)\b/i;

/** A bank's name in the shopper's script (Cyrillic languages get the Russian one). */
export const nameIn = (lang: string, name: { ru: string; en: string }): string => name[CYRILLIC.test(lang) ? 'ru' : 'en'];

/**
 * The names of the banks a `customer_bank` names, as the provider's facts have them (`BANKS` in
 * src/provider/facts.ts; test/node/element/storage.test.ts checks that they agree). Written out here so
 * that the requisites' chunk, on a first paint's path, does not carry that table.
 */
export const CUSTOMER_BANK_NAMES = {
  sberbank: { ru: 'Сбербанк', en: 'Sber' },
  tinkoff: { ru: 'Т-Банк', en: 'T-Bank' },
  vtb: { ru: 'ВТБ', en: 'VTB' },
  alfabank: { ru: 'Альфа-Банк', en: 'Alfa-Bank' },
} as const satisfies Record<CustomerBank, { ru: string; en: string }>;

/** The name of a `customer_bank` (`sberbank`…) in the shopper's script, or null. */
export function bankNameIn(lang: string, customerBank: string | null): string | null {
  const bank = Object.hasOwn(CUSTOMER_BANK_NAMES, customerBank ?? '') ? CUSTOMER_BANK_NAMES[customerBank as CustomerBank] : null;
  return bank ? nameIn(lang, bank) : null;
}

/**
 * How a view opens the bank sheet or the receipt upload (open.ts `open`, which loads their code): the
 * element's views are given it; a static paint (static-view.ts), which cannot act, gives one that throws.
 */
export type Opener = (host: ViewHost, what: 'banks' | 'receipt', opener?: HTMLElement | null) => void;

/** Ways to pay by `method_type` (provider-notes.md: method types seen); anything else goes by its own name. */
export type WayKind = 'sbp' | 'card' | 'account' | 'link' | 'sbpAbroad' | 'cardAbroad';
export const WAY_KINDS: Readonly<Record<string, WayKind>> = {
  SBP: 'sbp',
  BankCard: 'card',
  BankAccount: 'account',
  NSPKLink: 'link',
  TransSBP: 'sbpAbroad',
  TransBankCard: 'cardAbroad',
};

/** The message key of a way to pay (and of its hint: choose-view.ts `wayHint`). */
export const key = (kind: WayKind, hint = '') => `way${kind[0]!.toUpperCase()}${kind.slice(1)}${hint}` as 'waySbp';

/** The name of a way to pay in the shopper's language (a type not known here: the method's own name). */
export function wayName(m: Messages, method: { type: string; name: string }): string {
  const kind = WAY_KINDS[method.type];
  return kind ? m[key(kind)] : method.name;
}

/** A copy button's action: copy.ts's work once it is there (loaded with the views; a static paint has none). */
export const copyFor =
  (host: ViewHost) =>
  (id: PaydeskCopyField, label: string, text: string): void =>
    void host.code.get('copy')?.copyTo(host, id, label, text);

/** The context of the pay and closed views, for the order on screen. */
export function contextOf(host: ViewHost, order: OrderView, open: Opener): ViewContext {
  const { clock } = host.env$;
  const s = host.machine;
  return {
    host,
    m: host.m,
    lang: host.language,
    order,
    platform: platformOf(host.env$),
    embedded: host.embedded,
    deviceExpiry: Date.parse(order.expires_at) - serverNow(s.sync, clock.mono(), clock.now()) + clock.now(),
    copied: host.copied,
    bankName: (b) => bankNameIn(host.language, b),
    copy: copyFor(host),
    paid: () => host.send({ type: 'paidPressed' }),
    openSheet: (opener) => open(host, 'banks', opener),
    receipt: canDispute(s) ? () => open(host, 'receipt') : null,
    renew: s.canCreate ? () => host.renew() : null,
    redirectUrl: host.redirectUrl,
    redirectIn: host.tick?.redirectIn ?? 0,
    offline: host.live?.offline === true,
  };
}

/** What the copy parts need. */
export type CopyContext = Pick<ViewContext, 'm' | 'copied' | 'copy'>;

/**
 * A copy button; when its text could not be copied, followed by the text in a field (selected by
 * {@link copyTo}) to copy by hand. `inputmode="none"`: selecting it opens no on-screen keyboard.
 */
export function copyButton(c: CopyContext, id: PaydeskCopyField, label: string, text: string): TemplateResult {
  const done = c.copied === id;
  const word = done ? c.m.copied : c.m.copy;
  return html`<button class="copy ${done ? 'done' : ''}" aria-label="${word}: ${label}" @click=${() => c.copy(id, label, text)}>${
    done ? icons.check : icons.copy
  }<span>${word}</span></button>${
    c.copied === BY_HAND + id
      ? html`<input class="by-hand" inputmode="none" autocomplete="off" spellcheck="false" aria-label=${label} .value=${text} @focus=${(e: Event) => (e.target as HTMLInputElement).select()}>`
      : nothing
  }`;
}

/** The order number (`client_order_id`) with a copy button: support asks for it. */
export function orderNumber(c: CopyContext, number: string | null | undefined): TemplateResult | typeof nothing {
  return number
    ? html`<div part="order" class="order"><span class="muted">${c.m.orderLabel}</span><span class="row"><span class="num wrap">${number}</span>${
        copyButton(c, 'order', c.m.orderLabel, number)
      }</span></div>`
    : nothing;
}

/** The order's amount in the shopper's language. */
export const amountOf = (c: Pick<ViewContext, 'order' | 'lang'>): string => formatMoney(c.order.amount, c.order.currency, c.lang);
