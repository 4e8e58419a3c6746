/**
 * The entry of the CDN files (`dist/cdn/paydesk.js`, and from it `dist/cdn/paydesk.iife.js`) and of
 * the in-memory widget bundle: what `paydesk` does (registers `<paydesk-checkout>`, exports the class),
 * with the English table inside: the language the others fall back to, and the text of a page whose
 * table cannot be fetched. Every other table, Russian included, is a chunk the element fetches in
 * parallel with its first request (the npm build loads English on demand too; an app's bundler makes
 * each table a chunk of its own). `src/cdn-languages.json` names the languages bundled here, for the
 * build (no chunk for them). The calls are written here, not left to imported modules' side effects,
 * which a bundler may drop (package.json `sideEffects`).
 */
import { define } from './element/define.js';
import en from './element/i18n/en.js';
import { addLanguage } from './element/i18n/index.js';

addLanguage('en', en);
define();

export * from './element/index.js';
