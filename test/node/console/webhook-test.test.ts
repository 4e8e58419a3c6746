/**
 * The console's "Send test webhook" (`POST {basePath}/api/webhooks/test`): a signed test delivery to
 * the endpoint's handler, verified there and logged with the outcome `test` (and then listed by the
 * console's webhook log); a secret the handler does not know gives a 401 result, said as `unverified`;
 * no credentials or no handler is a 409; behind the login and the X-Paydesk header like every POST.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createConsole } from '../../../src/console/index.js';
import type { WebhookTestResult } from '../../../src/console/index.js';
import { API_KEY, WEBHOOK_SECRET, makeHarness } from '../server/fake-provider.js';

const PASSWORD = 'console-password-0123';
const ORIGIN = 'https://shop.example';
const at = (path: string, init?: RequestInit) => new Request(`${ORIGIN}${path}`, init);
const post = (body: unknown, headers: Record<string, string> = {}) => ({ method: 'POST', headers: { 'content-type': 'application/json', 'x-paydesk': '1', origin: ORIGIN, ...headers }, body: JSON.stringify(body) });

async function signedIn(options: Partial<Parameters<typeof createConsole>[0]>, h = makeHarness()) {
  const c = createConsole({ client: h.provider as never, handler: h.handler, endpoint: '/api/paydesk', password: PASSWORD, now: () => h.clock.now, ...options });
  const login = await c.fetch(at('/console/api/login', post({ password: PASSWORD })));
  assert.equal(login.status, 204);
  const cookie = login.headers.get('set-cookie')!.split(';')[0]!;
  return { c, h, cookie };
}

describe('console: Send test webhook', () => {
  test('a signed delivery is verified by the handler, answered {test: true} and listed with the outcome test', async () => {
    const { c, h, cookie } = await signedIn({ webhookTest: { secret: WEBHOOK_SECRET } });
    const res = await c.fetch(at('/console/api/webhooks/test', post({}, { cookie })));
    assert.equal(res.status, 200);
    const { result } = (await res.json()) as { result: WebhookTestResult };
    assert.equal(result.ok, true);
    assert.equal(result.problem, null);
    assert.equal(result.status, 200);
    assert.deepEqual(JSON.parse(result.answer), { received: true, test: true });
    assert.equal(result.endpoint, '/api/paydesk');
    assert.equal(result.url, `${ORIGIN}/api/paydesk/webhooks`);
    assert.equal(result.signed, true);
    await h.handler.idle();
    const log = await c.fetch(at('/console/api/webhooks?outcome=test', { headers: { cookie } }));
    const page = (await log.json()) as { items: Array<{ order_id: string; outcome: string; verified: boolean; http_status: number }> };
    assert.equal(page.items.length, 1);
    assert.equal(page.items[0]!.order_id, `paydesk_test_${result.request_id}`);
    assert.equal(page.items[0]!.verified, true);
    assert.equal(page.items[0]!.http_status, 200);
    assert.equal(h.paid.length + h.closed.length, 0, 'nothing fulfilled');
  });

  test('the API key works for a handler in api_key mode', async () => {
    const h = makeHarness({ webhookSecrets: undefined, webhookAuth: 'api_key' });
    const { c, cookie } = await signedIn({ webhookTest: { apiKey: API_KEY } }, h);
    const { result } = (await (await c.fetch(at('/console/api/webhooks/test', post({ endpoint: '/api/paydesk' }, { cookie })))).json()) as { result: WebhookTestResult };
    assert.equal(result.ok, true);
    assert.equal(result.api_key, true);
    assert.equal(result.signed, false);
  });

  test('a secret the handler does not check: the result says 401 unverified, and the log has it refused', async () => {
    const { c, h, cookie } = await signedIn({ webhookTest: { secret: 'whsec_not_the_handlers_secret_0123456789' } });
    const res = await c.fetch(at('/console/api/webhooks/test', post({}, { cookie })));
    assert.equal(res.status, 200);
    const { result } = (await res.json()) as { result: WebhookTestResult };
    assert.equal(result.ok, false);
    assert.equal(result.status, 401);
    assert.equal(result.problem, 'unverified');
    const [line] = await h.handler.inspect.webhooks();
    assert.equal(line?.outcome, 'refused');
  });

  test('nothing to sign with, no handler, an unknown endpoint, a bad body: clear errors, nothing sent', async () => {
    const { c, h, cookie } = await signedIn({});
    const none = await c.fetch(at('/console/api/webhooks/test', post({}, { cookie })));
    assert.equal(none.status, 409);
    assert.equal(((await none.json()) as { error: { code: string } }).error.code, 'webhook_test_unavailable');
    const unknown = await c.fetch(at('/console/api/webhooks/test', post({ endpoint: '/api/elsewhere' }, { cookie })));
    assert.equal(unknown.status, 400);
    const bad = await c.fetch(at('/console/api/webhooks/test', post({ endpoint: 5 }, { cookie })));
    assert.equal(bad.status, 400);
    const extra = await c.fetch(at('/console/api/webhooks/test', post({ url: 'https://evil.example' }, { cookie })));
    assert.equal(extra.status, 400, 'the console sends only to its own endpoints');
    assert.equal((await h.handler.inspect.webhooks()).length, 0, 'nothing reached the handler');

    const noHandler = createConsole({ client: h.provider as never, password: PASSWORD, webhookTest: { secret: WEBHOOK_SECRET } });
    const login = await noHandler.fetch(at('/console/api/login', post({ password: PASSWORD })));
    const cookie2 = login.headers.get('set-cookie')!.split(';')[0]!;
    const r = await noHandler.fetch(at('/console/api/webhooks/test', post({}, { cookie: cookie2 })));
    assert.equal(r.status, 409);
  });

  test('behind the login and the X-Paydesk header', async () => {
    const { c, h, cookie } = await signedIn({ webhookTest: { secret: WEBHOOK_SECRET } });
    assert.equal((await c.fetch(at('/console/api/webhooks/test', post({})))).status, 401, 'no login');
    const noHeader = await c.fetch(at('/console/api/webhooks/test', { method: 'POST', headers: { 'content-type': 'application/json', cookie, origin: ORIGIN }, body: '{}' }));
    assert.ok(noHeader.status === 400 || noHeader.status === 403, `without X-Paydesk: ${noHeader.status}`);
    const crossSite = await c.fetch(at('/console/api/webhooks/test', post({}, { cookie, origin: 'https://evil.example' })));
    assert.equal(crossSite.status, 403);
    assert.equal((await h.handler.inspect.webhooks()).length, 0);
  });
});
