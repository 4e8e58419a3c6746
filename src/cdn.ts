/**
 * The entry of the CDN files (`dist/cdn/paydesk.js`, `dist/cdn/paydesk.iife.js`) and of the in-memory
 * widget bundle: what `paydesk` does (registers `<paydesk-checkout>`, exports the class), with the
 * English and Russian tables inside, so the one-file classic script speaks the market's languages
 * without fetching anything. The npm build loads every table on demand (an app's bundler makes each a
 * chunk of its own). `src/cdn-languages.json` names the languages bundled here, for the build (no
 * chunk for them). The calls are written here, not left to imported modules' side effects, which a
 * bundler may drop (package.json `sideEffects`).
 */
import { define } from './element/define.js';
import en from './element/i18n/en.js';
import { addLanguage } from './element/i18n/index.js';
import ru from './element/i18n/ru.js';

addLanguage('en', en);
addLanguage('ru', ru);
define();

export * from './element/index.js';
