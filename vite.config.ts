/**
 * Vite builds the CDN files from src/cdn.ts (self-contained: Lit, the QR encoder, English and Russian
 * bundled in):
 *   dist/cdn/paydesk.js          ES module that registers <paydesk-checkout>
 *   dist/cdn/paydesk.iife.js     classic script that registers <paydesk-checkout> (global `Paydesk`)
 *   dist/cdn/chunks/<lang>.js    the optional language tables (kk, uz, hy, az, ky, be, uk, tg), one ES
 *                                module each, fetched only when a page asks for that language
 * `npm run build` (scripts/build.mjs) runs this twice, `PAYDESK_CDN_FORMAT=es` then `=iife`, after
 * `tsc -p tsconfig.build.json` (the npm build).
 *
 * Language tables: the element loads them with `import('./kk.js')`. The ES build turns each into
 * `chunks/kk.js` beside `paydesk.js`. A classic script cannot be split, and inlining all eight tables
 * would cost the IIFE ~15 KB gzip (its budget is 30 KB), so the IIFE build rewrites those imports to load
 * the very same `chunks/<lang>.js` files from beside the script's own URL (`document.currentScript.src`,
 * read when the script runs). Where that URL is unknown (the script text was inlined or eval'ed) or the
 * chunk cannot be fetched, the element speaks English, which both CDN files carry, as it does for any
 * table that fails to load.
 *
 * The code of later steps (`import('./pay-view.js')` etc. in paydesk-checkout.ts: method list, pay
 * view, closed order, live status, bank sheet, receipt upload, form frame) becomes `chunks/<name>.js`
 * in the ES build, importing what it shares from `../paydesk.js` (`preserveEntrySignatures:
 * 'allow-extension'` keeps that shared code in the entry file); the IIFE bundles it in (see
 * `viewsBundled`), except the standalone chunks (the QR encoder and the SBP bank table, see
 * `standaloneChunks`), which it loads from chunks/ like the language tables.
 *
 * Output is ASCII-only (`charset: 'ascii'`), so the classic script reads the same on a page served
 * as windows-1251. The dev server (`npx vite`) serves the repository on 127.0.0.1 with `/api` proxied
 * to `npm start`.
 */
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import cdnLanguages from './src/cdn-languages.json' with { type: 'json' };

const format = process.env.PAYDESK_CDN_FORMAT ?? 'es';
if (format !== 'es' && format !== 'iife' && format !== 'classic') {
  throw new Error(`PAYDESK_CDN_FORMAT must be "es", "iife" or "classic", not ${JSON.stringify(format)}`);
}

