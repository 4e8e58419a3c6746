/**
 * Vite builds the CDN files. `npm run build` (scripts/build.mjs) runs it twice, after
 * `tsc -p tsconfig.build.json` (the npm build):
 *
 * 1. `PAYDESK_CDN_FORMAT=es`, from src/cdn.ts:
 *      dist/cdn/paydesk.js            ES module that registers <paydesk-checkout>: Lit, the element, the
 *                                     offline English messages
 *      dist/cdn/chunks/pay-view.js    the requisites and what the views share (the chunk a first paint needs)
 *      dist/cdn/chunks/<name>.js      the other steps (method choice, closed order, live status), what few
 *                                     shoppers need (bank sheet and its table, receipt upload, form frame,
 *                                     QR encoder) and the bundler's runtime helpers
 *      dist/cdn/chunks/<lang>.js      the language tables, English and Russian included, one each
 * 2. `PAYDESK_CDN_FORMAT=iife`, from the ES build's output:
 *      dist/cdn/paydesk.iife.js       the same module as a classic script (global `Paydesk`)
 *      dist/cdn/classic/chunks/*.js   copies of the chunks it loads that import shared code, which they
 *      dist/cdn/classic/paydesk.js    take from classic/paydesk.js: it hands out the classic script's
 *                                     own modules (one Lit, one element, never a second copy)
 *
 * No waterfall: what the first painted requisites need is fetched in the first round trip after the
 * script runs, in parallel with the session request. paydesk.js has no static import (the modules it
 * shares with chunks stay in it: `preserveEntrySignatures: 'allow-extension'` and the `initial`
 * group); the requisites and what the views share are one chunk (the `pay-view` group); and every `import()`
 * in the output also imports, in the same round trip, the chunks its target imports statically
 * (`parallelImports`, what Vite's modulepreload does in an app), so a chunk never reveals another
 * one round trip later. The classic script loads the chunks that import nothing (most language tables,
 * the form frame) from chunks/ like the ES module, and the others from classic/ together with
 * classic/paydesk.js.
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
/** The pay view: its chunk also carries what the views share (see the `pay-view` group). */
const PAY_VIEW = /[\\/]src[\\/]element[\\/]pay-view\.ts$/;

/** An `import()` of the output whose specifier is a plain string: its node and specifier. */
interface DynamicImport {
  start: number;
  end: number;
  specifier: string;
}

type Node = { type: string; start: number; end: number; [k: string]: unknown };

/** Every `import('…')` with a constant specifier in a parsed program. */
function dynamicImports(program: unknown): DynamicImport[] {
  const found: DynamicImport[] = [];
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!node || typeof node !== 'object') return;
    const n = node as Node;
    if (n.type === 'ImportExpression') {
      const source = n.source as Node & { value?: unknown; quasis?: { value: { cooked: string } }[]; expressions?: unknown[] };
      const specifier =
        source.type === 'Literal' && typeof source.value === 'string'
          ? source.value
          : source.type === 'TemplateLiteral' && source.expressions?.length === 0
            ? source.quasis![0]!.value.cooked
            : null;
      if (specifier !== null) found.push({ start: n.start, end: n.end, specifier });
    }
    for (const [key, value] of Object.entries(n)) if (key !== 'type' && value && typeof value === 'object') visit(value);
  };
  visit(program);
  return found;
}

/** `./x.js` for a path relative to the directory of `from` (output file names). */
function relativeSpecifier(from: string, to: string): string {
  const rel = posix.relative(posix.dirname(from), to);
  return rel.startsWith('.') ? rel : `./${rel}`;
}

/**
 * ES build: every `import('./chunks/x.js')` of the output becomes
 * `Promise.all([import('./chunks/x.js'), import('./chunks/y.js'), …]).then((m) => m[0])`, y… being
 * the chunks x imports statically (and they, and so on) that the importing chunk has not loaded
 * already. A browser finds a chunk's static imports only once the chunk has arrived: this asks for
 * them all at once instead, as Vite's modulepreload does in an app.
 */
