import { createHash } from 'node:crypto';
import { join, posix } from 'node:path';
import type { Plugin } from 'vite';
import { planChain, type ChainChunk } from './chain.js';
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
/** The function appended to the entry and to every chunk that loads chunks, with the digests it carries (the loader calls it). */
export const MANIFEST_FN = '__paydeskIntegrity';
/** Marks where a file's function starts (the classic script replaces it with its own). */
export const MANIFEST_MARK = '\n/*paydesk:integrity*/';
/** A chunk's appended function: `{ files }` (the entry's also has `base`). */
export const CHUNK_TABLE = /\n\/\*paydesk:integrity\*\/function __paydeskIntegrity\(\)\{return\{files:(\{.*\})\}\}\n$/;
/** The chunk names a file's code asks the loader for: `load("chunks/x-<hash>.js")`, minified. */
export const LOADED_NAMES = /\(\s*[`"](chunks\/[\w-]+\.js)[`"]\s*\)/g;
/** `text` with its function of digests appended. */
export const withTable = (text: string, table: string) => `${text.replace(/\n*$/, '')}${MANIFEST_MARK}function ${MANIFEST_FN}(){return{${table}}}\n`;

/** `sha384-<base64>` of a text as UTF-8 (what a browser checks a file's bytes against). */
export const sri = (text: string) => `sha384-${createHash('sha384').update(text).digest('base64')}`;

/**
 * ES build, code integrity (src/element/integrity.ts, DESIGN.md "Code integrity"):
 *   - transform: every `import('./x.js')` of the sources becomes
 *     `chunk((load) => import('./x.js'), __paydeskIntegrity)`, `chunk` being the loader (Rolldown still
 *     sees the `import()` and makes x a chunk) and `__paydeskIntegrity` the digests that the file it
 *     ends up in carries;
 *   - renderChunk: that `import("./chunks/x-<hash>.js")` becomes `load("chunks/x-<hash>.js")`: the
 *     loader's own, which checks the chunk and what it imports before it imports it;
 *   - generateBundle: once every chunk is final, each file that loads chunks gets its
 *     `__paydeskIntegrity()`, which returns the digests of the chunks it loads and of those they
 *     import statically (and what each imports): a chain (scripts/vite/chain.ts), the entry
 *     carrying what it loads itself. The loader asks for a chunk and all it imports at once (a module
 *     script with `integrity` for each chunk that imports nothing, a preload with `integrity` for the
 *     others, whose scripts follow those of their imports), as Vite's modulepreload does in an app: a
 *     chunk never reveals another one round trip later.
 * Chunk names carry a hash of their content (`chunkFileNames`), so a long cache never mixes versions;
 * a chunk's digests change only when a chunk it loads changed, whose new name is in its text.
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
        out = `${out.slice(0, imp.start)}${LOADER_NAME}((${LOAD_PARAM}) => ${out.slice(imp.start, imp.end)}, ${MANIFEST_FN})${out.slice(imp.end)}`;
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
      /** What a file loads through the loader: its dynamic imports, each named in its code. */
      const loadsOf = (c: (typeof chunks)[number]): string[] => {
        if (/\bimport\s*\(\s*["'`]/.test(c.code)) this.error(`paydesk: ${c.fileName} has an import() the loader does not check`);
        const named = new Set([...c.code.matchAll(LOADED_NAMES)].map((m) => m[1]!));
        const loads = [...new Set(c.dynamicImports)];
        for (const n of named) if (!loads.includes(n)) this.error(`paydesk: ${c.fileName} loads ${n}, which it does not import()`);
        for (const n of loads) if (!named.has(n)) this.error(`paydesk: ${c.fileName} imports ${n} without the loader`);
        if ((loads.length > 0) !== c.code.includes(MANIFEST_FN)) this.error(`paydesk: ${c.fileName} loads chunks without their digests (${MANIFEST_FN})`);
        return loads;
      };
      const graph: Record<string, ChainChunk> = {};
      for (const c of chunks) if (c !== entry) graph[c.fileName] = { imports: c.imports.filter((f) => f !== entry.fileName), loads: loadsOf(c) };
      let plan: ReturnType<typeof planChain>;
      try {
        plan = planChain(loadsOf(entry), graph);
      } catch (e) {
        return this.error((e as Error).message);
      }
      if (plan.moved.length > 0) this.warn(`paydesk: the entry carries the digests of ${plan.moved.join(', ')} (a cycle in the chain, scripts/vite/chain.ts)`);
      const digests: Record<string, string> = {};
      const files = (names: readonly string[]) => JSON.stringify(Object.fromEntries(names.map((n) => [n, [digests[n]!, ...graph[n]!.imports]])));
      for (const name of plan.order) {
        const c = bundle[name] as (typeof chunks)[number];
        if (c.code.includes(MANIFEST_FN)) c.code = withTable(c.code, `files:${files(plan.carries.get(name) ?? [])}`);
        digests[name] = sri(c.code);
      }
      if (!entry.code.includes(MANIFEST_FN)) this.error(`paydesk: ${entry.fileName} does not call ${MANIFEST_FN} (src/element/integrity.ts)`);
      entry.code = withTable(entry.code, `base:import.meta.url,files:${files(plan.entry)}`);
    },
  };
}
