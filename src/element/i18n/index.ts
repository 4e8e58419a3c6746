/**
 * Language machinery: which table to use, the tables at hand, plurals and placeholders.
 *
 * Every language table, English and Russian included, is a module of its own, loaded with `import()`
 * when a page asks for it (load.ts: `loadLanguage`, which only the element's own code imports, so that
 * the CDN entry, which uses this module for its first paint, carries neither the loaders nor the
 * tables' digests): the element starts loading it as soon as it knows the language, in
 * parallel with its first request, and holds its text until it arrives (see `paydesk-checkout.ts`).
 * Only the few English messages needed when nothing can be loaded (en-offline.ts) are always at hand.
 * Resolution: the full tag (`ru-KZ`), then its language (`ru`), then English; tables are merged key
 * by key in that order, so a partial table still renders, and the merchant's overrides go on top.
 */
import offline from './en-offline.js';
import type { Messages, MessageOverrides } from './types.js';

export type { Messages, MessageOverrides, Plural, MessageErrorCode } from './types.js';
export { MESSAGE_ERROR_CODES } from './types.js';
export { errorText, fill } from './text.js';

export type Table = Partial<Omit<Messages, 'errors'>> & { errors?: Partial<Messages['errors']> };

/**
 * The languages that have a table, loaded on demand (load.ts `LAZY`, one module each). Lower-case
 * BCP 47 tags: a language (`kk`) or a language with region (`ru-kz`).
 */
export const LANGUAGES = ['en', 'ru', 'kk', 'uz', 'hy', 'az', 'ky', 'be', 'uk', 'tg'] as const;
export type Language = (typeof LANGUAGES)[number];
const lazy: ReadonlySet<string> = new Set(LANGUAGES);

/** The tables at hand, by tag: every one loaded so far (load.ts adds them with `addTables`). */
const tables = new Map<string, Table>();

/** Puts tables at hand: those load.ts loaded, or every one at once (paydesk/ssr, which renders on the server with every table imported). */
export function addTables(add: Readonly<Record<string, Table>>): void {
  for (const [tag, table] of Object.entries(add)) tables.set(tag, table);
}

/** The lookup chain for a tag: `uz-Cyrl-UZ` → `['uz-cyrl-uz', 'uz-cyrl', 'uz']` (region, then language). */
export function localeChain(tag: string): string[] {
  const parts = tag.trim().replace(/_/g, '-').toLowerCase().split('-').filter(Boolean);
  return /^[a-z]{2,3}$/.test(parts[0] ?? '') ? parts.map((_, i) => parts.slice(0, parts.length - i).join('-')) : [];
}

/** The first tag of the chain that has a table (bundled, loaded or loadable); English if none. */
export function resolveLanguage(tag: string): string {
  return localeChain(tag).find((t) => tables.has(t) || lazy.has(t)) ?? 'en';
}

/**
 * Tables still to be loaded before the text for a tag is complete: those of its chain, or English
 * when the chain has none. Empty when everything is at hand.
 */
export function missingTables(tag: string): string[] {
  const chain = localeChain(tag);
  return (chain.some((t) => tables.has(t) || lazy.has(t)) ? chain : ['en']).filter((t) => !tables.has(t) && lazy.has(t));
}

/**
 * The merged table for a tag: English, then language, then region, then the merchant's overrides.
 * Until {@link missingTables} is empty (load.ts `loadLanguage`), only the offline messages are sure to be there.
 */
export function messagesFor(tag: string, overrides?: MessageOverrides | null): Messages {
  const out = { ...offline, errors: { ...offline.errors } } as Messages & Record<string, unknown>;
  for (const layer of [tables.get('en'), ...localeChain(tag).reverse().map((t) => tables.get(t)), overrides]) {
    for (const [k, v] of Object.entries(layer ?? {})) {
      if (k === 'errors') Object.assign(out.errors, v);
      else if (v != null) out[k] = v;
    }
  }
  return out;
}

/** The `lang` of the nearest element that has one (through shadow roots), or ''. */
export function nearestLang(from: Element): string {
  for (let node: Node | null = from; node; node = node instanceof ShadowRoot ? node.host : node.parentNode) {
    const lang = node instanceof Element && node.getAttribute('lang');
    if (lang) return lang;
  }
  return '';
}
