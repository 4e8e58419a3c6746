/**
 * README's quick start, followed literally: its one ```sh block (under "### Quick start") is run by
 * bash in an empty temp folder, as a developer pastes it, with three changes only: `npm install
 * paydesk` installs the packed tarball (offline, from the npm cache), and the ports 4010 and 3000
 * become free ones (8 helpers share this machine). Then a purchase in Chromium: the requisites are
 * painted, the sandbox completes the order, and the page must learn of it within 1 s of the complete
 * call (the block's local webhookUrl: webhook → server → event stream → element), and the server
 * prints `paid: …` (onOrderPaid).
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { ROOT, WAIT_MS, cleanEnv, freePort, launchBrowser, tarball } from './helpers.js';
import { quickStart } from './readme-snippets.js';
import { buy, elementPaid, paidAt } from './shopper.js';

/** The bound on "paid" after the sandbox's completion that README promises ("well under a second"). */
const PAID_WITHIN_MS = 1000;
/** npm install of paydesk, express and tsx from the cache, then the sandbox and the server. */
const READY_MS = 300_000;

let browser: Browser;
let work = '';
let child: ChildProcess | undefined;
let output = '';

before(async () => {
  browser = await launchBrowser();
  work = await mkdtemp(join(tmpdir(), 'paydesk-quickstart-'));
});

after(async () => {
  if (child?.pid !== undefined && child.exitCode === null && child.signalCode === null) {
    // The block runs the sandbox in the background: both are in the process group bash leads.
    const exited = new Promise((resolve) => child!.once('exit', resolve));
    process.kill(-child.pid, 'SIGTERM');
    const timer = setTimeout(() => process.kill(-child!.pid!, 'SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
  }
  await browser?.close();
  if (work) await rm(work, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
});

/** Waits until the block's output matches `pattern`; fails with the output so far. */
async function printed(pattern: RegExp, what: string, ms: number): Promise<RegExpExecArray> {
  const deadline = Date.now() + ms;
  for (;;) {
    const m = pattern.exec(output);
    if (m) return m;
    if (child?.exitCode !== null) throw new Error(`${what}: the quick start exited (${child?.exitCode}) first:\n${output}`);
    if (Date.now() > deadline) throw new Error(`${what}: not printed within ${ms} ms:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

test('README quick start, run as written: "paid" reaches the page within 1 s of the sandbox completing the order', async () => {
  const { script } = quickStart(await readFile(join(ROOT, 'README.md'), 'utf8'));
  const apiKey = /^export PAYDESK_API_KEY=(\S+)$/m.exec(script)?.[1];
  assert.ok(apiKey, 'the block exports PAYDESK_API_KEY');
  assert.match(script, /^export PAYDESK_WEBHOOK_URL=http:\/\/127\.0\.0\.1:3000\/api\/paydesk\/webhooks\b/m, 'the webhook URL is the local server’s own route');
  assert.match(script, /^export PAYDESK_SESSION_SECRET=/m);
  assert.match(script, /^npx paydesk-sandbox\b.*&$/m, 'the block starts the sandbox in the background');

  const [sandboxPort, shopPort, tgz] = await Promise.all([freePort(), freePort(), tarball()]);
  const install = /^npm install paydesk\b(.*)$/m;
  assert.match(script, install, 'the block installs paydesk');
  const run = script
    .replace(install, (_line, rest: string) => `npm install ${tgz}${rest} --prefer-offline --no-audit --no-fund --loglevel=error`)
    .replace(/\b4010\b/g, String(sandboxPort))
    .replace(/\b3000\b/g, String(shopPort));

  const env = cleanEnv({ NO_COLOR: '1', FORCE_COLOR: '0' });
  for (const key of Object.keys(env)) if (/^PAYDESK_/i.test(key)) delete env[key];
  child = spawn('bash', ['-e', '-c', run], { cwd: work, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()));

  const sandboxUrl = (await printed(/paydesk sandbox listening on (http:\/\/127\.0\.0\.1:\d+)/, 'the sandbox', READY_MS))[1]!;
  const shopUrl = (await printed(/shop: (http:\/\/127\.0\.0\.1:\d+\/)/, 'the server', READY_MS))[1]!;
  assert.equal(sandboxUrl, `http://127.0.0.1:${sandboxPort}`);

  const { page, orderId, completeCalledAt, errors } = await buy(browser, shopUrl, sandboxUrl, undefined, [], apiKey);
  const paid = await paidAt(page);
  await elementPaid(page);
  const ms = paid - completeCalledAt;
  console.log(`quick start: paid on the page ${ms} ms after the complete call`);
  assert.ok(ms < PAID_WITHIN_MS, `"paid" reached the page ${ms} ms after the sandbox was asked to complete the order (bound: ${PAID_WITHIN_MS} ms)`);
  await printed(new RegExp(`paid: coffee-beans \\(order ${orderId}\\)`), 'onOrderPaid on the server', WAIT_MS);
  assert.deepEqual(errors, []);
  await page.context().close();
});
