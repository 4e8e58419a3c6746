import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Plugin } from 'vite';
import { root, type Node } from './shared.js';

/** A first-paint table: `\0paydesk-first:<path of the language's table>`. */
export const FIRST_TABLE = '\0paydesk-first:';

/**
 * ES build: `import('./ru.js?first')` (src/element/i18n/first.ts) is a chunk of the table's
 * first-paint messages (`FIRST_KEYS`), cut from the table's own source: its properties of those keys,
 * as written, and `whole()`, which loads the whole table (this chunk carries its digest). The first
 * paint fetches that chunk with the first request; the whole table is asked for right after the
 * paint, in parallel with the element's own code (no round trip after the element's chunk). A key missing from a table is simply not there (English stands beneath).
 */
export function firstTables(): Plugin {
  const keysOf = () => {
    const text = readFileSync(join(root, 'src', 'element', 'i18n', 'first.ts'), 'utf8');
    const list = /FIRST_KEYS = \[([^\]]*)\] as const/.exec(text);
    if (!list) throw new Error('paydesk: src/element/i18n/first.ts has no FIRST_KEYS');
    return new Set([...list[1]!.matchAll(/'(\w+)'/g)].map((m) => m[1]!));
  };
  return {
    name: 'paydesk-first-tables',
    enforce: 'pre',
    resolveId(source, importer) {
      if (!source.endsWith('?first') || !importer) return null;
      return FIRST_TABLE + join(importer, '..', source.replace(/\.js\?first$/, '.ts'));
    },
    load(id) {
      if (!id.startsWith(FIRST_TABLE)) return null;
      const file = id.slice(FIRST_TABLE.length);
      const code = readFileSync(file, 'utf8');
      const keys = keysOf();
      let table: Node | undefined;
      const visit = (node: unknown): void => {
        if (table || !node || typeof node !== 'object') return;
        if (Array.isArray(node)) return node.forEach(visit);
        const n = node as Node;
        // The table: `const messages: Messages = { … }` (every language file has this one object).
        if (n.type === 'VariableDeclarator' && (n.id as { name?: string }).name === 'messages' && (n.init as Node | null)?.type === 'ObjectExpression') table = n.init as Node;
        for (const [k, v] of Object.entries(n)) if (k !== 'type' && v && typeof v === 'object') visit(v);
      };
      visit(this.parse(code, { lang: 'ts' }));
      if (!table) this.error(`paydesk: ${file} has no \`const messages = { … }\` table`);
      const props = (table.properties as Node[])
        .filter((p) => p.type === 'Property' && keys.has(((p.key as { name?: string; value?: string }).name ?? (p.key as { value?: string }).value) ?? ''))
        .map((p) => code.slice(p.start, p.end));
      // `whole`: the whole table, which the CDN entry starts loading right after the paint, beside the
      // element's own code (src/cdn.ts): through the loader, so this chunk carries the whole table's
      // digest (scripts/vite/integrity.ts), and the element's `import('./ru.js')` finds it under way.
      return `export default {${props.join(',')}};\nexport const whole = () => import(${JSON.stringify(file)});\n`;
    },
  };
}
