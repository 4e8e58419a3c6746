/**
 * The size budget of the built package (issue 7; brotli beside gzip, issue 33): the CDN classic script
 * at most 25 KB gzip and 22 KB brotli; the element's own ES module (npm build, without Lit and the
 * other npm dependencies; what it loads with `import()` not counted) at most 12 KB gzip and 11 KB brotli. The figures are printed. Needs `dist/` (npm test builds
 * it first). KB = 1000 bytes.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { BUDGETS, kb, LANGUAGE_CHUNKS, measurePackageSizes, sizeLines, type PackageSizes } from '../../../bench/sizes.js';
import { staticImports } from '../../../scripts/static-imports.mjs';

const root = fileURLToPath(new URL('../../../', import.meta.url));
let sizes: PackageSizes;


before(async () => {
  if (!existsSync(join(root, 'dist', 'cdn', 'paydesk.iife.js'))) {
    throw new Error('dist/ is missing: run `npm run build` first (npm test does it)');
  }
  sizes = await measurePackageSizes(root);
  console.log(['', 'bundle sizes (KB = 1000 bytes):', ...sizeLines(sizes).map((l) => `  ${l}`), ''].join('\n'));
});

test(`the CDN classic script is at most ${kb(BUDGETS.cdnIifeGzip)} gzip and ${kb(BUDGETS.cdnIifeBrotli)} brotli`, (t) => {
  t.diagnostic(`paydesk.iife.js: ${kb(sizes.cdnIife.gzip)} gzip, ${kb(sizes.cdnIife.brotli)} brotli`);
  assert.ok(
    sizes.cdnIife.gzip <= BUDGETS.cdnIifeGzip,
    `dist/cdn/paydesk.iife.js is ${kb(sizes.cdnIife.gzip)} gzip, over the ${kb(BUDGETS.cdnIifeGzip)} budget by ${kb(sizes.cdnIife.gzip - BUDGETS.cdnIifeGzip)}`,
  );
  assert.ok(
    sizes.cdnIife.brotli <= BUDGETS.cdnIifeBrotli,
    `dist/cdn/paydesk.iife.js is ${kb(sizes.cdnIife.brotli)} brotli, over the ${kb(BUDGETS.cdnIifeBrotli)} budget by ${kb(sizes.cdnIife.brotli - BUDGETS.cdnIifeBrotli)}`,
  );
});

test(`the element's own module without Lit is at most ${kb(BUDGETS.elementWithoutLitGzip)} gzip and ${kb(BUDGETS.elementWithoutLitBrotli)} brotli`, (t) => {
  t.diagnostic(`element without Lit: ${kb(sizes.element.gzip)} gzip, ${kb(sizes.element.brotli)} brotli (${sizes.element.what})`);
  t.diagnostic(`with the Russian table it loads for a Russian-speaking shopper: ${kb(sizes.elementWithRussian.gzip)} gzip`);
  assert.ok(
    sizes.element.gzip <= BUDGETS.elementWithoutLitGzip,
    `the element without Lit is ${kb(sizes.element.gzip)} gzip, over the ${kb(BUDGETS.elementWithoutLitGzip)} budget by ${kb(sizes.element.gzip - BUDGETS.elementWithoutLitGzip)}`,
  );
  assert.ok(
    sizes.element.brotli <= BUDGETS.elementWithoutLitBrotli,
    `the element without Lit is ${kb(sizes.element.brotli)} brotli, over the ${kb(BUDGETS.elementWithoutLitBrotli)} budget by ${kb(sizes.element.brotli - BUDGETS.elementWithoutLitBrotli)}`,
  );
});

/** The file of a chunk in a folder of dist/cdn: `pay-view` → `pay-view-<hash>.js` (names carry a hash of their content). */
async function chunkFile(dir: string, name: string): Promise<string> {
  const found = (await readdir(join(root, 'dist', 'cdn', dir))).find((f) => new RegExp(`^${name}-[0-9a-f]{8}\\.js$`).test(f));
  assert.ok(found, `dist/cdn/${dir}/${name}-<hash>.js exists`);
  return found;
}

/** The digests paydesk.js carries (`integrityLoads`, scripts/vite/integrity.ts): chunk → [sha384, …what it imports]. */
function esManifest(es: string): Record<string, string[]> {
  const m = /\/\*paydesk:integrity\*\/function \w+\(\)\{return\{base:import\.meta\.url,files:(\{.*\})\}\}\n$/.exec(es);
  assert.ok(m, 'paydesk.js ends with the digests of its chunks');
  return JSON.parse(m[1]!) as Record<string, string[]>;
}

/** A module's text without its import specifiers and source map comment (a classic copy differs from its chunk only there). */
const withoutSpecifiers = (code: string) => code.replace(/(from\s*)"[^"]*"/g, '$1""').replace(/\n\/\/# sourceMappingURL=.*\n?$/, '');

