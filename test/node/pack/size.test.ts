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

test(`a CDN page downloads at most ${kb(BUDGETS.firstPaintGzip)} gzip before its requisites are painted (ES and classic)`, (t) => {
  for (const f of [sizes.firstPaint.es, sizes.firstPaint.classic]) {
    t.diagnostic(`${f.name}: ${kb(f.gzip)} gzip, ${kb(f.brotli)} brotli (${f.what})`);
    assert.ok(f.gzip <= BUDGETS.firstPaintGzip, `${f.name} is ${kb(f.gzip)} gzip, over the ${kb(BUDGETS.firstPaintGzip)} budget by ${kb(f.gzip - BUDGETS.firstPaintGzip)}`);
  }
});

/** The file of a chunk in a folder of dist/cdn: `cdn-element` → `cdn-element-<hash>.js` (names carry a hash of their content). */
async function chunkFile(dir: string, name: string): Promise<string> {
  const found = (await readdir(join(root, 'dist', 'cdn', dir))).find((f) => new RegExp(`^${name}-[0-9a-f]{8}\\.js$`).test(f));
  assert.ok(found, `dist/cdn/${dir}/${name}-<hash>.js exists`);
  return found;
}

/**
 * The digests an ES file carries (`integrityLoads`, scripts/vite/integrity.ts: the entry those of what
 * it loads itself, a chunk those of what it loads): chunk → [sha384, …what it imports]; {} for none.
 */
function carried(code: string): Record<string, string[]> {
  const m = /\/\*paydesk:integrity\*\/function __paydeskIntegrity\(\)\{return\{(?:base:import\.meta\.url,)?files:(\{.*\})\}\}\n$/.exec(code);
  return m ? (JSON.parse(m[1]!) as Record<string, string[]>) : {};
}

/**
 * A module's text without its import specifiers, its digests and its source map comment, its imports
 * from the entry as the classic copies write them (`const{a:b}=<the script's modules>`): a classic copy
 * differs from its chunk only there.
 */
const withoutSpecifiers = (code: string) =>
  code
    .replace(/\n\/\*paydesk:integrity\*\/function __paydeskIntegrity\(\).*\n$/, '\n')
    .replace(/\n\/\/# sourceMappingURL=.*\n?$/, '')
    .replace(/import\{([^}]*)\}from"\.\.\/paydesk\.js";/g, (_, names: string) => `const{${names.replace(/ as /g, ':')}}=S;`)
    .replace(/globalThis\[Symbol\.for\("paydesk\.classic\.[0-9a-f]+"\)\]/g, 'S')
    .replace(/(from\s*)"[^"]*"/g, '$1""');

