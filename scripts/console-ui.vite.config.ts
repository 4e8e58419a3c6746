/**
 * Vite builds the console's browser code (src/console/ui/: console.html, its TypeScript, CSS and
 * logo) into `dist/console/ui/` (scripts/build.mjs), with hashed asset names and nothing inline, so the
 * page keeps a strict Content-Security-Policy (`script-src 'self'; style-src 'self'`).
 *
 * The base is a marker, `/__paydesk_console__/`: the console's server writes the merchant's
 * `basePath` over it as it loads the files (src/console/ui-files.ts), so one build serves any mount
 * path and no Vite runs at the merchant's. Running from the sources (tsx), the server builds with this
 * config itself, once per change of the sources (src/console/ui-files.ts).
 */
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

export const CONSOLE_UI_SRC = fileURLToPath(new URL('../src/console/ui/', import.meta.url));
export const CONSOLE_BASE_MARKER = '/__paydesk_console__/';

export default defineConfig({
  root: CONSOLE_UI_SRC,
  base: CONSOLE_BASE_MARKER,
  publicDir: false,
  logLevel: 'warn',
  build: {
    outDir: fileURLToPath(new URL('../dist/console/ui/', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: false,
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    reportCompressedSize: false,
    rolldownOptions: { input: { console: `${CONSOLE_UI_SRC}console.html` } },
  },
});
