/**
 * createConsole's options and auth without a browser: exactly one of password and authorize; the
 * merchant's authorize asked on pages and API (a throw is a no); basePath checked and used for the
 * pages, the assets, the API and the login cookie's path.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createConsole } from '../../../src/console/index.js';
import { createProviderClient } from '../../../src/provider/index.js';

const client = createProviderClient({ baseUrl: 'http://provider.test', apiKey: 'create_console_test_key_0123', fetch: async () => Response.json({ success: false }, { status: 503 }), maxRetries: 0 });
const at = (path: string, init?: RequestInit) => new Request(`http://merchant.test${path}`, init);

describe('createConsole', () => {
  test('exactly one of password and authorize; a basePath like /console', () => {
    assert.throws(() => createConsole({ client }), /exactly one of password .* and authorize/);
    assert.throws(() => createConsole({ client, password: 'long-enough-password', authorize: () => true }), /exactly one/);
    assert.throws(() => createConsole({ client, password: 'short' }), /at least 8 characters/);
    for (const basePath of ['console', '/console/', '/', '/a b', '/x"y']) assert.throws(() => createConsole({ client, password: 'long-enough-password', basePath }), /basePath/, basePath);
  });

  test('authorize is asked on every page and API request; false or a throw is 401, and there is no console login', async () => {
    const asked: string[] = [];
    let allow: 'yes' | 'no' | 'throw' = 'no';
    const c = createConsole({
      client,
      basePath: '/admin/console',
      authorize: (request) => {
        asked.push(new URL(request.url).pathname);
        if (allow === 'throw') throw new Error('session store down');
        return allow === 'yes';
      },
    });
    for (const mode of ['no', 'throw'] as const) {
      allow = mode;
      assert.equal((await c.fetch(at('/admin/console/orders'))).status, 401, `${mode}: page`);
      assert.equal((await c.fetch(at('/admin/console/api/me'))).status, 401, `${mode}: API`);
    }
    allow = 'yes';
    const me = await c.fetch(at('/admin/console/api/me'));
    assert.deepEqual(await me.json(), { authenticated: true, auth: 'authorize' });
    const page = await c.fetch(at('/admin/console/orders/abc'));
    assert.equal(page.status, 200);
    assert.match(page.headers.get('content-security-policy') ?? '', /script-src 'self'/);
    const html = await page.text();
    const script = /src="(\/admin\/console\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    assert.ok(script, 'the page loads its script under the mount path');
    assert.ok(!html.includes('__paydesk_console__'), 'no marker left');
    const js = await c.fetch(at(script));
    assert.equal(js.status, 200);
    assert.match(js.headers.get('cache-control') ?? '', /immutable/);
    const login = await c.fetch(at('/admin/console/api/login', { method: 'POST', headers: { 'x-paydesk': '1', 'content-type': 'application/json' }, body: '{"password":"x"}' }));
    assert.equal(login.status, 404);
    assert.equal((await c.fetch(at('/elsewhere'))).status, 404, 'outside basePath');
    assert.ok(asked.includes('/admin/console/orders') && asked.includes('/admin/console/api/me'));
  });

  test('the password login: its cookie is scoped to basePath', async () => {
    const c = createConsole({ client, password: 'long-enough-password', basePath: '/back-office' });
    const res = await c.fetch(at('/back-office/api/login', { method: 'POST', headers: { 'x-paydesk': '1', 'content-type': 'application/json' }, body: JSON.stringify({ password: 'long-enough-password' }) }));
    assert.equal(res.status, 204);
    assert.match(res.headers.get('set-cookie') ?? '', /Path=\/back-office/);
    assert.equal((await c.fetch(at('/back-office/orders'))).status, 200, 'the page (its login form) opens without a login');
    assert.equal((await c.fetch(at('/back-office/api/orders'))).status, 401);
  });
});
