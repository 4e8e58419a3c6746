/**
 * The SBP member banks as the generated table (bank-table.ts) lists them, and finding one by a name:
 * the table's rows parsed into banks, and a search that puts the bank named first (an exact or prefix
 * match of a name or a common alias, words such as "банк" left out). The ground floor's: the element's
 * bank sheet searches with it, and the server names the recipient's bank with it
 * (src/provider/recipient-bank.ts).
 */
import { safeHttpUrl } from '../protocol/url.js';

/** One SBP member bank of the table. */
export interface SbpBank {
  /** The member id as NSPK lists it (VTB's is 110000000005 there, 100000000005 in payment links). */
  id: string;
  name: BankName;
  /** iOS URL scheme of the bank's app. */
  scheme: string;
  /** Android package of the bank's app, or null. */
  pkg: string | null;
  /** The bank's web client for SBP payments, or null. */
  web: string | null;
  /** Every name it is found by, normalised (see {@link normalise}). */
  search: string;
  /** One of the most used banks (shown first). */
  popular: boolean;
}

export interface BankName {
  ru: string;
  en: string;
}

/** Lower case, ё as е, its words (letters and digits) separated by one space: how names are compared when searching. */
export function normalise(text: string): string {
  return text.toLowerCase().replace(/ё/g, 'е').split(/[^\p{L}\p{N}]+/u).filter(Boolean).join(' ');
}

/**
 * Words that name no bank in particular (`банк`, legal forms such as `АКБ`): left out when a query is
 * matched, unless the query has nothing else.
 */
const NOISE = new Set(['банк', 'bank', 'акб', 'akb', 'кб', 'kb', 'аб', 'ab', 'аикб', 'укб', 'ukb', 'икбр', 'нко', 'nko', 'пнко', 'скб', 'кбэр', 'ббр', 'ао', 'пао', 'ооо']);

/** A name's words without the {@link NOISE} words (all of them when nothing else is left). */
const meaningful = (words: string[]): string[] => {
  const kept = words.filter((w) => !NOISE.has(w));
  return kept.length > 0 ? kept : words;
};

/** The generated table's text as banks (see bank-table.ts for the row format); malformed rows are dropped. */
export function parseBanks(table: string, popularCount = 0): SbpBank[] {
  const out: SbpBank[] = [];
  for (const line of table.split('\n')) {
    const [id = '', ru = '', en = '', scheme = '', pkg = '', web = '', aliases = ''] = line.split('|');
    if (!/^\d{12}$/.test(id) || !ru || !en) continue;
    const name = { ru, en };
    out.push({
      id,
      name,
      scheme: scheme || `bank${id}`,
      pkg: pkg || null,
      web: httpsUrl(web),
      search: searchText([ru, en, ...aliases.split(',')]),
      popular: out.length < popularCount,
    });
  }
  return out;
}

/** What {@link findBanks} searches: the names, normalised, one a line. */
export const searchText = (names: readonly string[]): string => names.map(normalise).filter(Boolean).join('\n');

/** An https URL as {@link safeHttpUrl} keeps it; an http one upgraded to https (a payment never goes over plain http). */
export function httpsUrl(value: unknown): string | null {
  return safeHttpUrl(typeof value === 'string' ? value.replace(/^http:\/\//i, 'https://') : value);
}

/**
 * The banks that match `query`, best first, each tier in table order (the most used first):
 *   0. a name (or other name) that is the query, `банк`-like words aside (`Т-Банк`, `тинькофф`, `ВТБ`);
 *   1. a name that starts with the query (`сбер` → Сбербанк);
 *   2. names whose words start with the query's words (`моск кред` → МКБ);
 *   3. names whose words contain the query's words.
 * When some name is the query (tier 0), only tiers 0 and 1 are given: a full name finds a handful, not
 * every bank whose name contains `банк`. All banks for an empty query.
 */
export function findBanks<T extends { search: string }>(banks: readonly T[], query: string): T[] {
  const words = normalise(query).split(' ').filter(Boolean);
  if (words.length === 0) return [...banks];
  const full = words.join('');
  const key = meaningful(words);
  const tiers: T[][] = [[], [], [], []];
  for (const bank of banks) {
    let best = 4;
    for (const line of bank.search.split('\n')) {
      const nameWords = line.split(' ');
      const nameKey = meaningful(nameWords);
      const joined = nameWords.join('');
      const keyJoined = nameKey.join('');
      const tier =
        joined === full || keyJoined === key.join('')
          ? 0
          : joined.startsWith(full) || keyJoined.startsWith(full)
            ? 1
            : key.every((w) => nameWords.some((n) => n.startsWith(w)))
              ? 2
              : key.every((w) => nameWords.some((n) => n.includes(w)))
                ? 3
                : 4;
      best = Math.min(best, tier);
      if (best === 0) break;
    }
    if (best < 4) tiers[best]!.push(bank);
  }
  return tiers[0]!.length > 0 ? [...tiers[0]!, ...tiers[1]!] : tiers.flat();
}

/** The bank of the table a name (the provider's, or a shopper's) is, when exactly one bank is: see {@link findBanks}. */
export function bankNamed<T extends { search: string }>(banks: readonly T[], name: string): T | null {
  const words = normalise(name).split(' ').filter(Boolean);
  if (words.length === 0) return null;
  const key = meaningful(words).join('');
  const exact = banks.filter((b) =>
    b.search.split('\n').some((line) => {
      const w = line.split(' ');
      return w.join('') === words.join('') || meaningful(w).join('') === key;
    }),
  );
  return exact.length === 1 ? exact[0]! : null;
}
