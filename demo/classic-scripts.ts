/**
 * Vite plugin: classic scripts for the demo pages' <head>, for what must happen before the first paint
 * (demo/public/src/theme-first.ts). Vite bundles only module scripts, and a module script is deferred:
 * the page may be painted before it runs. A classic script without `async`/`defer` runs where it stands,
 * before the rest of the page is parsed or painted, in every engine.
 *
 * In a page: `<script src="/src/x.ts" data-classic vite-ignore></script>` (`vite-ignore`: Vite's own
 * HTML step leaves the tag alone). The build bundles `src/x.ts` with its imports into one classic
 * script (IIFE, minified, nothing imported or exported), writes it as `assets/x-<hash>.js` and points
 * the tag there: a same-origin file, so the strict CSP (`script-src 'self'`) allows it. The dev server
 * serves the tag as a module script instead (it runs, after the first paint).
 */
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { build, type Plugin } from 'vite';

const CLASSIC_TAG = /<script\b[^>]*\bsrc="(\/[^"]+\.ts)"[^>]*\bdata-classic\b[^>]*><\/script>/g;

/** `source` (a .ts file) and its imports as one classic script. */
async function bundleClassic(source: string): Promise<string> {
  const result = await build({
    configFile: false,
    logLevel: 'warn',
    publicDir: false,
    build: {
      // Nothing is written (the code goes into the demo's own bundle); no folder of ours is touched.
      write: false,
      emptyOutDir: false,
      outDir: join(tmpdir(), 'paydesk-demo-classic'),
      target: 'es2022',
      minify: true,
      lib: { entry: source, formats: ['iife'], name: 'paydeskDemoClassic' },
    },
  });
  const outputs = (Array.isArray(result) ? result : [result]).flatMap((r) => ('output' in r ? r.output : []));
  const chunks = outputs.filter((o) => o.type === 'chunk');
  if (chunks.length !== 1 || !chunks[0]) throw new Error(`${source}: one classic script expected, the build wrote ${chunks.length}`);
  const code = chunks[0].code;
  if (/^\s*(import|export)\b/m.test(code)) throw new Error(`${source}: the classic script still imports or exports`);
  return code;
}

interface ClassicScript {
  /** Where the build writes it, under the output folder. */
  fileName: string;
  code: string;
}

export function classicScripts(): Plugin {
  let root = '';
  let base = '/';
  /** Each source named by a page (`/src/x.ts`), bundled once per build. */
  let scripts = new Map<string, Promise<ClassicScript>>();
  const script = (src: string): Promise<ClassicScript> => {
    let made = scripts.get(src);
    if (!made) {
      made = bundleClassic(join(root, src)).then((code) => {
        const hash = createHash('sha256').update(code).digest('base64url').replace(/[-_]/g, '').slice(0, 8);
        return { fileName: `assets/${basename(src, '.ts')}-${hash}.js`, code };
      });
      scripts.set(src, made);
    }
    return made;
  };
  return {
    name: 'paydesk-demo-classic-scripts',
    configResolved(config) {
      root = config.root;
      base = config.base;
    },
    buildStart() {
      scripts = new Map();
    },
    transformIndexHtml: {
      order: 'pre',
      async handler(html, ctx) {
        if (ctx.server) return html.replace(CLASSIC_TAG, (_tag, src: string) => `<script type="module" src="${src}"></script>`);
        const urls = new Map<string, string>();
        for (const [, src] of html.matchAll(CLASSIC_TAG)) urls.set(src!, `${base}${(await script(src!)).fileName}`);
        return html.replace(CLASSIC_TAG, (_tag, src: string) => `<script src="${urls.get(src)}" vite-ignore></script>`);
      },
    },
    async generateBundle() {
      for (const made of scripts.values()) {
        const { fileName, code } = await made;
        this.emitFile({ type: 'asset', fileName, source: code });
      }
    },
  };
}
