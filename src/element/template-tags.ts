/**
 * Lit's `html` and `svg` tags and its `nothing` and `noChange` markers, without Lit's renderer: what
 * the templates of the CDN's first paint are made with (scripts/vite/lit-for-paint.ts gives these to
 * every module of the CDN build but the element's class). A template made here is the object Lit's own
 * tags make (`_$litType$`, the strings, the values), and the markers are Lit's own registered symbols,
 * so the element's renderer draws the same templates once it has arrived, and html-string.ts writes
 * them out before it has.
 */
const tag =
  (type: 1 | 2) =>
  (strings: TemplateStringsArray, ...values: unknown[]) => ({ ['_$litType$']: type, strings, values });

/** An HTML template (Lit's `html`). */
export const html = tag(1);
/** An SVG fragment (Lit's `svg`), for use inside an `<svg>` of an HTML template. */
export const svg = tag(2);
/** Renders nothing in a child position, and leaves an attribute out (Lit's `nothing`). */
export const nothing = Symbol.for('lit-nothing');
/** Leaves a binding's value as it is (Lit's `noChange`). */
export const noChange = Symbol.for('lit-noChange');
