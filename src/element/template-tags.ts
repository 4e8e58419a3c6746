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

/** A style of the element (Lit's `CSSResult`: its text, and the sheet made of it once, for `adoptedStyleSheets`). */
export interface Style {
  readonly ['_$cssResult$']: true;
  readonly cssText: string;
  readonly styleSheet: CSSStyleSheet | undefined;
  toString(): string;
}

/** A style from trusted text (Lit's `unsafeCSS`). */
export function unsafeCSS(text: unknown): Style {
  let sheet: CSSStyleSheet | undefined;
  return {
    ['_$cssResult$']: true,
    cssText: String(text),
    get styleSheet() {
      if (!sheet && ADOPTS) (sheet = new CSSStyleSheet()).replaceSync(this.cssText);
      return sheet;
    },
    toString() {
      return this.cssText;
    },
  };
}

/** A style from a literal (Lit's `css`): only another style or a number can be put in it. */
export const css = (strings: TemplateStringsArray, ...values: unknown[]): Style =>
  unsafeCSS(
    strings.reduce((text, s, i) => {
      const v = values[i - 1] as Style | number;
      if (typeof v !== 'number' && v?.['_$cssResult$'] !== true) throw new Error('paydesk: only a css style or a number goes into a css style');
      return text + (typeof v === 'number' ? v : v.cssText) + s;
    }),
  );

/** Whether the browser takes constructed style sheets (`adoptedStyleSheets`), as Lit tells it. */
const ADOPTS = typeof ShadowRoot !== 'undefined' && 'adoptedStyleSheets' in Document.prototype && 'replace' in CSSStyleSheet.prototype;

/**
 * Gives `root` its styles (Lit's `adoptStyles`): as constructed sheets, or where the browser has none,
 * as `<style>` elements (with the page's `window.litNonce`, as Lit does).
 */
export function adoptStyles(root: ShadowRoot, styles: readonly (Style | CSSStyleSheet)[]): void {
  if (ADOPTS) {
    root.adoptedStyleSheets = styles.map((s) => (s instanceof CSSStyleSheet ? s : s.styleSheet!));
    return;
  }
  for (const s of styles) {
    const style = document.createElement('style');
    const nonce = (globalThis as { litNonce?: string }).litNonce;
    if (nonce !== undefined) style.setAttribute('nonce', nonce);
    style.textContent = (s as Style).cssText;
    root.appendChild(style);
  }
}
