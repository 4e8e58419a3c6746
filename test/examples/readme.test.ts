/**
 * README.md and the guides under docs/ as a user reads them: every ```ts and ```tsx snippet, and the
 * TypeScript files README's quick start block writes, is type-checked, exactly as written, against the packed tarball installed into a
 * fresh project (with express, react, vite and their types, as the snippets' users have them), and
 * the sandbox URL `npm start` prints works as `baseUrl`.
 *
 * A snippet's first line names its file (`// paydesk.ts …`); snippets import each other by those names
 * (`import { handler } from './paydesk.ts'`, with `allowImportingTsExtensions` as README says). One
 * module is not in README: `shop.ts`, the merchant's own data access the handler snippet imports
 * (`// your own data`), given here as a fixture. Files for a bundler (`.tsx`, `vite.config.ts`,
 * `src/…`, Next's `app/…`) are checked with `moduleResolution: bundler`; the rest as Node runs them,
 * with `NodeNext`. The Next.js snippets are examples/next-app's files, as they are (checked here):
 * `next build` in test/examples/next-app.test.ts type-checks them, `next.config.ts` included (the only
 * snippet that needs the `next` package, which this project does not install).
 */
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, test } from 'node:test';
import { promisify } from 'node:util';
import { EXAMPLES, ROOT, WAIT_MS, cleanEnv, npm, startProcess, tarball } from './helpers.js';
import { documentationSnippets, quickStartFiles, type Snippet } from './readme-snippets.js';

const run = promisify(execFile);
const TSC = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');

const SHOP_FIXTURE = `// The merchant's own data access, which README's handler snippet imports ("your own data").
export interface Product { ref: string; title: string; price: string }
export async function findProduct(ref: string): Promise<Product | null> {
  return ref === 'coffee-beans' ? { ref, title: 'Coffee beans', price: '1500.00' } : null;
}
export async function markPaid(orderRef: string, orderId: string, late = false): Promise<void> {
  console.log('paid', orderRef, orderId, late ? '(late)' : '');
}
export interface Cart { id: string; shopSession: string; total: string }
export async function findCart(id: string): Promise<Cart | null> {
  return id === 'cart-1' ? { id, shopSession: 'alice-session', total: '1500.00' } : null;
}
`;

/** Type-level checks of what README promises about paydesk/react: event props are typed, not `any`. */
const REACT_TYPES_CHECK = `import type { PaydeskCheckoutProps, PaydeskEventMap } from 'paydesk/react';
type IsAny<T> = 0 extends 1 & T ? true : false;
type Param<K extends keyof PaydeskCheckoutProps> = Parameters<NonNullable<PaydeskCheckoutProps[K]>>[0];
export const paidIsNotAny: IsAny<Param<'onPaydeskPaid'>> = false;
export const paidIsTheElementEvent: Param<'onPaydeskPaid'> extends PaydeskEventMap['paydesk-paid'] ? true : false = true;
export const errorIsNotAny: IsAny<Param<'onPaydeskError'>> = false;
export const orderRefIsNotAny: IsAny<PaydeskCheckoutProps['orderRef']> = false;
`;

const COMPILER = {
  target: 'ES2022',
  lib: ['ES2023', 'DOM', 'DOM.Iterable'],
  strict: true,
  noEmit: true,
  skipLibCheck: true,
  isolatedModules: true,
  allowImportingTsExtensions: true,
  jsx: 'react-jsx',
};

/** Compiled by `next build` in next-app.test.ts (they need the `next` package), not by this project. */
const NEXT_ONLY = new Set(['next.config.ts', 'proxy.ts', 'app/checkout/page.tsx']);
/** README's snippets that examples/next-app is made of (beside its own shop.ts, package.json and tsconfig.json). */
const NEXT_FILES = [
  'next.config.ts',
  'paydesk.ts',
  'app/api/paydesk/[...path]/route.ts',
  'app/layout.tsx',
  'app/page.tsx',
  'app/checkout.tsx',
  // The server-rendered checkout page (README "5. Server-rendered checkout").
  'proxy.ts',
  'app/checkout/page.tsx',
  'app/checkout/take-over.tsx',
];

