/**
 * The recipient's bank of an order as a shopper picks it in a bank app (`OrderView.requisites.bank_name`,
 * DESIGN.md "Requisites a shopper can act on"): to send money by phone number through SBP the shopper
 * must choose the recipient's bank. Found in the provider's method name (`СБП — ВТБ`, provider-notes.md:
 * "SBP: a phone number, with the bank in method_name"), the NSPK member id of the payment link
 * (`…&bank=100000000005&…`) or the chosen method's `nspk_code`, and named as the SBP bank table names it
 * (src/banks/bank-table.ts, generated from NSPK's member list: the short Russian name bank apps show).
 */
import { bankNamed, parseBanks, type SbpBank } from '../banks/names.js';
import { BANKS as TABLE } from '../banks/bank-table.js';
import { bankByMemberId } from './facts.js';

let parsed: SbpBank[] | null = null;
const table = (): SbpBank[] => (parsed ??= parseBanks(TABLE));

/**
 * Method names repeat (a provider has a few dozen methods), and matching one against the whole table
 * costs about 0.15 ms, once per created session and per status read: the answers are kept, at most
 * {@link NAMES_KEPT} names (the oldest goes first), so a provider inventing names cannot grow memory.
 */
const NAMES_KEPT = 512;
const byNameKept = new Map<string, SbpBank | null>();
function bankOfName(name: string): SbpBank | null {
  const kept = byNameKept.get(name);
  if (kept !== undefined) return kept;
  const bank = bankNamed(table(), name);
  if (byNameKept.size >= NAMES_KEPT) byNameKept.delete(byNameKept.keys().next().value!);
  byNameKept.set(name, bank);
  return bank;
}

/** The bank part of a method name: `СБП — ВТБ` → `ВТБ`, `Карта - Kapitalbank` → `Kapitalbank`; null without one. */
export function bankOfMethodName(name: string | null | undefined): string | null {
  const m = /\s[—–-]\s+(.+)$/u.exec((name ?? '').trim());
  const part = m?.[1]?.trim() ?? '';
  // Plain text of a sane length only: it is shown to the shopper as it is.
  return part && part.length <= 80 && !/[\u0000-\u001f\u007f<>]/.test(part) ? part : null;
}

/** The table's bank of an NSPK member id (as links or as NSPK's list write it: VTB has both 100000000005 and 110000000005). */
export function bankOfMemberId(id: string | null | undefined): SbpBank | null {
  if (!id || !/^\d{12}$/.test(id)) return null;
  const known = bankByMemberId(id);
  const ids = known ? [known.memberId, known.listedMemberId ?? known.memberId] : [id];
  return table().find((b) => ids.includes(b.id)) ?? null;
}

/** The member id in an NSPK payment link (`bank=` of `https://qr.nspk.ru/…`), or null. */
export function memberIdOfLink(link: string | null | undefined): string | null {
  if (!link) return null;
  try {
    const url = new URL(link);
    return url.hostname === 'qr.nspk.ru' || url.hostname.endsWith('.nspk.ru') ? (/^\d{12}$/.exec(url.searchParams.get('bank') ?? '')?.[0] ?? null) : null;
  } catch {
    return null;
  }
}

/**
 * The recipient's bank name: the method's bank when the table knows it, else the payment link's member
 * id, else the chosen method's `nspk_code` (`bank100000000005`), else the method's bank part as the
 * provider wrote it; null when nothing names a bank (an aggregate method such as `СБП` without a link).
 */
export function recipientBankName(order: { method_name?: string | null; payment_link?: string | null }, nspkCode?: string | null): string | null {
  const named = bankOfMethodName(order.method_name);
  const byName = named ? bankOfName(named) : null;
  const byId = byName ?? bankOfMemberId(memberIdOfLink(order.payment_link)) ?? bankOfMemberId(/^(?:bank)?(\d{12})$/.exec(nspkCode ?? '')?.[1]);
  return byId?.name.ru ?? named;
}
