/**
 * Language machinery: which table to use, loading the optional ones, plurals and placeholders.
 *
 * English and Russian are bundled. Other languages are separate modules loaded with `import()` only
 * when a page asks for them. Resolution: the full tag (`ru-KZ`), then its language (`ru`), then
 * English; tables are merged key by key in that order, so a partial table still renders, and the
 * merchant's overrides go on top.
 */
import en from './en.js';
import ru from './ru.js';
import type { Messages, MessageOverrides, Plural } from './types.js';

export type { Messages, MessageOverrides, Plural, MessageErrorCode } from './types.js';
export { MESSAGE_ERROR_CODES } from './types.js';

type Table = Partial<Omit<Messages, 'errors'>> & { errors?: Partial<Messages['errors']> };

/** Tables in the main bundle. */
export const BUNDLED: Readonly<Record<string, Table>> = { en, ru };

/**
 * Languages loaded on demand, one module each, with a default export of type `Messages`.
 * Keys are lower-case BCP 47 tags: a language (`kk`) or a language with region (`ru-kz`).
 */
export const LAZY: Readonly<Record<string, () => Promise<{ default: Table }>>> = {
  kk: () => import('./kk.js'),
  uz: () => import('./uz.js'),
  hy: () => import('./hy.js'),
  az: () => import('./az.js'),
  ky: () => import('./ky.js'),
  be: () => import('./be.js'),
  uk: () => import('./uk.js'),
  tg: () => import('./tg.js'),
};

/** The tables at hand, by tag: the bundled ones and every lazy one loaded so far. */
const tables = new Map<string, Table>(Object.entries(BUNDLED));

/** The lookup chain for a tag: `uz-Cyrl-UZ` → `['uz-cyrl-uz', 'uz-cyrl', 'uz']` (region, then language). */
export function localeChain(tag: string): string[] {
  const parts = tag.trim().replace(/_/g, '-').toLowerCase().split('-').filter(Boolean);
  return /^[a-z]{2,3}$/.test(parts[0] ?? '') ? parts.map((_, i) => parts.slice(0, parts.length - i).join('-')) : [];
}

/** The first tag of the chain that has a table (bundled, loaded or loadable); English if none. */
export function resolveLanguage(tag: string): string {
  return localeChain(tag).find((t) => tables.has(t) || t in LAZY) ?? 'en';
}

/** Tags of the chain that still have to be loaded. */
export function missingTables(tag: string): string[] {
  return localeChain(tag).filter((t) => !tables.has(t) && t in LAZY);
}

/** Loads the lazy tables a tag needs; resolves to true when something new arrived. Never rejects. */
export async function loadLanguage(tag: string): Promise<boolean> {
  const arrived = await Promise.all(
    // A missing or broken table falls back to the next in the chain.
    missingTables(tag).map((t) => LAZY[t]!().then((mod) => tables.set(t, mod.default), () => false)),
  );
  return arrived.some(Boolean);
}

/** The merged table for a tag: English, then language, then region, then the merchant's overrides. */
export function messagesFor(tag: string, overrides?: MessageOverrides | null): Messages {
  const out = { ...en, errors: { ...en.errors } } as Messages & Record<string, unknown>;
  for (const layer of [...localeChain(tag).reverse().map((t) => tables.get(t)), overrides]) {
    for (const [k, v] of Object.entries(layer ?? {})) {
      if (k === 'errors') Object.assign(out.errors, v);
      else if (v != null) out[k] = v;
    }
  }
  return out;
}

/** Replaces `{name}` placeholders; unknown names stay as written. */
export function fill(template: string, params: Readonly<Record<string, string | number>>): string {
  return template.replace(/\{(\w+)\}/g, (m, name: string) => String(params[name] ?? m));
}

const pluralRules = new Map<string, Intl.PluralRules>();

/** Picks the plural form for `n` with `Intl.PluralRules` and fills `{n}` (formatted with `Intl`). */
export function plural(locale: string, forms: Plural | string, n: number): string {
  let rules = pluralRules.get(locale);
  if (!rules) {
    rules = safeIntl(() => new Intl.PluralRules(locale), () => new Intl.PluralRules('en'));
    pluralRules.set(locale, rules);
  }
  const form = typeof forms === 'string' ? forms : (forms[rules.select(n)] ?? forms.other);
  return fill(form, { n: new Intl.NumberFormat(rules.resolvedOptions().locale).format(n) });
}

/** Runs an `Intl` constructor, falling back when the locale tag is malformed. */
export function safeIntl<T>(make: () => T, fallback: () => T): T {
  try {
    return make();
  } catch {
    return fallback();
  }
}
