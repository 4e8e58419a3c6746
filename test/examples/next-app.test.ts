/**
 * examples/next-app: a Next.js 16 App Router app (cacheComponents on) made of README's Next.js
 * snippets (test/examples/readme.test.ts checks they are the same text), installed from the packed
 * tarball. `next build` runs WITHOUT the provider's variables, as a CI build does: the handler reads
 * and checks its options on first use, so the build needs no secrets and opens no database (the
 * SQLite file of README's handler module is not created). Then `next start` with the variables, and a
 * purchase in Chromium until the page shows it paid and onOrderPaid ran on the server; then, on the
 * same server, the server-rendered page /checkout (app/checkout/page.tsx, proxy.ts): its HTML alone
 * shows the requisites, the element takes its order over, a reload keeps it, and it ends paid.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import type { Browser } from 'playwright-core';
import {
  SANDBOX_KEY,
  cleanEnv,
  freePort,
  installExample,
  launchBrowser,
  startProcess,
  startSandbox,
  waitForOutput,
  type InstalledExample,
  type Running,
} from './helpers.js';
import { buy, buyServerRendered, elementPaid } from './shopper.js';

const run = promisify(execFile);

/** The environment without any PAYDESK_* variable (a developer's shell may have them set). */
function withoutProviderEnv(): NodeJS.ProcessEnv {
  const env = cleanEnv({ NEXT_TELEMETRY_DISABLED: '1', NO_COLOR: '1' });
  for (const key of Object.keys(env)) if (/^PAYDESK_/i.test(key)) delete env[key];
  return env;
}

describe('examples/next-app: Next.js 16 App Router, cacheComponents, a route handler and paydesk/react', () => {
  let browser: Browser;
  let example: InstalledExample;
  let sandbox: Running;
  /** `next start`, started by the purchase test and used by the server-rendered page's test after it. */
  let server: Running | undefined;

  before(async () => {
    [browser, example] = await Promise.all([launchBrowser(), installExample('next-app')]);
    sandbox = await startSandbox(example.dir);
  });
  after(async () => {
    await server?.stop();
    await sandbox?.stop();
    await browser?.close();
    await example?.remove();
  });

  test('next build without the provider variables: type-checks, builds, and opens no database', async () => {
    const next = join(example.dir, 'node_modules', '.bin', 'next');
    try {
      await run(next, ['build'], { cwd: example.dir, env: withoutProviderEnv(), timeout: 400_000, maxBuffer: 64 * 1024 * 1024 });
    } catch (err) {
      const e = err as { stdout?: string; stderr?: string; message: string };
      assert.fail(`next build failed: ${e.message}\n${e.stdout ?? ''}${e.stderr ?? ''}`);
    }
    assert.ok(existsSync(join(example.dir, '.next', 'BUILD_ID')), 'the build wrote .next/');
    assert.equal(existsSync(join(example.dir, 'data')), false, 'the build did not create the SQLite file (data/paydesk.db)');
  });

  test('next start with the variables: a purchase until paid, onOrderPaid on the server', async () => {
    assert.ok(existsSync(join(example.dir, '.next', 'BUILD_ID')), 'built by the test before');
    const port = await freePort();
    server = await startProcess(join(example.dir, 'node_modules', '.bin', 'next'), ['start', '-p', String(port), '-H', '127.0.0.1'], {
      cwd: example.dir,
      env: {
        NEXT_TELEMETRY_DISABLED: '1',
        PAYDESK_PROVIDER_URL: sandbox.url,
        PAYDESK_API_KEY: SANDBOX_KEY,
        PAYDESK_SESSION_SECRET: 'next-app-example-test-secret-0123456789',
        PAYDESK_WEBHOOK_URL: `http://127.0.0.1:${port}/api/paydesk/webhooks`,
      },
      ready: /Local:\s+(http:\/\/127\.0\.0\.1:\d+)[\s\S]*Ready in/,
      label: 'next start',
    });
    const { page, orderId, requests, errors } = await buy(browser, `${server.url}/`, sandbox.url);
    await elementPaid(page);
    assert.ok(requests.some((p) => p.startsWith('/_next/static/')), 'the page is the Next app');
    await waitForOutput(server, new RegExp(`paid: coffee-beans \\(order ${orderId}\\)`), 'onOrderPaid on the server');
    assert.ok(existsSync(join(example.dir, 'data', 'paydesk.db')), 'the running app keeps its sessions in the SQLite file');
    assert.deepEqual(errors, []);
    await page.context().close();
  });

  test('/checkout, server-rendered (a server component: handler.createSession + paydesk/ssr): requisites without JavaScript, one order, taken over, same order on reload, paid', async () => {
    assert.ok(server, 'next start by the test before');
    const { orderId, errors } = await buyServerRendered(browser, `${server.url}/checkout`, sandbox.url, /1 500/);
    await waitForOutput(server, new RegExp(`paid: coffee-beans \\(order ${orderId}\\)`), 'onOrderPaid on the server');
    // Next.js logs a request-time rendering problem (e.g. a prerendering error) on the server: none.
    assert.doesNotMatch(server.output(), /Error:/, 'next start logged no error');
    assert.deepEqual(errors, []);
  });
});
