/**
 * The published declarations (issue 21.3): nothing `@internal` in dist/**\/*.d.ts (tsconfig.build's
 * `stripInternal`), none of the element's seams among its public members, and paydesk/server and
 * paydesk/provider compile in a project without the DOM lib (test/types/published). Needs `dist/` (npm test
 * builds it).
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const dist = join(root, 'dist');

/** The element's members that only its controllers and views use (marked @internal in the source). */
const INTERNAL_MEMBERS = ['env$', 'machine', 'm', 'language', 'embedded', 'frame', 'redirectUrl', 'redirectIn', 'base', 'api', 'announce', 'recheck', 'wait', 'send', 'copied', 'copyTimer', 'sheet', 'receipt'];

async function declarations(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await declarations(path)));
    else if (entry.name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

before(() => {
  assert.ok(existsSync(join(dist, 'index.d.ts')), 'dist/ is missing: run `node scripts/build.mjs` first');
});

test('no declaration in dist carries @internal', async () => {
  const files = await declarations(dist);
  assert.ok(files.length > 20);
  const marked = [];
  for (const file of files) if ((await readFile(file, 'utf8')).includes('@internal')) marked.push(file.slice(dist.length + 1));
  assert.deepEqual(marked, []);
});

test("the element's public declaration has none of its internal members", async () => {
  const text = await readFile(join(dist, 'element/paydesk-checkout.d.ts'), 'utf8');
  const start = text.indexOf('export declare class PaydeskCheckout');
  assert.ok(start >= 0);
  const body = text.slice(start);
  const found = INTERNAL_MEMBERS.filter((name) => new RegExp(`^\\s+(?:get |set |readonly )?${name.replace('$', '\\$')}[(:?]`, 'm').test(body));
  assert.deepEqual(found, []);
  for (const name of ['start', 'reset', 'result', 'endpoint', 'orderRef', 'methodType', 'locale']) {
    assert.match(body, new RegExp(`^\\s+(?:get |readonly )?${name}[(:?]`, 'm'), `${name} stays public`);
  }
});

test('paydesk/server and paydesk/provider declarations compile without the DOM lib (test/types/published)', async () => {
  const tsc = join(root, 'node_modules/typescript/bin/tsc');
  const run = await promisify(execFile)(process.execPath, [tsc, '-p', join(root, 'test/types/published')], { cwd: root }).then(
    () => ({ code: 0, out: '' }),
    (err: { code?: number; stdout?: string }) => ({ code: err.code ?? 1, out: err.stdout ?? '' }),
  );
  assert.equal(run.code, 0, run.out);
});
