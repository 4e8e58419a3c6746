import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import type { Plugin } from 'vite';
import { MANIFEST_FN, MANIFEST_MARK, sri } from './integrity.js';
import { CDN_DIR, CHUNK_DIR, CLASSIC_DIR, root, type Node } from './shared.js';
import { editWithMap } from './source-map-edit.js';

/** The classic script's entry: dist/cdn/paydesk.js, its modules handed out to its chunks. */
export const CLASSIC_ENTRY = '\0paydesk-classic-entry';

/** `./x.js` for a path relative to the directory of `from` (output file names). */
function relativeSpecifier(from: string, to: string): string {
  const rel = posix.relative(posix.dirname(from), to);
  return rel.startsWith('.') ? rel : `./${rel}`;
}

/** The hash in a content-hashed name: 8 hex digits of sha256, as the ES build's `[hash:8]` (hex). */
const nameHash = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 8);

/**
 * IIFE build: the ES module dist/cdn/paydesk.js (built first) as a classic script.
 *
 *   - its exports (the public ones and those its chunks import) go to
 *     `globalThis[Symbol.for('paydesk.classic.<hash of paydesk.js>')]`; its public ones also to the
 *     global `Paydesk`;
 *   - the chunks that import nothing (most language tables, the form frame) it loads from chunks/, as
 *     the ES module does; the others from copies in classic/chunks/ whose `../paydesk.js` is
 *     classic/paydesk-<hash>.js: a module that exports what the script left in the global above (so
 *     one Lit, one element and one set of tables serve both), and throws if it is not there;
 *   - its `__paydeskIntegrity()` (the ES module's digests) is replaced by the classic script's own: the
 *     base is the script's URL (`document.currentScript`, read as the script runs), the copies'
 *     digests and the chunk each stands for (`urls`). Every file it loads is checked (src/element/integrity.ts).
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
  /** The static import (and re-export) sources of a parsed module: their specifier and position. */
  const importSources = (program: unknown) =>
    ((program as { body: Node[] }).body ?? [])
      .filter((n) => ['ImportDeclaration', 'ExportNamedDeclaration', 'ExportAllDeclaration'].includes(n.type) && n.source)
      .map((n) => {
        const source = n.source as Node & { value: string };
        return { start: source.start, end: source.end, specifier: source.value };
      });
  let publicNames: string[] = [];
  /** The files the classic script adds: classic/paydesk-<hash>.js, the copies and their maps. */
  const emitted = new Map<string, string>();
  /** The name of the shared modules in classic/paydesk-<hash>.js. */
  const SHARED = '__paydeskClassic';
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
        const esFiles = JSON.parse(manifestMatch[1]!) as Record<string, string[]>;
        const code = text.slice(0, mark);
        const entryExports = exportsOf(this.parse(code));
        if (entryExports.includes(SHARED)) this.error(`paydesk: dist/cdn/paydesk.js exports ${SHARED}`);
        const missing = publicNames.filter((n) => !entryExports.includes(n));
        if (missing.length > 0) this.error(`paydesk: dist/cdn/paydesk.js does not export ${missing.join(', ')}`);

        const key = `paydesk.classic.${createHash('sha256').update(text).digest('hex').slice(0, 12)}`;
        // This text is a built file (its hash names it and is in the digests): it still says vite.config.ts.
        const shared =
          `// What paydesk.iife.js hands to its chunks in ${CLASSIC_DIR}/${CHUNK_DIR}/ (vite.config.ts, classicScript).\n` +
          `const ${SHARED} = globalThis[Symbol.for(${JSON.stringify(key)})];\n` +
          `if (!${SHARED}) throw new Error("paydesk: this module belongs to the paydesk.iife.js it was built with, which is not on this page");\n` +
          `export const { ${entryExports.join(', ')} } = ${SHARED};\n`;
        const sharedFile = `${CLASSIC_DIR}/paydesk-${nameHash(shared)}.js`;
        emitted.clear();
        emitted.set(sharedFile, shared);
        const files: Record<string, string[]> = { [sharedFile]: [sri(shared)] };
        const urls: Record<string, string> = {};

        /** Chunk name (chunks/x-<hash>.js) → the file the classic script loads for it. */
        const fileFor = (name: string): string => {
          if (urls[name] ?? files[name]) return urls[name] ?? name;
          const full = join(CDN_DIR, name);
          if (!esFiles[name] || !existsSync(full)) this.error(`paydesk: dist/cdn/${name} is missing or not in paydesk.js's digests`);
          const text = readFileSync(full, 'utf8');
          const sources = importSources(this.parse(text));
          if (sources.length === 0) {
            files[name] = [sri(text)];
            return name;
          }
          // A copy in classic/chunks/: ../paydesk.js is the classic script's module; a chunk that imports
          // anything is a copy too; one that imports nothing is the ES module's own (../../chunks/…).
          const deps: string[] = [];
          const edits = sources.map(({ start, end, specifier }) => {
            if (specifier === '../paydesk.js') {
              deps.push(sharedFile);
              return { start, end, text: JSON.stringify(`../${posix.basename(sharedFile)}`) };
            }
            const dep = posix.join(posix.dirname(name), specifier);
            deps.push(dep);
            const target = fileFor(dep);
            return { start, end, text: JSON.stringify(relativeSpecifier(`${CLASSIC_DIR}/${name}`, target)) };
          });
          const comment = /\n\/\/# sourceMappingURL=[^\n]*\n?$/.exec(text);
          const body = comment ? text.slice(0, comment.index) : text;
          const map = JSON.parse(readFileSync(`${full}.map`, 'utf8')) as { sources: string[]; file?: string };
          // One directory deeper than the original.
          map.sources = map.sources.map((s) => (/^[a-z]+:/i.test(s) || s.startsWith('/') ? s : `../${s}`));
          const edited = editWithMap(body, JSON.stringify(map), edits);
          const file = `${CLASSIC_DIR}/${name.replace(/-[0-9a-f]{8}\.js$/, '')}-${nameHash(edited.code)}.js`;
          const copy = `${edited.code}\n//# sourceMappingURL=${posix.basename(file)}.map\n`;
          emitted.set(file, copy);
          const copyMap = JSON.parse(edited.map) as { file?: string };
          copyMap.file = posix.basename(file);
          emitted.set(`${file}.map`, JSON.stringify(copyMap));
          files[name] = [sri(copy), ...deps];
          urls[name] = file;
          return file;
        };
        for (const name of Object.keys(esFiles)) fileFor(name);

        const manifest =
          `function ${MANIFEST_FN}(){return{base:typeof document<"u"&&document.currentScript&&document.currentScript.src||"",` +
          `files:${JSON.stringify(files)},urls:${JSON.stringify(urls)}}}\n`;
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
