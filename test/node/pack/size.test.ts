/**
 * The size budget of the built package (issue 7): the CDN classic script at most 30 KB gzip; the
 * element's own ES module (npm build, without Lit and the other npm dependencies; what it loads with
 * `import()` not counted) at most 12 KB gzip. The figures are printed. Needs `dist/` (npm test builds
 * it first). KB = 1000 bytes.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { before, test } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { join } from 'node:path';
import { BUDGETS, CDN_LANGUAGES, kb, LANGUAGE_CHUNKS, measurePackageSizes, sizeLines, type PackageSizes } from '../../../bench/sizes.js';

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
    const table = ((await import(pathToFileURL(join(cdn, 'chunks', file)).href)) as { default: Record<string, unknown> }).default;
    const sample = Object.values(table).find((v): v is string => typeof v === 'string' && v.length > 12 && /[^\x00-\x7f]/.test(v));
    assert.ok(sample, `${file} has a non-English message`);
    for (const [name, code] of Object.entries(main)) {
      assert.ok(!code.includes(sample) && !code.toUpperCase().includes(escaped(sample).toUpperCase()), `${file}'s text is not inlined in the ${name} file`);
      assert.ok(code.includes(`chunks/${file}`), `the ${name} file loads chunks/${file}`);
    }
  }
});

test('both CDN files carry the English and Russian tables inside and fetch no chunk for them', async () => {
  assert.deepEqual(CDN_LANGUAGES, ['en', 'ru']);
  const cdn = join(root, 'dist', 'cdn');
  for (const lang of CDN_LANGUAGES) {
    const table = ((await import(`../../../src/element/i18n/${lang}.js`)) as { default: { confirmingText: string } }).default;
    const escaped = table.confirmingText.replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`);
    for (const file of ['paydesk.js', 'paydesk.iife.js']) {
      const code = (await readFile(join(cdn, file), 'utf8')).toUpperCase();
      assert.ok(code.includes(escaped.toUpperCase()), `${file} has the ${lang} text inside`);
      assert.ok(!code.includes(`CHUNKS/${lang.toUpperCase()}.JS`), `${file} does not load chunks/${lang}.js`);
    }
    assert.ok(!existsSync(join(cdn, 'chunks', `${lang}.js`)), `no ${lang} chunk is built`);
  }
});

test('the CDN ES file loads the pay view and the bank sheet from chunks/; the classic script bundles the pay view and loads the rare steps from chunks/ of its own', async () => {
  const cdn = join(root, 'dist', 'cdn');
  const es = await readFile(join(cdn, 'paydesk.js'), 'utf8');
  const iife = await readFile(join(cdn, 'paydesk.iife.js'), 'utf8');
  const banks = await readFile(join(cdn, 'chunks', 'banks.js'), 'utf8');
  const pay = await readFile(join(cdn, 'chunks', 'pay-view.js'), 'utf8');
  const classicBanks = await readFile(join(cdn, 'chunks', 'classic-banks.js'), 'utf8');
  const bankTemplate = 'sberbankonline://payments/p2p';
  const payRule = '.warn{display:flex';
  assert.ok(banks.includes(bankTemplate) && pay.includes(payRule), 'the chunks hold the bank links and the pay view styles');
  assert.ok(!es.includes(bankTemplate) && !es.includes(payRule), 'paydesk.js leaves them out');
  assert.ok(es.includes('chunks/banks.js') && es.includes('chunks/pay-view.js'), 'paydesk.js loads both chunks');
  for (const chunk of [banks, pay]) assert.match(chunk, /from\s*"\.\.\/paydesk\.js"/, 'a chunk takes Lit and the shared code from paydesk.js (no second copy)');
  // The classic script: the steps every shopper sees inside, the rare ones (bank sheet, receipt upload, form frame) from chunks/classic-*.js.
  assert.ok(iife.includes(payRule), 'the classic script has the pay view inside');
  assert.ok(!iife.includes(bankTemplate) && iife.includes('chunks/classic-banks.js'), 'the classic script loads the bank sheet from chunks/');
  assert.ok(classicBanks.includes(bankTemplate), 'its bank sheet chunk holds the links');
  assert.doesNotMatch(classicBanks, /paydesk\.js|from\s*"lit"/, 'a classic chunk loads neither paydesk.js nor a Lit of its own');
  assert.ok(iife.includes('chunks/qr.js') && es.includes('chunks/qr.js'), 'both CDN files load the QR encoder from chunks/');
  assert.ok(banks.includes('bank-table.js') && classicBanks.includes('bank-table.js'), 'both bank sheets load the SBP bank table from chunks/');
});