test('the language tables stay out of both CDN files; the element\'s chunk loads them from chunks/ and carries their digests', async () => {
  assert.equal(sizes.languageChunks.length, LANGUAGE_CHUNKS.length, `one chunk per lazy language (${LANGUAGE_CHUNKS.join(', ')})`);
  const cdn = join(root, 'dist', 'cdn');
  const main = { es: await readFile(join(cdn, 'paydesk.js'), 'utf8'), iife: await readFile(join(cdn, 'paydesk.iife.js'), 'utf8') };
  const element = {
    es: await readFile(join(cdn, 'chunks', await chunkFile('chunks', 'cdn-element')), 'utf8'),
    iife: await readFile(join(cdn, 'classic', 'chunks', await chunkFile('classic/chunks', 'cdn-element')), 'utf8'),
  };
  const escaped = (text: string) => text.replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`);
  for (const language of LANGUAGE_CHUNKS) {
    const file = await chunkFile('chunks', language);
    const table = ((await import(`../../../src/element/i18n/${language}.js`)) as { default: Record<string, unknown> }).default;
    const sample = Object.values(table).find((v): v is string => typeof v === 'string' && v.length > 12 && /[^\x00-\x7f]/.test(v));
    assert.ok(sample, `${language}.ts has a non-English message`);
    for (const [name, code] of Object.entries(main)) {
      assert.ok(!code.includes(sample) && !code.toUpperCase().includes(escaped(sample).toUpperCase()), `${file}'s text is not inlined in the ${name} file`);
      // Neither names the chunk (nor carries its digest): the element's chunk does (its classic copy too).
      assert.ok(!code.includes(`chunks/${file}`), `the ${name} file leaves chunks/${file} to the element`);
      assert.ok(element[name as keyof typeof element].includes(`chunks/${file}`), `the element's chunk of the ${name} file loads chunks/${file}`);
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

test('paydesk.js imports nothing statically and paints the requisites itself, without Lit\'s renderer; every import() of a chunk asks for what that chunk imports in the same round trip', async () => {
  const cdn = join(root, 'dist', 'cdn');
  const es = await readFile(join(cdn, 'paydesk.js'), 'utf8');
  assert.deepEqual(staticImports(es), [], 'no static import: the element runs as soon as paydesk.js arrives');
  // The first paint (src/element/paint.ts) is the entry's: the requisites' templates and styles are in it,
  // written out as HTML (html-string.ts); Lit's renderer (its `$lit$` attribute suffix) is in the element's chunk.
  const element = await readFile(join(cdn, 'chunks', await chunkFile('chunks', 'cdn-element')), 'utf8');
  assert.ok(es.includes('.warn{display:flex') && es.includes('part="requisites"'), 'paydesk.js carries the requisites\' templates and styles');
  assert.ok(!es.includes('$lit$') && element.includes('$lit$'), 'Lit\'s renderer is in the element\'s chunk, not in paydesk.js');
  // The loader (src/element/integrity.ts) preloads a chunk with every chunk its digests say it imports,
  // all at once: those must be exactly the chunks it imports statically, for every chunk.
  const chunks = (await readdir(join(cdn, 'chunks'))).filter((f) => f.endsWith('.js')).map((f) => `chunks/${f}`);
  const text = Object.fromEntries(await Promise.all(['paydesk.js', ...chunks].map(async (f) => [f, await readFile(join(cdn, f), 'utf8')] as const)));
  const all: Record<string, string[]> = {};
  for (const f of ['paydesk.js', ...chunks]) for (const [name, entry] of Object.entries(carried(text[f]!))) assert.deepEqual((all[name] ??= entry), entry, `${name}: one digest`);
  assert.deepEqual(Object.keys(all).sort(), chunks.sort(), 'the entry and its chunks carry the digest of every chunk');
  for (const [file, [, ...deps]] of Object.entries(all)) {
    const imports = staticImports(text[file]!).filter((s) => s !== '../paydesk.js').map((s) => `chunks/${s.replace(/^\.\//, '')}`);
    assert.deepEqual([...deps].sort(), imports.sort(), `${file} is asked for with what it imports`);
  }
  // Every chunk a file loads goes through the loader, by a name whose digest the loader holds by then,
  // and so does every chunk that one imports: the entry carries it, or the file, or the file was
  // loaded with it (itself and what it imports, which were checked before it ran).
  const manifest = carried(es);
  const importedBy = (f: string, seen = new Set<string>()): Set<string> => {
    if (seen.has(f)) return seen;
    seen.add(f);
    for (const dep of all[f]?.slice(1) ?? []) importedBy(dep, seen);
    return seen;
  };
  for (const file of ['paydesk.js', ...chunks]) {
    const code = text[file]!;
    assert.doesNotMatch(code, /\bimport\s*\(\s*["'`]/, `${file} has no import() the loader does not check`);
    const held = new Set([...Object.keys(manifest), ...Object.keys(carried(code)), ...(file === 'paydesk.js' ? [] : importedBy(file))]);
    for (const [, name] of code.matchAll(/\(\s*[`"](chunks\/[\w-]+\.js)[`"]\s*\)/g)) {
      for (const needed of importedBy(name!)) assert.ok(held.has(needed), `${file} loads ${name}: the loader holds the digest of ${needed} by then`);
    }
  }
});

test('the chain: the entry carries the digests of the first paint\'s messages, the QR encoder and the element; the element\'s chunk those of what it loads', async () => {
  const cdn = join(root, 'dist', 'cdn');
  const entry = carried(await readFile(join(cdn, 'paydesk.js'), 'utf8'));
  const elementFile = `chunks/${await chunkFile('chunks', 'cdn-element')}`;
  const element = carried(await readFile(join(cdn, elementFile), 'utf8'));
  const name = (f: string) => f.replace(/^chunks\//, '').replace(/-[0-9a-f]{8}\.js$/, '');
  const firstTables = LANGUAGE_CHUNKS.map((l) => `${l}-first`);
  // The QR encoder's: the paint draws the QR on a desktop.
  assert.deepEqual(Object.keys(entry).map(name).sort(), ['api', 'cdn-element', 'qr', 'rolldown-runtime', ...firstTables].sort(), 'the entry: what it loads itself (and what they import)');
  for (const chunk of [...LANGUAGE_CHUNKS, 'choose-view', 'pay-step', 'closed-view', 'live', 'banks', 'receipt', 'frame', 'copy']) {
    assert.ok(Object.keys(element).map(name).includes(chunk), `${elementFile} carries the digest of ${chunk}`);
    assert.ok(!Object.keys(entry).map(name).includes(chunk), `paydesk.js leaves the digest of ${chunk} to the element's chunk`);
  }
  const banks = carried(await readFile(join(cdn, `chunks/${await chunkFile('chunks', 'banks')}`), 'utf8'));
  assert.deepEqual(Object.keys(banks).map(name), ['bank-table'], 'the bank sheet carries its table\'s');
  // A chunk's digest covers the digests it carries: they are in its text, which its carrier's digest is of.
  const sri = JSON.parse(await readFile(join(cdn, 'paydesk.sri.json'), 'utf8')) as Record<string, string>;
  assert.equal(entry[elementFile]![0], sri[elementFile], 'the entry carries the digest of the element\'s chunk, its digests included');
});

test('the rare steps stay out of both CDN files: the bank sheet, the receipt upload, the QR encoder and the SBP bank table are chunks', async () => {
  const cdn = join(root, 'dist', 'cdn');
  const es = await readFile(join(cdn, 'paydesk.js'), 'utf8');
  const iife = await readFile(join(cdn, 'paydesk.iife.js'), 'utf8');
  const banks = await readFile(join(cdn, 'chunks', await chunkFile('chunks', 'banks')), 'utf8');
  const element = await readFile(join(cdn, 'chunks', await chunkFile('chunks', 'cdn-element')), 'utf8');
  const bankTemplate = 'sberbankonline://payments/p2p';
  assert.ok(banks.includes(bankTemplate), 'the bank sheet chunk holds the bank links');
  for (const [name, code] of Object.entries({ es, iife })) {
    assert.ok(!code.includes(bankTemplate), `the ${name} file leaves the bank links out`);
    for (const chunk of ['cdn-element', 'qr']) assert.match(code, new RegExp(`chunks/${chunk}-[0-9a-f]{8}\\.js`), `the ${name} file loads ${chunk}`);
    for (const chunk of ['banks', 'receipt']) assert.doesNotMatch(code, new RegExp(`chunks/${chunk}-[0-9a-f]{8}\\.js`), `the ${name} file leaves ${chunk} to the element's chunk`);
  }
  for (const chunk of ['banks', 'receipt', 'qr']) assert.match(element, new RegExp(`chunks/${chunk}-[0-9a-f]{8}\\.js`), `the element's chunk loads ${chunk}`);
  assert.match(banks, /from\s*"\.\.\/paydesk\.js"/, 'a chunk takes Lit and the shared code from paydesk.js (no second copy)');
});

test('the classic script loads its chunks from classic/chunks/, copies that take the script\'s own modules from it (one Lit, one element), or as they are', async () => {
  const cdn = join(root, 'dist', 'cdn');
  const iife = await readFile(join(cdn, 'paydesk.iife.js'), 'utf8');
  assert.deepEqual((await readdir(join(cdn, 'classic'))).sort(), ['chunks'], 'no module of its own hands the script\'s modules out');
  const sri = JSON.parse(await readFile(join(cdn, 'paydesk.sri.json'), 'utf8')) as Record<string, string>;
  const copies = (await readdir(join(cdn, 'classic', 'chunks'))).filter((f) => f.endsWith('.js'));
  assert.ok(copies.length > 0);
  /** Every digest the classic script and its copies carry. */
  let digests = iife;
  for (const f of copies) {
    const copy = await readFile(join(cdn, 'classic', 'chunks', f), 'utf8');
    digests += copy;
    const original = await readFile(join(cdn, 'chunks', await chunkFile('chunks', f.replace(/-[0-9a-f]{8}\.js$/, ''))), 'utf8');
    assert.equal(withoutSpecifiers(copy), withoutSpecifiers(original), `classic/chunks/${f} is its chunk but for what it imports and the digests it carries`);
    for (const spec of staticImports(copy)) {
      assert.ok(spec !== '../paydesk.js' && existsSync(join(cdn, 'classic', 'chunks', spec)), `classic/chunks/${f} imports ${spec}, which exists`);
    }
    const key = /Symbol\.for\("(paydesk\.classic\.[0-9a-f]+)"\)/.exec(copy)?.[1];
    if (original.includes('"../paydesk.js"')) assert.ok(key && iife.includes(key), `classic/chunks/${f} reads the script's modules under the key it leaves them`);
  }
  for (const f of copies) assert.ok(digests.includes(sri[`classic/chunks/${f}`]!), `the classic script or a copy carries the digest of classic/chunks/${f}`);
  assert.doesNotMatch(iife, /\bimport\.meta\b/, 'a classic script has no import.meta');
});