let work = '';
let app = '';
let snippets: Snippet[] = [];

/** Writes the files and the two tsconfigs of a consumer project into `dir`. */
async function writeProject(dir: string, files: Snippet[]): Promise<void> {
  for (const s of files) {
    await mkdir(dirname(join(dir, s.file)), { recursive: true });
    await writeFile(join(dir, s.file), s.code);
  }
  await writeFile(join(dir, 'shop.ts'), SHOP_FIXTURE);
  const checked = files.filter((s) => !NEXT_ONLY.has(s.file));
  const node = checked.filter((s) => s.project === 'node').map((s) => s.file);
  const bundler = checked.filter((s) => s.project === 'bundler').map((s) => s.file);
  await writeFile(
    join(dir, 'tsconfig.node.json'),
    JSON.stringify({ compilerOptions: { ...COMPILER, module: 'NodeNext', moduleResolution: 'NodeNext', types: ['node'] }, files: [...node, 'shop.ts'] }),
  );
  await writeFile(
    join(dir, 'tsconfig.bundler.json'),
    JSON.stringify({ compilerOptions: { ...COMPILER, module: 'preserve', moduleResolution: 'bundler', types: ['node'] }, files: [...bundler, 'shop.ts'] }),
  );
}

/** tsc on one of the projects; resolves with its diagnostics ('' when it passed). */
async function tsc(dir: string, project: 'node' | 'bundler'): Promise<string> {
  try {
    await run(process.execPath, [TSC, '-p', join(dir, `tsconfig.${project}.json`), '--pretty', 'false'], { cwd: dir, timeout: 180_000 });
    return '';
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string; message: string };
    return `${e.stdout ?? ''}${e.stderr ?? ''}` || e.message;
  }
}

