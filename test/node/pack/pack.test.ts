/**
 * Packaging: `npm pack` the built package, install the tarball into a fresh project the way a merchant
 * would, and use it only through its public names — every `paydesk/*` subpath from Node, the types from
 * TypeScript, and the element in Chromium through an import map, through the IIFE with its integrity
 * attribute, and through `paydesk/react` in a React 19 app — against the packaged server and sandbox.
 *
 * Needs `dist/` (npm test builds it first; alone: `npm run build`).
 */
import assert from 'node:assert/strict';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser } from '../../chromium.js';
import { holdTogether } from '../../examples/helpers.js';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../../../', import.meta.url));
const fixtures = fileURLToPath(new URL('./fixtures/', import.meta.url));

const SUBPATHS = ['paydesk', 'paydesk/element', 'paydesk/server', 'paydesk/provider', 'paydesk/sandbox', 'paydesk/react'] as const;

interface PackedFile {
  path: string;
}
interface PackResult {
  filename: string;
  files: PackedFile[];
}
interface Manifest {
  exports: Record<string, string | Record<string, string>>;
  sideEffects: string[];
  customElements: string;
  main: string;
  types: string;
  files: string[];
}

let work = '';
let app = '';
let packed: PackResult;
let pkg: Manifest;

async function npm(args: string[], cwd: string, timeoutMs: number): Promise<string> {
  // Keep settings of an outer `npm test` (npm_config_*) away from the inner npm.
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k)));
  const { stdout } = await run('npm', args, { cwd, env, timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024 });
  return stdout;
}

