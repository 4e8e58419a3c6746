/**
 * The four adapters, run as the README shows them (the files in ./examples are the README's code):
 * Node http, Express 5, a Next.js route module (plain Request objects; Next is not installed) and
 * Hono. The provider is the sandbox on a loopback port; its webhooks go through the adapters too.
 */
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { createSandbox } from '../../../src/sandbox/index.js';
import type { ListeningSandbox, Sandbox } from '../../../src/sandbox/index.js';
import { toExpressMiddleware, toNodeListener, toWebRequest, writeWebResponse } from '../../../src/server/index.js';
import type { CheckoutHandler } from '../../../src/server/index.js';
import { getRecordedClientAddress } from '../../../src/server/http.js';
import { SseReader } from './fake-provider.js';

const KEY = 'adapter_test_key_0123456789abcdef';
let sandbox: Sandbox;
let listening: ListeningSandbox;
let handler: CheckoutHandler;
/** Where the sandbox's webhooks for http://merchant.invalid go (the server under test). */
let webhookTarget = '';
const servers: http.Server[] = [];

async function listen(server: http.Server): Promise<string> {
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

before(async () => {
  sandbox = createSandbox({
    apiKey: KEY,
    seed: false,
    sweepIntervalMs: 0,
    webhookRetryDelaysMs: [],
    fetch: (input, init) => {
      const url = new URL(String(input));
      return globalThis.fetch(`${webhookTarget}${url.pathname}`, init);
    },
  });
  listening = await sandbox.listen({ port: 0 });
  process.env.PAYDESK_PROVIDER_URL = listening.url;
  process.env.PAYDESK_API_KEY = KEY;
  process.env.PAYDESK_SESSION_SECRET = 'adapter-session-secret-0123456789abcdef';
  process.env.PAYDESK_WEBHOOK_SECRET = sandbox.webhookSecret();
  process.env.PAYDESK_WEBHOOK_URL = 'http://merchant.invalid/api/paydesk/webhooks';
  ({ handler } = await import('./examples/handler.js'));
});

after(async () => {
  for (const s of servers) {
    s.closeAllConnections();
    await new Promise((resolve) => s.close(resolve));
  }
  await handler.close();
  await sandbox.close();
});

/** A GET over node:http, to see the raw answer headers (fetch hides Transfer-Encoding). */
function rawGet(url: string): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent: false }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

const sessionInit = (body: unknown): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', 'x-paydesk': '1' },
  body: JSON.stringify(body),
});

const complete = (orderId: string) =>
  globalThis.fetch(`${listening.url}/sandbox/orders/${orderId}/complete`, { method: 'POST', headers: { 'X-API-Key': KEY } });

