/**
 * Vite builds the CDN files. `npm run build` (scripts/build.mjs) runs it twice, after
 * `tsc -p tsconfig.build.json` (the npm build):
 *
 * 1. `PAYDESK_CDN_FORMAT=es`, from src/cdn.ts:
 *      dist/cdn/paydesk.js                   ES module that registers <paydesk-checkout>: Lit, the element,
 *                                            the offline English messages, the digests of every chunk
 *      dist/cdn/chunks/pay-view-<hash>.js    the requisites and what the views share (the chunk a first paint needs)
 *      dist/cdn/chunks/<name>-<hash>.js      the other steps (method choice, closed order, live status), what
 *                                            few shoppers need (bank sheet and its table, receipt upload, form
 *                                            frame, QR encoder) and the bundler's runtime helpers
 *      dist/cdn/chunks/<lang>-<hash>.js      the language tables, English and Russian included, one each
 * 2. `PAYDESK_CDN_FORMAT=iife`, from the ES build's output:
 *      dist/cdn/paydesk.iife.js              the same module as a classic script (global `Paydesk`)
 *      dist/cdn/classic/chunks/*-<hash>.js   copies of the chunks it loads that import shared code, which
 *      dist/cdn/classic/paydesk-<hash>.js    they take from classic/paydesk-<hash>.js: it hands out the classic
 *                                            script's own modules (one Lit, one element, never a second copy)
 * <hash> is a hash of the file's content: a long cache never mixes two builds.
 *
 * Code integrity (`integrityLoads`, src/element/integrity.ts): every chunk is loaded through a check
 * against the sha384 digest its entry carries; a changed chunk never runs.
 *
 * No waterfall: what the first painted requisites need is fetched in the first round trip after the
 * script runs, in parallel with the session request. paydesk.js has no static import (the modules it
 * shares with chunks stay in it: `preserveEntrySignatures: 'allow-extension'` and the `initial`
 * group); the requisites and what the views share are one chunk (the `pay-view` group); and every
 * chunk is asked for together with the chunks it imports statically (the entry's digests list them;
 * what Vite's modulepreload does in an app), so a chunk never reveals another one round trip later
 * (a chunk runs only after those it imports: src/element/integrity.ts).
 * The classic script loads the chunks that import nothing (most language tables, the form frame) from
 * chunks/ like the ES module, and the others from classic/ together with classic/paydesk-<hash>.js.
 *
 * The language tables: the element loads them with `import('./kk.js')`, each a chunk (English too, as
 * in the npm build), fetched in parallel with the first request while the element shows its spinner;
 * a shopper downloads only their own language (scripts/build.mjs checks that each is a chunk).
 *
 * The classic script is ASCII-only (`charset: 'ascii'`, `asciiTemplates`), so it reads the same on a
 * page served as windows-1251; the ES files and chunks are modules, which a browser always decodes as
 * UTF-8, and keep their text unescaped outside templates. Where the classic script's URL is unknown (its text inlined or
 * eval'ed) it cannot load its chunks: the element then says it has no connection, as for any chunk
 * that fails to load. The dev server (`npx vite`) serves the repository on 127.0.0.1 with `/api`
 * proxied to `npm start`.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import { staticImports } from './scripts/static-imports.mjs';

const format = process.env.PAYDESK_CDN_FORMAT ?? 'es';
if (format !== 'es' && format !== 'iife') {
  throw new Error(`PAYDESK_CDN_FORMAT must be "es" or "iife", not ${JSON.stringify(format)}`);
}

const root = fileURLToPath(new URL('./', import.meta.url));
const CDN_DIR = join(root, 'dist', 'cdn');
/** Where the lazy chunks go, relative to paydesk.js. */
const CHUNK_DIR = 'chunks';
/** Where the classic script's copies of the chunks and the module that hands out its own go. */
const CLASSIC_DIR = 'classic';
/** The first paint and the pay view: their chunk also carries what the views share (see the `paint` group). */
const PAINT = /[\\/]src[\\/]element[\\/](paint|pay-view)\.ts$/;

/** An `import()` of the output whose specifier is a plain string: its node and specifier. */
interface DynamicImport {
  start: number;
  end: number;
  specifier: string;
  /** The first parameter of the nearest arrow function around it, if any. */
  param?: string;
}

