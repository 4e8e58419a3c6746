/**
 * `paydesk`: registers `<paydesk-checkout>` (safe to import twice, or next to another copy) and
 * re-exports the class, its events and types.
 */
import { define } from './element/define.js';

define();

export * from './element/index.js';
