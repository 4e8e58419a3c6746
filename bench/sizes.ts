/**
 * Bundle sizes of the built package (`dist/`), raw, gzip (level 9) and brotli (quality 11), and the
 * size budget checked by `npm test` (test/node/pack/size.test.ts) and reported by `npm run bench`.
 *
 *   cdn-iife          dist/cdn/paydesk.iife.js: what a classic <script> tag downloads (budget 25 KB gzip, 22 KB brotli)
 *   cdn-es            dist/cdn/paydesk.js: what an import map / <script type=module> downloads
 *   language chunk    one of dist/cdn/chunks/<lang>.js, fetched only for that language (the `LAZY`
 *                     languages of src/element/i18n/load.ts, but English, which the CDN files
 *                     carry)
 *   lazy chunk        any other file in dist/cdn/chunks/ (code the element loads with import() when
 *                     it needs it, e.g. the QR encoder), named after its file
 *   element           the npm build of `paydesk` (dist/index.js) bundled and minified the way an
 *                     app's bundler would, with Lit and the other npm dependencies left out: the
 *                     element's own code, i.e. what paydesk adds on top of Lit (budget 12.5 KB gzip, 11.25 KB brotli);
 *                     what it loads with import() (language tables, method list, pay view, closed
 *                     order, live status, bank links, QR drawing) becomes separate chunks and is
 *                     not counted
 *   element + Russian the same with the Russian table counted in: what a Russian-speaking shopper
 *                     loads before the first text (the npm build loads every table on demand)
 *   element + qrcode  the same with the QR encoder (an npm dependency) counted in
 *   first paint       what a Russian page with `method-type` set downloads from dist/cdn before its
 *                     requisites are painted: the entry, the pay view chunk and every chunk it imports
 *                     statically, the Russian first-paint messages (ES: paydesk.js and chunks/; classic:
 *                     paydesk.iife.js, its classic/chunks/ copies and the chunks/ it loads as they are); each
 *                     file compressed alone, as it travels
 *
 * KB here is 1000 bytes. Alone, after `npm run build`: `npx tsx bench/sizes.ts` prints the figures.
 */
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { LANGUAGES } from '../src/element/i18n/index.js';
import { staticImports } from '../scripts/static-imports.mjs';

/** The languages loaded from `dist/cdn/chunks/<lang>.js`: all of them (the CDN files carry none inside). */
export const LANGUAGE_CHUNKS: readonly string[] = LANGUAGES;

export const KB = 1000;

/**
 * The size budget (gzip and brotli bytes). CDNs serve brotli (quality 11, pre-compressed) to every
 * browser that asks for it, gzip to the rest: both are held. The brotli budgets keep about the room
 * the gzip ones leave (brotli is 0.87–0.90 of gzip on these files).
 */
export const BUDGETS = {
  cdnIifeGzip: 25 * KB,
  cdnIifeBrotli: 22 * KB,
  /**
   * The element's own module: npm build, Lit and the other npm dependencies left out. Gzip 12.5 KB
   * since the element takes over a CDN first paint's request and the first requests became functions
   * the CDN entry shares (requests.ts, issue 33: +0.3 KB); brotli 11.25 KB for the same reason.
   */
  elementWithoutLitGzip: 12.5 * KB,
  elementWithoutLitBrotli: 11.25 * KB,
  /**
   * What a CDN page downloads before its requisites are painted (the entry and the first-paint
   * messages, ES or classic): issue 33's 20 KB gzip until painted, less the page's own HTML (0.5 KB
   * in the bench's pages).
   */
  firstPaintGzip: 19.5 * KB,
} as const;

export interface SizeFigure {
  name: string;
  /** What was measured (files, or how the bundle was made). */
  what: string;
  raw: number;
  gzip: number;
  brotli: number;
}