/** Where the lazy chunks go, relative to the main file (same path in both builds). */
const CHUNK_DIR = 'chunks';
/** The module whose `import('./<lang>.js')` calls load the optional language tables. */
const LANGUAGE_LOADER = /[\\/]src[\\/]element[\\/]i18n[\\/]index\.ts$/;
const LANGUAGE_IMPORT = /\bimport\(\s*(['"])\.\/([a-z]{2,3}(?:-[a-z0-9]{2,8})*)\.js\1\s*\)/g;
/** Languages the CDN entry (src/cdn.ts) bundles (see `languageImports`); build.mjs and the size test read the same list. */
const IN_CDN_ENTRY = new Set<string>(cdnLanguages);
/**
 * A function defined in the IIFE's intro, before any module code runs: the URL of a chunk beside the
 * script (read from `document.currentScript` at that moment), or a throw when the URL is unknown.
 */
const CHUNK_URL_FN = '__paydeskChunkUrl';
const IIFE_INTRO =
  `var ${CHUNK_URL_FN}=(function(b){return function(p){` +
  `if(!b)throw new Error("paydesk: the script's URL is unknown; cannot load "+p);` +
  `return new URL(p,b).href}})(typeof document<"u"&&document.currentScript&&document.currentScript.src||"");`;

/**
 * The `import('./<lang>.js')` calls of src/element/i18n/index.ts:
 *   - a language the CDN entry bundles (English, Russian) → the statically imported module, so it stays in the
 *     main file (left as `import()`, rolldown would split it into a chunk the main file then imports);
 *   - IIFE only, any other language → `import(<script URL>/../chunks/kk.js)` (see the file comment).
 */
function languageImports(): Plugin {
  let rewritten = 0;
  return {
    name: 'paydesk-language-imports',
    enforce: 'pre',
    transform(code, id) {
      if (!LANGUAGE_LOADER.test(id)) return null;
      const statics: string[] = [];
      const out = code.replace(LANGUAGE_IMPORT, (m, _q, lang: string) => {
        rewritten++;
        if (IN_CDN_ENTRY.has(lang)) {
          const name = `__paydesk_lang_${lang.replace(/-/g, '_')}`;
          statics.push(`import ${name} from './${lang}.js';`);
          return `Promise.resolve({ default: ${name} })`;
        }
        return format === 'iife' ? `import(/* @vite-ignore */ ${CHUNK_URL_FN}(${JSON.stringify(`${CHUNK_DIR}/${lang}.js`)}))` : m;
      });
      return { code: statics.join('') + out, map: null };
    },
    buildEnd(error) {
      if (!error && rewritten === 0) {
        this.error('paydesk: no `import(\'./<lang>.js\')` found in src/element/i18n/index.ts; update vite.config.ts');
      }
    },
  };
}

/**
 * Code loaded on demand that imports nothing from the rest (the QR encoder, the SBP bank table): like
 * the language tables, the IIFE loads the ES build's `chunks/<name>.js` from beside the script instead
 * of carrying it, so a shopper who never sees a QR or opens the bank sheet never downloads them.
 * build.mjs checks that these chunks import nothing.
 */
export const STANDALONE_CHUNKS = ['qr', 'bank-table'] as const;
const STANDALONE_IMPORT = new RegExp(`\\bimport\\(\\s*(['"])\\./(${STANDALONE_CHUNKS.join('|')})\\.js\\1\\s*\\)`, 'g');

/**
 * The code the classic script loads on demand instead of carrying it (rare steps: the method choice's
 * chunk aside, the bank sheet, the receipt upload, the form frame, the create's claim): built once
 * more (`PAYDESK_CDN_FORMAT=classic`) as `chunks/classic-<name>.js`, each with what it needs but Lit,
 * which it takes from the classic script (src/cdn-classic-lit.ts). Their own `import()`s of the
 * standalone chunks go to the ES build's files beside them.
 */
export const CLASSIC_CHUNKS = ['choose-view', 'banks', 'receipt', 'frame', 'claim'] as const;
const CLASSIC_PREFIX = 'classic-';

/** `classic` build only: `lit` is the classic script's (see `CLASSIC_CHUNKS`). */
function classicLit(): Plugin {
  const shim = fileURLToPath(new URL('./src/cdn-classic-lit.ts', import.meta.url));
  return {
    name: 'paydesk-classic-lit',
    enforce: 'pre',
    resolveId(source) {
      return source === 'lit' ? shim : null;
    },
    transform(code, id) {
      if (!/[\\/]src[\\/]element[\\/].*\.ts$/.test(id)) return null;
      const out = code.replace(STANDALONE_IMPORT, (_m, _q, name: string) => `import(/* @vite-ignore */ import.meta.url.replace(/[^/]*$/, ${JSON.stringify(`${name}.js`)}))`);
      return out === code ? null : { code: out, map: null };
    },
  };
}

/** IIFE only: `import('./qr.js')` (and the other standalone chunks) anywhere in src/element → the chunk beside the script. */
function standaloneChunks(): Plugin {
  const seen = new Set<string>();
  return {
    name: 'paydesk-standalone-chunks',
    enforce: 'pre',
    transform(code, id) {
      if (!/[\\/]src[\\/]element[\\/].*\.ts$/.test(id)) return null;
      const out = code.replace(STANDALONE_IMPORT, (_m, _q, name: string) => {
        seen.add(name);
        return `import(/* @vite-ignore */ ${CHUNK_URL_FN}(${JSON.stringify(`${CHUNK_DIR}/${name}.js`)}))`;
      });
      return out === code ? null : { code: out, map: null };
    },
    buildEnd(error) {
      // The QR encoder is imported by the element itself; the bank table by the bank sheet, a classic chunk.
      if (!error && !seen.has('qr')) this.error("paydesk: no import('./qr.js') found under src/element; update vite.config.ts");
    },
  };
}

/** The module whose `import('./pay-view.js')`, `import('./live.js')` etc. load the code the element needs later. */
const VIEW_LOADER = /[\\/]src[\\/]element[\\/]paydesk-checkout\.ts$/;
/** Any `import('./<name>.js')` of it (not a `typeof import(…)` type). */
const VIEW_IMPORT = /(?<!typeof\s*)\bimport\(\s*(['"])\.\/([a-z][a-z-]*)\.js\1\s*\)/g;

/**
 * IIFE only: the code the npm and ES builds load with `import()` when it is needed (the live status,
 * the pay view, the bank links, the QR encoder…) is bundled in: `import('./pay-view.js')` becomes an
 * already resolved promise of the statically imported module. (Inlined as dynamic imports, rolldown wraps them and the modules they share with
 * the rest in lazy initialisers, which costs more than the code itself.)
 */
function viewsBundled(): Plugin {
  let rewritten = 0;
  return {
    name: 'paydesk-views-bundled',
    enforce: 'pre',
    transform(code, id) {
      if (!VIEW_LOADER.test(id)) return null;
      const names = new Set<string>();
      const out = code.replace(VIEW_IMPORT, (_m, _q, name: string) => {
        rewritten++;
        if ((CLASSIC_CHUNKS as readonly string[]).includes(name)) {
          return `import(/* @vite-ignore */ ${CHUNK_URL_FN}(${JSON.stringify(`${CHUNK_DIR}/${CLASSIC_PREFIX}${name}.js`)}))`;
        }
        names.add(name);
        return `Promise.resolve(__paydesk_${name.replace(/-/g, '_')})`;
      });
      const imports = [...names].map((n) => `import * as __paydesk_${n.replace(/-/g, '_')} from './${n}.js';`).join('');
      return { code: imports + out, map: null };
    },
    buildEnd(error) {
      if (!error && rewritten === 0) {
        this.error('paydesk: no `import(\'./pay-view.js\')` found in src/element/paydesk-checkout.ts; update vite.config.ts');
      }
    },
  };
}

/**
 * IIFE only: non-ASCII characters inside `html`/`svg` templates become numeric character references
 * and inside `css` templates CSS escapes, so the classic script is pure ASCII (rolldown's
 * `charset: 'ascii'` escapes everything else but leaves tagged templates alone, their raw text being
 * observable). A classic script without a `charset` in its Content-Type is decoded in the page's
 * encoding, and many shops still serve windows-1251.
 */
function asciiTemplates(): Plugin {
  const nonAscii = /[^\x00-\x7f]/gu;
  const escapers: Record<string, (ch: string) => string> = {
    html: (ch) => `&#${ch.codePointAt(0)};`,
    svg: (ch) => `&#${ch.codePointAt(0)};`,
    css: (ch) => `\\\\${ch.codePointAt(0)!.toString(16)} `,
  };
  type Node = { type: string; start: number; end: number; [k: string]: unknown };
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

/** IIFE only: the script leaves its Lit where the classic chunks read it (src/cdn-classic-lit.ts). */
function shareLit(): Plugin {
  return {
    name: 'paydesk-share-lit',
    transform(code, id) {
      if (!/[\\/]src[\\/]cdn\.ts$/.test(id)) return null;
      return {
        code: `import { html as __h, svg as __s, css as __c, nothing as __n } from 'lit';globalThis[Symbol.for('paydesk.lit')] ??= { html: __h, svg: __s, css: __c, nothing: __n };${code}`,
        map: null,
      };
    },
  };
}

/** What every CDN build shares. */
const common = { emptyOutDir: false, sourcemap: true, target: 'es2021', minify: true, reportCompressedSize: false } as const;
const define = { 'process.env.NODE_ENV': JSON.stringify('production') };

const classic = defineConfig({
  define,
  plugins: [classicLit()],
  build: {
    ...common,
    outDir: 'dist/cdn/chunks',
    lib: {
      entry: Object.fromEntries(CLASSIC_CHUNKS.map((name) => [name, `src/element/${name}.ts`])),
      formats: ['es'],
      fileName: (_format, name) => `${CLASSIC_PREFIX}${name}.js`,
    },
    rolldownOptions: {
      output: { minify: true, chunkFileNames: `${CLASSIC_PREFIX}[name].js` },
    },
  },
});

export default format === 'classic' ? classic : defineConfig({
  define,
  plugins: format === 'iife' ? [languageImports(), standaloneChunks(), viewsBundled(), shareLit(), asciiTemplates()] : [languageImports()],
  build: {
    ...common,
    outDir: 'dist/cdn',
    lib: {
      entry: 'src/cdn.ts',
      name: 'Paydesk',
      formats: [format],
      fileName: () => (format === 'es' ? 'paydesk.js' : 'paydesk.iife.js'),
    },
    rolldownOptions: {
      preserveEntrySignatures: 'allow-extension',
      output:
        format === 'es'
          ? // Vite keeps whitespace in library ES output (for consumers' minifiers); a CDN file is final.
            // Everything the entry loads statically stays in paydesk.js (one request); only code loaded
            // with import() (languages, pay view, bank links, QR encoder) becomes chunks/, importing from it.
            {
              minify: true,
              charset: 'ascii',
              chunkFileNames: `${CHUNK_DIR}/[name].js`,
            }
          : {
              minify: true,
              charset: 'ascii',
              codeSplitting: false,
              intro: IIFE_INTRO,
            },
    },
  },
  server: { host: '127.0.0.1', proxy: { '/api': 'http://127.0.0.1:3000' } },
});
