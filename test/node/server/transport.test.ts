/**
 * The node:http provider transport: what the provider client needs of fetch (status, headers, text,
 * abort, redirects refused, compressed answers), over keep-alive connections, against a loopback server.
 */
import { test, describe, before, after, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { createProviderClient } from '../../../src/provider/client.js';
import { ProviderError } from '../../../src/provider/errors.js';
import { createNodeTransport } from '../../../src/server/transport.js';
import type { NodeTransport } from '../../../src/server/transport.js';

interface Seen {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** The body's bytes as they arrived. */
  raw: Buffer;
  port: number;
}

type Reply = (req: http.IncomingMessage, res: http.ServerResponse) => void;

let server: http.Server;
let base = '';
let reply: Reply;
let seen: Seen[] = [];
const sockets = new Set<Socket>();
const closedSockets: number[] = [];
let transport: NodeTransport;

before(async () => {
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      seen.push({ method: req.method!, url: req.url!, headers: req.headers, body: raw.toString(), raw, port: req.socket.remotePort! });
      reply(req, res);
    });
  });
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    const port = s.remotePort!;
    s.on('close', () => {
      sockets.delete(s);
      closedSockets.push(port);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

after(async () => {
  transport.close();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

beforeEach(() => {
  seen = [];
  transport?.close();
  transport = createNodeTransport();
  reply = (_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
});

const signal = () => new AbortController().signal;

async function rejection(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (err) {
    return err;
  }
  assert.fail('expected a rejection');
}

describe('createNodeTransport', () => {
  test('sends the method, headers and body with its length, and answers status, headers and text', async () => {
    reply = (_req, res) => {
      res.setHeader('X-Request-Id', 'req-1');
      res.setHeader('Retry-After', '3');
      res.writeHead(422, { 'content-type': 'application/json' }).end('{"success":false}');
    };
    const body = JSON.stringify({ amount: '1500.00' as const, name: 'Иван' });
    const res = await transport({ method: 'POST', url: `${base}/api/v1/order/?x=1`, headers: { 'X-API-Key': 'k', 'Content-Type': 'application/json' }, body, signal: signal() });
    assert.equal(res.status, 422);
    assert.equal(res.text, '{"success":false}');
    assert.equal(res.headers.get('x-request-id'), 'req-1');
    assert.equal(res.headers.get('Retry-After'), '3');
    assert.equal(res.headers.get('missing'), null);
    const [s] = seen;
    assert.equal(s?.method, 'POST');
    assert.equal(s?.url, '/api/v1/order/?x=1');
    assert.equal(s?.headers['x-api-key'], 'k');
    assert.equal(s?.headers['content-length'], String(Buffer.byteLength(body)));
    assert.equal(s?.body, body);
  });

  test('repeated headers read joined, as Headers.get does', async () => {
    reply = (_req, res) => {
      res.setHeader('x-multi', ['a', 'b']);
      res.end('{}');
    };
    const res = await transport({ method: 'GET', url: `${base}/`, headers: {}, signal: signal() });
    assert.equal(res.headers.get('X-Multi'), 'a, b');
  });

  test('calls in a row reuse one keep-alive connection', async () => {
    for (let i = 0; i < 3; i++) await transport({ method: 'GET', url: `${base}/r${i}`, headers: {}, signal: signal() });
    assert.equal(seen.length, 3);
    assert.equal(new Set(seen.map((s) => s.port)).size, 1);
  });

  test('close() ends the idle connections', async () => {
    await transport({ method: 'GET', url: `${base}/`, headers: {}, signal: signal() });
    const port = seen[0]!.port;
    const closed = new Promise<void>((resolve) => {
      const check = () => (closedSockets.includes(port) ? resolve() : setImmediate(check));
      check();
    });
    transport.close();
    await closed;
  });

  test('an idle connection is closed by the transport before the server\'s Keep-Alive timeout ends it', async () => {
    const idle = http.createServer((_req, res) => res.end('{}'));
    idle.keepAliveTimeout = 2000; // announces "Keep-Alive: timeout=2": the transport lets go after 1 s
    await new Promise<void>((resolve) => idle.listen(0, '127.0.0.1', resolve));
    try {
      const closedBy = new Promise<'client' | 'server'>((resolve) => {
        idle.once('connection', (socket: Socket) => {
          socket.once('end', () => resolve('client')); // the client's FIN
          socket.once('close', () => resolve('server'));
        });
      });
      const res = await transport({ method: 'GET', url: `http://127.0.0.1:${(idle.address() as AddressInfo).port}/`, headers: {}, signal: signal() });
      assert.equal(res.status, 200);
      assert.equal(await closedBy, 'client');
    } finally {
      idle.closeAllConnections();
      await new Promise((resolve) => idle.close(resolve));
    }
  });

  for (const [coding, encode] of [
    ['gzip', gzipSync],
    ['deflate', deflateSync],
    ['br', brotliCompressSync],
  ] as const) {
    test(`a ${coding} answer is decoded`, async () => {
      const text = JSON.stringify({ items: Array.from({ length: 50 }, (_, i) => ({ id: `o-${i}`, amount: '1500.00' as const })) });
      reply = (_req, res) => res.writeHead(200, { 'content-encoding': coding }).end(encode(Buffer.from(text)));
      const res = await transport({ method: 'GET', url: `${base}/`, headers: {}, signal: signal() });
      assert.equal(res.text, text);
      assert.match(String(seen[0]?.headers['accept-encoding']), new RegExp(coding));
    });
  }

  test('an unknown content coding is a failure, not garbage text', async () => {
    reply = (_req, res) => res.writeHead(200, { 'content-encoding': 'zstd' }).end('xx');
    const err = await rejection(transport({ method: 'GET', url: `${base}/`, headers: {}, signal: signal() }));
    assert.ok(err instanceof TypeError);
  });

  test('text is UTF-8 with a leading BOM dropped and bad bytes replaced, as Response.text()', async () => {
    reply = (_req, res) => res.end(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"a":"ё'), Buffer.from([0xff]), Buffer.from('"}')]));
    const res = await transport({ method: 'GET', url: `${base}/`, headers: {}, signal: signal() });
    assert.equal(res.text, '{"a":"ё\uFFFD"}');
  });

  test('a redirect is refused, not followed', async () => {
    reply = (_req, res) => res.writeHead(307, { location: `${base}/elsewhere` }).end();
    const err = await rejection(transport({ method: 'POST', url: `${base}/api/v1/order/`, headers: {}, body: '{}', signal: signal() }));
    assert.ok(err instanceof TypeError);
    assert.match(String((err as Error).cause), /redirect/);
    assert.deepEqual(
      seen.map((s) => s.url),
      ['/api/v1/order/'],
    );
  });

  test('an abort rejects with the signal reason and drops the connection', async () => {
    let answered: (() => void) | undefined;
    reply = (_req, res) => {
      answered = () => res.end('{}');
    };
    const controller = new AbortController();
    const pending = transport({ method: 'GET', url: `${base}/slow`, headers: {}, signal: controller.signal });
    while (seen.length === 0) await new Promise((r) => setImmediate(r));
    const port = seen[0]!.port;
    const reason = new Error('stop');
    controller.abort(reason);
    assert.equal(await rejection(pending), reason);
    while (!closedSockets.includes(port)) await new Promise((r) => setImmediate(r));
    answered?.();
  });

  test('an already aborted signal sends nothing', async () => {
    const controller = new AbortController();
    controller.abort(new Error('before'));
    const err = await rejection(transport({ method: 'GET', url: `${base}/`, headers: {}, signal: controller.signal }));
    assert.equal((err as Error).message, 'before');
    assert.equal(seen.length, 0);
  });

  test('an answer larger than maxResponseBytes is refused', async () => {
    transport.close();
    transport = createNodeTransport({ maxResponseBytes: 1000 });
    reply = (_req, res) => res.end('x'.repeat(5000));
    const err = await rejection(transport({ method: 'GET', url: `${base}/`, headers: {}, signal: signal() }));
    assert.ok(err instanceof TypeError);
    assert.match(String((err as Error).cause), /larger than 1000 bytes/);
  });

  test('a connection cut in the middle of the answer is a failure', async () => {
    reply = (_req, res) => {
      res.writeHead(200, { 'content-length': '100' });
      res.write('{"partial":');
      setImmediate(() => res.socket?.destroy());
    };
    const err = await rejection(transport({ method: 'GET', url: `${base}/`, headers: {}, signal: signal() }));
    assert.ok(err instanceof TypeError);
  });

  test('a header value with a line break is refused before anything is sent', async () => {
    const err = await rejection(transport({ method: 'GET', url: `${base}/`, headers: { 'X-API-Key': 'a\r\nX-Evil: 1' }, signal: signal() }));
    assert.ok(err instanceof TypeError);
    assert.equal(seen.length, 0);
  });

  test('a refused connection is a failure', async () => {
    const spare = http.createServer();
    await new Promise<void>((resolve) => spare.listen(0, '127.0.0.1', resolve));
    const port = (spare.address() as AddressInfo).port;
    await new Promise((resolve) => spare.close(resolve));
    const err = await rejection(transport({ method: 'GET', url: `http://127.0.0.1:${port}/`, headers: {}, signal: signal() }));
    assert.ok(err instanceof TypeError);
  });

  test('a URL that is not http(s) is refused', async () => {
    const err = await rejection(transport({ method: 'GET', url: 'ftp://127.0.0.1/', headers: {}, signal: signal() }));
    assert.ok(err instanceof TypeError);
  });

  test('maxResponseBytes must be a positive integer', () => {
    assert.throws(() => createNodeTransport({ maxResponseBytes: 0 }), TypeError);
    assert.throws(() => createNodeTransport({ maxResponseBytes: 1.5 }), TypeError);
  });
});

describe('binary request bodies (multipart uploads)', () => {
  test('a Uint8Array body arrives byte for byte, with its Content-Length, including bytes that are not UTF-8', async () => {
    const bytes = new Uint8Array(4096 + 256);
    for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 7) & 0xff; // every byte value, 0x80–0xff included
    const res = await transport({ method: 'POST', url: `${base}/upload`, headers: { 'content-type': 'application/octet-stream' }, body: bytes, signal: signal() });
    assert.equal(res.status, 200);
    assert.equal(seen[0]!.headers['content-length'], String(bytes.length));
    assert.ok(seen[0]!.raw.equals(Buffer.from(bytes)), 'the bytes are unchanged (no text decoding on the way)');
  });

  test("createDispute's multipart body over the node transport is a form the provider can read", async () => {
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0xff, 0xfe, 0x0d, 0x0a, 0x2d, 0x2d]);
    reply = (_req, res) =>
      res.writeHead(201, { 'content-type': 'application/json' }).end('{"order_id":"o-1","dispute_id":"d-1","dispute_files":[{"file_name":"r.png"}]}');
    const client = createProviderClient({ baseUrl: base, apiKey: 'transport_key', transport, maxRetries: 0 });
    const answer = await client.createDispute({ order_id: 'o-1', amount: '1500.5', files: [{ name: 'r.png', type: 'image/png', data: png }] });
    assert.equal(answer.dispute_id, 'd-1');
    const req = seen[0]!;
    assert.match(String(req.headers['content-type']), /^multipart\/form-data; boundary=/);
    assert.equal(req.headers['content-length'], String(req.raw.length));
    const form = await new Response(new Uint8Array(req.raw), { headers: { 'content-type': String(req.headers['content-type']) } }).formData();
    assert.equal(form.get('order_id'), 'o-1');
    assert.equal(form.get('amount'), '1500.5');
    const file = form.get('files[]') as File;
    assert.equal(file.name, 'r.png');
    assert.equal(file.type, 'image/png');
    assert.deepEqual(new Uint8Array(await file.arrayBuffer()), png);
  });
});

describe('the provider client over the node transport', () => {
  const KEY = 'transport_test_key_0123456789';

  test('a network failure is a network ProviderError without the key', async () => {
    reply = (req) => req.socket.destroy();
    const client = createProviderClient({ baseUrl: base, apiKey: KEY, transport, maxRetries: 0 });
    const err = await rejection(client.getBalance());
    assert.ok(err instanceof ProviderError);
    assert.equal(err.code, 'network');
    assert.ok(!JSON.stringify({ m: err.message, s: err.stack, c: String(err.cause) }).includes(KEY));
  });

  test('no answer within timeoutMs is a timeout ProviderError, and the connection is dropped', async () => {
    reply = () => {};
    // Long enough for the request to reach the server on a loaded machine (30 ms was not, at times):
    // the test needs its connection to check that the timeout drops it.
    const client = createProviderClient({ baseUrl: base, apiKey: KEY, transport, maxRetries: 0, timeoutMs: 500 });
    const err = await rejection(client.getBalance());
    assert.ok(err instanceof ProviderError);
    assert.equal(err.code, 'timeout');
    assert.equal(seen.length, 1, 'the request reached the server before the timeout');
    const port = seen[0]!.port;
    while (!closedSockets.includes(port)) await new Promise((r) => setImmediate(r));
  });

  test('the key travels in X-API-Key and answers are checked as with fetch', async () => {
    reply = (_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"success":true,"deposit":{"total":"oops"}}');
    const client = createProviderClient({ baseUrl: base, apiKey: KEY, transport, maxRetries: 0 });
    const err = await rejection(client.getBalance());
    assert.ok(err instanceof ProviderError);
    assert.equal(err.code, 'invalid_response');
    assert.equal(seen[0]?.headers['x-api-key'], KEY);
  });
});
