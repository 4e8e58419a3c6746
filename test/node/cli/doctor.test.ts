/**
 * `paydesk doctor`: a good setup passes (exit 0); each broken piece — provider, key, currency, webhook
 * URL, session secret, store, clock — is a finding with its fix (exit 1). The pure checks too.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { checkClock, checkCurrency, checkSessionSecret, checkWebhookUrl, isPrivateHost } from '../../../src/cli/doctor/checks.js';
import { KEY, SESSION_SECRET, paydesk, world, type World } from './helpers.js';

let w: World;
let dir: string;
const server = pathToFileURL(join(import.meta.dirname, '../../../src/server/index.ts')).href;

before(async () => {
  w = await world();
  dir = await mkdtemp(join(tmpdir(), 'paydesk-doctor-'));
});
after(async () => {
  await w.close();
  await rm(dir, { recursive: true, force: true });
});

interface Report {
  ok: boolean;
  checks: { id: string; status: string; message: string; fix?: string }[];
}
const byId = (r: Report, id: string) => r.checks.find((c) => c.id === id)!;

/** A handler module in the temp folder. */
async function module(name: string, source: string): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, source);
  return path;
}

const good = () => ({ ...w.env, PAYDESK_WEBHOOK_URL: w.webhookUrl, PAYDESK_SESSION_SECRET: SESSION_SECRET });

describe('doctor against the sandbox', () => {
  test('a good setup (a durable store from the handler module) has no findings: exit 0', async () => {
    const path = await module(
      'good.mjs',
      `import { createCheckoutHandler, createSqliteStore } from ${JSON.stringify(server)};
       export default createCheckoutHandler({
         provider: { baseUrl: process.env.PAYDESK_PROVIDER_URL ?? 'http://x', apiKey: 'k' },
         sessionSecrets: [${JSON.stringify(SESSION_SECRET)}],
         store: createSqliteStore({ path: ${JSON.stringify(join(dir, 'good.db'))} }),
         reconcileIntervalSeconds: 0,
         resolveOrder: () => null,
       });`,
    );
    const r = await paydesk(['doctor', '--handler', path, '--json'], good());
    assert.equal(r.code, 0, r.out + r.err);
    const report = JSON.parse(r.out) as Report;
    assert.equal(report.ok, true);
    assert.deepEqual(report.checks.map((c) => [c.id, c.status]), [
      ['provider', 'ok'], ['currency', 'ok'], ['clock', 'ok'], ['webhook_url', 'ok'], ['session_secret', 'ok'], ['store', 'ok'],
    ]);
    assert.match(byId(report, 'store').message, /SqliteStore/);
    const text = await paydesk(['doctor', '--handler', path], good());
    assert.match(text.out, /✓ provider: .* \(the paydesk sandbox\)/);
    assert.match(text.out, /No findings\./);
  });

  test('a broken setup: short secret, no webhook URL, memory store, wrong currency — each a finding with its fix, exit 1', async () => {
    const path = await module(
      'memory.mjs',
      `import { createCheckoutHandler } from ${JSON.stringify(server)};
       export const handler = createCheckoutHandler({
         provider: { baseUrl: 'http://127.0.0.1:9', apiKey: 'k' },
         sessionSecrets: ['x'.repeat(32)],
         reconcileIntervalSeconds: 0,
         resolveOrder: () => null,
       });`,
    );
    const env = { ...w.env, PAYDESK_SESSION_SECRET: 'short', PAYDESK_CURRENCY: 'UZS' };
    const r = await paydesk(['doctor', '--handler', path], env);
    assert.equal(r.code, 1);
    assert.match(r.out, /✗ currency: the key is for a RUB terminal, but the shop takes UZS \(PAYDESK_CURRENCY\)\n {4}fix: use the API key of your UZS terminal/);
    assert.match(r.out, /✗ webhook url: PAYDESK_WEBHOOK_URL is not set.*\n {4}fix: set PAYDESK_WEBHOOK_URL/);
    assert.match(r.out, /✗ session secret: the session secret \(PAYDESK_SESSION_SECRET\) has 5 characters.*\n {4}fix: use at least 32 random characters/);
    assert.match(r.out, /✗ store: the handler keeps sessions in memory.*\n {4}fix: pass a durable store: createSqliteStore/);
    assert.match(r.out, /4 findings\./);
  });

  test('handler options as the module’s export: their secret, webhook URL and store are what is checked', async () => {
    const path = await module(
      'options.mjs',
      `export const options = {
         provider: { baseUrl: ${JSON.stringify(w.sandboxUrl)}, apiKey: ${JSON.stringify(KEY)} },
         sessionSecrets: ['y'.repeat(40)],
         webhookUrl: ${JSON.stringify(w.webhookUrl)},
         resolveOrder: () => null,
       };`,
    );
    const r = await paydesk(['doctor', '--handler', path, '--json'], {});
    assert.equal(r.code, 1);
    const report = JSON.parse(r.out) as Report;
    assert.deepEqual(report.checks.filter((c) => c.status === 'finding').map((c) => c.id), ['store'], JSON.stringify(report));
    assert.match(byId(report, 'session_secret').message, /sessionSecrets\[0\] of the handler options\) has 40 characters/);
    // A bad webhookUrl of the options is named as theirs, whatever the environment holds.
    const bad = await module('bad-url.mjs', `export const options = { provider: { baseUrl: ${JSON.stringify(w.sandboxUrl)}, apiKey: ${JSON.stringify(KEY)} }, sessionSecrets: ['y'.repeat(40)], webhookUrl: 'not a url', resolveOrder: () => null };`);
    const named = JSON.parse((await paydesk(['doctor', '--handler', bad, '--json'], { PAYDESK_WEBHOOK_URL: w.webhookUrl })).out) as Report;
    assert.match(byId(named, 'webhook_url').message, /^webhookUrl of the handler options "not a url" is not a URL/);
  });

  test('a module that exports no handler is bad usage (exit 2); one that cannot be imported exits 1', async () => {
    const path = await module('nothing.mjs', 'export const answer = 42;');
    const r = await paydesk(['doctor', '--handler', path], good());
    assert.equal(r.code, 2);
    assert.match(r.err, /exports no handler or handler options: export the handler .* as default, "handler" or "options"/);
    const missing = await paydesk(['doctor', '--handler', join(dir, 'nope.mjs')], good());
    assert.equal(missing.code, 1);
    assert.match(missing.err, /cannot import .*nope\.mjs/);
  });

  test('a wrong key, an unreachable provider or none at all is a provider finding', async () => {
    const wrong = JSON.parse((await paydesk(['doctor', '--json'], { ...good(), PAYDESK_API_KEY: 'sk_nope' })).out) as Report;
    assert.match(byId(wrong, 'provider').message, /refused the API key/);
    assert.match(byId(wrong, 'provider').fix!, /API key/);
    assert.equal(byId(wrong, 'currency').status, 'skipped');
    const down = await paydesk(['doctor', '--json'], { ...good(), PAYDESK_PROVIDER_URL: 'http://127.0.0.1:9' });
    assert.equal(down.code, 1);
    const downReport = JSON.parse(down.out) as Report;
    assert.match(byId(downReport, 'provider').message, /cannot reach the provider/);
    // Nothing answered: no key was judged, and whether a loopback webhook URL is reachable is not known.
    assert.deepEqual([byId(downReport, 'currency').status, byId(downReport, 'currency').message], ['skipped', 'the provider did not answer']);
    assert.equal(byId(downReport, 'webhook_url').status, 'skipped');
    const none = JSON.parse((await paydesk(['doctor', '--json'], { PAYDESK_SESSION_SECRET: SESSION_SECRET })).out) as Report;
    assert.match(byId(none, 'provider').message, /PAYDESK_PROVIDER_URL and PAYDESK_API_KEY not set/);
  });

  test('a clock two minutes ahead of the provider’s is a finding', async () => {
    const r = await paydesk(['doctor', '--json'], good(), { now: () => Date.now() + 120_000 });
    assert.equal(r.code, 1);
    const clock = byId(JSON.parse(r.out) as Report, 'clock');
    assert.equal(clock.status, 'finding');
    assert.match(clock.message, /this clock is 1[12]\d s ahead of the provider's/);
  });
});