test('the language tables stay out of both CDN files, which load them from chunks/', async () => {
  assert.equal(sizes.languageChunks.length, LANGUAGE_CHUNKS.length, `one chunk per lazy language (${LANGUAGE_CHUNKS.join(', ')})`);
  const cdn = join(root, 'dist', 'cdn');
  const main = { es: await readFile(join(cdn, 'paydesk.js'), 'utf8'), iife: await readFile(join(cdn, 'paydesk.iife.js'), 'utf8') };
  const escaped = (text: string) => text.replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`);
  for (const language of LANGUAGE_CHUNKS) {
    const file = await chunkFile('chunks', language);
    const table = ((await import(`../../../src/element/i18n/${language}.js`)) as { default: Record<string, unknown> }).default;
    const sample = Object.values(table).find((v): v is string => typeof v === 'string' && v.length > 12 && /[^\x00-\x7f]/.test(v));
    assert.ok(sample, `${language}.ts has a non-English message`);
    for (const [name, code] of Object.entries(main)) {
      assert.ok(!code.includes(sample) && !code.toUpperCase().includes(escaped(sample).toUpperCase()), `${file}'s text is not inlined in the ${name} file`);
      // Both name the chunk (the classic script's digests map it to its copy when it has one).
      assert.ok(code.includes(`chunks/${file}`), `the ${name} file loads chunks/${file}`);
    }
  }
});

test('both CDN files carry no language table inside, English and Russian included: only the offline English messages', async () => {
  assert.ok(LANGUAGE_CHUNKS.includes('en') && LANGUAGE_CHUNKS.includes('ru'), 'English and Russian are fetched from chunks/');
  const cdn = join(root, 'dist', 'cdn');
  const en = ((await import('../../../src/element/i18n/en.js')) as { default: { confirmingText: string } }).default;
  const offline = ((await import('../../../src/element/i18n/en-offline.js')) as { default: { errors: { network: string } } }).default;
  for (const file of ['paydesk.js', 'paydesk.iife.js']) {
    const code = await readFile(join(cdn, file), 'utf8');
    assert.ok(!code.includes(en.confirmingText), `${file} leaves the English table out`);
    assert.ok(code.includes(offline.errors.network), `${file} has the offline English messages`);
  }
  const enChunk = await readFile(join(cdn, 'chunks', await chunkFile('chunks', 'en')), 'utf8');
  assert.ok(enChunk.includes(en.confirmingText), 'chunks/en-<hash>.js has the English table');
  assert.deepEqual(staticImports(enChunk).filter((s) => s !== '../paydesk.js'), [], 'chunks/en-<hash>.js imports nothing but paydesk.js');
  const copy = await readFile(join(cdn, 'classic', 'chunks', await chunkFile('classic/chunks', 'en')), 'utf8');
  assert.equal(withoutSpecifiers(copy), withoutSpecifiers(enChunk), 'the classic script has its copy in classic/chunks/');
});

