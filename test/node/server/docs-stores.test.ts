/**
 * The snippet of docs/stores.md that tests a merchant's own store with describeStoreContract, run as
 * the page shows it (node --import tsx --test): taken from the page, its `paydesk/server/testing`
 * pointed at this checkout and its `createMyStore` at a small store — a correct one passes every
 * test of the suite, one whose `create` overwrites fails.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const page = readFileSync(join(root, 'docs', 'stores.md'), 'utf8');

function snippet(name: string): string {
  const at = page.indexOf(`<!-- snippet: ${name}`);
  assert.ok(at >= 0, `docs/stores.md has the ${name} snippet`);
  const match = /```ts\n([\s\S]*?)```/.exec(page.slice(at));
  assert.ok(match, 'a ts code block follows the marker');
  return match[1]!;
}

/** A store of "my own": the memory store's data per prefix, behind a wrapper; `brokenCreate` overwrites. */
const myStore = (brokenCreate: boolean) => `
import { MemoryStore } from ${JSON.stringify(join(root, 'src/server/index.ts'))};
const data = new Map<string, MemoryStore>();
export function createMyStore(o: { prefix: string }) {
  let inner = data.get(o.prefix);
  if (!inner) data.set(o.prefix, (inner = new MemoryStore()));
  const store = inner;
  return new Proxy(store, {
    get(target, name) {
      if (name === 'prefix') return o.prefix;
      if (name === 'close') return async () => {};
      ${brokenCreate ? "if (name === 'create') return async (k: string, v: string, ttl: number) => { await target.set(k, v, ttl); return true; };" : ''}
      const value = Reflect.get(target, name);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  }) as MemoryStore & { prefix: string };
}
`;

function runSnippet(brokenCreate: boolean): { pass: number; fail: number; output: string } {
  const dir = mkdtempSync(join(tmpdir(), 'paydesk-docs-stores-'));
  try {
    writeFileSync(join(dir, 'my-store.ts'), myStore(brokenCreate));
    const code = snippet('store-contract')
      .replace(`'paydesk/server/testing'`, JSON.stringify(join(root, 'src/server/testing/index.ts')))
      .replace(`'../src/my-store.js'`, JSON.stringify(join(dir, 'my-store.ts')));
    assert.ok(!code.includes('paydesk/server/testing') && !code.includes('../src/my-store'), 'the snippet imports what the page says');
    writeFileSync(join(dir, 'my-store.test.ts'), code);
    // A test runner of its own (not a child of this one: without the variable that says so).
    const env = { ...process.env };
    delete env.NODE_TEST_CONTEXT;
    const run = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-reporter=tap', join(dir, 'my-store.test.ts')], {
      cwd: root,
      env,
      encoding: 'utf8',
      timeout: 120_000,
    });
    const output = `${run.stdout}${run.stderr}`;
    const count = (label: string) => Number(new RegExp(`^# ${label} (\\d+)$`, 'm').exec(output)?.[1] ?? NaN);
    return { pass: count('pass'), fail: count('fail'), output };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('docs/stores.md: the describeStoreContract snippet runs the whole suite against a correct store, all passing', () => {
  const { pass, fail, output } = runSnippet(false);
  assert.equal(fail, 0, output);
  assert.ok(pass >= 20, `${pass} tests passed\n${output}`);
});

test('docs/stores.md: the same snippet fails a store whose create overwrites an existing key', () => {
  const { fail, output } = runSnippet(true);
  assert.ok(fail >= 1, output);
  assert.match(output, /create writes only when absent/);
});
