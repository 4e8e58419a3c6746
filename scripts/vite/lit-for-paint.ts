import type { Plugin } from 'vite';

/** The Lit the first paint takes: the renderer and the style helpers, without the element base class. */
const LIT_LIGHT = '\0paydesk-lit-light';
/** The one module that extends `LitElement` (the element's own chunk, loaded after the first paint). */
const ELEMENT_CLASS = /[\\/]src[\\/]element[\\/]paydesk-checkout\.ts$/;

/**
 * ES build: `import … from 'lit'` takes Lit's template renderer (lit-html) and its style helpers
 * (css-tag) from their own modules in every source but the element's class, so the chunk of the first
 * paint does not carry `LitElement` and `ReactiveElement`: importing `lit` runs all three modules.
 * Only the class's chunk, loaded after the paint, does. A name this module lacks fails the build.
 */
export function litForPaint(): Plugin {
  return {
    name: 'paydesk-lit-for-paint',
    enforce: 'pre',
    resolveId(source, importer) {
      return source === 'lit' && importer && !ELEMENT_CLASS.test(importer) ? LIT_LIGHT : null;
    },
    load(id) {
      return id === LIT_LIGHT
        ? "export { html, svg, nothing, noChange, render } from 'lit-html';\nexport { css, unsafeCSS, adoptStyles } from '@lit/reactive-element/css-tag.js';\n"
        : null;
    },
  };
}
