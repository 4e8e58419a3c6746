/**
 * Bank-app links (provider-notes.md, "Bank-app links"; shared/data/README.md): pure functions from an
 * order, a platform and the SBP bank table (bank-table.ts, generated, loaded on demand) to the links
 * a bank sheet offers. Every link produced is checked before it is returned: http(s), the fixed
 * transfer-template schemes, the bank's own iOS scheme from the table, or an Android intent built here.
 *
 *   SBP payment link (`https://qr.nspk.ru/…`), per bank of the table:
 *     iOS      `{scheme}://qr.nspk.ru/…` (the bank's scheme), falling back to the https link itself when
 *              the app does not open (the element does that part: a timer the page's hiding cancels)
 *     Android  `intent://qr.nspk.ru/…#Intent;scheme=https;package={package};S.browser_fallback_url=…;end`
 *              (the bank's package; Chrome opens the https link when the app is not installed); the
 *              https link itself for a bank without a package (the system offers the apps)
 *     web      the bank's web client with the link's path and query (`{webClientUrl}/AS…?type=…`), for
 *              banks that have one: NSPK's own addresses end in `…/qr.nspk.ru`, the host they replace
 *   Transfer by phone, card or account number (no payment link): every bank app of the table, with the
 *   details filled in where a link template is known (TRANSFER_TEMPLATES), else just opened.
 */
import { bankByCustomerBank, bankByMemberId, BANKS as FACTS_BANKS } from '../provider/facts.js';
import type { OrderView } from '../protocol/index.js';
import type { Platform } from './platform.js';
import { cardDigits, paymentLinkOf, russianPhoneDigits } from './requisites.js';
import { bankNamed, httpsUrl, searchText, type BankName, type SbpBank } from '../banks/names.js';
import { MAX_URL_LENGTH, safeHttpUrl, UNSAFE_CHARS } from '../protocol/url.js';

/** One entry of the bank sheet. */
export interface BankLink {
  id: string;
  name: BankName;
  /** What a tap opens: the app (scheme, intent or template), or a web page. */
  href: string;
  /** iOS: the https link to open when the app did not open; null elsewhere. */
  fallback: string | null;
  /** The bank's web client for this payment, or null. */
  web: string | null;
  /** A transfer: true when the app opens with the details filled in, false when it only opens. */
  filled?: boolean;
}

/**
 * A link to a bank app: a safe http(s) URL, or one whose scheme is in `schemes` (lower-case, with
 * the colon, e.g. `sberbankonline:`), with no unsafe characters.
 */
export function safeAppUrl(value: unknown, schemes: ReadonlySet<string>): string | null {
  const web = safeHttpUrl(value);
  if (web) return web;
  if (typeof value !== 'string' || value.length > MAX_URL_LENGTH || UNSAFE_CHARS.test(value)) return null;
  const m = /^([a-z][a-z0-9+.-]*:)\/\/[^/]/i.exec(value);
  if (!m || !schemes.has(m[1]!.toLowerCase())) return null;
  return value;
}