const version = async (name: string) =>
  (JSON.parse(await readFile(join(root, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;

before(async () => {
  if (!existsSync(join(root, 'dist', 'index.js')) || !existsSync(join(root, 'dist', 'cdn', 'paydesk.iife.js'))) {
    throw new Error('dist/ is missing: run `npm run build` first (npm test does it)');
  }
  pkg = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as Manifest;
  work = await mkdtemp(join(tmpdir(), 'paydesk-pack-'));
  app = join(work, 'app');
  await mkdir(join(app, 'pages'), { recursive: true });

  const out = await npm(['pack', '--ignore-scripts', '--json', '--pack-destination', work], root, 120_000);
  const list = JSON.parse(out.slice(out.indexOf('['))) as PackResult[];
  assert.equal(list.length, 1);
  packed = list[0]!;

  // React and its types come from the npm cache (the same versions as this repository's).
  const deps: Record<string, string> = { paydesk: `file:../${packed.filename}` };
  // ioredis is left out on purpose: it is an optional peer, and paydesk/server's types must compile without it.
  for (const name of ['react', 'react-dom', '@lit/react', '@types/react', '@types/react-dom', '@types/node']) {
    deps[name] = await version(name);
  }
  await writeFile(
    join(app, 'package.json'),
    JSON.stringify({ name: 'paydesk-consumer', private: true, type: 'module', dependencies: deps }, null, 2),
  );
  await npm(['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'], app, 300_000);
});

after(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

describe('the tarball', () => {
  test('holds the npm build, types, CDN files with source maps and integrity values, and the manifest', () => {
    const files = new Set(packed.files.map((f) => f.path));
    for (const f of [
      'package.json',
      'README.md',
      'dist/index.js',
      'dist/index.d.ts',
      'dist/custom-elements.json',
      'dist/cdn/paydesk.js',
      'dist/cdn/paydesk.js.map',
      'dist/cdn/paydesk.iife.js',
      'dist/cdn/paydesk.iife.js.map',
      'dist/cdn/paydesk.sri.json',
    ]) {
      assert.ok(files.has(f), `${f} is in the tarball`);
    }
  });

  test('holds no sources, tests, benchmarks or scratch files', () => {
    const stray = packed.files
      .map((f) => f.path)
      .filter((p) => !p.startsWith('dist/') && p !== 'package.json' && p !== 'bin/paydesk-sandbox.js' && p !== 'bin/paydesk.js' && !/^(README|LICENSE)/i.test(p));
    assert.deepEqual(stray, []);
    assert.deepEqual(
      packed.files.map((f) => f.path).filter((p) => /\.test\.|\.tsbuildinfo$|(^|\/)\.size-out\//.test(p)),
      [],
    );
  });

  test('every exports entry names existing files, types before import', () => {
    const files = new Set(packed.files.map((f) => f.path));
    const subpaths = ['.', './element', './server', './server/testing', './provider', './sandbox', './react'];
    for (const sub of subpaths) {
      const entry = pkg.exports[sub];
      assert.ok(entry && typeof entry === 'object', `exports["${sub}"] is a conditions object`);
      const keys = Object.keys(entry);
      assert.equal(keys[0], 'types', `exports["${sub}"] lists "types" first`);
      assert.ok(keys.includes('import'), `exports["${sub}"] has "import"`);
      for (const target of Object.values(entry)) assert.ok(files.has(target.replace(/^\.\//, '')), `${target} is in the tarball`);
    }
    for (const f of [pkg.main, pkg.types, pkg.customElements]) assert.ok(files.has(f.replace(/^\.\//, '')), `${f} is in the tarball`);
  });

  test('sideEffects names only the module that registers the element and the CDN files', () => {
    assert.deepEqual([...pkg.sideEffects].sort(), ['./dist/cdn/*.js', './dist/index.js']);
  });
});

/** Runs an ES module snippet in the consumer project and returns what it prints as JSON. */
async function inConsumer<T>(code: string): Promise<T> {
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', code], { cwd: app, timeout: 60_000 });
  return JSON.parse(stdout) as T;
}

describe('Node (no DOM)', () => {
  test('every subpath imports', async () => {
    const names = await inConsumer<Record<string, string[]>>(`
      const out = {};
      for (const s of ${JSON.stringify(SUBPATHS)}) out[s] = Object.keys(await import(s));
      console.log(JSON.stringify(out));`);
    const expected: Record<(typeof SUBPATHS)[number], string[]> = {
      paydesk: ['PaydeskCheckout', 'define', 'TAG'],
      'paydesk/element': ['PaydeskCheckout', 'define', 'TAG'],
      'paydesk/server': ['createCheckoutHandler', 'toNodeListener', 'createMemoryStore'],
      'paydesk/provider': ['createProviderClient', 'ProviderError'],
      'paydesk/sandbox': ['createSandbox'],
      'paydesk/react': ['PaydeskCheckout', 'PAYDESK_REACT_EVENTS'],
    };
    for (const s of SUBPATHS) for (const n of expected[s]) assert.ok(names[s]?.includes(n), `${s} exports ${n}`);
  });

  test('paydesk/server/testing: describeStoreContract runs the store contract against the packaged memory store', async () => {
    await writeFile(
      join(app, 'store-contract.test.mjs'),
      "import { describeStoreContract } from 'paydesk/server/testing';\n" +
        "import { createMemoryStore } from 'paydesk/server';\n" +
        "describeStoreContract('packaged memory store', () => createMemoryStore());\n",
    );
    const env = { ...process.env };
    delete env.NODE_TEST_CONTEXT; // its own test runner, not a child of this one
    const { stdout } = await run(process.execPath, ['--test', '--test-reporter=tap', 'store-contract.test.mjs'], { cwd: app, env, timeout: 120_000 });
    assert.match(stdout, /^# fail 0$/m, stdout);
    assert.ok(Number(/^# pass (\d+)$/m.exec(stdout)?.[1]) >= 20, stdout);
  });

  test('paydesk/element registers nothing; paydesk registers <paydesk-checkout>', async () => {
    const seen = await inConsumer<{ afterElement: boolean; afterMain: boolean; same: boolean }>(`
      const el = await import('paydesk/element');
      const afterElement = customElements.get('paydesk-checkout') !== undefined;
      await import('paydesk');
      console.log(JSON.stringify({ afterElement, afterMain: customElements.get('paydesk-checkout') !== undefined,
        same: customElements.get('paydesk-checkout') === el.PaydeskCheckout }));`);
    assert.deepEqual(seen, { afterElement: false, afterMain: true, same: true });
  });

  test('the packaged server and sandbox create an order end to end', async () => {
    const answer = await inConsumer<{ status: number; body: { order: { amount: string; status: string; requisites: unknown } } }>(`
      import { createSandbox } from 'paydesk/sandbox';
      import { createCheckoutHandler } from 'paydesk/server';
      const sandbox = createSandbox({ apiKey: 'node_only_key', seed: false, sweepIntervalMs: 0 });
      const handler = createCheckoutHandler({
        provider: { baseUrl: 'http://sandbox.test', apiKey: 'node_only_key', fetch: (i, init) => sandbox.fetch(new Request(i, init)) },
        resolveOrder: (ref) => (ref === 'tee' ? { amount: '1500.00' } : null),
        sessionSecrets: ['node-only-session-secret-0123456789abcdef'],
        rateLimits: false,
      });
      const res = await handler(new Request('http://shop.test/api/paydesk/sessions', {
        method: 'POST', headers: { 'content-type': 'application/json', 'x-paydesk': '1' },
        body: JSON.stringify({ order_ref: 'tee', method_type: 'SBP' }) }));
      const body = await res.json();
      await handler.close(); await sandbox.close();
      console.log(JSON.stringify({ status: res.status, body }));`);
    assert.equal(answer.status, 201);
    assert.equal(answer.body.order.status, 'pending');
    assert.equal(answer.body.order.amount, '1500.00');
    assert.ok(answer.body.order.requisites, 'the order carries requisites');
  });
});

describe('TypeScript consumer', () => {
  test('types of every subpath resolve under NodeNext, and event props are typed', async () => {
    await writeFile(
      join(app, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          lib: ['ES2023', 'DOM', 'DOM.Iterable'],
          strict: true,
          noEmit: true,
          // Our .d.ts files are checked too, as a strict consumer's would be (without ioredis installed).
          skipLibCheck: false,
          types: ['node'],
          jsx: 'react-jsx',
        },
        files: ['consumer.tsx'],
      }),
    );
    await copyFile(join(fixtures, 'consumer.tsx.txt'), join(app, 'consumer.tsx'));
    const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
    try {
      await run(process.execPath, [tsc, '-p', join(app, 'tsconfig.json')], { cwd: app, timeout: 120_000 });
    } catch (err) {
      const e = err as { stdout?: string; stderr?: string };
      assert.fail(`tsc failed on the consumer:\n${e.stdout ?? ''}${e.stderr ?? ''}`);
    }
  });
});

describe('Chromium', () => {
  let server: ChildProcess | undefined;
  let base = '';
  let browser: Browser | undefined;
  let integrity: Record<string, string>;

  before(async () => {
    integrity = JSON.parse(await readFile(join(app, 'node_modules', 'paydesk', 'dist', 'cdn', 'paydesk.sri.json'), 'utf8')) as Record<
      string,
      string
    >;
    await writePages(integrity);
    await bundleReactApp();
    await copyFile(join(fixtures, 'consumer-server.mjs'), join(app, 'consumer-server.mjs'));
    server = spawn(process.execPath, ['consumer-server.mjs'], { cwd: app, stdio: ['ignore', 'pipe', 'inherit'] });
    const proc = server;
    base = await new Promise<string>((resolve, reject) => {
      proc.once('exit', (code) => reject(new Error(`the consumer server exited (${code})`)));
      createInterface({ input: proc.stdout! }).once('line', (line) => resolve((JSON.parse(line) as { url: string }).url));
    });
    browser = await launchBrowser();
  });

  after(async () => {
    await browser?.close();
    if (server && server.exitCode === null) {
      const exited = new Promise((resolve) => server!.once('exit', resolve));
      server.kill('SIGTERM');
      await exited;
    }
  });

  async function open(path: string): Promise<{ page: Page; errors: string[]; requests: Map<string, number> }> {
    const page = await browser!.newPage();
    const errors: string[] = [];
    const requests = new Map<string, number>();
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('response', (r) => requests.set(new URL(r.url()).pathname, r.status()));
    await page.goto(`${base}${path}`);
    return { page, errors, requests };
  }

  /** The requisites are painted and show the account of the order the server created. */
  async function expectRequisites(page: Page): Promise<{ id: string }> {
    const requisites = page.locator('paydesk-checkout [part~="requisites"]');
    await requisites.waitFor({ state: 'visible', timeout: 20_000 });
    const order = await page.waitForFunction(() => (window as unknown as { __order?: unknown }).__order, null, { timeout: 20_000 });
    const { id, account } = (await order.jsonValue()) as { id: string; account: string };
    const digits = (s: string) => s.replace(/\D/g, '');
    assert.ok(digits(await requisites.innerText()).includes(digits(account)), 'the painted requisites show the order account');
    return { id };
  }

  test('the CDN ES module through an import map registers the element and paints the requisites', async () => {
    const { page, errors } = await open('/pages/importmap.html');
    await expectRequisites(page);
    await page.waitForFunction(() => (window as unknown as { __sameClass?: boolean }).__sameClass !== undefined);
    assert.equal(await page.evaluate(() => (window as unknown as { __sameClass?: boolean }).__sameClass), true);
    assert.deepEqual(errors, []);
    await page.close();
  });

  test('the IIFE with its integrity attribute registers the element and paints the requisites', async () => {
    const { page, errors, requests } = await open('/pages/iife.html');
    await expectRequisites(page);
    assert.equal(requests.get('/cdn/paydesk.iife.js'), 200);
    assert.equal(await page.evaluate(() => typeof (window as unknown as { Paydesk?: unknown }).Paydesk), 'object');
    assert.deepEqual(errors, []);
    await page.close();
  });

  test('the IIFE does not run when its integrity value does not match', async () => {
    const { page } = await open('/pages/iife-tampered.html');
    await page.waitForFunction(() => (window as unknown as { __loaded?: string }).__loaded !== undefined);
    assert.equal(await page.evaluate(() => (window as unknown as { __loaded?: string }).__loaded), 'error');
    assert.equal(await page.evaluate(() => customElements.get('paydesk-checkout')), undefined);
    await page.close();
  });

  /** The packaged chunk of a name in a folder of dist/cdn: `kk` → `kk-<hash>.js` (names carry a hash of their content). */
  async function chunk(dir: string, name: string): Promise<string> {
    const found = (await readdir(join(app, 'node_modules', 'paydesk', 'dist', 'cdn', dir))).find((f) => new RegExp(`^${name}-[0-9a-f]{8}\\.js$`).test(f));
    assert.ok(found, `dist/cdn/${dir}/${name}-<hash>.js is in the tarball`);
    return `/cdn/${dir}/${found}`;
  }

  test('the IIFE fetches a language table from beside its own URL', async () => {
    const { page, errors, requests } = await open('/pages/iife-kk.html');
    await expectRequisites(page);
    const kkFile = await chunk('chunks', 'kk');
    const kk = (await page.evaluate(async (f) => (await import(f)) as { default: { payTitle?: string } }, kkFile)).default;
    assert.ok(kk.payTitle, 'the Kazakh table has payTitle');
    await page.locator('paydesk-checkout [part~="heading"]', { hasText: kk.payTitle }).first().waitFor({ timeout: 10_000 });
    assert.equal(requests.get(kkFile), 200);
    assert.deepEqual(errors, []);
    await page.close();
  });

  for (const [name, path, together] of [
    // The requisites' code is the entry's own (src/cdn.ts imports the paint): beside it, only the messages.
    ['the CDN ES module', '/pages/importmap-ru.html', [['chunks', 'ru-first']]],
    // The classic copies take the script's modules from it: no module of its own on the path (issue 33).
    ['the classic script', '/pages/iife-ru.html', [['classic/chunks', 'ru-first']]],
  ] as const) {
    test(`no waterfall, ${name}: the create and the Russian first-paint messages are asked for in one round trip`, async () => {
      const held = [...(await Promise.all(together.map(async ([dir, file]) => `GET ${await chunk(dir, file)}`))), 'POST /api/paydesk/sessions'];
      const page = await browser!.newPage();
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      const asked = await holdTogether(page, held);
      await page.goto(`${base}${path}`);
      await expectRequisites(page);
      assert.deepEqual([...asked()].sort(), [...held].sort(), 'each was asked for before any of them was answered');
      assert.deepEqual(errors, []);
      await page.close();
    });
  }

  for (const [name, path, dir] of [
    ['the CDN ES module', '/pages/importmap-ru.html', 'chunks'],
    ['the classic script', '/pages/iife-ru.html', 'classic/chunks'],
  ] as const) {
    test(`the take-over, ${name}: the whole Russian table is asked for with the element's code, not a round trip after it`, async () => {
      const element = await chunk(dir, 'cdn-element');
      const table = await chunk('chunks', 'ru');
      const page = await browser!.newPage();
      const errors: string[] = [];
      const asks: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      page.on('request', (r) => asks.push(new URL(r.url()).pathname));
      const asked = await holdTogether(page, [`GET ${element}`, `GET ${table}`]);
      await page.goto(`${base}${path}`);
      await expectRequisites(page);
      // The element takes over (its `state` is its machine's; none before its code has run).
      await page.waitForFunction(() => (document.querySelector('paydesk-checkout') as HTMLElement & { state?: string }).state === 'pay');
      assert.deepEqual([...asked()].sort(), [`GET ${element}`, `GET ${table}`].sort(), 'the whole table was asked for before the element\'s chunk was answered');
      assert.equal(asks.filter((a) => a === table).length, 1, 'the whole table is fetched once (the element finds it loaded)');
      assert.deepEqual(errors, []);
      await page.close();
    });
  }

  test('paydesk/react renders the element in React 19: properties, attributes and event props', async () => {
    const { page, errors } = await open('/pages/react.html');
    const { id } = await expectRequisites(page);
    // `messages` is an object: it can only have arrived as a property.
    await page.locator('paydesk-checkout [part~="heading"]', { hasText: 'Pay from React' }).first().waitFor({ timeout: 10_000 });
    assert.equal(await page.locator('paydesk-checkout').evaluate((el) => (el as HTMLElement & { orderRef: string }).orderRef), 'tee');
    assert.equal(await page.locator('paydesk-checkout').getAttribute('id'), 'checkout');
    await page.locator('#log', { hasText: 'session' }).waitFor();

    const res = await fetch(`${base}/test/orders/${id}/complete`, { method: 'POST' });
    assert.equal(res.status, 200, await res.text());
    // provider webhook → merchant server → event stream → element → onPaydeskPaid → React state
    await page.locator('#log', { hasText: 'session,paid' }).waitFor({ timeout: 20_000 });
    assert.equal(await page.evaluate(() => (window as unknown as { __paid?: string }).__paid), id);
    assert.deepEqual(errors, []);
    await page.close();
  });
});

const PAGE_SCRIPT = `
  addEventListener('paydesk-session', (e) => {
    window.__order = { id: e.detail.order.id, account: e.detail.order.requisites ? e.detail.order.requisites.holder_account : '' };
  });`;

function page(title: string, head: string, body: string, lang = 'en'): string {
  return `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><title>${title}</title>${head}<script>${PAGE_SCRIPT}</script></head><body>${body}</body></html>`;
}

const ELEMENT = (extra = '') => `<paydesk-checkout endpoint="/api/paydesk" order-ref="tee" method-type="SBP"${extra}></paydesk-checkout>`;

async function writePages(sri: Record<string, string>): Promise<void> {
  const iife = (integrity: string, onload = '') =>
    `<script src="/cdn/paydesk.iife.js" integrity="${integrity}" crossorigin="anonymous"${onload}></script>`;
  const pages: Record<string, string> = {
    'importmap.html': page(
      'import map',
      `<script type="importmap">{"imports":{"paydesk":"/cdn/paydesk.js"}}</script>`,
      `${ELEMENT()}<script type="module">import * as paydesk from 'paydesk';
        // The class is a live export, set when the element's code arrives (after the first paint).
        customElements.whenDefined('paydesk-checkout').then((C) => (window.__sameClass = C === paydesk.PaydeskCheckout));</script>`,
    ),
    'iife.html': page('IIFE', '', `${ELEMENT()}${iife(sri['paydesk.iife.js']!)}`),
    'iife-kk.html': page('IIFE kk', '', `${ELEMENT(' locale="kk"')}${iife(sri['paydesk.iife.js']!)}`, 'kk'),
    'iife-ru.html': page('IIFE ru', '', `${ELEMENT(' locale="ru"')}${iife(sri['paydesk.iife.js']!)}`, 'ru'),
    'importmap-ru.html': page('ES module ru', '', `${ELEMENT(' locale="ru"')}<script type="module" src="/cdn/paydesk.js"></script>`, 'ru'),
    'iife-tampered.html': page(
      'IIFE, wrong integrity',
      '',
      `${ELEMENT()}${iife(sri['paydesk.js']!, ` onload="window.__loaded='load'" onerror="window.__loaded='error'"`)}`,
    ),
    'react.html': page('React', '', `<div id="root"></div><script type="module" src="/pages/react-app.js"></script>`),
  };
  for (const [name, html] of Object.entries(pages)) await writeFile(join(app, 'pages', name), html);
}

/** Bundles the React app with esbuild from the consumer project, so React and paydesk/react resolve there. */
async function bundleReactApp(): Promise<void> {
  await copyFile(join(fixtures, 'react-app.jsx'), join(app, 'react-app.jsx'));
  const esbuild = await import('esbuild');
  await esbuild.build({
    absWorkingDir: app,
    entryPoints: [join(app, 'react-app.jsx')],
    outfile: join(app, 'pages', 'react-app.js'),
    bundle: true,
    format: 'esm',
    platform: 'browser',
    jsx: 'automatic',
    define: { 'process.env.NODE_ENV': '"production"' },
    logLevel: 'error',
  });
}