describe('Node http (toNodeListener)', () => {
  test('create, read, stream, and a webhook through Node end the order paid', async () => {
    const { server } = await import('./examples/node.js');
    const base = await listen(server);
    webhookTarget = base;
    const res = await fetch(`${base}/api/paydesk/sessions`, sessionInit({ order_ref: 'tee-black', method_type: 'SBP' }));
    assert.equal(res.status, 201);
    const { session, order } = (await res.json()) as { session: string; order: { id: string; amount: string; redirect_url: string } };
    assert.equal(order.amount, '1500.00');
    assert.equal(order.redirect_url, 'https://shop.example/thanks');
    assert.equal((await fetch(`${base}/api/paydesk/sessions/${session}`)).status, 200);
    const stream = await fetch(`${base}/api/paydesk/sessions/${session}/events`);
    assert.equal(stream.headers.get('content-type'), 'text/event-stream; charset=utf-8');
    const sse = new SseReader(stream);
    assert.equal(JSON.parse((await sse.next())!.data!).status, 'pending');
    assert.equal((await complete(order.id)).status, 200);
    assert.equal(JSON.parse((await sse.next())!.data!).status, 'paid');
    assert.equal(await sse.next(), null);
    await sandbox.webhooks.idle();
    await handler.idle();
    assert.equal(sandbox.webhooks.log().at(-1)?.status, 'delivered');
    const { paidOrders } = await import('./examples/handler.js');
    assert.ok(paidOrders.has('tee-black'));
  });

  test('other paths stay the app\'s own', async () => {
    const { server } = await import('./examples/node.js');
    const base = servers.includes(server) ? `http://127.0.0.1:${(server.address() as AddressInfo).port}` : await listen(server);
    assert.equal((await fetch(`${base}/elsewhere`)).status, 404);
  });

  test('the socket address is recorded for rate limits, and a body streams through', async () => {
    let seen: string | undefined;
    let body = '';
    const server = http.createServer(
      toNodeListener(async (req) => {
        seen = getRecordedClientAddress(req);
        body = await req.text();
        return new Response('ok');
      }),
    );
    const base = await listen(server);
    await fetch(`${base}/x`, { method: 'POST', body: 'hello', headers: { 'x-forwarded-for': '6.6.6.6' } });
    assert.equal(seen, '127.0.0.1');
    assert.equal(body, 'hello');
  });

  test('a JSON or text answer goes out whole with its Content-Length, not chunked', async () => {
    const body = JSON.stringify({ ok: true, text: 'ё'.repeat(100) });
    const server = http.createServer(
      toNodeListener(async (req) =>
        new URL(req.url).pathname === '/text' ? new Response('plain ё') : new Response(body, { status: 201, headers: { 'content-type': 'application/json; charset=utf-8' } }),
      ),
    );
    const base = await listen(server);
    const json = await rawGet(`${base}/json`);
    assert.equal(json.status, 201);
    assert.equal(json.headers['content-length'], String(Buffer.byteLength(body)));
    assert.equal(json.headers['transfer-encoding'], undefined);
    assert.equal(json.body, body);
    const text = await rawGet(`${base}/text`);
    assert.equal(text.headers['content-length'], String(Buffer.byteLength('plain ё')));
    assert.equal(text.body, 'plain ё');
  });

  test('the checkout handler\'s answers carry their Content-Length through the adapter', async () => {
    const server = http.createServer(toNodeListener(handler));
    const base = await listen(server);
    const missing = await rawGet(`${base}/api/paydesk/sessions/nope`);
    assert.equal(missing.status, 401);
    assert.equal(missing.headers['content-length'], String(Buffer.byteLength(missing.body)));
    assert.equal(JSON.parse(missing.body).error.code, 'session_invalid');
  });

  test('any other body streams: the first chunk arrives while the body is still open', async () => {
    let close: (() => void) | undefined;
    const server = http.createServer(
      toNodeListener(async () => {
        const stream = new ReadableStream<Uint8Array>({
          start(controller) {
            controller.enqueue(new TextEncoder().encode('first'));
            close = () => controller.close();
          },
        });
        return new Response(stream, { headers: { 'content-type': 'application/octet-stream' } });
      }),
    );
    const base = await listen(server);
    const res = await fetch(`${base}/stream`);
    assert.equal(res.headers.get('content-length'), null);
    const reader = res.body!.getReader();
    const first = await reader.read();
    assert.equal(new TextDecoder().decode(first.value), 'first');
    close!();
    assert.equal((await reader.read()).done, true);
  });

  test('a JSON body that fails before it is sent drops the connection instead of answering it cut short', async () => {
    const server = http.createServer(
      toNodeListener(async () => {
        const stream = new ReadableStream<Uint8Array>({
          start(controller) {
            controller.enqueue(new TextEncoder().encode('{"half":'));
            controller.error(new Error('the database went away'));
          },
        });
        return new Response(stream, { headers: { 'content-type': 'application/json' } });
      }),
    );
    const base = await listen(server);
    await assert.rejects(rawGet(`${base}/broken`));
  });

  test('toWebRequest keeps method, path, query and headers; writeWebResponse keeps status and headers', async () => {
    const server = http.createServer(async (req, res) => {
      const r = toWebRequest(req);
      await writeWebResponse(res, new Response(JSON.stringify({ m: r.method, u: r.url, h: r.headers.get('x-a') }), { status: 207, headers: { 'x-b': 'y' } }));
    });
    const base = await listen(server);
    const res = await fetch(`${base}/a/b?c=d`, { method: 'PUT', headers: { 'x-a': '1' }, body: 'z' });
    assert.equal(res.status, 207);
    assert.equal(res.headers.get('x-b'), 'y');
    assert.deepEqual(await res.json(), { m: 'PUT', u: `${base}/a/b?c=d`, h: '1' });
  });
});