test('paydesk.js imports nothing statically; the requisites are one chunk, and every import() of a chunk asks for what that chunk imports in the same round trip', async () => {
  const cdn = join(root, 'dist', 'cdn');
  const es = await readFile(join(cdn, 'paydesk.js'), 'utf8');
  assert.deepEqual(staticImports(es), [], 'no static import: the element runs as soon as paydesk.js arrives');
  const payFile = `chunks/${await chunkFile('chunks', 'pay-view')}`;
  const pay = await readFile(join(cdn, payFile), 'utf8');
  const payRule = '.warn{display:flex';
  assert.ok(pay.includes(payRule) && !es.includes(payRule), 'the pay view is in its chunk, not in paydesk.js');
  // The loader (src/element/integrity.ts) preloads a chunk with every chunk its digests say it imports,
  // all at once: those must be exactly the chunks it imports statically, for every chunk.
  const manifest = esManifest(es);
  const chunks = (await readdir(join(cdn, 'chunks'))).filter((f) => f.endsWith('.js'));
  assert.deepEqual(Object.keys(manifest).sort(), chunks.map((f) => `chunks/${f}`).sort(), 'paydesk.js has the digest of every chunk');
  for (const [file, [, ...deps]] of Object.entries(manifest)) {
    const code = await readFile(join(cdn, file), 'utf8');
    const imports = staticImports(code).filter((s) => s !== '../paydesk.js').map((s) => `chunks/${s.replace(/^\.\//, '')}`);
    assert.deepEqual([...deps].sort(), imports.sort(), `${file} is asked for with what it imports`);
  }
  // Every chunk paydesk.js or a chunk loads goes through the loader, by a name it has a digest for.
  for (const file of ['paydesk.js', ...Object.keys(manifest)]) {
    const code = await readFile(join(cdn, file), 'utf8');
    assert.doesNotMatch(code, /\bimport\s*\(\s*["'`]/, `${file} has no import() the loader does not check`);
    for (const [, name] of code.matchAll(/\(\s*[`"](chunks\/[\w-]+\.js)[`"]\s*\)/g)) assert.ok(manifest[name!], `${file} loads ${name}, which has a digest`);
  }
  // No chunk on the requisites path imports another chunk that is not asked for at the same time.
  // The first paint's chunk (src/element/paint.ts, the chunk src/cdn.ts imports) is asked for with all of them.
  const paintFile = `chunks/${await chunkFile('chunks', 'paint')}`;
  const together = manifest[paintFile]!.slice(1);
  assert.ok(together.includes(payFile), 'the first paint is asked for with the pay view');
  for (const dep of together) for (const further of manifest[dep]!.slice(1)) assert.ok(together.includes(further), `${dep} imports ${further}, asked for with the first paint`);
  // The element's own code loads without the requisites' chunk (and says "no connection" when that cannot be fetched).
  const elementFile = `chunks/${await chunkFile('chunks', 'cdn-element')}`;
  for (const dep of manifest[elementFile]!.slice(1)) assert.ok(!dep.startsWith('chunks/pay-view-') && !dep.startsWith('chunks/paint-'), `${elementFile} imports ${dep}`);
});

test('the rare steps stay out of both CDN files: the bank sheet, the receipt upload, the QR encoder and the SBP bank table are chunks', async () => {
  const cdn = join(root, 'dist', 'cdn');
  const es = await readFile(join(cdn, 'paydesk.js'), 'utf8');
  const iife = await readFile(join(cdn, 'paydesk.iife.js'), 'utf8');
  const banks = await readFile(join(cdn, 'chunks', await chunkFile('chunks', 'banks')), 'utf8');
  const bankTemplate = 'sberbankonline://payments/p2p';
  assert.ok(banks.includes(bankTemplate), 'the bank sheet chunk holds the bank links');
  for (const [name, code] of Object.entries({ es, iife })) {
    assert.ok(!code.includes(bankTemplate), `the ${name} file leaves the bank links out`);
    for (const chunk of ['banks', 'receipt', 'qr', 'pay-view']) assert.match(code, new RegExp(`chunks/${chunk}-[0-9a-f]{8}\\.js`), `the ${name} file loads ${chunk}`);
  }
  assert.match(banks, /from\s*"\.\.\/paydesk\.js"/, 'a chunk takes Lit and the shared code from paydesk.js (no second copy)');
});

test('the classic script loads its chunks from classic/, whose paydesk-<hash>.js hands out the script\'s own modules (one Lit, one element)', async () => {
  const cdn = join(root, 'dist', 'cdn');
  const iife = await readFile(join(cdn, 'paydesk.iife.js'), 'utf8');
  const sharedFile = await chunkFile('classic', 'paydesk');
  const shared = await readFile(join(cdn, 'classic', sharedFile), 'utf8');
  assert.deepEqual(staticImports(shared), [], 'classic/paydesk-<hash>.js imports nothing');
  const key = /Symbol\.for\("(paydesk\.classic\.[0-9a-f]+)"\)/.exec(shared)?.[1];
  assert.ok(key, 'classic/paydesk-<hash>.js reads a key of its build');
  assert.ok(iife.includes(key), 'the classic script leaves its modules under the same key');
  const sri = JSON.parse(await readFile(join(cdn, 'paydesk.sri.json'), 'utf8')) as Record<string, string>;
  assert.ok(iife.includes(sri[`classic/${sharedFile}`]!), 'the classic script carries the digest of classic/paydesk-<hash>.js');
  const copies = (await readdir(join(cdn, 'classic', 'chunks'))).filter((f) => f.endsWith('.js'));
  assert.ok(copies.length > 0);
  for (const f of copies) {
    const copy = await readFile(join(cdn, 'classic', 'chunks', f), 'utf8');
    const original = await readFile(join(cdn, 'chunks', await chunkFile('chunks', f.replace(/-[0-9a-f]{8}\.js$/, ''))), 'utf8');
    assert.equal(withoutSpecifiers(copy), withoutSpecifiers(original), `classic/chunks/${f} is its chunk but for what it imports`);
    for (const spec of staticImports(copy)) {
      assert.ok(spec === `../${sharedFile}` || existsSync(join(cdn, 'classic', 'chunks', spec)), `classic/chunks/${f} imports ${spec}, which exists`);
    }
    assert.ok(iife.includes(sri[`classic/chunks/${f}`]!), `the classic script carries the digest of classic/chunks/${f}`);
  }
  assert.doesNotMatch(iife, /\bimport\.meta\b/, 'a classic script has no import.meta');
});