type Node = { type: string; start: number; end: number; [k: string]: unknown };

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

/** `./x.js` for a path relative to the directory of `from` (output file names). */
function relativeSpecifier(from: string, to: string): string {
  const rel = posix.relative(posix.dirname(from), to);
  return rel.startsWith('.') ? rel : `./${rel}`;
}

/** The loader of the CDN files (src/element/integrity.ts): checks each chunk against its digest. */
const LOADER = join(root, 'src', 'element', 'integrity.ts');
/** The name the loader has in the modules that load chunks. */
const LOADER_NAME = '__paydeskChunk';
/** The parameter of the arrow function the loader calls with its `load(name)`. */
const LOAD_PARAM = '__paydeskLoad';
/** The function appended to the entry with the digests (the loader calls it). */
const MANIFEST_FN = '__paydeskIntegrity';
/** Marks where the ES entry's function starts (the classic script replaces it with its own). */
const MANIFEST_MARK = '\n/*paydesk:integrity*/';

/** `sha384-<base64>` of a text as UTF-8 (what a browser checks a file's bytes against). */
const sri = (text: string) => `sha384-${createHash('sha384').update(text).digest('base64')}`;

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
function integrityLoads(): Plugin {
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

/**
 * Non-ASCII characters inside `html`/`svg` templates become numeric character references and inside
 * `css` templates CSS escapes, so the CDN files are pure ASCII (rolldown's `charset: 'ascii'`
 * escapes everything else but leaves tagged templates alone, their raw text being observable). A
 * classic script without a `charset` in its Content-Type is decoded in the page's encoding, and many
 * shops still serve windows-1251.
 */
function asciiTemplates(): Plugin {
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
function litForPaint(): Plugin {
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

/** A first-paint table: `\0paydesk-first:<path of the language's table>`. */
const FIRST_TABLE = '\0paydesk-first:';

/**
 * ES build: `import('./ru.js?first')` (src/element/i18n/first.ts) is a chunk of the table's
 * first-paint messages (`FIRST_KEYS`), cut from the table's own source: its properties of those keys,
 * as written. The first paint fetches that chunk with the first request; the whole table follows with
 * the element's own code. A key missing from a table is simply not there (English stands beneath).
 */
function firstTables(): Plugin {
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
      return `export default {${props.join(',')}};\n`;
    },
  };
}

/** The classic script's entry: dist/cdn/paydesk.js, its modules handed out to its chunks. */
const CLASSIC_ENTRY = '\0paydesk-classic-entry';

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
/** The fields of one source-map segment (VLQ). */
function decodeSegment(text: string): number[] {
  const out: number[] = [];
  let value = 0;
  let shift = 0;
  for (const ch of text) {
    const digit = BASE64.indexOf(ch);
    value += (digit & 31) << shift;
    if (digit & 32) shift += 5;
    else {
      out.push(value & 1 ? -(value >>> 1) : value >>> 1);
      value = shift = 0;
    }
  }
  return out;
}
function encodeSegment(fields: number[]): string {
  let out = '';
  for (const field of fields) {
    let v = field < 0 ? (-field << 1) | 1 : field << 1;
    do {
      const digit = v & 31;
      v >>>= 5;
      out += BASE64[v > 0 ? digit | 32 : digit];
    } while (v > 0);
  }
  return out;
}

/**
 * `code` with the texts at `edits` replaced, and its source map's generated columns moved to match
 * (the sources' positions are untouched).
 */
function editWithMap(code: string, map: string, edits: { start: number; end: number; text: string }[]): { code: string; map: string } {
  const sorted = [...edits].sort((a, b) => a.start - b.start);
  let out = '';
  let at = 0;
  for (const e of sorted) {
    out += code.slice(at, e.start) + e.text;
    at = e.end;
  }
  out += code.slice(at);
  // Line and column of each edit in the original.
  const lineStarts = [0];
  for (let i = code.indexOf('\n'); i >= 0; i = code.indexOf('\n', i + 1)) lineStarts.push(i + 1);
  const where = (offset: number) => {
    let line = 0;
    while (line + 1 < lineStarts.length && lineStarts[line + 1]! <= offset) line++;
    return { line, col: offset - lineStarts[line]! };
  };
  const m = JSON.parse(map) as { mappings: string };
  const lines = m.mappings.split(';');
  const byLine = new Map<number, { col: number; end: number; delta: number }[]>();
  for (const e of sorted) {
    const { line, col } = where(e.start);
    if (where(e.end).line !== line) throw new Error('paydesk: an edit spans lines');
    byLine.set(line, [...(byLine.get(line) ?? []), { col, end: col + e.end - e.start, delta: e.text.length - (e.end - e.start) }]);
  }
  for (const [line, lineEdits] of byLine) {
    if (!lines[line]) continue;
    let prevOld = 0;
    let prevNew = 0;
    lines[line] = lines[line]!
      .split(',')
      .map((segment) => {
        const fields = decodeSegment(segment);
        const col = prevOld + fields[0]!;
        prevOld = col;
        const moved = col + lineEdits.filter((e) => e.end <= col).reduce((sum, e) => sum + e.delta, 0);
        fields[0] = moved - prevNew;
        prevNew = moved;
        return encodeSegment(fields);
      })
      .join(',');
  }
  m.mappings = lines.join(';');
  return { code: out, map: JSON.stringify(m) };
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
function classicScript(): Plugin {
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

/** What both builds share. */
const common = { emptyOutDir: false, sourcemap: true, target: 'es2021', minify: true, reportCompressedSize: false, outDir: 'dist/cdn' } as const;
/** Vite keeps whitespace in library output (for consumers' minifiers); a CDN file is final. */
const rolldownCommon = { experimental: { nativeMagicString: true } } as const;
// Annotations (`/* @__PURE__ */`, `@vite-ignore`) served nothing once the files are built: 25 of them in
// paydesk.js cost 53 B gzip of the first paint.
const outputCommon = { minify: true, comments: { annotation: false } } as const;
const define = { 'process.env.NODE_ENV': JSON.stringify('production') };
const server = { host: '127.0.0.1', proxy: { '/api': 'http://127.0.0.1:3000' } };

const es = defineConfig({
  define,
  plugins: [litForPaint(), firstTables(), asciiTemplates(), integrityLoads()],
  build: {
    ...common,
    lib: { entry: 'src/cdn.ts', formats: ['es'], fileName: () => 'paydesk.js' },
    rolldownOptions: {
      ...rolldownCommon,
      preserveEntrySignatures: 'allow-extension',
      output: {
        ...outputCommon,
        // A module script is always decoded as UTF-8 (whatever the page's encoding or the Content-Type
        // says): the ES files keep their text as it is (a Cyrillic table is half the gzip of its \u
        // escapes). The classic script built from them escapes everything (`iife` below).
        charset: 'utf8',
        // A first-paint table is named after its language: chunks/ru-first-<hash>.js.
        chunkFileNames: (chunk) => {
          const first = chunk.facadeModuleId?.startsWith(FIRST_TABLE) && /([\w-]+)\.ts$/.exec(chunk.facadeModuleId);
          return `${CHUNK_DIR}/${first ? `${first[1]}-first` : '[name]'}-[hash:8].js`;
        },
        hashCharacters: 'hex',
        codeSplitting: {
          groups: [
            // What paydesk.js imports statically stays in it (else rolldown may split shared modules into a
            // chunk it would import: one more round trip before the element runs).
            { name: 'initial', tags: ['$initial'], priority: 2 },
            // The requisites, the first paint that draws them before the element (src/element/paint.ts), Lit's
            // renderer and what the views share: one chunk, fetched with the first request.
            { name: 'pay-view', test: PAINT, priority: 1 },
          ],
        },
      },
    },
  },
  server,
});

const iife = defineConfig({
  define,
  plugins: [classicScript()],
  build: {
    ...common,
    lib: { entry: CLASSIC_ENTRY, name: 'Paydesk', formats: ['iife'], fileName: () => 'paydesk.iife.js' },
    rolldownOptions: {
      ...rolldownCommon,
      input: CLASSIC_ENTRY,
      output: { ...outputCommon, charset: 'ascii' },
    },
  },
  server,
});

export default format === 'es' ? es : iife;
