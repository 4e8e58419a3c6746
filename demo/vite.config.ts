/**
 * Vite builds the demo's pages (storefront, thanks, support, CDN demo; the console is paydesk/console's own build) from `demo/public/`:
 * the HTML entries, their TypeScript (`demo/public/src/`, which imports paydesk's entries `src/money`,
 * `src/protocol` and `src/provider` instead of copying them, and the modules and base stylesheet it shares
 * with the console's pages, `src/ui-shared/`), CSS and images, into `demo/dist/` with hashed
 * asset names. Nothing inline: every script and style is a file, so the pages keep their strict
 * Content-Security-Policy (`script-src 'self'; style-src 'self'`). A script that must run before the first
 * paint (the theme: demo/public/src/theme-first.ts) is a classic script of its own (demo/classic-scripts.ts).
 *
 * `npm start` builds them itself when `demo/dist/` is missing or stale (demo/pages.ts); by hand:
 * `npm run build:demo`. `npx vite -c demo/vite.config.ts` serves the pages with hot reload on
 * 127.0.0.1:5173, with the server's routes proxied to a running `npm start` (PORT, default 3000); the
 * server-rendered checkout page (`/checkout/{cart}`) is that server's, from its own build of checkout.html.
 */
import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { defineConfig, version as viteVersion, type Plugin } from 'vite';
import { PAGES_OUT_DIR, PAGES_SRC_DIR, recordBuildInputs } from './build-inputs.js';
import { classicScripts } from './classic-scripts.js';

/** The HTML pages of demo/public, each an entry. */
function htmlEntries(): Record<string, string> {
  const pages: Record<string, string> = {};
  for (const name of readdirSync(PAGES_SRC_DIR)) {
    if (name.endsWith('.html')) pages[name.slice(0, -'.html'.length)] = join(PAGES_SRC_DIR, name);
  }
  return pages;
}

/** After a build, records what it read (demo/build-inputs.ts), for the freshness check at start. */
function buildInputs(): Plugin {
  let ids: string[] = [];
  let outDir = PAGES_OUT_DIR;
  return {
    name: 'paydesk-demo-build-inputs',
    apply: 'build',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    generateBundle() {
      ids = [...this.getModuleIds()];
    },
    closeBundle() {
      recordBuildInputs(outDir, ids, viteVersion);
    },
  };
}

/** The dev server answers the friendly paths as the merchant server does (`/thanks` → thanks.html); the console (paydesk/console) is the server's. */
function friendlyPaths(): Plugin {
  return {
    name: 'paydesk-demo-friendly-paths',
    apply: 'serve',
    configureServer(server) {
      server.middlewares.use((req, _res, next) => {
        const path = (req.url ?? '/').split('?')[0]!;
        if (path === '/thanks' || path === '/support') req.url = `${path}.html`;
        else if (path === '/cdn-demo') req.url = '/cdn.html';
        next();
      });
    },
  };
}

const api = `http://127.0.0.1:${process.env.PORT || '3000'}`;

export default defineConfig({
  root: PAGES_SRC_DIR,
  base: '/',
  publicDir: false,
  logLevel: 'warn',
  plugins: [buildInputs(), friendlyPaths(), classicScripts()],
  build: {
    outDir: PAGES_OUT_DIR,
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: true,
    // No data: URLs and no polyfill code injected into the pages: every asset is a file of its own.
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    reportCompressedSize: false,
    rolldownOptions: { input: htmlEntries() },
  },
  server: {
    host: '127.0.0.1',
    proxy: Object.fromEntries(['/api', '/console', '/demo/api', '/paydesk.js', '/chunks', '/cdn/', '/checkout/'].map((p) => [p, api])),
  },
});
