/**
 * The widget as one browser script, for pages that paydesk serves itself (the sandbox's hosted form at
 * `/pay`, the demo storefront): the ES-module text that registers `<paydesk-checkout>`, with no bare
 * imports (Lit inside).
 *
 * Where it comes from:
 *   - `dist/cdn/paydesk.js` when it exists and is newer than every file under `src/` (always the case in
 *     the installed package, which ships no sources);
 *   - otherwise an in-memory esbuild bundle of `src/cdn.ts`, the CDN entry (bundled, minified, ES module), so a fresh
 *     clone works before `npm run build` and edits show up without a rebuild.
 * The result is computed once per process and cached; a failed attempt is not cached.
 *
 * The built file loads its language tables and later steps with `import('./chunks/<name>.js')`,
 * relative to its own URL; serve those with {@link loadWidgetFile} beside it (the esbuild bundle has
 * them inlined and never asks). A chunk that is not served leaves the element with its offline English
 * messages: it says it has no connection and offers to try again.
 *
 * @example
 * ```ts
 * import { loadWidgetBundle } from '../bundle/widget-bundle.js';
 * app.get('/widget/paydesk.js', async (c) =>
 *   c.body(await loadWidgetBundle(), 200, { 'content-type': WIDGET_BUNDLE_CONTENT_TYPE }));
 * app.get('/widget/chunks/:file', async (c) => {
 *   const code = await loadWidgetFile(`chunks/${c.req.param('file')}`);
 *   return code === null ? c.notFound() : c.body(code, 200, { 'content-type': WIDGET_BUNDLE_CONTENT_TYPE });
 * });
 * // page: <script type="module" src="/widget/paydesk.js"></script>
 * ```
 */
import { createHash } from 'node:crypto';
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The `Content-Type` to serve the bundle with. */
export const WIDGET_BUNDLE_CONTENT_TYPE = 'text/javascript; charset=utf-8';

export interface WidgetBundle {
  /** The ES-module text. */
  code: string;
  /** `dist` (the built CDN file) or `esbuild` (bundled from the sources in memory). */
  source: 'dist' | 'esbuild';
  /** `sha384-…` of `code`, for a `<script integrity>` attribute. */
  integrity: string;
  /** A strong ETag of `code` (quoted). */
  etag: string;
}

export interface WidgetBundlePaths {
  /** The package root: the folder that holds `dist/` and (in a clone) `src/`. */
  root: string;
}

/** This file is `src/bundle/widget-bundle.ts` or `dist/bundle/widget-bundle.js`: two levels below the root. */
const defaultPaths = (): WidgetBundlePaths => ({ root: fileURLToPath(new URL('../../', import.meta.url)) });

let cached: Promise<WidgetBundle> | undefined;

/** The widget's ES-module text (see the file comment); cached after the first success. */
export async function loadWidgetBundle(): Promise<string> {
  return (await loadWidgetBundleInfo()).code;
}

/** Like {@link loadWidgetBundle}, with where the code came from, its integrity value and an ETag. */
export function loadWidgetBundleInfo(): Promise<WidgetBundle> {
  if (!cached) {
    const attempt = buildWidgetBundle(defaultPaths());
    cached = attempt;
    attempt.catch(() => {
      if (cached === attempt) cached = undefined;
    });
  }
  return cached;
}

/** What {@link loadWidgetFile} accepts: a language chunk or a source map, never a path outside dist/cdn. */
const WIDGET_FILE = /^(?:chunks\/)?[a-z0-9][a-z0-9_-]{0,63}\.js(?:\.map)?$/;

/**
 * A file the widget module loads relative to its own URL (`chunks/kk.js`), or its source maps
 * (`paydesk.js.map`): the text from `dist/cdn/`, or null when there is no such file, when the
 * path is not of that form, or when the bundle in use is the in-memory one (which needs none).
 */
export async function loadWidgetFile(path: string): Promise<string | null> {
  if (typeof path !== 'string' || !WIDGET_FILE.test(path)) return null;
  const bundle = await loadWidgetBundleInfo();
  if (bundle.source !== 'dist') return null;
  try {
    return await readFile(join(defaultPaths().root, 'dist', 'cdn', ...path.split('/')), 'utf8');
  } catch {
    return null;
  }
}

/** Forgets the cached bundle (the next call reads or bundles again). */
export function clearWidgetBundleCache(): void {
  cached = undefined;
}

/** Reads or bundles the widget without touching the cache. Exported for tests. */
export async function buildWidgetBundle(paths: WidgetBundlePaths): Promise<WidgetBundle> {
  const distFile = join(paths.root, 'dist', 'cdn', 'paydesk.js');
  const srcDir = join(paths.root, 'src');
  const distTime = await mtime(distFile);
  const srcTime = await newestMtime(srcDir);

  let code: string;
  let source: WidgetBundle['source'];
  if (distTime !== null && (srcTime === null || distTime >= srcTime)) {
    code = await readFile(distFile, 'utf8');
    source = 'dist';
  } else if (srcTime !== null) {
    code = await bundleSources(paths.root);
    source = 'esbuild';
  } else {
    throw new Error(
      `paydesk: no widget bundle: neither ${distFile} nor the sources in ${srcDir} exist (run \`npm run build\`)`,
    );
  }
  const digest = (alg: string, enc: 'base64' | 'base64url') => createHash(alg).update(code).digest(enc);
  return { code, source, integrity: `sha384-${digest('sha384', 'base64')}`, etag: `"${digest('sha256', 'base64url')}"` };
}

async function bundleSources(root: string): Promise<string> {
  let esbuild: typeof import('esbuild');
  try {
    esbuild = await import('esbuild');
  } catch (cause) {
    throw new Error('paydesk: the sources are newer than dist/cdn/paydesk.js and esbuild is not installed; run `npm run build`', {
      cause,
    });
  }
  const result = await esbuild.build({
    absWorkingDir: root,
    entryPoints: [join(root, 'src', 'cdn.ts')],
    tsconfig: join(root, 'tsconfig.json'),
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2021',
    define: { 'process.env.NODE_ENV': '"production"' },
    legalComments: 'none',
    charset: 'utf8',
    write: false,
    logLevel: 'silent',
    // A first-paint table (`./ru.js?first`, src/element/i18n/first.ts) is the whole table here: one file holds them all.
    plugins: [
      {
        name: 'paydesk-first-tables',
        setup(build) {
          build.onResolve({ filter: /\?first$/ }, (args) => ({ path: join(args.resolveDir, args.path.replace(/\.js\?first$/, '.ts')) }));
        },
      },
    ],
  });
  const out = result.outputFiles[0];
  if (!out) throw new Error('paydesk: esbuild produced no output for src/cdn.ts');
  return out.text;
}

async function mtime(file: string): Promise<number | null> {
  try {
    return (await stat(file)).mtimeMs;
  } catch {
    return null;
  }
}

/** The newest modification time of any file below `dir`, or null when `dir` does not exist. */
async function newestMtime(dir: string): Promise<number | null> {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true, recursive: true });
  } catch {
    return null;
  }
  let newest = 0;
  await Promise.all(
    entries
      .filter((e) => e.isFile())
      .map(async (e) => {
        const t = await mtime(join(e.parentPath, e.name));
        if (t !== null && t > newest) newest = t;
      }),
  );
  return newest;
}
