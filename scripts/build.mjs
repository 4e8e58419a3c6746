#!/usr/bin/env node
/**
 * `npm run build`: writes dist/ from scratch.
 *   1. the npm build: `tsc -p tsconfig.build.json` → dist/**.js + .d.ts (ES modules, dependencies external)
 *   2. the CDN files: Vite, once as an ES module and once as a classic script (IIFE), each with a source map
 *   3. dist/cdn/paydesk.sri.json: sha384 integrity values of both CDN files and of the language chunks
 *      (checks: the IIFE is ASCII-only; the language chunks import nothing)
 *   4. dist/custom-elements.json: `cem analyze --litelement`
 * Any failing step stops the build with a non-zero exit code and says which step failed.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

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
run('CDN classic script chunks (vite)', bin('vite'), ['build', '--logLevel', 'warn'], { PAYDESK_CDN_FORMAT: 'classic' });

const cdn = join(root, 'dist', 'cdn');
const fail = (message) => {
  console.error(`build failed: ${message}`);
  process.exit(1);
};
for (const f of ['paydesk.js', 'paydesk.iife.js']) {
  for (const needed of [f, `${f}.map`]) if (!existsSync(join(cdn, needed))) fail(`dist/cdn/${needed} was not written`);
}
// The IIFE loads the ES build's language chunks: they must stand alone (no imports back into paydesk.js).
// Other chunks (pay view, bank links, QR encoder) belong to the ES build only; the IIFE inlines them.
const chunks = readdirSync(join(cdn, 'chunks')).filter((f) => f.endsWith('.js')).sort();
const languageLoader = readFileSync(join(root, 'src', 'element', 'i18n', 'index.ts'), 'utf8');
// Languages the CDN entry bundles (src/cdn.ts) get no chunk.
const inEntry = new Set(JSON.parse(readFileSync(join(root, 'src', 'cdn-languages.json'), 'utf8')));
const languages = new Set(
  [...languageLoader.matchAll(/\bimport\(\s*['"]\.\/([a-z0-9-]+)\.js['"]\s*\)/g)].filter((m) => !inEntry.has(m[1])).map((m) => `${m[1]}.js`),
);
if (languages.size === 0) fail('no language imports found in src/element/i18n/index.ts');
for (const f of languages) if (!chunks.includes(f)) fail(`dist/cdn/chunks/${f} was not written`);
// The standalone chunks (vite.config.ts, STANDALONE_CHUNKS) are loaded by the IIFE from chunks/ too.
const standalone = new Set(['qr.js', 'bank-table.js']);
for (const f of standalone) if (!chunks.includes(f)) fail(`dist/cdn/chunks/${f} was not written`);
for (const f of chunks.filter((c) => languages.has(c) || standalone.has(c))) {
  if (/\bimport\s*[\s{*"'`(]|\bfrom\s*["'`]/.test(readFileSync(join(cdn, 'chunks', f), 'utf8'))) {
    fail(`dist/cdn/chunks/${f} imports another module; the IIFE cannot share code with it`);
  }
}
// The classic script's own chunks (vite.config.ts, CLASSIC_CHUNKS) import only each other (never paydesk.js).
const classicChunks = chunks.filter((c) => c.startsWith('classic-'));
if (classicChunks.length === 0) fail('no dist/cdn/chunks/classic-*.js was written');
for (const f of classicChunks) {
  for (const m of readFileSync(join(cdn, 'chunks', f), 'utf8').matchAll(/\bfrom\s*["'`]([^"'`]+)["'`]|\bimport\s*\(?\s*["'`]([^"'`]+)["'`]/g)) {
    const target = m[1] ?? m[2];
    if (!/^\.\/classic-[\w-]+\.js$/.test(target)) fail(`dist/cdn/chunks/${f} imports ${target}; a classic chunk may import only other classic chunks`);
  }
}
// A classic script is decoded in the page's encoding unless served with a charset: keep it ASCII.
const iife = readFileSync(join(cdn, 'paydesk.iife.js'));
const nonAscii = iife.findIndex((b) => b > 0x7e || (b < 0x20 && b !== 0x0a && b !== 0x09 && b !== 0x0d));
if (nonAscii >= 0) fail(`dist/cdn/paydesk.iife.js has a non-ASCII byte at offset ${nonAscii}`);

const files = ['paydesk.js', 'paydesk.iife.js', ...chunks.map((f) => `chunks/${f}`)];
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
