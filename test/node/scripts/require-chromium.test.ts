import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';

const script = new URL('../../../scripts/require-chromium.mjs', import.meta.url).pathname;

test('with no Chromium, the browser step stops and says how to install one and how to set CHROME_PATH', () => {
  const run = spawnSync(process.execPath, [script], {
    env: { ...process.env, CHROME_PATH: '/nonexistent/chromium' },
    encoding: 'utf8',
  });
  assert.equal(run.status, 1);
  assert.match(run.stderr, /No Chromium found/);
  assert.match(run.stderr, /apt-get install -y chromium/);
  assert.match(run.stderr, /CHROME_PATH=/);
});

test('CHROME_PATH pointing at a real file is accepted', () => {
  const run = spawnSync(process.execPath, [script], { env: { ...process.env, CHROME_PATH: process.execPath }, encoding: 'utf8' });
  assert.equal(run.status, 0, run.stderr);
});
