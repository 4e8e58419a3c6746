/**
 * src/bundle/widget-bundle.ts: the widget as one ES-module text for the sandbox's hosted form and the
 * demo — the built CDN file when it is fresh, else an in-memory esbuild bundle of the sources.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { buildWidgetBundle, clearWidgetBundleCache, loadWidgetBundle, loadWidgetBundleInfo, loadWidgetFile } from '../../../src/bundle/widget-bundle.js';

let dir = '';
let n = 0;

/** A package root with optional `dist/cdn/paydesk.js` and `src/` files, with chosen modification times (s). */
async function fixture(layout: { dist?: { code: string; time: number }; src?: { files: Record<string, string>; time: number } }) {
  const root = join(dir, `root-${n++}`);
  await mkdir(root, { recursive: true });
  await writeFile(join(root, 'tsconfig.json'), JSON.stringify({ compilerOptions: { target: 'ES2022', experimentalDecorators: true } }));
  if (layout.dist) {
    await mkdir(join(root, 'dist', 'cdn'), { recursive: true });
    const file = join(root, 'dist', 'cdn', 'paydesk.js');
    await writeFile(file, layout.dist.code);
    await utimes(file, layout.dist.time, layout.dist.time);
  }
  if (layout.src) {
    for (const [name, code] of Object.entries(layout.src.files)) {
      const file = join(root, 'src', name);
      await mkdir(join(file, '..'), { recursive: true });
      await writeFile(file, code);
      await utimes(file, layout.src.time, layout.src.time);
    }
  }
  return { root };
}

const SOURCES = {
  'cdn.ts': "import { greet } from './deep/greet.js';\nexport const message: string = greet('paydesk');\n",
  'deep/greet.ts': 'export function greet(name: string): string {\n  return `hello, ${name}`;\n}\n',
};

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'paydesk-widget-bundle-'));
});
after(async () => {
  await rm(dir, { recursive: true, force: true });
});

test('uses dist/cdn/paydesk.js when it is newer than every source file', async () => {
  const paths = await fixture({ dist: { code: 'export const built = 1;\n', time: 2_000_000 }, src: { files: SOURCES, time: 1_000_000 } });
  const bundle = await buildWidgetBundle(paths);
  assert.equal(bundle.source, 'dist');
  assert.equal(bundle.code, 'export const built = 1;\n');
});

test('uses dist/cdn/paydesk.js when there are no sources (the installed package)', async () => {
  const paths = await fixture({ dist: { code: 'export const built = 2;\n', time: 1_000_000 } });
  assert.equal((await buildWidgetBundle(paths)).source, 'dist');
});

test('bundles src/cdn.ts with esbuild (one minified ES module) when a source is newer than the built file', async () => {
  const paths = await fixture({ dist: { code: 'export const stale = 1;\n', time: 1_000_000 }, src: { files: SOURCES, time: 2_000_000 } });
  const bundle = await buildWidgetBundle(paths);
  assert.equal(bundle.source, 'esbuild');
  assert.doesNotMatch(bundle.code, /stale/);
  assert.doesNotMatch(bundle.code, /\bimport\b/, 'everything is bundled in');
  assert.match(bundle.code, /hello, /);
  assert.match(bundle.code, /export\s*{/);
  assert.ok(!bundle.code.includes('\n  return'), 'minified');
  const mod = (await import(`data:text/javascript;base64,${Buffer.from(bundle.code).toString('base64')}`)) as { message: string };
  assert.equal(mod.message, 'hello, paydesk');
});

test('bundles the sources when there is no built file', async () => {
  const paths = await fixture({ src: { files: SOURCES, time: 1_000_000 } });
  assert.equal((await buildWidgetBundle(paths)).source, 'esbuild');
});

test('says what to do when there is neither a built file nor sources', async () => {
  const paths = await fixture({});
  await assert.rejects(buildWidgetBundle(paths), /no widget bundle.*npm run build/);
});

test('reports a source that does not compile instead of serving it', async () => {
  const paths = await fixture({ src: { files: { 'cdn.ts': 'export const x = ;\n' }, time: 1_000_000 } });
  await assert.rejects(buildWidgetBundle(paths), /Build failed|Unexpected/);
});

test('gives the sha384 integrity value and a strong ETag of the code', async () => {
  const paths = await fixture({ dist: { code: 'export const built = 3;\n', time: 1_000_000 } });
  const bundle = await buildWidgetBundle(paths);
  assert.equal(bundle.integrity, `sha384-${createHash('sha384').update(bundle.code).digest('base64')}`);
  assert.match(bundle.etag, /^"[A-Za-z0-9_-]{43}"$/);
});

test("this repository's widget registers <paydesk-checkout>, is cached, and its files stay inside dist/cdn", async () => {
  clearWidgetBundleCache();
  const first = loadWidgetBundleInfo();
  assert.equal(loadWidgetBundleInfo(), first, 'one load per process');
  const info = await first;
  assert.equal(await loadWidgetBundle(), info.code);
  assert.match(info.code, /paydesk-checkout/);
  assert.doesNotMatch(info.code, /^\s*import\s.*from\s*["'](lit|qrcode)/m, 'no bare imports left');
  for (const bad of ['../package.json', 'chunks/../../package.json', '/etc/passwd', 'chunks/kk.ts', 'paydesk.sri.json', '', 'CHUNKS/kk.js']) {
    assert.equal(await loadWidgetFile(bad), null, `${JSON.stringify(bad)} is refused`);
  }
  if (info.source === 'dist') {
    // Chunk names carry a hash of their content (`kk-<hash>.js`).
    const kkFile = (await readdir(fileURLToPath(new URL('../../../dist/cdn/chunks/', import.meta.url)))).find((f) => /^kk-[0-9a-f]{8}\.js$/.test(f));
    const kk = await loadWidgetFile(`chunks/${kkFile}`);
    assert.ok(kk && /export/.test(kk), 'a language chunk is served beside the built file');
    assert.equal(await loadWidgetFile('chunks/xx.js'), null);
  } else {
    assert.equal(await loadWidgetFile('chunks/kk.js'), null, 'the in-memory bundle has its tables inlined');
  }
});
