/**
 * The entry of the CDN files (`dist/cdn/paydesk.js`, and from it `dist/cdn/paydesk.iife.js`) and of
 * the in-memory widget bundle: what `paydesk` does (registers `<paydesk-checkout>`, exports the class).
 * Like the npm build, it carries only the few English messages needed when nothing can be loaded
 * (src/element/i18n/en-offline.ts): every language table, English and Russian included, is a chunk
 * the element fetches as soon as it knows the page's language, in parallel with its first request, so
 * a shopper downloads only their own language. The call is written here, not left to an imported
 * module's side effects, which a bundler may drop (package.json `sideEffects`).
 */
import { define } from './element/define.js';

define();

export * from './element/index.js';
