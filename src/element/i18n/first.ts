/**
 * The text of the CDN files' first paint (src/element/paint.ts): the messages the requisites, the
 * searching card and their heading say, and nothing else. The CDN build gives every language table a
 * second chunk with only these keys (scripts/vite/first-tables.ts: cut from the same source file, no
 * second copy of a translation), fetched with the first request; the whole table follows with the
 * element's own code, after the paint. `test/node/element/first-messages.test.ts` draws the first
 * paint of every kind of order and fails when it reads a message missing here.
 */
import { localeChain, type MessageOverrides, type Table } from './index.js';

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
type FirstTable = { default: Table; whole?: (() => Promise<unknown>) | undefined };
const FIRST: Readonly<Record<string, () => Promise<FirstTable>>> = {
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

/** The first-paint tables loaded, by tag. */
const loaded = new Map<string, Table>();
/** Their modules' `whole()`, by tag. */
const wholes = new Map<string, () => Promise<unknown>>();

/** The tags whose first-paint tables `tag` reads: its own chain, English where it has none (as `missingTables`). */
const chainOf = (tag: string) => {
  const own = localeChain(tag).filter((t) => t in FIRST);
  return own.length > 0 ? own : ['en'];
};

/** Loads the first-paint messages of `tag`. True when every table it reads arrived (the paint can speak); never rejects. */
export async function loadFirstLanguage(tag: string): Promise<boolean> {
  const arrived = await Promise.all(chainOf(tag).map((t) => FIRST[t]!().then((mod) => (loaded.set(t, mod.default), mod.whole && wholes.set(t, mod.whole), true), () => false)));
  return arrived.every(Boolean);
}

/** The first-paint messages of `tag`, region over language, as overrides of `messagesFor(tag)` (a paint has no merchant's overrides). */
export function firstMessages(tag: string): MessageOverrides {
  return Object.assign({}, ...chainOf(tag).reverse().map((t) => loaded.get(t))) as MessageOverrides;
}

/**
 * Starts loading the whole tables of `tag` whose first-paint tables arrived (the CDN entry, right after
 * the paint, beside the element's own code): the element's `loadLanguage` (load.ts) then finds them
 * under way or run, with no round trip after its own chunk. Never rejects (the element tries again).
 */
export function loadWholeLanguage(tag: string): void {
  for (const t of chainOf(tag)) wholes.get(t)?.().catch(() => {});
}
