/**
 * `npm start` and the merchant server without a browser: the CLI (URLs, key, clean stop, a taken
 * port), the real-provider mode, the catalog price, allowed origins, the sandbox controls, the console
 * API's login and query checks, and the static files.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type Server } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { PortInUseError, startDemo } from '../../demo/app.js';
import { loadCatalog, parseCatalog } from '../../demo/catalog.js';
import { createSandbox } from '../../src/sandbox/index.js';
import { CONSOLE_PASSWORD, ROOT, startTestDemo, waitUntil, type TestDemo } from './helpers.js';

const POST = { 'content-type': 'application/json', 'x-paydesk': '1' };

async function occupyPort(): Promise<{ server: Server; port: number }> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { server, port: (server.address() as { port: number }).port };
}

/** Runs `npm start`'s script (tsx demo/start.ts) with the given environment. */
function runStart(env: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'demo/start.ts'], {
    cwd: ROOT,
    env: { ...process.env, PAYDESK_PROVIDER_URL: '', PAYDESK_API_KEY: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  return { child, exited, out: () => stdout, err: () => stderr };
}

describe('npm start', () => {
  test('prints the URLs, the sandbox key and the console password, serves the storefront, and stops cleanly on SIGTERM', async () => {
    const run = runStart({ PORT: '0', SANDBOX_PORT: '0', PAYDESK_SANDBOX_API_KEY: 'e2e_cli_key', PAYDESK_CONSOLE_PASSWORD: 'e2e-cli-password' });
    try {
      await waitUntil(() => run.out().includes('Press Ctrl-C'), `the start banner (stderr: ${run.err()})`, 60_000);
      const out = run.out();
      assert.match(out, /Sandbox key\s+e2e_cli_key/);
      assert.match(out, /password: e2e-cli-password/);
      const storefront = /Storefront\s+(http:\/\/127\.0\.0\.1:\d+\/)/.exec(out)?.[1];
      const sandbox = /Sandbox provider\s+(http:\/\/127\.0\.0\.1:\d+)/.exec(out)?.[1];
      assert.ok(storefront && sandbox, out);
      assert.match(await (await fetch(storefront)).text(), /<title>Obzharka/);
      const balance = await fetch(`${sandbox}/api/v1/finance/balance`, { headers: { 'X-API-Key': 'e2e_cli_key' } });
      assert.equal(balance.status, 200);
      run.child.kill('SIGTERM');
      const [code] = await run.exited;
      assert.equal(code, 0);
      assert.match(run.out(), /stopped\./);
      await assert.rejects(fetch(storefront), 'the server is closed');
    } finally {
      run.child.kill('SIGKILL');
    }
  });

  test('stops cleanly on Ctrl-C (SIGINT) too', async () => {
    const run = runStart({ PORT: '0', SANDBOX_PORT: '0' });
    try {
      await waitUntil(() => run.out().includes('Press Ctrl-C'), `the start banner (stderr: ${run.err()})`, 60_000);
      const storefront = /Storefront\s+(http:\/\/127\.0\.0\.1:\d+\/)/.exec(run.out())?.[1];
      assert.ok(storefront, run.out());
      run.child.kill('SIGINT');
      const [code] = await run.exited;
      assert.equal(code, 0);
      assert.match(run.out(), /stopped\./);
      await assert.rejects(fetch(storefront), 'the server is closed');
    } finally {
      run.child.kill('SIGKILL');
    }
  });

  test('a port already in use gives one line naming the port and the variable', async () => {
    const { server, port } = await occupyPort();
    try {
      const run = runStart({ PORT: String(port), SANDBOX_PORT: '0' });
      const [code] = await run.exited;
      assert.equal(code, 1);
      const lines = run.err().trim().split('\n');
      assert.equal(lines.length, 1, run.err());
      assert.match(lines[0]!, new RegExp(`port ${port} is already in use; set PORT`));

      const sandboxRun = runStart({ PORT: '0', SANDBOX_PORT: String(port) });
      const [sandboxCode] = await sandboxRun.exited;
      assert.equal(sandboxCode, 1);
      assert.match(sandboxRun.err().trim(), new RegExp(`^paydesk demo: port ${port} is already in use; set SANDBOX_PORT`));
    } finally {
      server.close();
    }
  });

  test('a provider URL without a key (or a bad port) is refused before starting', async () => {
    const half = runStart({ PAYDESK_PROVIDER_URL: 'https://provider.example' });
    assert.equal((await half.exited)[0], 1);
    assert.match(half.err(), /set both PAYDESK_PROVIDER_URL and PAYDESK_API_KEY/);
    const badPort = runStart({ PORT: 'eighty' });
    assert.equal((await badPort.exited)[0], 1);
    assert.match(badPort.err(), /PORT must be a port number/);
  });
});

describe('startDemo', () => {
  test('throws PortInUseError naming PORT or SANDBOX_PORT', async () => {
    const { server, port } = await occupyPort();
    try {
      await assert.rejects(startDemo({ port, sandboxPort: 0, consolePassword: CONSOLE_PASSWORD }), (err: unknown) => {
        assert.ok(err instanceof PortInUseError);
        assert.equal(err.variable, 'PORT');
        assert.equal(err.port, port);
        return true;
      });
      await assert.rejects(startDemo({ port: 0, sandboxPort: port, consolePassword: CONSOLE_PASSWORD }), (err: unknown) => {
        assert.ok(err instanceof PortInUseError);
        assert.equal(err.variable, 'SANDBOX_PORT');
        return true;
      });
    } finally {
      server.close();
    }
  });

  test('with a real provider it starts no sandbox and has no sandbox controls', async () => {
    const provider = createSandbox({ apiKey: 'e2e_real_provider', seed: false });
    const listening = await provider.listen({ port: 0 });
    const demo = await startDemo({
      port: 0,
      provider: { url: listening.url, apiKey: 'e2e_real_provider' },
      consolePassword: CONSOLE_PASSWORD,
      logger: { warn: () => undefined, error: () => undefined },
    });
    try {
      assert.equal(demo.sandbox, null);
      assert.equal(demo.sandboxUrl, null);
      assert.equal(demo.sandboxApiKey, null);
      const config = (await (await fetch(`${demo.merchantUrl}/demo/api/config`)).json()) as { sandbox: boolean; endpoints: Record<string, string | null> };
      assert.equal(config.sandbox, false);
      assert.equal(config.endpoints.order_with_form, null);
      const control = await fetch(`${demo.merchantUrl}/demo/api/sandbox/complete`, { method: 'POST', headers: POST, body: '{"session":"x"}' });
      assert.equal(control.status, 404);

      const created = await fetch(`${demo.merchantUrl}/api/paydesk/sessions`, {
        method: 'POST',
        headers: POST,
        body: JSON.stringify({ order_ref: 'gift-card', method_type: 'SBP' }),
      });
      assert.equal(created.status, 201);
      const { order } = (await created.json()) as { order: { client_order_id: string } };
      const atProvider = await fetch(`${listening.url}/api/v1/order/search-by-client-order-id?id=${order.client_order_id}`, {
        headers: { 'X-API-Key': 'e2e_real_provider' },
      });
      assert.equal(((await atProvider.json()) as { orders: { total: number } }).orders.total, 1);
    } finally {
      await demo.close();
      await provider.close();
    }
  });

  test('refuses a non-loopback host and a short console password', async () => {
    await assert.rejects(startDemo({ port: 0, sandboxPort: 0, host: '0.0.0.0' as '127.0.0.1' }), /loopback only/);
    await assert.rejects(startDemo({ port: 0, sandboxPort: 0, consolePassword: 'short' }), /at least 8 characters/);
  });
});

describe('the catalog', () => {
  test('demo/catalog.json is valid, with the no-traders test value', () => {
    const products = loadCatalog();
    assert.ok(products.length >= 4);
    assert.equal(products.find((p) => p.ref === 'no-traders-demo')?.amount, '1500.13');
  });

  test('bad catalogs are refused with the entry and field at fault', () => {
    assert.throws(() => parseCatalog([]), /non-empty JSON array/);
    assert.throws(() => parseCatalog([{ ref: 'a', title: 'A', amount: 1500 }]), /catalog\[0\]\.amount/);
    assert.throws(() => parseCatalog([{ ref: 'a', title: 'A', amount: '1e3' }]), /plain decimal/);
    assert.throws(() => parseCatalog([{ ref: 'Bad Ref', title: 'A', amount: '1.00' }]), /catalog\[0\]\.ref/);
    assert.throws(
      () =>
        parseCatalog([
          { ref: 'a', title: 'A', amount: '1.00' },
          { ref: 'a', title: 'B', amount: '2.00' },
        ]),
      /appears twice/,
    );
  });
});

describe('the merchant server', () => {
  let demo: TestDemo;

  before(async () => {
    demo = await startTestDemo({ allowedOrigins: ['https://partner.example'] });
  });
  after(async () => {
    await demo?.close();
  });

  const url = (path: string) => `${demo.merchantUrl}${path}`;

  test('the price comes from the catalog: an amount in the body is ignored, an unknown ref is 404', async () => {
    const res = await fetch(url('/api/paydesk/sessions'), {
      method: 'POST',
      headers: POST,
      body: JSON.stringify({ order_ref: 'grinder', method_type: 'BankCard', amount: '1.00' }),
    });
    assert.equal(res.status, 201);
    const { order } = (await res.json()) as { order: { amount: string; redirect_url: string } };
    assert.equal(order.amount, '7490.50');
    assert.equal(order.redirect_url, `${demo.merchantUrl}/thanks?ref=grinder`);
    const unknown = await fetch(url('/api/paydesk/methods?order_ref=espresso-machine'));
    assert.equal(unknown.status, 404);
  });

  test('PAYDESK_ALLOWED_ORIGINS: a listed origin may call the token endpoint, another may not', async () => {
    const ok = await fetch(url('/api/paydesk/methods?order_ref=coffee-beans'), { headers: { origin: 'https://partner.example' } });
    assert.equal(ok.status, 200);
    assert.equal(ok.headers.get('access-control-allow-origin'), 'https://partner.example');
    const refused = await fetch(url('/api/paydesk/methods?order_ref=coffee-beans'), { headers: { origin: 'https://evil.example' } });
    assert.equal(refused.status, 403);
  });

  test('the sandbox controls check the header, the action, the session and the endpoint', async () => {
    const post = (path: string, body: unknown, headers: Record<string, string> = POST) =>
      fetch(url(path), { method: 'POST', headers, body: JSON.stringify(body) });
    assert.equal((await post('/demo/api/sandbox/complete', { session: 'x' }, { 'content-type': 'application/json' })).status, 403);
    assert.equal((await post('/demo/api/sandbox/refund', { session: 'x' })).status, 404);
    assert.equal((await post('/demo/api/sandbox/complete', {})).status, 400);
    assert.equal((await post('/demo/api/sandbox/complete', { session: 'x', endpoint: '/elsewhere' })).status, 400);
    assert.equal((await post('/demo/api/sandbox/complete', { session: 'not-a-token' })).status, 401);
    for (const endpoint of ['__proto__', 'constructor', 'toString', 'valueOf']) {
      assert.equal((await post('/demo/api/sandbox/complete', { session: 'x', endpoint })).status, 400, `endpoint ${endpoint}`);
    }

    const created = await post('/api/paydesk/sessions', { order_ref: 'coffee-beans', method_type: 'SBP' });
    const { session, order } = (await created.json()) as { session: string; order: { id: string } };
    const done = await post('/demo/api/sandbox/complete', { session });
    assert.equal(done.status, 200);
    assert.deepEqual(await done.json(), { ok: true, action: 'complete', order_id: order.id, message: 'Order Completed' });
    const again = await post('/demo/api/sandbox/expire', { session });
    assert.equal(again.status, 409, 'a paid order cannot expire');
    // The bar's own read of the session carries the shopper's address: no warning that it has none.
    assert.deepEqual(demo.logs.filter((l) => /rate limits are OFF/.test(l)), []);
  });

  test('the console API: login needs the protocol header and the password, and sets a strict HttpOnly cookie', async () => {
    const login = (body: unknown, headers: Record<string, string> = POST) =>
      fetch(url('/console/api/login'), { method: 'POST', headers, body: JSON.stringify(body) });
    assert.equal((await fetch(url('/console/api/orders'))).status, 401);
    assert.equal((await login({ password: CONSOLE_PASSWORD }, { 'content-type': 'application/json' })).status, 403);
    assert.equal((await login({ password: 'wrong-password' })).status, 401);
    assert.equal((await login({})).status, 400);
    const ok = await login({ password: CONSOLE_PASSWORD });
    assert.equal(ok.status, 204);
    const cookie = ok.headers.get('set-cookie') ?? '';
    assert.match(cookie, /^paydesk_console=[\w-]{40,};/);
    assert.match(cookie, /HttpOnly/);
    assert.match(cookie, /SameSite=Strict/);
    assert.match(cookie, /Path=\/console/);
    const session = cookie.split(';')[0]!;

    const get = (path: string) => fetch(url(`/console/api${path}`), { headers: { cookie: session } });
    assert.equal((await get('/balance')).status, 200);
    const checks: Array<[string, RegExp]> = [
      ['/orders?page=0', /^page: must be at least 1$/],
      ['/orders?size=500', /^size: must be between 1 and 100$/],
      ['/orders?sort=sideways', /^sort: must be asc or desc$/],
      ['/orders?start_date=yesterday', /^start_date: must be an ISO 8601 date or date-time$/],
      ['/orders?start_date=2026-02-30', /^start_date: must be an ISO 8601 date or date-time$/],
      ['/transactions?end_date=2026-01-01T24:00:00Z', /^end_date: must be an ISO 8601 date or date-time$/],
      ['/orders?start_date=2026-02-01&end_date=2026-01-01', /^start_date: must not be after end_date$/],
      ['/orders?colour=red', /^unknown filter: colour$/],
      ['/orders?page=1&page=2', /^page: give it once$/],
      ['/disputes?processed=maybe', /^processed: must be true or false$/],
      ['/transactions?transaction_type=refund', /^transaction_type: must be deposit or withdrawal$/],
    ];
    for (const [path, message] of checks) {
      const res = await get(path);
      assert.equal(res.status, 400, path);
      const body = (await res.json()) as { error: { code: string; message: string } };
      assert.equal(body.error.code, 'validation_failed', path);
      assert.match(body.error.message, message, path);
    }
    const list = (await (await get('/orders?size=3&sort_by=amount&sort=asc')).json()) as { items: unknown[]; size: number };
    assert.equal(list.items.length, 3);

    const out = await fetch(url('/console/api/logout'), { method: 'POST', headers: { ...POST, cookie: session } });
    assert.equal(out.status, 204);
    assert.equal((await get('/balance')).status, 401, 'the old cookie is dead after logout');
  });

  test('the console login slows down guessing: too many wrong passwords answer 429', async () => {
    let last = 0;
    for (let i = 0; i < 12; i++) {
      last = (await fetch(url('/console/api/login'), { method: 'POST', headers: POST, body: JSON.stringify({ password: `guess-${i}` }) })).status;
    }
    assert.equal(last, 429);
  });

  test('oversized bodies to the sandbox bar and the console login are refused with 413, declared or streamed', async () => {
    // Just over the 4 KB limit: small enough for the socket buffers, so the early 413 reaches the client.
    const huge = JSON.stringify({ session: 'x'.repeat(8 * 1024), password: 'y' });
    for (const path of ['/demo/api/sandbox/complete', '/console/api/login']) {
      const declared = await fetch(url(path), { method: 'POST', headers: POST, body: huge });
      assert.equal(declared.status, 413, path);
      assert.equal(((await declared.json()) as { error: { code: string } }).error.code, 'payload_too_large', path);
      // A chunked body (no Content-Length) just over the limit is counted as it streams.
      const bytes = new TextEncoder().encode(JSON.stringify({ session: 'x'.repeat(6 * 1024), password: 'y' }));
      const streamed = await fetch(url(path), {
        method: 'POST',
        headers: POST,
        body: new ReadableStream({
          start(controller) {
            controller.enqueue(bytes.slice(0, 3 * 1024));
            controller.enqueue(bytes.slice(3 * 1024));
            controller.close();
          },
        }),
        duplex: 'half',
      } as RequestInit);
      assert.equal(streamed.status, 413, `${path} (chunked)`);
    }
  });

  test('static files: the built pages and their assets are served, nothing else is', async () => {
    const page = await fetch(url('/'));
    assert.equal(page.status, 200);
    assert.match(page.headers.get('content-type') ?? '', /text\/html/);
    const script = /<script type="module" crossorigin src="(\/assets\/[\w-]+\.js)">/.exec(await page.text())?.[1];
    assert.ok(script, 'the storefront loads its built script');
    const asset = await fetch(url(script));
    assert.equal(asset.headers.get('content-type'), 'text/javascript; charset=utf-8');
    assert.match(asset.headers.get('cache-control') ?? '', /immutable/, 'content-hashed assets are cached for good');
    const again = await fetch(url(script), { headers: { 'if-none-match': asset.headers.get('etag')! } });
    assert.equal(again.status, 304);
    for (const path of ['/..%2fapp.ts', '/%2e%2e/catalog.json', '/assets/..%2f..%2fapp.ts', '/.env', '/app.ts', '/nope.html', '/src/store.ts', '/.build-inputs.json']) {
      assert.equal((await fetch(url(path))).status, 404, path);
    }
    const widget = await fetch(url('/paydesk.js'));
    assert.equal(widget.status, 200);
    assert.match(await widget.text(), /paydesk-checkout/);
  });
});
