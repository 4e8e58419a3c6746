import { createHash } from 'node:crypto';
import { join, posix } from 'node:path';
import type { Plugin } from 'vite';
import { root, type Node } from './shared.js';

/** An `import()` of the output whose specifier is a plain string: its node and specifier. */
interface DynamicImport {
  start: number;
  end: number;
  specifier: string;
  /** The first parameter of the nearest arrow function around it, if any. */
  param?: string;
}

/** Every `import('…')` with a constant specifier in a parsed program. */
function dynamicImports(program: unknown): DynamicImport[] {
  const found: DynamicImport[] = [];
  const visit = (node: unknown, param?: string): void => {
    if (Array.isArray(node)) return node.forEach((n) => visit(n, param));
    if (!node || typeof node !== 'object') return;
    const n = node as Node;
    if (n.type === 'ArrowFunctionExpression') param = (n.params as { name?: string }[])[0]?.name;
    if (n.type === 'ImportExpression') {
      const source = n.source as Node & { value?: unknown; quasis?: { value: { cooked: string } }[]; expressions?: unknown[] };
      const specifier =
        source.type === 'Literal' && typeof source.value === 'string'
          ? source.value
          : source.type === 'TemplateLiteral' && source.expressions?.length === 0
            ? source.quasis![0]!.value.cooked
            : null;
      if (specifier !== null) found.push({ start: n.start, end: n.end, specifier, ...(param ? { param } : {}) });
    }
    for (const [key, value] of Object.entries(n)) if (key !== 'type' && value && typeof value === 'object') visit(value, param);
  };
  visit(program);
  return found;
}

/** The loader of the CDN files (src/element/integrity.ts): checks each chunk against its digest. */
const LOADER = join(root, 'src', 'element', 'integrity.ts');
/** The name the loader has in the modules that load chunks. */
const LOADER_NAME = '__paydeskChunk';
/** The parameter of the arrow function the loader calls with its `load(name)`. */
const LOAD_PARAM = '__paydeskLoad';
/** The function appended to the entry with the digests (the loader calls it). */
export const MANIFEST_FN = '__paydeskIntegrity';
/** Marks where the ES entry's function starts (the classic script replaces it with its own). */
export const MANIFEST_MARK = '\n/*paydesk:integrity*/';

/** `sha384-<base64>` of a text as UTF-8 (what a browser checks a file's bytes against). */
export const sri = (text: string) => `sha384-${createHash('sha384').update(text).digest('base64')}`;

/**
 * ES build, code integrity (src/element/integrity.ts, DESIGN.md "Code integrity"):
 *   - transform: every `import('./x.js')` of the sources becomes `chunk((load) => import('./x.js'))`,
 *     `chunk` being the loader (Rolldown still sees the `import()` and makes x a chunk);
 *   - renderChunk: that `import("./chunks/x-<hash>.js")` becomes `load("chunks/x-<hash>.js")`: the
 *     loader's own, which checks the chunk and what it imports before it imports it;
 *   - generateBundle: once every chunk is final, the entry gets `__paydeskIntegrity()`, which returns
 *     the digest of every chunk and the chunks each imports statically. The loader asks for a chunk and
 *     all it imports at once (a module script with `integrity` for each chunk that imports nothing, a
 *     preload with `integrity` for the others, whose scripts follow those of their imports), as Vite's
 *     modulepreload does in an app: a chunk never reveals another one round trip later.
 * Chunk names carry a hash of their content (`chunkFileNames`), so a long cache never mixes versions.
 */
export function integrityLoads(): Plugin {
  return {
    name: 'paydesk-integrity-loads',
    transform(code, id) {
      if (!/[\\/]src[\\/].*\.ts$/.test(id) || id === LOADER || !code.includes('import(')) return null;
      const imports = dynamicImports(this.parse(code));
      if (imports.length === 0) return null;
      let out = code;
      for (const imp of imports.sort((a, b) => b.start - a.start)) {
        out = `${out.slice(0, imp.start)}${LOADER_NAME}((${LOAD_PARAM}) => ${out.slice(imp.start, imp.end)})${out.slice(imp.end)}`;
      }
      // The import declaration stands last (it is hoisted): no line moves, only the columns after an
      // import() on its own line (the map of the sources stays near enough: `map: null`).
      return { code: `${out}\nimport { chunk as ${LOADER_NAME} } from ${JSON.stringify(LOADER)};\n`, map: null };
    },
    renderChunk(code, chunk, _options, meta) {
      const out = meta.magicString!;
      for (const imp of dynamicImports(this.parse(code))) {
        const target = posix.join(posix.dirname(chunk.fileName), imp.specifier);
        if (!meta.chunks[target]) this.error(`paydesk: ${chunk.fileName} imports ${imp.specifier}, which is not a chunk of this build`);
        if (!imp.param?.startsWith(LOAD_PARAM)) this.error(`paydesk: ${chunk.fileName} imports ${imp.specifier} outside the loader`);
        out.update(imp.start, imp.end, `${imp.param}(${JSON.stringify(target)})`);
      }
      return out;
    },
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).filter((c) => c.type === 'chunk');
      const entry = chunks.find((c) => c.isEntry);
      if (!entry || chunks.filter((c) => c.isEntry).length !== 1) this.error('paydesk: expected one entry');
      const files: Record<string, string[]> = {};
      for (const c of chunks) {
        if (c === entry) continue;
        if (/\bimport\s*\(\s*["'`]/.test(c.code)) this.error(`paydesk: ${c.fileName} has an import() the loader does not check`);
        files[c.fileName] = [sri(c.code), ...c.imports.filter((f) => f !== entry.fileName)];
      }
      // The loader runs a chunk only after those it imports: a cycle among chunks would never load.
      const visiting = new Set<string>();
      const acyclic = (f: string): void => {
        if (visiting.has(f)) this.error(`paydesk: the chunks import each other in a cycle through ${f} (src/element/integrity.ts cannot order them)`);
        visiting.add(f);
        files[f]?.slice(1).forEach(acyclic);
        visiting.delete(f);
      };
      Object.keys(files).forEach(acyclic);
      if (/\bimport\s*\(\s*["'`]/.test(entry.code)) this.error(`paydesk: ${entry.fileName} has an import() the loader does not check`);
      if (!entry.code.includes(MANIFEST_FN)) this.error(`paydesk: ${entry.fileName} does not call ${MANIFEST_FN} (src/element/integrity.ts)`);
      entry.code = `${entry.code.replace(/\n*$/, '')}${MANIFEST_MARK}function ${MANIFEST_FN}(){return{base:import.meta.url,files:${JSON.stringify(files)}}}\n`;
    },
  };
}
