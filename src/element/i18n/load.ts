/**
 * Loading the language tables (index.ts has the rest of the language machinery): one module each,
 * English and Russian included, fetched with `import()` when the element needs a language.
 *
 * A module of its own so that only the element's own code carries the loaders: the CDN entry uses
 * index.ts for its first paint (which speaks from the first-paint tables, first.ts), and every
 * `import()` in a CDN file makes that file carry the digest of the chunk it loads
 * (scripts/vite/integrity.ts). Here, the ten tables' digests travel in the element's chunk, after the
 * first paint, not in the entry before it.
 */
import { addTables, missingTables, type Language, type Table } from './index.js';

/**
 * Languages loaded on demand, one module each, with a default export of type `Messages`: one per tag
 * of `LANGUAGES` (index.ts), which the type holds to.
 */
export const LAZY: Readonly<Record<Language, () => Promise<{ default: Table }>>> = {
  en: () => import('./en.js'),
  ru: () => import('./ru.js'),
  kk: () => import('./kk.js'),
  uz: () => import('./uz.js'),
  hy: () => import('./hy.js'),
  az: () => import('./az.js'),
  ky: () => import('./ky.js'),
  be: () => import('./be.js'),
  uk: () => import('./uk.js'),
  tg: () => import('./tg.js'),
};

/** Loads the lazy tables a tag needs; resolves to true when something new arrived. Never rejects. */
export async function loadLanguage(tag: string): Promise<boolean> {
  const arrived = await Promise.all(
    // A missing or broken table falls back to the next in the chain.
    missingTables(tag).map((t) =>
      LAZY[t as Language]().then(
        (mod) => (addTables({ [t]: mod.default }), true),
        () => false,
      ),
    ),
  );
  return arrived.some(Boolean);
}
