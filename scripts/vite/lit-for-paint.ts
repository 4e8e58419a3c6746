import { join } from 'node:path';
import type { Plugin } from 'vite';
import { root } from './shared.js';

/** The Lit the first paint takes: the template tags and the style helpers, without a renderer or the element base class. */
const LIT_LIGHT = '\0paydesk-lit-light';
/** The one module that extends `LitElement` (the element's own chunk, loaded after the first paint). */
const ELEMENT_CLASS = /[\\/]src[\\/]element[\\/]paydesk-checkout\.ts$/;
const TAGS = join(root, 'src/element/template-tags.ts');

/**
 * ES build: `import … from 'lit'` takes Lit's template tags (src/element/template-tags.ts: the objects
 * Lit's own `html` and `svg` make, Lit's own `nothing`) and its style helpers (css-tag) in every source
 * but the element's class. The first paint writes its templates out itself (src/element/html-string.ts),
 * so its chunks carry neither Lit's renderer (lit-html, about 3 KB gzip) nor `LitElement` and
 * `ReactiveElement`: importing `lit` runs all three modules. Only the class's chunk, loaded after the
 * paint, does. A name this module lacks (Lit's `render`, a directive's helpers) fails the build.
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
        ? `export { html, svg, nothing, noChange, css, unsafeCSS, adoptStyles } from ${JSON.stringify(TAGS)};\n`
        : null;
    },
  };
}