describe('doctor checks', () => {
  test('webhook URL: against a real provider it must be public https; the sandbox takes loopback http', () => {
    assert.equal(checkWebhookUrl('http://127.0.0.1:3000/api/paydesk/webhooks', true).status, 'ok');
    for (const url of ['http://127.0.0.1:3000/hook', 'https://localhost/hook', 'https://192.168.1.5/hook', 'https://[::1]/hook', 'https://shop.local/hook', 'https://intranet/hook']) {
      const c = checkWebhookUrl(url, false);
      assert.equal(c.status, 'finding', url);
      assert.match(c.message, /cannot reach|plain http/, url);
    }
    assert.match(checkWebhookUrl('http://shop.example/hook', false).message, /plain http/);
    assert.equal(checkWebhookUrl('https://shop.example/api/paydesk/webhooks', false).status, 'ok');
    assert.equal(checkWebhookUrl('shop.example/hook', false).status, 'finding');
    assert.equal(checkWebhookUrl(undefined, null).status, 'finding');
  });

  test('private hosts', () => {
    for (const h of ['127.0.0.1', '10.1.2.3', '172.16.0.1', '172.31.255.255', '192.168.0.1', '169.254.1.1', '100.64.0.1', 'localhost', 'api.localhost', '[::1]', 'fd00::1', 'fe80::1']) assert.ok(isPrivateHost(h), h);
    for (const h of ['shop.example', '8.8.8.8', '172.32.0.1', '2001:db8::1']) assert.ok(!isPrivateHost(h), h);
  });

  test('session secret, currency and clock', () => {
    assert.equal(checkSessionSecret('a'.repeat(31), 'X').status, 'finding');
    assert.equal(checkSessionSecret('a'.repeat(32), 'X').status, 'ok');
    assert.equal(checkSessionSecret(undefined, 'X').status, 'finding');
    assert.equal(checkCurrency('rub', 'RUB').status, 'ok');
    assert.equal(checkCurrency('KZT', 'RUB').status, 'finding');
    assert.equal(checkClock(29).status, 'ok');
    assert.equal(checkClock(-31).status, 'finding');
    assert.match(checkClock(-31).message, /31 s behind/);
    assert.equal(checkClock(null).status, 'skipped');
  });
});
