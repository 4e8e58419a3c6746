import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { createSandbox } from '../../../src/sandbox/index.js';
import { makeSandbox } from './helpers.js';

describe('listening', () => {
  test('listen() serves on 127.0.0.1 and form_url follows the listening port', async () => {
    const sandbox = createSandbox({ apiKey: 'srv', seed: false, sweepIntervalMs: 0 });
    const server = await sandbox.listen({ port: 0 });
    assert.match(server.url, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.equal(sandbox.url, server.url);
    const res = await fetch(`${server.url}/api/v1/form/create`, {
      method: 'POST',
      headers: { 'X-API-Key': 'srv', 'Content-Type': 'application/json' },
      body: JSON.stringify({ order_data: { client_order_id: 's', order_side: 'Buy', amount: '1000.00' } }),
    });
    assert.equal(res.status, 201);
    const formUrl: string = (await res.json()).form_data.form_url;
    assert.ok(formUrl.startsWith(`${server.url}/pay?session_id=`));
    const page = await fetch(formUrl);
    assert.equal(page.status, 200);
    assert.match(page.headers.get('content-security-policy')!, /script-src 'self'/);
    await sandbox.close();
    await assert.rejects(fetch(`${server.url}/openapi.json`));
  });

  test('listen() refuses a non-loopback host', async () => {
    const sandbox = createSandbox({ seed: false, sweepIntervalMs: 0 });
    await assert.rejects(sandbox.listen({ port: 0, host: '0.0.0.0' }), /loopback/);
    await sandbox.close();
  });

  test('close() ends open event streams', async () => {
    const sandbox = createSandbox({ apiKey: 'sse', seed: false, sweepIntervalMs: 0 });
    const { url } = await sandbox.listen({ port: 0 });
    const created = await fetch(`${url}/api/v1/form/create`, {
      method: 'POST',
      headers: { 'X-API-Key': 'sse', 'Content-Type': 'application/json' },
      body: JSON.stringify({ order_data: { client_order_id: 'e', order_side: 'Buy', amount: '1000.00', button_name: 'SberPay' } }),
    });
    const id = (await created.json()).form_data.session_id;
    const stream = await fetch(`${url}/pay/api/sessions/${id}/events`);
    const reader = stream.body!.getReader();
    const first = await reader.read();
    assert.match(new TextDecoder().decode(first.value), /event: order/);
    await sandbox.close();
    await assert.rejects(async () => {
      for (;;) if ((await reader.read()).done) throw new Error('ended');
    });
  });

  test('a port in use is a clear rejection', async () => {
    const a = createSandbox({ seed: false, sweepIntervalMs: 0 });
    const b = createSandbox({ seed: false, sweepIntervalMs: 0 });
    const { port } = await a.listen({ port: 0 });
    await assert.rejects(b.listen({ port }), /EADDRINUSE/);
    await a.close();
    await b.close();
  });
});

describe('robustness', () => {
  test('an unexpected exception is logged and answers 503 with a clear message, never 500', async () => {
    const errors: string[] = [];
    const t = makeSandbox({
      seed: false,
      widgetScript: async () => {
        throw new Error('disk on fire');
      },
      logger: { info() {}, error: (message) => errors.push(message) },
    });
    const r = await t.get('/pay/paydesk.js', null);
    assert.equal(r.status, 503);
    assert.equal(r.json.success, false);
    assert.match(r.json.message, /disk on fire/);
    assert.equal(errors.length, 1);
    await t.close();
  });

  test('unknown paths answer 404 in the provider’s error shape', async () => {
    const t = makeSandbox({ seed: false });
    const r = await t.get('/api/v1/nothing');
    assert.equal(r.status, 404);
    assert.equal(r.json.success, false);
    await t.close();
  });
});

describe('options', () => {
  test('a webhook URL or public URL that is not http(s), or an empty webhook secret, is refused at creation', () => {
    assert.throws(() => createSandbox({ webhookUrl: 'ftp://merchant.example/hook' }), /webhookUrl must be an http\(s\) URL/);
    assert.throws(() => createSandbox({ webhookUrl: `https://merchant.example/${'x'.repeat(600)}` }), /at most 512 characters/);
    assert.throws(() => createSandbox({ publicUrl: 'sandbox.example' }), /publicUrl must be an http\(s\) URL/);
    assert.throws(() => createSandbox({ webhookSecret: '' }), /webhookSecret must be a non-empty string/);
  });
});
