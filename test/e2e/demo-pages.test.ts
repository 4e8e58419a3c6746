/**
 * The demo pages' build (demo/vite.config.ts, demo/pages.ts): built when missing, reused while fresh,
 * rebuilt when a recorded input changes; and every text key the HTML names exists in both languages.
 */
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { PAGES_OUT_DIR, PAGES_SRC_DIR, staleReason } from '../../demo/build-inputs.js';
import { CONSOLE_TEXTS } from '../../src/console/ui/texts.js';

const CONSOLE_UI_DIR = fileURLToPath(new URL('../../src/console/ui/', import.meta.url));
import { STORE_TEXTS } from '../../demo/public/src/texts/store.js';
import { ROOT } from './helpers.js';

/** loadDemoPages() in a new process: what it did, and what it serves. */
function loadInChild(): { source: string; reason: string | null; pages: string[] } {
  const script = `const m = await import('./demo/pages.ts'); const p = await m.loadDemoPages();
    console.log(JSON.stringify({ source: p.source, reason: p.reason, pages: ['/index.html', '/thanks.html', '/support.html', '/cdn.html'].filter((f) => p.get(f)) }));`;
  const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8', timeout: 120_000 });
  assert.equal(run.status, 0, run.stderr);
  return JSON.parse(run.stdout.trim().split('\n').at(-1)!) as { source: string; reason: string | null; pages: string[] };
}

describe('the demo pages', () => {
  test('npm start builds them when demo/dist is missing, then reuses the build while its sources are the same', () => {
    rmSync(PAGES_OUT_DIR, { recursive: true, force: true });
    const first = loadInChild();
    assert.deepEqual(first, { source: 'built', reason: 'there is no build yet', pages: ['/index.html', '/thanks.html', '/support.html', '/cdn.html'] });
    assert.equal(staleReason(PAGES_OUT_DIR), null);
    const second = loadInChild();
    assert.equal(second.source, 'fresh');
    assert.equal(second.reason, null);
    assert.ok(!readdirSync(join(PAGES_OUT_DIR, '..')).some((f) => f.startsWith('.dist-build-')), 'no build folder is left behind');
  });

  test('a changed, added or removed input, or another Vite, makes the build stale', () => {
    const copy = mkdtempSync(join(tmpdir(), 'demo-dist-'));
    try {
      cpSync(PAGES_OUT_DIR, copy, { recursive: true });
      const file = join(copy, '.build-inputs.json');
      const inputs = JSON.parse(readFileSync(file, 'utf8')) as { vite: string; files: Record<string, string>; listing: string[] };
      assert.equal(staleReason(copy), null);
      // The shared modules the pages import are inputs too, not only demo/public; and the base stylesheet
      // they share with the console (src/ui-shared/base.css), which CSS @imports, not the bundler.
      for (const shared of ['src/money/index.ts', 'src/provider/facts.ts', 'src/protocol/index.ts', 'demo/public/src/store.ts', 'src/ui-shared/dom.ts', 'src/ui-shared/base.css']) {
        assert.ok(shared in inputs.files, `${shared} is a recorded input`);
      }
      const write = (changed: object) => writeFileSync(file, JSON.stringify({ ...inputs, ...changed }));
      write({ files: { ...inputs.files, 'src/money/index.ts': '0'.repeat(64) } });
      assert.equal(staleReason(copy), 'src/money/index.ts changed');
      write({ listing: inputs.listing.filter((f) => f !== 'demo/public/src/thanks.ts') });
      assert.equal(staleReason(copy), 'files were added to or removed from demo/public');
      write({ files: { ...inputs.files, 'demo/public/src/gone.ts': '0'.repeat(64) } });
      assert.equal(staleReason(copy), 'demo/public/src/gone.ts is gone');
      write({ vite: '0.0.1' });
      assert.match(staleReason(copy) ?? '', /^Vite changed \(0\.0\.1 → \d+\.\d+\.\d+\)$/);
      writeFileSync(file, '{');
      assert.equal(staleReason(copy), 'there is no build yet');
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  });

  test('every text the HTML names (data-i18n, data-i18n-aria) exists in English and Russian', () => {
    const tables: Record<string, { en: Record<string, string>; ru: Record<string, string> }> = {
      [join(CONSOLE_UI_DIR, 'console.html')]: CONSOLE_TEXTS,
      [join(PAGES_SRC_DIR, 'index.html')]: STORE_TEXTS,
      [join(PAGES_SRC_DIR, 'thanks.html')]: STORE_TEXTS,
      [join(PAGES_SRC_DIR, 'support.html')]: STORE_TEXTS,
    };
    for (const [page, table] of Object.entries(tables)) {
      const html = readFileSync(page, 'utf8');
      const keys = [...html.matchAll(/data-i18n(?:-aria)?="([^"]+)"/g)].map((m) => m[1]!);
      assert.ok(keys.length >= 3, page);
      for (const key of keys) {
        assert.ok(table.en[key], `${page}: "${key}" has an English text`);
        assert.ok(table.ru[key], `${page}: "${key}" has a Russian text`);
      }
    }
  });
});