/** The SBP link for one bank on a platform: the app link and (iOS) the https fallback; null when none is safe. */
export function sbpAppLink(paymentLink: string, bank: Pick<SbpBank, 'scheme' | 'pkg'>, platform: Platform): { href: string; fallback: string | null } | null {
  const safe = safeHttpUrl(paymentLink);
  if (!safe) return null;
  const rest = safe.replace(/^https?:\/\//i, '');
  if (platform === 'ios') {
    const href = safeAppUrl(`${bank.scheme}://${rest}`, new Set([`${bank.scheme.toLowerCase()}:`]));
    return href ? { href, fallback: safe } : null;
  }
  if (platform === 'android' && bank.pkg && /^[A-Za-z][\w]*(\.\w+)+$/.test(bank.pkg)) {
    // The fragment of an intent URL ends at `;`: the fallback is percent-encoded, `;` included.
    const href = `intent://${rest.split('#')[0]}#Intent;scheme=${safe.startsWith('http:') ? 'http' : 'https'};package=${bank.pkg};S.browser_fallback_url=${encodeURIComponent(safe)};end`;
    return { href: safeAppUrl(href, new Set(['intent:']))!, fallback: null };
  }
  return { href: safe, fallback: null };
}

/** The bank's web client for an SBP payment link (its path and query after the web client's address), or null. */
export function webClientLink(paymentLink: string, bank: Pick<SbpBank, 'web'>): string | null {
  const link = safeHttpUrl(paymentLink);
  const web = httpsUrl(bank.web);
  if (!link || !web) return null;
  const u = new URL(link);
  return safeHttpUrl(web.replace(/\/+$/, '') + u.pathname + u.search);
}

// ---------------------------------------------------------------------------------------------
// Transfers by phone or card number: observed link templates (provider-notes.md), by member id.

const e = encodeURIComponent;
type PhoneTemplate = (phone: string, amount: string, recipientMemberId: string | null) => string;
type CardTemplate = (pan: string, amount: string) => string;

export const TRANSFER_TEMPLATES: Readonly<Record<string, { phone?: PhoneTemplate; card?: CardTemplate }>> = {
  100000000111: {
    phone: (p, a) => `sberbankonline://payments/p2p?type=phone_number&requisiteNumber=${p}&amount=${e(a)}`,
    card: (pan, a) => `sberbankonline://payments/p2p?type=card_number&requisiteNumber=${pan}&amount=${e(a)}`,
  },
  100000000004: {
    phone: (p, a) => `tinkoffbank://Main/PayByMobileNumber?amount=${e(a)}&numberPhone=${e(`+${p}`)}&workflowType=RTLNTransfer`,
  },
  100000000005: {
    phone: (p, a, to) => `https://online.vtb.ru/i/transfers?phoneNumber=${e(`+${p}`)}&amount=${e(a)}${to ? `&bankCode=${to}` : ''}`,
  },
  100000000008: { phone: (p) => `alfabank://payments/phone?number=${e(`+${p}`)}` },
};

/** The custom schemes of the transfer templates (besides http(s)). */
export const TEMPLATE_SCHEMES: ReadonlySet<string> = new Set(['sberbankonline:', 'tinkoffbank:', 'alfabank:']);

/** A member id as the provider facts write it: VTB is 110000000005 in NSPK's list, 100000000005 there. */
const factsId = (id: string) => bankByMemberId(id)?.memberId ?? id;
/** True when two member ids name the same bank (the same id, or the same bank of the provider facts). */
const sameBank = (a: string, b: string) => factsId(a) === factsId(b);

/** The member id of a `customer_bank` value (`sberbank`…), or null. */
export function memberIdOf(customerBank: string | null | undefined): string | null {
  return (customerBank && bankByCustomerBank(customerBank)?.memberId) || null;
}

/**
 * A link that opens a bank's app with nothing filled in (a transfer the app has no known link for):
 * iOS its scheme from the table; Android an intent to the app's package (Chrome shows the app's Play
 * page when it cannot start it). Null when the bank has neither.
 */
export function openAppLink(bank: Pick<SbpBank, 'scheme' | 'pkg'>, platform: Platform): string | null {
  if (platform === 'ios') return /^[a-z][a-z0-9+.-]{0,40}$/.test(bank.scheme) ? `${bank.scheme}://` : null;
  if (platform !== 'android' || !bank.pkg || !/^[A-Za-z][\w]*(\.\w+)+$/.test(bank.pkg)) return null;
  // Built from the checked package name only; `intent:#Intent;…` (no data) is how Chrome starts an app by
  // package. Chrome sends the shopper to the app's Play page when it cannot start the app.
  return `intent:#Intent;action=android.intent.action.MAIN;category=android.intent.category.LAUNCHER;package=${bank.pkg};end`;
}

/** The provider facts' banks as table rows, for transfer links when the table is not at hand. */
const factsBanks = (): SbpBank[] =>
  FACTS_BANKS.map((b) => ({ id: b.memberId, name: b.name, scheme: b.nspkCode, pkg: null, web: null, search: searchText([b.name.ru, b.name.en]), popular: true }));

/**
 * The bank sheet's entries for an order. For an SBP payment link, one per bank of `banks` (the table;
 * desktop: those with a web client); `only` (a member id) keeps that bank alone, as the provider's
 * form does for a preselected bank (`button_name`: pay with that bank). For a transfer (RUB) by phone,
 * card or account number, every bank of the table whose app a phone can open, whoever the recipient
 * banks with: the shopper pays from their own bank. Where a link template is known
 * (TRANSFER_TEMPLATES) the app opens with the details filled in (`filled`); elsewhere it just opens.
 */
export function bankLinks(
  order: Pick<OrderView, 'payment_link' | 'requisites' | 'amount' | 'bank'> & Partial<Pick<OrderView, 'currency'>>,
  platform: Platform,
  banks: readonly SbpBank[],
  only: string | null = null,
): BankLink[] {
  const link = paymentLinkOf(order);
  const out: BankLink[] = [];
  if (link) {
    for (const bank of banks) {
      if (only && !sameBank(bank.id, only)) continue;
      const web = webClientLink(link, bank);
      const app = platform === 'desktop' ? null : sbpAppLink(link, bank, platform);
      const href = app?.href ?? web;
      if (href) out.push({ id: bank.id, name: bank.name, href, fallback: app?.fallback ?? null, web: app ? web : null });
    }
    return out;
  }
  const req = order.requisites;
  if (!req || platform === 'desktop' || (order.currency ?? 'RUB') !== 'RUB') return out;
  const table = banks.length > 0 ? banks : factsBanks();
  const named = req.bank_name ? bankNamed(table, req.bank_name) : null;
  const recipient = named ? factsId(named.id) : memberIdOf(order.bank);
  const phone = req.kind === 'phone' ? russianPhoneDigits(req.holder_account) : null;
  const pan = req.kind === 'card' ? cardDigits(req.holder_account) : null;
  if (!phone && !pan && req.kind !== 'account') return out;
  for (const bank of table) {
    const t = TRANSFER_TEMPLATES[factsId(bank.id)];
    const filled = safeAppUrl(phone ? t?.phone?.(phone, order.amount, recipient) : pan ? t?.card?.(pan, order.amount) : undefined, TEMPLATE_SCHEMES);
    const href = filled ?? (banks.length > 0 ? openAppLink(bank, platform) : null);
    if (href) out.push({ id: bank.id, name: bank.name, href, fallback: null, web: null, filled: !!filled });
  }
  return out;
}
