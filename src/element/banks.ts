/**
 * Bank-app links (provider-notes.md, "Bank-app links"): one table. These links are observed, not
 * documented by the banks, and change; keep every template here. Every link produced is checked
 * against the fixed scheme allowlist before it is rendered.
 */
import { BANKS, NSPK_MEMBER_IDS } from '../provider/facts.js';
import type { OrderView } from '../protocol/index.js';
import { russianPhoneDigits } from './requisites.js';
import type { Platform } from './platform.js';
import { safeAppUrl, safeHttpUrl } from './url.js';

export { detectPlatform, type Platform } from './platform.js';

type MemberKey = keyof typeof NSPK_MEMBER_IDS;

export interface BankApp {
  key: MemberKey;
  memberId: string;
  /** `customer_bank` / `bank` value for the four banks the provider names. */
  customerBank: string | null;
  name: { ru: string; en: string };
  /** Transfer by phone: `phone` is 11 digits starting with 7. */
  phone?: (phone: string, amount: string, recipientMemberId: string | null) => string;
  /** Transfer by card number. */
  card?: (pan: string, amount: string) => string;
}

const e = encodeURIComponent;
const named = (key: MemberKey) => BANKS.find((b) => b.memberId === NSPK_MEMBER_IDS[key]);

const TEMPLATES: Partial<Record<MemberKey, Pick<BankApp, 'phone' | 'card'>>> = {
  sber: {
    phone: (p, a) => `sberbankonline://payments/p2p?type=phone_number&requisiteNumber=${p}&amount=${e(a)}`,
    card: (pan, a) => `sberbankonline://payments/p2p?type=card_number&requisiteNumber=${pan}&amount=${e(a)}`,
  },
  tbank: {
    phone: (p, a) => `tinkoffbank://Main/PayByMobileNumber?amount=${e(a)}&numberPhone=${e(`+${p}`)}&workflowType=RTLNTransfer`,
  },
  vtb: {
    phone: (p, a, to) =>
      `https://online.vtb.ru/i/transfers?phoneNumber=${e(`+${p}`)}&amount=${e(a)}${to ? `&bankCode=${to}` : ''}`,
  },
  alfa: { phone: (p) => `alfabank://payments/phone?number=${e(`+${p}`)}` },
};

const OTHER_NAMES: Partial<Record<MemberKey, { ru: string; en: string }>> = {
  raiffeisen: { ru: 'Райффайзенбанк', en: 'Raiffeisenbank' },
  gazprombank: { ru: 'Газпромбанк', en: 'Gazprombank' },
  psb: { ru: 'ПСБ', en: 'PSB' },
  sovcombank: { ru: 'Совкомбанк', en: 'Sovcombank' },
  mtsbank: { ru: 'МТС Банк', en: 'MTS Bank' },
  yoomoney: { ru: 'ЮMoney', en: 'YooMoney' },
};

/** The table: every NSPK member of facts.ts, with the templates known for it. */
export const BANK_APPS: readonly BankApp[] = (Object.keys(NSPK_MEMBER_IDS) as MemberKey[]).map((key) => {
  const known = named(key);
  return {
    key,
    memberId: NSPK_MEMBER_IDS[key],
    customerBank: known?.customerBank ?? null,
    name: known?.name ?? OTHER_NAMES[key] ?? { ru: key, en: key },
    ...TEMPLATES[key],
  };
});

/** The only schemes a bank link may use besides http(s). */
export const APP_SCHEMES: ReadonlySet<string> = new Set([
  'sberbankonline:',
  'tinkoffbank:',
  'alfabank:',
  ...BANK_APPS.map((b) => `bank${b.memberId}:`),
]);


/** An SBP link for one bank's app: on iOS `https://` becomes `bank{member id}://`; elsewhere the link itself. */
export function sbpAppLink(paymentLink: string, memberId: string, platform: Platform): string | null {
  const safe = safeHttpUrl(paymentLink);
  if (!safe) return null;
  if (platform !== 'ios') return safe;
  return safeAppUrl(safe.replace(/^https?:\/\//i, `bank${memberId}://`), APP_SCHEMES);
}

export interface BankLink {
  key: string;
  name: { ru: string; en: string };
  href: string;
}

export interface BankLinks {
  /** "Open in bank app": the payment link itself on Android (the system offers the bank apps). */
  primary: string | null;
  /** One link per bank app. */
  banks: BankLink[];
}

const NONE: BankLinks = { primary: null, banks: [] };

/**
 * The bank-app links for an order on a platform. Only phones get any. `only` (a `customer_bank`
 * value) limits the links to the preselected bank, as the provider's form does for `button_name`.
 */
export function bankLinks(
  order: Pick<OrderView, 'payment_link' | 'requisites' | 'amount' | 'bank'>,
  platform: Platform,
  only: string | null = null,
): BankLinks {
  if (platform === 'desktop') return NONE;
  const apps = only ? BANK_APPS.filter((b) => b.customerBank === only) : BANK_APPS;
  const link = order.payment_link ? safeHttpUrl(order.payment_link) : null;
  if (link) {
    if (platform === 'android' && !only) return { primary: link, banks: [] };
    return {
      primary: null,
      banks: collect(apps, (b) => sbpAppLink(link, b.memberId, platform)),
    };
  }
  const req = order.requisites;
  if (!req) return NONE;
  const recipient = order.bank ? (BANK_APPS.find((b) => b.customerBank === order.bank)?.memberId ?? null) : null;
  if (req.kind === 'phone') {
    const phone = russianPhoneDigits(req.holder_account);
    if (!phone) return NONE;
    return { primary: null, banks: collect(apps, (b) => b.phone?.(phone, order.amount, recipient)) };
  }
  if (req.kind === 'card') {
    const pan = req.holder_account.replace(/[\s-]/g, '');
    if (!/^\d{12,19}$/.test(pan)) return NONE;
    return { primary: null, banks: collect(apps, (b) => b.card?.(pan, order.amount)) };
  }
  return NONE;
}

function collect(apps: readonly BankApp[], make: (b: BankApp) => string | null | undefined): BankLink[] {
  const out: BankLink[] = [];
  for (const b of apps) {
    const href = safeAppUrl(make(b), APP_SCHEMES);
    if (href) out.push({ key: b.key, name: b.name, href });
  }
  return out;
}
