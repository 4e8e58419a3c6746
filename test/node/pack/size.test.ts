/**
 * The size budget of the built package (issue 7): the CDN classic script at most 25 KB gzip; the
 * element's own ES module (npm build, without Lit and the other npm dependencies; what it loads with
 * `import()` not counted) at most 12 KB gzip. The figures are printed. Needs `dist/` (npm test builds
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

test(`the CDN classic script is at most ${kb(BUDGETS.cdnIifeGzip)} gzip`, (t) => {
  t.diagnostic(`paydesk.iife.js: ${kb(sizes.cdnIife.gzip)} gzip`);
  assert.ok(
    sizes.cdnIife.gzip <= BUDGETS.cdnIifeGzip,
    `dist/cdn/paydesk.iife.js is ${kb(sizes.cdnIife.gzip)} gzip, over the ${kb(BUDGETS.cdnIifeGzip)} budget by ${kb(sizes.cdnIife.gzip - BUDGETS.cdnIifeGzip)}`,
  );
});

test(`the element's own module without Lit is at most ${kb(BUDGETS.elementWithoutLitGzip)} gzip`, (t) => {
  t.diagnostic(`element without Lit: ${kb(sizes.element.gzip)} gzip (${sizes.element.what})`);
  t.diagnostic(`with the Russian table it loads for a Russian-speaking shopper: ${kb(sizes.elementWithRussian.gzip)} gzip`);
  assert.ok(
    sizes.element.gzip <= BUDGETS.elementWithoutLitGzip,
    `the element without Lit is ${kb(sizes.element.gzip)} gzip, over the ${kb(BUDGETS.elementWithoutLitGzip)} budget by ${kb(sizes.element.gzip - BUDGETS.elementWithoutLitGzip)}`,
  );
});

test('the language tables stay out of both CDN files, which load them from chunks/', async () => {
  assert.equal(sizes.languageChunks.length, LANGUAGE_CHUNKS.length, `one chunk per lazy language (${LANGUAGE_CHUNKS.join(', ')})`);
  const cdn = join(root, 'dist', 'cdn');
  const main = { es: await readFile(join(cdn, 'paydesk.js'), 'utf8'), iife: await readFile(join(cdn, 'paydesk.iife.js'), 'utf8') };
  const escaped = (text: string) => text.replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`);
  const files = (await readdir(join(cdn, 'chunks'))).filter((f) => LANGUAGE_CHUNKS.includes(f.replace(/\.js$/, '')));
  assert.deepEqual(files.map((f) => f.replace(/\.js$/, '')).sort(), [...LANGUAGE_CHUNKS].sort(), 'every lazy language has its chunk');
  for (const file of files) {
    const table = ((await import(`../../../src/element/i18n/${file}`)) as { default: Record<string, unknown> }).default;
    const sample = Object.values(table).find((v): v is string => typeof v === 'string' && v.length > 12 && /[^\x00-\x7f]/.test(v));
    assert.ok(sample, `${file} has a non-English message`);
    for (const [name, code] of Object.entries(main)) {
      assert.ok(!code.includes(sample) && !code.toUpperCase().includes(escaped(sample).toUpperCase()), `${file}'s text is not inlined in the ${name} file`);
      // The classic script names the file; its loader puts chunks/ (or classic/chunks/) in front (vite.config.ts, CLASSIC_INTRO).
      assert.ok(code.includes(name === 'es' ? `chunks/${file}` : `\`${file}\``), `the ${name} file loads chunks/${file}`);
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
  const enChunk = await readFile(join(cdn, 'chunks', 'en.js'), 'utf8');
  assert.ok(enChunk.includes(en.confirmingText), 'chunks/en.js has the English table');
  assert.deepEqual(staticImports(enChunk).filter((s) => s !== '../paydesk.js'), [], 'chunks/en.js imports nothing but paydesk.js');
  assert.equal(await readFile(join(cdn, 'classic', 'chunks', 'en.js'), 'utf8'), enChunk, 'the classic script has its copy in classic/chunks/');
});

test('paydesk.js imports nothing statically; the requisites are one chunk, and every import() of a chunk asks for what that chunk imports in the same round trip', async () => {
  const cdn = join(root, 'dist', 'cdn');
  const es = await readFile(join(cdn, 'paydesk.js'), 'utf8');
  assert.deepEqual(staticImports(es), [], 'no static import: the element runs as soon as paydesk.js arrives');
  const pay = await readFile(join(cdn, 'chunks', 'pay-view.js'), 'utf8');
  const payRule = '.warn{display:flex';
  assert.ok(pay.includes(payRule) && !es.includes(payRule), 'the pay view is in its chunk, not in paydesk.js');
  // Every chunk the pay view imports statically is asked for together with it wherever paydesk.js loads it.
  const payDeps = staticImports(pay).filter((s) => s !== '../paydesk.js').map((s) => s.replace(/^\.\//, ''));
  const loads = [...es.matchAll(/Promise\.all\(\[([^\]]*)\]\)/g)].map((m) => m[1]!).filter((l) => l.includes('chunks/pay-view.js'));
  assert.ok(loads.length > 0, 'paydesk.js loads the pay view in a Promise.all of imports');
  for (const l of loads) for (const dep of payDeps) assert.ok(l.includes(`chunks/${dep}`), `chunks/${dep} is fetched with chunks/pay-view.js: ${l}`);
  // No chunk on the requisites path imports another chunk that paydesk.js does not fetch at the same time.
  for (const dep of payDeps) {
    const code = await readFile(join(cdn, 'chunks', dep), 'utf8');
    assert.deepEqual(staticImports(code).filter((s) => s !== '../paydesk.js'), [], `chunks/${dep} imports no further chunk`);
  }
});

test('the rare steps stay out of both CDN files: the bank sheet, the receipt upload, the QR encoder and the SBP bank table are chunks', async () => {
  const cdn = join(root, 'dist', 'cdn');
  const es = await readFile(join(cdn, 'paydesk.js'), 'utf8');
  const iife = await readFile(join(cdn, 'paydesk.iife.js'), 'utf8');
  const banks = await readFile(join(cdn, 'chunks', 'banks.js'), 'utf8');
  const bankTemplate = 'sberbankonline://payments/p2p';
  assert.ok(banks.includes(bankTemplate), 'the bank sheet chunk holds the bank links');
  for (const [name, code] of Object.entries({ es, iife })) {
    assert.ok(!code.includes(bankTemplate), `the ${name} file leaves the bank links out`);
    for (const chunk of ['banks', 'receipt', 'qr', 'pay-view']) assert.match(code, new RegExp(`${chunk}\\.js`), `the ${name} file loads ${chunk}.js`);
  }
  assert.match(banks, /from\s*"\.\.\/paydesk\.js"/, 'a chunk takes Lit and the shared code from paydesk.js (no second copy)');
  assert.ok(es.includes('chunks/banks.js') && es.includes('chunks/qr.js'));
});

test('the classic script loads its chunks from classic/, whose paydesk.js hands out the script\'s own modules (one Lit, one element)', async () => {
  const cdn = join(root, 'dist', 'cdn');
  const iife = await readFile(join(cdn, 'paydesk.iife.js'), 'utf8');
  const shared = await readFile(join(cdn, 'classic', 'paydesk.js'), 'utf8');
  assert.deepEqual(staticImports(shared), [], 'classic/paydesk.js imports nothing');
  const key = /Symbol\.for\("(paydesk\.classic\.[0-9a-f]+)"\)/.exec(shared)?.[1];
  assert.ok(key, 'classic/paydesk.js reads a key of its build');
  assert.ok(iife.includes(key), 'the classic script leaves its modules under the same key');
  assert.ok(iife.includes('classic/chunks/') && iife.includes('classic/paydesk.js'), 'the classic script loads classic/chunks/ with classic/paydesk.js');
  for (const f of (await readdir(join(cdn, 'classic', 'chunks'))).filter((f) => f.endsWith('.js'))) {
    assert.equal(await readFile(join(cdn, 'classic', 'chunks', f), 'utf8'), await readFile(join(cdn, 'chunks', f), 'utf8'), `classic/chunks/${f} is chunks/${f}`);
  }
  assert.doesNotMatch(iife, /\bimport\.meta\b/, 'a classic script has no import.meta');
});
