#!/usr/bin/env node
/**
 * `npm run build`: writes dist/ from scratch.
 *   1. the npm build: `tsc -p tsconfig.build.json` → dist/**.js + .d.ts (ES modules, dependencies external)
 *   2. the CDN files (vite.config.ts): Vite builds the ES module and its chunks, then from them the classic
 *      script (IIFE) and its copies of the chunks in classic/, each with a source map
 *   3. dist/cdn/paydesk.sri.json: sha384 integrity values of every CDN file
 *      (checks: paydesk.js imports nothing statically; the language chunks import nothing but paydesk.js;
 *      the IIFE is ASCII-only)
 *   4. dist/custom-elements.json: `cem analyze --litelement`
 * Any failing step stops the build with a non-zero exit code and says which step failed.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { staticImports } from './static-imports.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const bin = (name) => join(root, 'node_modules', '.bin', name);
const quiet = process.argv.includes('--quiet');

function run(label, command, args, env = {}) {
  const started = Date.now();
  const result = spawnSync(command, args, {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: quiet ? ['ignore', 'pipe', 'pipe'] : 'inherit',
    encoding: 'utf8',
  });
  if (result.status !== 0) {
    if (quiet) process.stderr.write(`${result.stdout ?? ''}${result.stderr ?? ''}`);
    const why = result.error ? result.error.message : `exit code ${result.status ?? result.signal}`;
    console.error(`build failed at "${label}" (${why})`);
    process.exit(1);
  }
  if (!quiet) console.log(`✓ ${label} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
}

/** The `integrity` attribute value of a file: `sha384-<base64>`. */
function sri(file) {
  return `sha384-${createHash('sha384').update(readFileSync(file)).digest('base64')}`;
}

rmSync(join(root, 'dist'), { recursive: true, force: true });

run('npm build (tsc -p tsconfig.build.json)', bin('tsc'), ['-p', 'tsconfig.build.json']);
run('CDN ES module (vite)', bin('vite'), ['build', '--logLevel', 'warn'], { PAYDESK_CDN_FORMAT: 'es' });
run('CDN classic script (vite)', bin('vite'), ['build', '--logLevel', 'warn'], { PAYDESK_CDN_FORMAT: 'iife' });

const cdn = join(root, 'dist', 'cdn');
const fail = (message) => {
  console.error(`build failed: ${message}`);
  process.exit(1);
};
for (const f of ['paydesk.js', 'paydesk.iife.js', 'chunks/pay-view.js', 'classic/paydesk.js', 'classic/chunks/pay-view.js']) {
  for (const needed of f === 'classic/paydesk.js' ? [f] : [f, `${f}.map`]) if (!existsSync(join(cdn, needed))) fail(`dist/cdn/${needed} was not written`);
}
// A static import of paydesk.js would be one more round trip before the element runs (vite.config.ts).
const esImports = staticImports(readFileSync(join(cdn, 'paydesk.js'), 'utf8'));
if (esImports.length > 0) fail(`dist/cdn/paydesk.js imports ${esImports.join(', ')} statically; it must stand alone`);
const chunks = readdirSync(join(cdn, 'chunks')).filter((f) => f.endsWith('.js')).sort();
const languageLoader = readFileSync(join(root, 'src', 'element', 'i18n', 'index.ts'), 'utf8');
// Every language table is a chunk (src/cdn.ts bundles none).
const languages = new Set([...languageLoader.matchAll(/\bimport\(\s*['"]\.\/([a-z0-9-]+)\.js['"]\s*\)/g)].map((m) => `${m[1]}.js`));
if (languages.size === 0) fail('no language imports found in src/element/i18n/index.ts');
for (const f of languages) {
  if (!chunks.includes(f)) fail(`dist/cdn/chunks/${f} was not written`);
  // A table may take shared messages from paydesk.js (English spreads the offline ones); nothing else,
  // so that it is fetched in the same round trip as the element asks for it.
  const code = readFileSync(join(cdn, 'chunks', f), 'utf8');
  const imports = staticImports(code);
  const other = imports.filter((s) => s !== '../paydesk.js');
  if (other.length > 0 || /\bimport\s*\(/.test(code)) fail(`dist/cdn/chunks/${f} imports ${other.join(', ') || 'a module with import()'}; a table may import only ../paydesk.js`);
  if (imports.length > 0 && !existsSync(join(cdn, 'classic', 'chunks', f))) fail(`dist/cdn/classic/chunks/${f} was not written; the classic script loads it from there`);
}
// A classic script is decoded in the page's encoding unless served with a charset: keep it ASCII.
const iife = readFileSync(join(cdn, 'paydesk.iife.js'));
const nonAscii = iife.findIndex((b) => b > 0x7e || (b < 0x20 && b !== 0x0a && b !== 0x09 && b !== 0x0d));
if (nonAscii >= 0) fail(`dist/cdn/paydesk.iife.js has a non-ASCII byte at offset ${nonAscii}`);
if (/\bimport\.meta\b/.test(iife.toString('latin1'))) fail('dist/cdn/paydesk.iife.js uses import.meta, which a classic script has not');
const classicChunks = readdirSync(join(cdn, 'classic', 'chunks')).filter((f) => f.endsWith('.js')).sort();

const files = ['paydesk.js', 'paydesk.iife.js', ...chunks.map((f) => `chunks/${f}`), 'classic/paydesk.js', ...classicChunks.map((f) => `classic/chunks/${f}`)];
const integrity = Object.fromEntries(files.map((f) => [f, sri(join(cdn, f))]));
writeFileSync(join(cdn, 'paydesk.sri.json'), `${JSON.stringify(integrity, null, 2)}\n`);
if (!quiet) console.log(`✓ dist/cdn/paydesk.sri.json (sha384 of ${files.length} files)`);

run('custom-elements.json (cem analyze --litelement)', bin('cem'), [
  'analyze',
  '--litelement',
  '--quiet',
  '--config',
  'custom-elements-manifest.config.mjs',
]);
if (!existsSync(join(root, 'dist', 'custom-elements.json'))) {
  console.error('build failed: dist/custom-elements.json was not written');
  process.exit(1);
}

if (!quiet) console.log('dist/ is ready');