describe('Express (toExpressMiddleware)', () => {
  test('the README app serves the endpoint under its mount path and its own routes beside it', async () => {
    const { app } = await import('./examples/express.js');
    const base = await listen(http.createServer(app));
    webhookTarget = base;
    const res = await fetch(`${base}/api/paydesk/sessions`, sessionInit({ order_ref: 'mug-white', button_name: 'SberPay' }));
    assert.equal(res.status, 201);
    const { session, order } = (await res.json()) as { session: string; order: { id: string; bank: string } };
    assert.equal(order.bank, 'sberbank');
    assert.equal((await fetch(`${base}/api/paydesk/methods?order_ref=mug-white`)).status, 200);
    assert.equal(await (await fetch(`${base}/`)).text(), 'the shop');
    await complete(order.id);
    await sandbox.webhooks.idle();
    await handler.idle();
    const read = (await (await fetch(`${base}/api/paydesk/sessions/${session}`)).json()) as { order: { status: string } };
    assert.equal(read.order.status, 'paid', 'the webhook passed through Express with its raw body intact');
  });

  test('protections hold through Express: no X-Paydesk → 403, form-encoded → 415', async () => {
    const { app } = await import('./examples/express.js');
    const base = await listen(http.createServer(app));
    const noHeader = await fetch(`${base}/api/paydesk/sessions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    assert.equal(noHeader.status, 403);
    const form = await fetch(`${base}/api/paydesk/sessions`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-paydesk': '1' },
      body: 'order_ref=tee-black',
    });
    assert.equal(form.status, 415);
  });

  test('a body an earlier express.json() consumed is passed on', async () => {
    const app = express();
    app.use(express.json());
    app.use('/api/paydesk', toExpressMiddleware(handler));
    const base = await listen(http.createServer(app));
    const res = await fetch(`${base}/api/paydesk/sessions`, sessionInit({ order_ref: 'tee-black', method_type: 'SBP' }));
    assert.equal(res.status, 201);
  });
});

describe('Next.js route handlers (toNextRouteHandlers)', () => {
  test('the route module exports GET, POST and OPTIONS that take and return Web objects', async () => {
    const route: Record<string, unknown> & typeof import('./examples/next-route.js') = await import('./examples/next-route.js');
    // No route segment config: `dynamic` fails `next build` with cacheComponents (Next.js 16).
    assert.equal(route.dynamic, undefined);
    const created = await route.POST(new Request('https://shop.example/api/paydesk/sessions', sessionInit({ order_ref: 'tee-black', method_type: 'SBP' })));
    assert.equal(created.status, 201);
    const { session } = (await created.json()) as { session: string };
    const read = await route.GET(new Request(`https://shop.example/api/paydesk/sessions/${session}`));
    assert.equal(read.status, 200);
    const preflight = await route.OPTIONS(
      new Request('https://shop.example/api/paydesk/sessions', { method: 'OPTIONS', headers: { origin: 'https://shop.example', 'access-control-request-method': 'POST' } }),
    );
    assert.equal(preflight.status, 204);
    const methods = await route.GET(new Request('https://shop.example/api/paydesk/methods?order_ref=nothing'));
    assert.equal(methods.status, 404);
  });
});

describe('Hono (toHonoHandler)', () => {
  test('app.all("/api/paydesk/*") serves every route', async () => {
    const { app } = await import('./examples/hono.js');
    const methods = await app.request('/api/paydesk/methods?order_ref=tee-black');
    assert.equal(methods.status, 200);
    const created = await app.request('/api/paydesk/sessions', sessionInit({ order_ref: 'tee-black', method_type: 'SBP' }));
    assert.equal(created.status, 201);
    const { session } = (await created.json()) as { session: string };
    assert.equal((await app.request(`/api/paydesk/sessions/${session}`)).status, 200);
    assert.equal((await app.request('/api/paydesk/sessions', { method: 'POST', body: '{}' })).status, 403);
  });
});

describe('README', () => {
  test('shows each adapter example exactly as tested here', () => {
    const readme = readFileSync(new URL('../../../src/server/README.md', import.meta.url), 'utf8');
    for (const file of ['handler.ts', 'node.ts', 'express.ts', 'next-route.ts', 'hono.ts']) {
      const code = readFileSync(new URL(`./examples/${file}`, import.meta.url), 'utf8')
        .replaceAll('../../../../src/server/index.js', 'paydesk/server')
        // README's Next.js route imports the app's `paydesk.ts` by its own name, as Turbopack needs.
        .replace(file === 'next-route.ts' ? "from './handler.js'" : /^$/, "from '../../../../paydesk.ts'");
      assert.ok(readme.includes(code.trim()), `README.md lacks the code of examples/${file}`);
    }
  });
});