/** tsc's diagnostics with each file named by its snippet's markdown file and line. */
function explain(diagnostics: string, files: Snippet[]): string {
  return diagnostics.replace(/^([^\s(]+)\((\d+),(\d+)\)/gm, (whole, file: string, line: string) => {
    const s = files.find((f) => f.file === file);
    return s ? `${s.source}:${s.line + Number(line) - 1} (snippet ${s.index}, ${file})` : whole;
  });
}

before(async () => {
  const readme = await readFile(join(ROOT, 'README.md'), 'utf8');
  snippets = documentationSnippets(ROOT);
  snippets.push(...quickStartFiles(readme, snippets.length + 1));
  work = await mkdtemp(join(tmpdir(), 'paydesk-readme-'));
  app = join(work, 'app');
  await mkdir(app);
  const version = async (name: string) =>
    (JSON.parse(await readFile(join(ROOT, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;
  // What the snippets' users have beside paydesk: the same versions as this repository's (so in the npm cache).
  const deps: Record<string, string> = {};
  // The OpenTelemetry pieces: README's "Observability" snippet wires them as an app does.
  const otel = ['@opentelemetry/api', '@opentelemetry/context-async-hooks', '@opentelemetry/sdk-trace-base', '@opentelemetry/sdk-metrics'];
  // @lit-labs/ssr: paydesk/ssr's optional peer, which README's server-rendered checkout installs.
  for (const name of ['@lit-labs/ssr', 'express', 'react', 'react-dom', 'vite', '@vitejs/plugin-react', '@types/express', '@types/react', '@types/react-dom', '@types/node', ...otel]) {
    deps[name] = await version(name);
  }
  await writeFile(join(app, 'package.json'), JSON.stringify({ name: 'readme-consumer', private: true, type: 'module', dependencies: deps }, null, 2));
  await npm(['install', await tarball(), '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'], app);
});

after(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

test('README and its guides have the integration snippets, each named by its first line', () => {
  const files = snippets.map((s) => s.file);
  for (const f of [
    'quickstart/server.ts',
    'paydesk.ts',
    'carts.ts',
    'server.ts',
    'app.ts',
    'hono.ts',
    'checkout-page.ts',
    ...NEXT_FILES,
    'src/checkout.ts',
    'src/Checkout.tsx',
    'vite.config.ts',
  ]) {
    assert.ok(files.includes(f), `the documentation has the ${f} snippet (has: ${files.join(', ')})`);
  }
  assert.equal(new Set(files).size, files.length, 'no two snippets share a file name');
});

test('the Next.js snippets of the guides are the files of examples/next-app, as they are (and its paydesk.ts is README’s)', async () => {
  for (const file of NEXT_FILES) {
    const snippet = snippets.find((s) => s.file === file);
    assert.ok(snippet, `README has ${file}`);
    assert.equal(snippet.code, await readFile(join(EXAMPLES, 'next-app', file), 'utf8'), `README's ${file} is examples/next-app/${file}`);
  }
});

test('every ts/tsx snippet of README.md and docs/ type-checks, as written, against the installed tarball', async () => {
  await writeProject(app, snippets);
  const errors = [await tsc(app, 'node'), await tsc(app, 'bundler')].filter(Boolean).join('\n');
  assert.equal(explain(errors, snippets), '', 'snippets that do not compile');
});

test('paydesk/react event props are typed with the element’s events (not any)', async () => {
  const check: Snippet = { index: 0, source: 'test', line: 0, file: 'react-types-check.ts', code: REACT_TYPES_CHECK, project: 'bundler' };
  await writeProject(app, [...snippets, check]);
  assert.equal(await tsc(app, 'bundler'), '');
});

test('the check fails when a snippet uses a name it does not import', async () => {
  // The Express snippet without its paydesk/server import: what README had before (issue 15).
  const express = snippets.find((s) => s.code.includes('toExpressMiddleware('));
  assert.ok(express, 'the documentation has an Express snippet');
  const broken = { ...express, code: express.code.replace(/^import \{ toExpressMiddleware \} from 'paydesk\/server';\n/m, '') };
  assert.notEqual(broken.code, express.code, 'the import line was removed');
  await writeProject(app, snippets.map((s) => (s === express ? broken : s)));
  const errors = await tsc(app, broken.project);
  assert.match(explain(errors, snippets), /docs\/server-handler\.md:\d+ \(snippet \d+, app\.ts\).*Cannot find name 'toExpressMiddleware'/);
  await writeProject(app, snippets);
});

test('the sandbox URL `npm start` prints is the provider baseUrl: the packaged client reads the balance with it', async () => {
  const data = await mkdtemp(join(tmpdir(), 'paydesk-readme-data-'));
  const start = await startProcess(process.execPath, ['--import', 'tsx', 'demo/start.ts'], {
    cwd: ROOT,
    env: {
      PORT: '0',
      SANDBOX_PORT: '0',
      PAYDESK_PROVIDER_URL: '',
      PAYDESK_API_KEY: '',
      PAYDESK_SANDBOX_API_KEY: 'sk_readme_start',
      PAYDESK_DATA_DIR: data,
    },
    ready: /Sandbox provider\s+(\S+)[\s\S]*Press Ctrl-C/,
    label: 'npm start',
  });
  try {
    const printed = start.url;
    assert.equal(new URL(printed).pathname, '/', `the printed sandbox URL is a root URL: ${printed}`);
    assert.doesNotMatch(start.output(), /\/api\/v1/, 'the banner names no /api/v1 URL to copy by mistake');
    const code = `import { createProviderClient } from 'paydesk/provider';
      const provider = createProviderClient({ baseUrl: ${JSON.stringify(printed)}, apiKey: 'sk_readme_start', maxRetries: 0 });
      console.log(JSON.stringify(await provider.getBalance()));`;
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', code], { cwd: app, env: cleanEnv(), timeout: WAIT_MS });
    assert.ok(JSON.parse(stdout), 'the balance was read');
  } finally {
    await start.stop();
    await rm(data, { recursive: true, force: true });
  }
});
