/**
 * examples/console-express, installed from the packed tarball: the merchant console (paydesk/console)
 * mounted at /admin/console of an Express app behind the app's own staff sign-in (`authorize`). Not
 * signed in, the pages and the API answer 401; signed in through the app's form, Chromium shows the
 * console (no console login, no Log out), its assets served under the mount path, the order the token
 * endpoint made in its list and on its page.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { installExample, launchBrowser, startExampleServer, startSandbox, type InstalledExample, type Running } from './helpers.js';

describe('examples/console-express: paydesk/console in Express behind the app’s own sign-in', () => {
  let example: InstalledExample;
  let sandbox: Running;
  let server: Running;
  let browser: Browser;

  before(async () => {
    example = await installExample('console-express');
    sandbox = await startSandbox(example.dir);
    server = await startExampleServer(example.dir, sandbox.url, { STAFF_PASSWORD: 'examples-staff-password' });
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
    await sandbox?.stop();
    await example?.remove();
  });

  test('401 without the app’s sign-in; signed in, the console shows the order the token endpoint made', async () => {
    const made = await fetch(`${server.url}/api/paydesk/sessions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-paydesk': '1' },
      body: JSON.stringify({ order_ref: 'cart-console-example', method_type: 'SBP' }),
    });
    assert.equal(made.status, 201, await made.clone().text());
    const { order } = (await made.json()) as { order: { id: string; client_order_id: string } };

    assert.equal((await fetch(`${server.url}/admin/console/orders`)).status, 401, 'a page without the sign-in');
    assert.equal((await fetch(`${server.url}/admin/console/api/orders`)).status, 401, 'the API without the sign-in');
    assert.equal((await fetch(`${server.url}/admin/console/api/login`, { method: 'POST', headers: { 'x-paydesk': '1', 'content-type': 'application/json' }, body: '{"password":"x"}' })).status, 404, 'no console login of its own');

    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    try {
      await page.goto(`${server.url}/`);
      await page.locator('input[name="password"]').fill('examples-staff-password');
      await page.locator('button').click();
      await page.waitForURL((u) => u.pathname.startsWith('/admin/console'));
      await page.locator('#dashboard').waitFor();
      assert.equal(await page.locator('#login-view').isVisible(), false, 'no console login');
      assert.equal(await page.locator('#logout').isVisible(), false, 'no Log out: the app signs people out');
      const script = await page.locator('script[type="module"]').getAttribute('src');
      assert.match(script ?? '', /^\/admin\/console\/assets\//, 'assets under the mount path');
      await page.locator('#list-table tbody tr', { hasText: order.client_order_id }).first().waitFor();
      await page.goto(`${server.url}/admin/console/orders/${order.id}?lang=en&theme=light`);
      await page.locator('#order-body .order-summary, #order-body section').first().waitFor();
      assert.match(await page.locator('#order-body').innerText(), new RegExp(order.client_order_id));
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
    }
  });
});
