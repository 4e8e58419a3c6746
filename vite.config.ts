/**
 * Vite builds the CDN files. `npm run build` (scripts/build.mjs) runs it twice, after
 * `tsc -p tsconfig.build.json` (the npm build):
 *
 * 1. `PAYDESK_CDN_FORMAT=es`, from src/cdn.ts:
 *      dist/cdn/paydesk.js                   ES module that registers <paydesk-checkout>: the first request,
 *                                            the first paint (src/element/paint.ts: the requisites' templates
 *                                            and styles, written out as HTML by html-string.ts, with Lit's
 *                                            template tags but not its renderer), the offline English
 *                                            messages, the digests of what it loads
 *      dist/cdn/chunks/cdn-element-<hash>.js the element's own code, with Lit's renderer and element class
 *      dist/cdn/chunks/<name>-<hash>.js      the steps (pay step, method choice, closed order, live status), what
 *                                            few shoppers need (bank sheet and its table, receipt upload, form
 *                                            frame, QR encoder) and the bundler's runtime helpers
 *      dist/cdn/chunks/<lang>-<hash>.js      the language tables, English and Russian included, one each
 * 2. `PAYDESK_CDN_FORMAT=iife`, from the ES build's output:
 *      dist/cdn/paydesk.iife.js              the same module as a classic script (global `Paydesk`)
 *      dist/cdn/classic/chunks/*-<hash>.js   copies of the chunks it loads that import shared code, which
 *                                            they take from the global the classic script leaves its own
 *                                            modules in (one Lit, one element, never a second copy)
 * <hash> is a hash of the file's content: a long cache never mixes two builds.
 *
 * Code integrity (`integrityLoads`, scripts/vite/integrity.ts; the loader, src/element/integrity.ts):
 * every chunk is loaded through a check against its sha384 digest, which the entry carries for what
 * it loads itself and the chunk that loads it for the others (a chain: scripts/vite/chain.ts); a
 * changed chunk never runs.
 *
 * No waterfall: what the first painted requisites need is the entry itself and its language's
 * first-paint messages, fetched in the first round trip after the script runs, in parallel with the
 * session request. paydesk.js has no static import (the modules it shares with chunks stay in it:
 * `preserveEntrySignatures: 'allow-extension'` and the `initial` group); and every
 * chunk is asked for together with the chunks it imports statically (the entry's digests list them;
 * what Vite's modulepreload does in an app), so a chunk never reveals another one round trip later
 * (a chunk runs only after those it imports: src/element/integrity.ts).
 * The classic script loads the chunks that need nothing of it (most language tables) from chunks/
 * like the ES module, and the others from their copies in classic/chunks/.
 *
 * The language tables: the element loads them with `import('./kk.js')` (src/element/i18n/load.ts), each a
 * chunk (English too, as in the npm build) whose digest the element's chunk carries; the first paint
 * speaks from the `<lang>-first` chunks (first-tables.ts), fetched with the first request; a shopper
 * downloads only their own language (scripts/build.mjs checks that each is a chunk).
 *
 * The classic script is ASCII-only (`charset: 'ascii'`, `asciiTemplates`), so it reads the same on a
 * page served as windows-1251; the ES files and chunks are modules, which a browser always decodes as
 * UTF-8, and keep their text unescaped outside templates. Where the classic script's URL is unknown (its text inlined or
 * eval'ed) it cannot load its chunks: the element then says it has no connection, as for any chunk
 * that fails to load. The dev server (`npx vite`) serves the repository on 127.0.0.1 with `/api`
 * proxied to `npm start`.
 *
 * The plugins, one a file in scripts/vite/ (each with its doc comment): integrity.ts (`integrityLoads`,
 * ES build), lit-for-paint.ts (`litForPaint`, ES), first-tables.ts (`firstTables`, ES), ascii-templates.ts
 * (`asciiTemplates`, ES), classic.ts (`classicScript`, the IIFE build, with classic-copies.ts, its
 * copies of the chunks, and source-map-edit.ts: edits of a built file that keep its map right);
 * chain.ts plans the digest chain; shared.ts holds the output paths.
 */
import { defineConfig } from 'vite';
import { asciiTemplates } from './scripts/vite/ascii-templates.js';
import { CLASSIC_ENTRY, classicScript } from './scripts/vite/classic.js';
import { FIRST_TABLE, firstTables } from './scripts/vite/first-tables.js';
import { integrityLoads } from './scripts/vite/integrity.js';
import { litForPaint } from './scripts/vite/lit-for-paint.js';
import { CHUNK_DIR } from './scripts/vite/shared.js';

const format = process.env.PAYDESK_CDN_FORMAT ?? 'es';
if (format !== 'es' && format !== 'iife') {
  throw new Error(`PAYDESK_CDN_FORMAT must be "es" or "iife", not ${JSON.stringify(format)}`);
}

/** The token endpoint's client beyond the first request (src/element/api.ts; see the `api` group). */
const API = /[\\/]src[\\/]element[\\/]api\.ts$/;

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
            // chunk it would import: one more round trip before the element runs). The first paint is among
            // them (src/element/paint.ts: the requisites' templates and styles, what the views share, Lit's
            // template tags): one file and one gzip stream on the paint's path, no chunk fetched before it.
            { name: 'initial', tags: ['$initial'], priority: 3 },
            // The methods' request and what the element's later chunks (live status, receipt) take of the client:
            // a chunk of its own, which the element's chunk loads (else the bundler leaves it in the element's chunk,
            // and those chunks import the one that loads them: a cycle the digest chain hoists into the entry).
            { name: 'api', test: API, priority: 0 },
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
