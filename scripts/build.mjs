#!/usr/bin/env node
/**
 * `npm run build`: writes dist/ from scratch.
 *   1. the npm build: `tsc -p tsconfig.build.json` → dist/**.js + .d.ts (ES modules, dependencies external)
 *   2. the CDN files (vite.config.ts): Vite builds the ES module and its chunks, then from them the classic
 *      script (IIFE) and its copies of the chunks in classic/, each with a source map
 *   3. dist/cdn/paydesk.sri.json: sha384 integrity values of every CDN file
 *      (checks: paydesk.js imports nothing statically; the language chunks import nothing but paydesk.js;
 *      the IIFE is ASCII-only; every file either entry loads has its digest carried by the entry or by a
 *      file it loads (the chain, scripts/vite/chain.ts), and each digest is that of the file written:
 *      src/element/integrity.ts)
 *   4. dist/custom-elements.json: `cem analyze --litelement`
 *   (after 2) dist/console/ui/: the console's pages (scripts/console-ui.vite.config.ts), served by paydesk/console
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
run('console pages (vite: src/console/ui → dist/console/ui)', bin('vite'), ['build', '--logLevel', 'warn', '-c', 'scripts/console-ui.vite.config.ts']);
if (!existsSync(join(root, 'dist', 'console', 'ui', 'console.html'))) fail('dist/console/ui/console.html was not written');

const cdn = join(root, 'dist', 'cdn');
const fail = (message) => {
  console.error(`build failed: ${message}`);
  process.exit(1);
};
const chunks = readdirSync(join(cdn, 'chunks')).filter((f) => f.endsWith('.js')).sort();
const classicChunks = readdirSync(join(cdn, 'classic', 'chunks')).filter((f) => f.endsWith('.js')).sort();
/** The chunk file of a name: `cdn-element` → `cdn-element-<hash>.js` (chunk names carry a hash of their content). */
const hashed = (list, name) => list.find((f) => new RegExp(`^${name}-[0-9a-f]{8}\\.js$`).test(f));
const classicStray = readdirSync(join(cdn, 'classic')).filter((f) => f !== 'chunks');
if (classicStray.length > 0) fail(`dist/cdn/classic/ should hold only chunks/, not ${classicStray.join(', ')}`);
for (const [list, dir] of [[chunks, 'chunks'], [classicChunks, 'classic/chunks']]) {
  for (const name of ['cdn-element']) if (!hashed(list, name)) fail(`dist/cdn/${dir}/${name}-<hash>.js was not written`);
  const unhashed = list.filter((f) => !/-[0-9a-f]{8}\.js$/.test(f));
  if (unhashed.length > 0) fail(`dist/cdn/${dir}/${unhashed[0]} has no content hash in its name`);
}
for (const f of ['paydesk.js', 'paydesk.iife.js', `chunks/${hashed(chunks, 'cdn-element')}`, `classic/chunks/${hashed(classicChunks, 'cdn-element')}`]) {
  for (const needed of [f, `${f}.map`]) if (!existsSync(join(cdn, needed))) fail(`dist/cdn/${needed} was not written`);
}
// A static import of paydesk.js would be one more round trip before the element runs (vite.config.ts).
const esEntry = readFileSync(join(cdn, 'paydesk.js'), 'utf8');
const esImports = staticImports(esEntry);
if (esImports.length > 0) fail(`dist/cdn/paydesk.js imports ${esImports.join(', ')} statically; it must stand alone`);
// The first paint is the entry's own (src/cdn.ts imports src/element/paint.ts): the requisites' templates are in it.
for (const f of ['paydesk.js', 'paydesk.iife.js']) {
  if (!readFileSync(join(cdn, f), 'utf8').includes('part="requisites"')) fail(`dist/cdn/${f} does not carry the first paint (the requisites' templates)`);
}
const languageLoader = readFileSync(join(root, 'src', 'element', 'i18n', 'load.ts'), 'utf8');
// Every language table is a chunk (src/cdn.ts bundles none).
const languages = new Set([...languageLoader.matchAll(/\bimport\(\s*['"]\.\/([a-z0-9-]+)\.js['"]\s*\)/g)].map((m) => `${m[1]}.js`));
if (languages.size === 0) fail('no language imports found in src/element/i18n/load.ts');
for (const language of languages) {
  const f = hashed(chunks, language.replace(/\.js$/, ''));
  if (!f) fail(`dist/cdn/chunks/${language.replace(/\.js$/, '')}-<hash>.js was not written`);
  // A table may take shared messages from paydesk.js (English spreads the offline ones); nothing else,
  // so that it is fetched in the same round trip as the element asks for it.
  const code = readFileSync(join(cdn, 'chunks', f), 'utf8');
  const imports = staticImports(code);
  const other = imports.filter((s) => s !== '../paydesk.js');
  if (other.length > 0 || /\bimport\s*\(/.test(code)) fail(`dist/cdn/chunks/${f} imports ${other.join(', ') || 'a module with import()'}; a table may import only ../paydesk.js`);
  if (imports.length > 0 && !hashed(classicChunks, language.replace(/\.js$/, ''))) fail(`dist/cdn/classic/chunks/ has no copy of ${f}; the classic script loads it from there`);
}
// A classic script is decoded in the page's encoding unless served with a charset: keep it ASCII.
const iife = readFileSync(join(cdn, 'paydesk.iife.js'));
const nonAscii = iife.findIndex((b) => b > 0x7e || (b < 0x20 && b !== 0x0a && b !== 0x09 && b !== 0x0d));
if (nonAscii >= 0) fail(`dist/cdn/paydesk.iife.js has a non-ASCII byte at offset ${nonAscii}`);
if (/\bimport\.meta\b/.test(iife.toString('latin1'))) fail('dist/cdn/paydesk.iife.js uses import.meta, which a classic script has not');

const files = [
  'paydesk.js',
  'paydesk.iife.js',
  ...chunks.map((f) => `chunks/${f}`),
  ...classicChunks.map((f) => `classic/chunks/${f}`),
];
const integrity = Object.fromEntries(files.map((f) => [f, sri(join(cdn, f))]));
// Code integrity: every file an entry loads has its digest, as written, in the entry or in a file that
// carries digests (the chain); no digest of a file that was not written.
/**
 * The digests a file carries (its `__paydeskIntegrity()`, scripts/vite/integrity.ts; in the classic
 * script, minified inside it), or null.
 */
function carried(file) {
  const text = readFileSync(join(cdn, file), 'latin1');
  const m = file === 'paydesk.iife.js'
    ? /document\.currentScript\.src\|\|(?:""|``),files:(\{.*?\})(?:,urls:(\{.*?\}))?\}/.exec(text.slice(text.lastIndexOf('document.currentScript.src||')).replace(/`([^`"]*)`/g, '"$1"'))
    : /\/\*paydesk:integrity\*\/function __paydeskIntegrity\(\)\{return\{(?:base:import\.meta\.url,)?files:(\{.*?\})(?:,urls:(\{.*?\}))?\}\}\n$/.exec(text);
  return m ? { files: JSON.parse(m[1]), urls: m[2] ? JSON.parse(m[2]) : {} } : null;
}
/** Checks the chain of an entry: every file it may load (`written`) has its digest, as written, in the entry or in one of them. */
function checkChain(entry, written) {
  if (!carried(entry)) fail(`dist/cdn/${entry} does not carry the digests of its chunks`);
  const digests = {};
  for (const file of [entry, ...written]) {
    const table = carried(file);
    for (const [name, [digest]] of Object.entries(table?.files ?? {})) {
      const target = table.urls[name] ?? name;
      if (!written.includes(target)) fail(`dist/cdn/${file} carries the digest of ${target}, which ${entry} does not load or was not written`);
      if (digests[target] && digests[target] !== digest) fail(`dist/cdn/${file} carries another digest of ${target} than another file of ${entry}'s chain`);
      digests[target] = digest;
    }
  }
  for (const f of written) if (digests[f] !== integrity[f]) fail(`no file of ${entry}'s chain carries the digest of dist/cdn/${f} as written`);
}
checkChain('paydesk.js', chunks.map((f) => `chunks/${f}`));
// paydesk.iife.js loads the copies in classic/chunks/ and the ES chunks that have none.
const copied = new Set(classicChunks.map((f) => f.replace(/-[0-9a-f]{8}\.js$/, '')));
checkChain('paydesk.iife.js', [
  ...classicChunks.map((f) => `classic/chunks/${f}`),
  ...chunks.filter((f) => !copied.has(f.replace(/-[0-9a-f]{8}\.js$/, ''))).map((f) => `chunks/${f}`),
]);
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