export interface PackageSizes {
  cdnIife: SizeFigure;
  cdnEs: SizeFigure;
  /** One entry per language chunk. */
  languageChunks: SizeFigure[];
  /** One entry per other lazily loaded CDN chunk (not a language table). */
  otherChunks: SizeFigure[];
  element: SizeFigure;
  /** The element and the Russian table: what a Russian-speaking shopper loads before the first text. */
  elementWithRussian: SizeFigure;
  elementWithQrcode: SizeFigure;
  /** The files a Russian page's first paint of the requisites downloads, summed (each compressed alone). */
  firstPaint: { es: SizeFigure; classic: SizeFigure };
}

export function measureBytes(name: string, what: string, bytes: Uint8Array): SizeFigure {
  return {
    name,
    what,
    raw: bytes.byteLength,
    gzip: gzipSync(bytes, { level: 9 }).byteLength,
    brotli: brotliCompressSync(bytes, {
      params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.byteLength },
    }).byteLength,
  };
}

async function measureFile(root: string, name: string, rel: string): Promise<SizeFigure> {
  return measureBytes(name, rel, await readFile(join(root, rel)));
}

/**
 * What a Russian page with `method-type` set downloads before its requisites are painted: the entry
 * (which carries the first paint, src/element/paint.ts) and the Russian first-paint messages (`chunks/`
 * or the classic script's `classic/chunks/`). Raw, gzip and brotli are sums over the files.
 */
async function measureFirstPaint(root: string, kind: 'es' | 'classic'): Promise<SizeFigure> {
  const cdn = join(root, 'dist', 'cdn');
  const entry = kind === 'es' ? 'paydesk.js' : 'paydesk.iife.js';
  const chunk = async (dir: string, name: string) => {
    const found = (await readdir(join(cdn, dir))).find((f) => new RegExp(`^${name}-[0-9a-f]{8}\\.js$`).test(f));
    if (!found) throw new Error(`dist/cdn/${dir}/${name}-<hash>.js is missing`);
    return `${dir}/${found}`;
  };
  const files = [entry];
  if (staticImports(await readFile(join(cdn, entry), 'utf8')).length > 0) throw new Error(`dist/cdn/${entry} imports a module statically`);
  // The Russian messages of the first paint (src/element/i18n/first.ts; the classic script's copy, which takes
  // the loader from it: the chunk carries its whole table's digest); the whole table follows after the paint.
  files.push(await chunk(kind === 'es' ? 'chunks' : 'classic/chunks', 'ru-first'));
  const figures = await Promise.all(files.map((f) => measureFile(root, f, `dist/cdn/${f}`)));
  const sum = (k: 'raw' | 'gzip' | 'brotli') => figures.reduce((total, f) => total + f[k], 0);
  return {
    name: `first paint, ${kind === 'es' ? 'ES module' : 'classic script'} (ru)`,
    what: `${files.length} files: ${files.join(', ')}`,
    raw: sum('raw'),
    gzip: sum('gzip'),
    brotli: sum('brotli'),
  };
}

/**
 * The element's initial code as an app bundler would emit it from the npm build: `dist/index.js`,
 * minified, `external` packages left out, dynamic imports split off (and not counted).
 */
export async function bundleElement(root: string, external: readonly string[], alsoLoaded: readonly string[] = []): Promise<Uint8Array> {
  const esbuild = await import('esbuild');
  const entry = join(root, 'dist', 'index.js');
  const result = await esbuild.build({
    absWorkingDir: root,
    entryPoints: [entry],
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2021',
    minify: true,
    charset: 'utf8',
    legalComments: 'none',
    external: external.flatMap((p) => [p, `${p}/*`]),
    define: { 'process.env.NODE_ENV': '"production"' },
    outdir: join(root, '.size-out'),
    metafile: true,
    write: false,
    logLevel: 'silent',
  });
  const outputs = result.metafile.outputs;
  const entryOut = Object.keys(outputs).find((k) => outputs[k]?.entryPoint === 'dist/index.js');
  if (!entryOut) throw new Error('esbuild produced no entry chunk for dist/index.js');
  // The entry chunk and whatever it imports statically: the code that loads before first render.
  const initial = new Set<string>();
  const visit = (out: string) => {
    if (initial.has(out)) return;
    initial.add(out);
    for (const imp of outputs[out]?.imports ?? []) if (imp.kind === 'import-statement' && !imp.external) visit(imp.path);
  };
  visit(entryOut);
  for (const input of alsoLoaded) {
    const out = Object.keys(outputs).find((k) => outputs[k]?.entryPoint === input);
    if (!out) throw new Error(`esbuild made no chunk of its own for ${input}`);
    visit(out);
  }
  const chunks = result.outputFiles.filter((f) => [...initial].some((rel) => f.path === join(root, rel)));
  if (chunks.length !== initial.size) throw new Error('esbuild output and metafile disagree');
  return Buffer.concat(chunks.map((f) => f.contents));
}

