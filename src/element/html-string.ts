/**
 * Lit's templates written out as HTML in the browser, without Lit's renderer: what the CDN's first
 * paint (paint.ts) draws the requisites with before the element's code, which carries Lit's renderer
 * (about 3 KB gzip), has arrived. The element then takes the painted shadow root over as it takes a
 * server-rendered one (paydesk-checkout.ts `createRenderRoot`), so what is written here only has to
 * look the same as what Lit draws: the views' own templates, one source (static-view.ts).
 *
 * What it writes, as Lit renders it: text and nested templates in child positions (`nothing`, null
 * and undefined write nothing; arrays, each item), attribute values (quoted or not, one binding or
 * several; `nothing` leaves the attribute out), and boolean attributes (`?name`). Event listeners
 * (`@click`) and properties (`.value`) are left out: nothing can act before the element runs. A
 * directive is refused (the views use none; Lit's renderer would be needed). test/browser/html-string.test.ts
 * compares the two renderings of every painted view.
 */
import { trustedHtml } from './integrity.js';
import { noChange as NO_CHANGE, nothing as NOTHING } from './template-tags.js';

/** A template as `html`/`svg` make it (Lit's `TemplateResult`). */
interface Written {
  ['_$litType$']: number;
  strings: readonly string[];
  values: readonly unknown[];
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escape = (v: unknown) => String(v).replace(/[&<>"']/g, (c) => ESCAPES[c]!);

/**
 * A start tag, its quoted attribute values read whole (a `>` in one does not end it), or a binding's
 * marker (a child position).
 */
const TAG_OR_CHILD = /<[a-zA-Z](?:[^<>"']|"[^"]*"|'[^']*')*>|\uE000(\d+)\uE001/g;
/** A tag's name, then its attributes one after the other. */
const TAG_NAME = /^<[^\s/>]+/;
/**
 * The next attribute of a tag, read from where the last one ended (never from inside a value): its
 * prefix (`.`, `?`, `@` or none), name and value (quoted, a lone binding, or plain text); or the tag's end.
 */
const ATTRIBUTE = /\s+([.?@]?)([^\s"'<>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|(\uE000\d+\uE001)|[^\s"'<>=`]+))?|\s*\/?>/y;
const MARKER = /\uE000(\d+)\uE001/g;
/** Whether a text holds a marker. */
const MARKED = /\uE000/;
/** Where a child binding would be text Lit does not write either: inside a comment or a raw-text element. */
const RAW_TEXT = /<!--(?![\s\S]*-->)|<(style|script|textarea|title)\b[^>]*>(?![\s\S]*<\/\1)/i;

/** What Lit's renderer would be needed for: the paint leaves such a checkout to the element. */
const refuse = (what: string): never => {
  throw new Error(`paydesk: ${what} cannot be written out without Lit`);
};

/** `value`, refused when it is a directive (Lit's renderer would be needed to draw it). */
function plain<T>(value: T): T {
  if (value && typeof value === 'object' && '_$litDirective$' in value) refuse('a directive');
  return value;
}

/** `value` as HTML, as it would be rendered in a child position. */
export function htmlOf(value: unknown): string {
  if (value == null || value === NOTHING || value === NO_CHANGE) return '';
  if (typeof value !== 'object') return escape(value);
  if ('_$litType$' in value) return templateHtml(value as Written);
  if (Symbol.iterator in plain(value)) return [...(value as Iterable<unknown>)].map(htmlOf).join('');
  return escape(value);
}

function templateHtml({ strings, values }: Written): string {
  // The template's own text, each binding a marker its text cannot hold: the values are written in one
  // pass, never read again as markers or tags.
  const text = strings.reduce((all, s, i) => `${all}\uE000${i - 1}\uE001${s}`);
  return text.replace(TAG_OR_CHILD, (tag: string, child: string | undefined, at: number) => {
    if (child === undefined) return tagHtml(values, tag);
    if (RAW_TEXT.test(text.slice(0, at))) refuse('a binding in a comment or raw text');
    return htmlOf(values[+child]);
  });
}

/** A start tag with its bound attributes written in. */
function tagHtml(values: readonly unknown[], tag: string): string {
  let out = TAG_NAME.exec(tag)![0];
  ATTRIBUTE.lastIndex = out.length;
  while (ATTRIBUTE.lastIndex < tag.length) {
    const [whole, prefix, name, double, single, bare] = ATTRIBUTE.exec(tag) ?? refuse(`the tag ${tag.slice(0, 60)}`);
    // A binding on the element itself takes only a directive.
    if (name && MARKED.test(name)) refuse('an element binding');
    out += name === undefined ? whole : attribute(values, whole, prefix!, name, double ?? single ?? bare ?? '');
  }
  return out;
}

/** One attribute of a start tag (`whole`, its value `raw`), as Lit would set it: ` name="value"`, or nothing. */
function attribute(values: readonly unknown[], whole: string, prefix: string, name: string, raw: string): string {
  if (!MARKED.test(raw)) return whole;
  // Listeners and properties: nothing to act on before the element runs.
  if (prefix === '@' || prefix === '.') return '';
  // The text around the bindings and, at odd places, the bound values.
  const parts: unknown[] = raw.split(MARKER).map((p, i) => (i % 2 ? plain(values[+p]) : p.replace(/"/g, '&quot;')));
  if (prefix === '?') return parts[1] && parts[1] !== NOTHING ? ` ${name}` : '';
  return parts.includes(NOTHING) ? '' : ` ${name}="${parts.map((p, i) => (i % 2 ? escape(p ?? '') : p)).join('')}"`;
}

/**
 * Draws templates into `parent`, before `at`, as HTML (`htmlOf`): nothing when a view writes out as the
 * last one did, and what did not change kept in place — the countdown's tick changes one text node,
 * and a shopper's selection in the requisites survives it. Stops once `at` has left the tree (the
 * element's own render removes it). Throws where the page's Trusted Types refuse the HTML.
 */
export function htmlWriter(parent: Node, at: ChildNode): (view: unknown) => void {
  let written = '';
  let nodes: ChildNode[] = [];
  return (view) => {
    const next = htmlOf(view);
    if (!at.isConnected || next === written) return;
    const t = document.createElement('template');
    t.innerHTML = trustedHtml(next);
    written = next;
    nodes = sameNodes(parent, nodes, [...t.content.childNodes], at);
  };
}

/**
 * `next` in place of `old` (the nodes painted before `at`), each node that has only changed its text or
 * attributes kept and changed in place: the countdown's tick changes one text, and a shopper's selection
 * in the requisites survives it. Returns the nodes now painted.
 */
function sameNodes(parent: Node, old: ChildNode[], next: ChildNode[], at: Node | null): ChildNode[] {
  if (old.length !== next.length) {
    for (const n of old) n.remove();
    for (const n of next) parent.insertBefore(n, at);
    return next;
  }
  return old.map((o, i) => {
    const n = next[i]!;
    if (o.nodeName !== n.nodeName) return (parent.replaceChild(n, o), n);
    if (!(o instanceof Element)) {
      if (o.nodeValue !== n.nodeValue) o.nodeValue = n.nodeValue;
      return o;
    }
    const e = n as Element;
    for (const a of [...o.attributes]) if (!e.hasAttribute(a.name)) o.removeAttribute(a.name);
    for (const a of e.attributes) if (o.getAttribute(a.name) !== a.value) o.setAttribute(a.name, a.value);
    sameNodes(o, [...o.childNodes], [...e.childNodes], null);
    return o;
  });
}