function parallelImports(): Plugin {
  return {
    name: 'paydesk-parallel-imports',
    renderChunk(code, chunk, _options, meta) {
      const closure = (file: string, into: Set<string>): Set<string> => {
        for (const dep of meta.chunks[file]?.imports ?? []) {
          if (!into.has(dep)) closure(dep, into.add(dep));
        }
        return into;
      };
      const loaded = closure(chunk.fileName, new Set([chunk.fileName]));
      const out = meta.magicString!;
      for (const imp of dynamicImports(this.parse(code))) {
        const target = posix.join(posix.dirname(chunk.fileName), imp.specifier);
        if (!meta.chunks[target]) this.error(`paydesk: ${chunk.fileName} imports ${imp.specifier}, which is not a chunk of this build`);
        const deps = [...closure(target, new Set())].filter((d) => !loaded.has(d));
        if (deps.length === 0) continue;
        const all = [code.slice(imp.start, imp.end), ...deps.map((d) => `import(${JSON.stringify(relativeSpecifier(chunk.fileName, d))})`)];
        out.update(imp.start, imp.end, `Promise.all([${all.join(',')}]).then((m) => m[0])`);
      }
      return out;
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

/** The classic script's entry: dist/cdn/paydesk.js, its modules handed out to its chunks. */
const CLASSIC_ENTRY = '\0paydesk-classic-entry';
/** A function defined in the classic script's intro, before any module code runs (see `classicScript`). */
const CLASSIC_IMPORT_FN = '__paydeskImport';

/**
 * IIFE build: the ES module dist/cdn/paydesk.js (built first) as a classic script.
 *
 *   - its exports (the public ones and those its chunks import) go to
 *     `globalThis[Symbol.for('paydesk.classic.<hash of paydesk.js>')]`; its public ones also to the
 *     global `Paydesk`;
 *   - its `import('./chunks/x.js')` calls become `__paydeskImport('x.js')`, which loads, beside the
 *     script (its URL read from `document.currentScript` when it runs), `chunks/x.js` when x imports
 *     nothing (the language tables), else `classic/chunks/x.js` and, in the same round trip,
 *     `classic/paydesk.js`;
 *   - classic/chunks/ holds copies of the chunks that import anything (their maps beside them), whose
 *     `../paydesk.js` is classic/paydesk.js: a module that exports what the script left in the
 *     global above (so one Lit, one element and one set of tables serve both), and throws if it is not
 *     there.
 */
function classicScript(): Plugin {
  const esEntry = join(CDN_DIR, 'paydesk.js');
  const chunkCode = new Map<string, string>();
  const readChunk = (name: string): string => {
    let code = chunkCode.get(name);
    if (code === undefined) {
      const file = join(CDN_DIR, CHUNK_DIR, name);
      if (!existsSync(file)) throw new Error(`paydesk: dist/cdn/${CHUNK_DIR}/${name} is missing; build the ES module first (PAYDESK_CDN_FORMAT=es)`);
      chunkCode.set(name, (code = readFileSync(file, 'utf8')));
    }
    return code;
  };
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
  /** The chunks' imports other than ../paydesk.js, as names in chunks/. */
  const importsOf = (name: string, parse: (code: string) => unknown): string[] => {
    const code = readChunk(name);
    return [...staticImports(code), ...dynamicImports(parse(code)).map((i) => i.specifier)]
      .filter((spec) => spec !== '../paydesk.js')
      .map((spec) => posix.join(CHUNK_DIR, spec).slice(CHUNK_DIR.length + 1));
  };
  const importsEntry = (name: string) => staticImports(readChunk(name)).includes('../paydesk.js');
  let key = '';
  let entryExports: string[] = [];
  /** What src/element/index.ts exports: the classic script re-exports it, and paydesk.js must have it. */
  let publicNames: string[] = [];
  /** The chunks the classic script loads from classic/: those that import anything, and what they import. */
  const copied = new Set<string>();
  const CHUNK_ID = 'paydesk-chunk:';
  /** The name of the shared modules in classic/paydesk.js. */
  const SHARED = '__paydeskClassic';
  return {
    name: 'paydesk-classic-script',
    enforce: 'pre',
    resolveId(source) {
      return source === CLASSIC_ENTRY ? CLASSIC_ENTRY : null;
    },
    resolveDynamicImport(specifier, importer) {
      if (importer !== esEntry || typeof specifier !== 'string') return null;
      const name = specifier.startsWith(`./${CHUNK_DIR}/`) ? specifier.slice(CHUNK_DIR.length + 3) : '';
      if (!/^[\w-]+\.js$/.test(name)) this.error(`paydesk: dist/cdn/paydesk.js imports ${specifier}; expected ./${CHUNK_DIR}/<name>.js`);
      if (importsOf(name, (c) => this.parse(c)).length > 0 || importsEntry(name)) {
        const queue = [name];
        while (queue.length) {
          const next = queue.pop()!;
          if (copied.has(next)) continue;
          copied.add(next);
          queue.push(...importsOf(next, (c) => this.parse(c)));
        }
      }
      return { id: `${CHUNK_ID}${name}`, external: true };
    },
    load(id) {
      if (id === esEntry) {
        if (!existsSync(esEntry)) this.error('paydesk: dist/cdn/paydesk.js is missing; build the ES module first (PAYDESK_CDN_FORMAT=es)');
        // That it stands alone (no static import) is checked after the build (scripts/build.mjs).
        const code = readFileSync(esEntry, 'utf8');
        entryExports = exportsOf(this.parse(code));
        return { code, map: readFileSync(`${esEntry}.map`, 'utf8') };
      }
      if (id !== CLASSIC_ENTRY) return null;
      key = `paydesk.classic.${createHash('sha256').update(readFileSync(esEntry)).digest('hex').slice(0, 12)}`;
      publicNames = exportsOf(this.parse(readFileSync(join(root, 'src', 'element', 'index.ts'), 'utf8'), { lang: 'ts' }));
      if (publicNames.length === 0) this.error('paydesk: src/element/index.ts exports nothing');
      const from = JSON.stringify(esEntry);
      return (
        `import * as __paydesk from ${from};` +
        `globalThis[Symbol.for(${JSON.stringify(key)})] = __paydesk;` +
        `export { ${publicNames.join(', ')} } from ${from};`
      );
    },
    renderChunk(code, _chunk, _options, meta) {
      const out = meta.magicString!;
      let rewritten = 0;
      for (const imp of dynamicImports(this.parse(code))) {
        if (!imp.specifier.startsWith(CHUNK_ID)) continue;
        const name = imp.specifier.slice(CHUNK_ID.length);
        out.update(imp.start, imp.end, `${CLASSIC_IMPORT_FN}(${JSON.stringify(name)},${copied.has(name) ? 1 : 0})`);
        rewritten++;
      }
      if (rewritten === 0) this.error('paydesk: no import() of a chunk in the classic script');
      return out;
    },
    generateBundle() {
      if (entryExports.includes(SHARED)) this.error(`paydesk: dist/cdn/paydesk.js exports ${SHARED}`);
      const missing = publicNames.filter((n) => !entryExports.includes(n));
      if (missing.length > 0) this.error(`paydesk: dist/cdn/paydesk.js does not export ${missing.join(', ')}`);
      const map = (name: string) => {
        const m = JSON.parse(readFileSync(join(CDN_DIR, CHUNK_DIR, `${name}.map`), 'utf8')) as { sources: string[] };
        // One directory deeper than the original.
        m.sources = m.sources.map((s) => (/^[a-z]+:/i.test(s) || s.startsWith('/') ? s : `../${s}`));
        return JSON.stringify(m);
      };
      for (const name of [...copied].sort()) {
        this.emitFile({ type: 'asset', fileName: `${CLASSIC_DIR}/${CHUNK_DIR}/${name}`, source: readChunk(name) });
        if (existsSync(join(CDN_DIR, CHUNK_DIR, `${name}.map`))) this.emitFile({ type: 'asset', fileName: `${CLASSIC_DIR}/${CHUNK_DIR}/${name}.map`, source: map(name) });
      }
      this.emitFile({
        type: 'asset',
        fileName: `${CLASSIC_DIR}/paydesk.js`,
        source:
          `// What paydesk.iife.js hands to its chunks in ${CLASSIC_DIR}/${CHUNK_DIR}/ (vite.config.ts, classicScript).\n` +
          `const ${SHARED} = globalThis[Symbol.for(${JSON.stringify(key)})];\n` +
          `if (!${SHARED}) throw new Error("paydesk: this module belongs to the paydesk.iife.js it was built with, which is not on this page");\n` +
          `export const { ${entryExports.join(', ')} } = ${SHARED};\n`,
      });
    },
  };
}

/**
 * The classic script's intro: `__paydeskImport(name, shared)` imports `chunks/<name>` (shared 0) or
 * `classic/chunks/<name>` with `classic/paydesk.js` (shared 1) from beside the script, whose URL it
 * reads from `document.currentScript` as the script starts; it rejects when that URL is unknown.
 */
const CLASSIC_INTRO =
  `var ${CLASSIC_IMPORT_FN}=(function(b){return function(n,s){` +
  `if(!b)return Promise.reject(new Error("paydesk: the script's URL is unknown; cannot load "+n));` +
  `var u=function(p){return new URL(p,b).href};` +
  `return s?Promise.all([import(u("${CLASSIC_DIR}/${CHUNK_DIR}/"+n)),import(u("${CLASSIC_DIR}/paydesk.js"))]).then(function(m){return m[0]}):import(u("${CHUNK_DIR}/"+n))` +
  `}})(typeof document<"u"&&document.currentScript&&document.currentScript.src||"");`;

/** What both builds share. */
const common = { emptyOutDir: false, sourcemap: true, target: 'es2021', minify: true, reportCompressedSize: false, outDir: 'dist/cdn' } as const;
/** Vite keeps whitespace in library output (for consumers' minifiers); a CDN file is final. */
const rolldownCommon = { experimental: { nativeMagicString: true } } as const;
const outputCommon = { minify: true } as const;
const define = { 'process.env.NODE_ENV': JSON.stringify('production') };
const server = { host: '127.0.0.1', proxy: { '/api': 'http://127.0.0.1:3000' } };

const es = defineConfig({
  define,
  plugins: [asciiTemplates(), parallelImports()],
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
        chunkFileNames: `${CHUNK_DIR}/[name].js`,
        codeSplitting: {
          groups: [
            // What paydesk.js imports statically stays in it (else rolldown may split shared modules into a
            // chunk it would import: one more round trip before the element runs).
            { name: 'initial', tags: ['$initial'], priority: 2 },
            // The requisites and what they share with the other views: one chunk, the one a first paint needs.
            { name: 'pay-view', test: PAY_VIEW, priority: 1 },
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
      output: { ...outputCommon, charset: 'ascii', intro: CLASSIC_INTRO },
    },
  },
  server,
});

export default format === 'es' ? es : iife;
