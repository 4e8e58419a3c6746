import type { Plugin } from 'vite';
import type { Node } from './shared.js';

/**
 * Non-ASCII characters inside `html`/`svg` templates become numeric character references and inside
 * `css` templates CSS escapes, so the CDN files are pure ASCII (rolldown's `charset: 'ascii'`
 * escapes everything else but leaves tagged templates alone, their raw text being observable). A
 * classic script without a `charset` in its Content-Type is decoded in the page's encoding, and many
 * shops still serve windows-1251.
 */
export function asciiTemplates(): Plugin {
  const nonAscii = /[^\x00-\x7f]/gu;
  const escapers: Record<string, (ch: string) => string> = {
    html: (ch) => `&#${ch.codePointAt(0)};`,
    svg: (ch) => `&#${ch.codePointAt(0)};`,
    css: (ch) => `\\\\${ch.codePointAt(0)!.toString(16)} `,
  };
  return {
    name: 'paydesk-ascii-templates',
    transform(code, id) {
      if (!/[\\/]src[\\/].*\.ts$/.test(id) || !/[^\x00-\x7f]/.test(code)) return null;
      const edits: { start: number; end: number; text: string }[] = [];
      const visit = (node: unknown): void => {
        if (Array.isArray(node)) return node.forEach(visit);
        if (!node || typeof node !== 'object') return;
        const n = node as Node;
        if (n.type === 'TaggedTemplateExpression') {
          const tag = n.tag as Node & { name?: string };
          const quasi = n.quasi as Node & { quasis: (Node & { value: { raw: string } })[] };
          for (const q of quasi.quasis) {
            const raw = q.value.raw;
            if (!/[^\x00-\x7f]/.test(raw)) continue;
            const escape = tag.type === 'Identifier' && tag.name ? escapers[tag.name] : undefined;
            if (!escape) this.error(`paydesk: non-ASCII text in a template tagged \`${code.slice(tag.start, tag.end)}\` (${id}); write it as an escape`);
            const at = code.indexOf(raw, q.start);
            if (at < 0 || at > q.end) this.error(`paydesk: cannot locate a template part in ${id}`);
            edits.push({ start: at, end: at + raw.length, text: raw.replace(nonAscii, escape) });
          }
        }
        for (const [key, value] of Object.entries(n)) if (key !== 'type' && value && typeof value === 'object') visit(value);
      };
      visit(this.parse(code));
      if (edits.length === 0) return null;
      let out = code;
      for (const e of edits.sort((a, b) => b.start - a.start)) out = out.slice(0, e.start) + e.text + out.slice(e.end);
      return { code: out, map: null };
    },
  };
}
