/**
 * Lit for the classic script's chunks (vite.config.ts, `classic` build): the code the IIFE loads on
 * demand (`chunks/classic-*.js`) takes Lit from the classic script that loaded it instead of carrying
 * a copy of its own; the script puts its Lit where this module reads it (`src/cdn.ts`) before any
 * chunk is loaded. Only the parts those chunks use.
 */
import type * as Lit from 'lit';

/** Where the classic script leaves its Lit. */
export const LIT_KEY = Symbol.for('paydesk.lit');

type Shared = Pick<typeof Lit, 'html' | 'svg' | 'css' | 'nothing'>;
const lit = (globalThis as unknown as Record<symbol, Shared | undefined>)[LIT_KEY];
if (!lit) throw new Error('paydesk: this chunk belongs to paydesk.iife.js, which loads it');

export const { html, svg, css, nothing } = lit;