export async function measurePackageSizes(root: string): Promise<PackageSizes> {
  const pkg = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as { dependencies?: Record<string, string> };
  const deps = Object.keys(pkg.dependencies ?? {});
  const litPackages = ['lit', 'lit-html', 'lit-element', '@lit/reactive-element'];
  const chunkDir = join(root, 'dist', 'cdn', 'chunks');
  const chunkFiles = (await readdir(chunkDir)).filter((f) => f.endsWith('.js')).sort();
  // Chunk names carry a hash of their content (`kk-<hash>.js`).
  const chunkName = (f: string) => f.replace(/(-[0-9a-f]{8})?\.js$/, '');
  const isLanguage = (f: string) => LANGUAGE_CHUNKS.includes(chunkName(f));
  return {
    cdnIife: await measureFile(root, 'CDN classic script', 'dist/cdn/paydesk.iife.js'),
    cdnEs: await measureFile(root, 'CDN ES module', 'dist/cdn/paydesk.js'),
    languageChunks: await Promise.all(
      chunkFiles.filter(isLanguage).map((f) => measureFile(root, `language chunk ${chunkName(f)}`, `dist/cdn/chunks/${f}`)),
    ),
    otherChunks: await Promise.all(
      chunkFiles.filter((f) => !isLanguage(f)).map((f) => measureFile(root, `lazy chunk ${chunkName(f)}.js`, `dist/cdn/chunks/${f}`)),
    ),
    element: measureBytes(
      'element without Lit',
      `dist/index.js bundled, minified; external: ${[...new Set([...litPackages, ...deps])].join(', ')}`,
      await bundleElement(root, [...new Set([...litPackages, ...deps])]),
    ),
    elementWithRussian: measureBytes(
      'element without Lit, with Russian',
      `dist/index.js and dist/element/i18n/ru.js bundled, minified; external: ${[...new Set([...litPackages, ...deps])].join(', ')}`,
      await bundleElement(root, [...new Set([...litPackages, ...deps])], ['dist/element/i18n/ru.js']),
    ),
    elementWithQrcode: measureBytes(
      'element without Lit, with qrcode',
      `dist/index.js bundled, minified; external: ${litPackages.join(', ')}`,
      await bundleElement(root, litPackages),
    ),
    firstPaint: { es: await measureFirstPaint(root, 'es'), classic: await measureFirstPaint(root, 'classic') },
  };
}

/** `31.4 KB` */
export function kb(bytes: number): string {
  return `${(bytes / KB).toFixed(1)} KB`;
}

/** One line per figure, for test output and the console. */
export function sizeLines(sizes: PackageSizes): string[] {
  const row = (f: SizeFigure) => `${f.name.padEnd(34)} ${kb(f.raw).padStart(9)} raw ${kb(f.gzip).padStart(8)} gzip ${kb(f.brotli).padStart(8)} brotli`;
  return [sizes.cdnIife, sizes.cdnEs, sizes.firstPaint.es, sizes.firstPaint.classic, sizes.element, sizes.elementWithRussian, sizes.elementWithQrcode, ...sizes.otherChunks, ...sizes.languageChunks].map(row);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.log(sizeLines(await measurePackageSizes(fileURLToPath(new URL('..', import.meta.url)))).join('\n'));
}
