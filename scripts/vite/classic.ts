import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import type { Plugin } from 'vite';
import { classicCopies } from './classic-copies.js';
import { MANIFEST_FN, MANIFEST_MARK } from './integrity.js';
import { CDN_DIR, root, type Node } from './shared.js';

/** The classic script's entry: dist/cdn/paydesk.js, its modules handed out to its chunks. */
export const CLASSIC_ENTRY = '\0paydesk-classic-entry';

/**
 * IIFE build: the ES module dist/cdn/paydesk.js (built first) as a classic script.
 *
 *   - its exports (the public ones and those its chunks import) go to
 *     `globalThis[Symbol.for('paydesk.classic.<hash of paydesk.js>')]`; its public ones also to the
 *     global `Paydesk`;
 *   - the chunks that need nothing of it (most language tables) it loads
 *     from chunks/, as the ES module does; the others from copies in classic/chunks/ that take the
 *     script's modules from the global above, where the chunk imports `../paydesk.js`
 *     (scripts/vite/classic-copies.ts);
 *   - its `__paydeskIntegrity()` (the ES module's digests) is replaced by the classic script's own, as
 *     the copies' are: the base is the script's URL (`document.currentScript`, read as the script
 *     runs), the digests those of the files it loads and the chunk each stands for (`urls`). Every
 *     file it loads is checked (src/element/integrity.ts).
 */
export function classicScript(): Plugin {
  const esEntry = join(CDN_DIR, 'paydesk.js');
  /** The exported values of a parsed module (`export { a as b }` and `export const b`; no types). */
  const exportsOf = (program: unknown): string[] =>
    ((program as { body: Node[] }).body ?? [])
      .filter((n) => n.type === 'ExportNamedDeclaration' && n.exportKind !== 'type')
      .flatMap((n) => [
        ...((n.specifiers as (Node & { exported: { name: string }; exportKind?: string })[]) ?? [])
          .filter((sp) => sp.exportKind !== 'type')
          .map((sp) => sp.exported.name),
        ...(((n.declaration as { declarations?: { id: { name: string } }[] } | null)?.declarations ?? []).map((d) => d.id.name)),
      ]);
  let publicNames: string[] = [];
  /** The files the classic script adds: the copies and their maps. */
  const emitted = new Map<string, string>();
  return {
    name: 'paydesk-classic-script',
    enforce: 'pre',
    resolveId(source) {
      return source === CLASSIC_ENTRY ? CLASSIC_ENTRY : null;
    },
    load(id) {
      if (id === esEntry) {
        if (!existsSync(esEntry)) this.error('paydesk: dist/cdn/paydesk.js is missing; build the ES module first (PAYDESK_CDN_FORMAT=es)');
        // That it stands alone (no static import) is checked after the build (scripts/build.mjs).
        const text = readFileSync(esEntry, 'utf8');
        const mark = text.lastIndexOf(MANIFEST_MARK);
        const manifestMatch = /^function \w+\(\)\{return\{base:import\.meta\.url,files:(\{.*\})\}\}\n$/.exec(text.slice(mark + MANIFEST_MARK.length));
        if (mark < 0 || !manifestMatch) this.error(`paydesk: dist/cdn/paydesk.js does not end with its ${MANIFEST_FN}()`);
        const code = text.slice(0, mark);
        const entryExports = exportsOf(this.parse(code));
        const missing = publicNames.filter((n) => !entryExports.includes(n));
        if (missing.length > 0) this.error(`paydesk: dist/cdn/paydesk.js does not export ${missing.join(', ')}`);
        const key = `paydesk.classic.${createHash('sha256').update(text).digest('hex').slice(0, 12)}`;
        emitted.clear();
        const copies = classicCopies({
          chunk: (name) => {
            const full = join(CDN_DIR, name);
            if (!existsSync(full)) this.error(`paydesk: dist/cdn/${name} is missing`);
            // A first-paint table (scripts/vite/first-tables.ts, a module of no file) has no map.
            const map = () => (existsSync(`${full}.map`) ? readFileSync(`${full}.map`, 'utf8') : null);
            return { text: readFileSync(full, 'utf8'), map };
          },
          parse: (t) => this.parse(t),
          shared: `globalThis[Symbol.for(${JSON.stringify(key)})]`,
          error: (m) => this.error(m),
        });
        const table = copies.table(Object.keys(JSON.parse(manifestMatch[1]!) as Record<string, string[]>));
        for (const [file, source] of copies.files) emitted.set(file, source);
        const manifest =
          `function ${MANIFEST_FN}(){return{base:typeof document<"u"&&document.currentScript&&document.currentScript.src||"",` +
          `${table}}}\n`;
        return { code: `${code}\n${manifest}`, map: readFileSync(`${esEntry}.map`, 'utf8') };
      }
      if (id !== CLASSIC_ENTRY) return null;
      const key = `paydesk.classic.${createHash('sha256').update(readFileSync(esEntry)).digest('hex').slice(0, 12)}`;
      publicNames = exportsOf(this.parse(readFileSync(join(root, 'src', 'cdn.ts'), 'utf8'), { lang: 'ts' }));
      const from = JSON.stringify(esEntry);
      return (
        `import * as __paydesk from ${from};` +
        `globalThis[Symbol.for(${JSON.stringify(key)})] = __paydesk;` +
        `export { ${publicNames.join(', ')} } from ${from};`
      );
    },
    renderChunk(code) {
      if (/\bimport\s*\(\s*["'`]/.test(code)) this.error('paydesk: the classic script has an import() the loader does not check');
      if (!code.includes('createScriptURL')) this.error('paydesk: the classic script has no loader (src/element/integrity.ts)');
      return null;
    },
    generateBundle() {
      for (const [fileName, source] of emitted) this.emitFile({ type: 'asset', fileName, source });
    },
  };
}
