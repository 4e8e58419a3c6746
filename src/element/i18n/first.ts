/**
 * The text of the CDN files' first paint (src/element/paint.ts): the messages the requisites, the
 * searching card and their heading say, and nothing else. The CDN build gives every language table a
 * second chunk with only these keys (vite.config.ts, `firstTables`: cut from the same source file, no
 * second copy of a translation), fetched with the first request; the whole table follows with the
 * element's own code, after the paint. `test/node/element/first-messages.test.ts` draws the first
 * paint of every kind of order and fails when it reads a message missing here.
 */
import { addFirstTables, localeChain, type Table } from './index.js';

/** The messages a first paint reads (besides the offline ones, en-offline.ts, at hand in the entry). */
export const FIRST_KEYS = [
  'searchingTitle',
  'searchingText',
  'payTitle',
  'confirmingTitle',
  'timerLabel',
  'amountLabel',
  'amountExact',
  'amountChanged',
  'payBy',
  'copy',
  'cardLabel',
  'phoneLabel',
  'accountLabel',
  'linkLabel',
  'codeLabel',
  'holderLabel',
  'recipientBank',
  'bankLabel',
  'methodLabel',
  'waySbp',
  'wayCard',
  'wayAccount',
  'wayLink',
  'waySbpAbroad',
  'wayCardAbroad',
  'qrLabel',
  'payFromPhone',
  'payFromPhoneHint',
  'payOnline',
  'payInBankApp',
  'openForm',
  'orderLabel',
  'iPaid',
  'confirmingText',
  'showDetails',
  'sendReceipt',
] as const;

/** Each language's first-paint messages: `./<lang>.js?first`, a chunk the CDN build cuts from the table. */
const FIRST: Readonly<Record<string, () => Promise<{ default: Table }>>> = {
  en: () => import('./en.js?first'),
  ru: () => import('./ru.js?first'),
  kk: () => import('./kk.js?first'),
  uz: () => import('./uz.js?first'),
  hy: () => import('./hy.js?first'),
  az: () => import('./az.js?first'),
  ky: () => import('./ky.js?first'),
  be: () => import('./be.js?first'),
  uk: () => import('./uk.js?first'),
  tg: () => import('./tg.js?first'),
};

/**
 * Loads the first-paint messages of `tag` (its chain; English when it has none). True when every table
 * of the chain arrived (the paint can speak); never rejects.
 */
export async function loadFirstLanguage(tag: string): Promise<boolean> {
  // As `missingTables`: the language's own tables, English only where the language has none.
  const own = localeChain(tag).filter((t) => t in FIRST);
  const chain = own.length > 0 ? own : ['en'];
  const arrived = await Promise.all(chain.map((t) => FIRST[t]!().then((mod) => (addFirstTables({ [t]: mod.default }), true), () => false)));
  return arrived.every(Boolean);
}
