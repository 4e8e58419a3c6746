/**
 * Mounting the fetch handler in Node `http`, Express, Next.js route handlers and Hono. Each adapter
 * records the socket address for per-address rate limits (a header could be forged by the browser);
 * the handler's `trustProxy` decides whether a forwarded header from that socket is believed.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { setClientAddress, unreadJsonText } from './http.js';
import { isTrusted, parseTrustProxy } from './proxy.js';

export type FetchHandler = (request: Request) => Promise<Response>;

export interface NodeAdapterOptions {
  /**
   * Use `X-Forwarded-Proto` for the request URL's scheme (behind a TLS-terminating proxy): `true`
   * from any socket, or a list of the proxies' addresses and CIDR ranges. Default false.
   */
  trustProxy?: boolean | readonly string[];
}

/** Builds a Web `Request` from a Node request; `url` defaults to `req.url` (Express passes `originalUrl`). */
export function toWebRequest(
  req: IncomingMessage,
  options: NodeAdapterOptions & { url?: string; signal?: AbortSignal; body?: RequestInit['body'] } = {},
): Request {
  const encrypted = (req.socket as { encrypted?: boolean }).encrypted === true;
  const trust = parseTrustProxy(options.trustProxy);
  const socket = req.socket.remoteAddress;
  const trusted = trust !== null && (trust.all || (socket !== undefined && isTrusted(trust, socket)));
  const forwardedProto = trusted ? String(req.headers['x-forwarded-proto'] ?? '').split(',')[0]?.trim() : '';
  const scheme = forwardedProto === 'https' || forwardedProto === 'http' ? forwardedProto : encrypted ? 'https' : 'http';
  const host = req.headers.host && /^[A-Za-z0-9.\-:[\]]+$/.test(req.headers.host) ? req.headers.host : 'localhost';
  const url = new URL(options.url ?? req.url ?? '/', `${scheme}://${host}`);
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else headers.set(name, value);
  }
  const method = (req.method ?? 'GET').toUpperCase();
  const hasBody = method !== 'GET' && method !== 'HEAD';
  const init: RequestInit & { duplex?: 'half' } = { method, headers };
  if (options.signal) init.signal = options.signal;
  if (hasBody) {
    if (options.body !== undefined) init.body = options.body;
    else {
      init.body = Readable.toWeb(req) as unknown as ReadableStream<Uint8Array>;
      init.duplex = 'half';
    }
  }
  const request = new Request(url, init);
  setClientAddress(request, socket);
  return request;
}

/**
 * A body worth writing in one piece: JSON or text (not an event stream), not marked as streamed
 * (`Transfer-Encoding`, `X-Accel-Buffering: no`). Everything else is streamed chunk by chunk.
 */
const WHOLE_TYPE = /^\s*(?:application\/(?:json|[\w.+-]+\+json)|text\/(?!event-stream\b))/i;

function headersOf(response: Response): Record<string, string | string[]> {
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  const cookies = response.headers.getSetCookie?.() ?? [];
  if (cookies.length > 0) headers['set-cookie'] = cookies;
  return headers;
}

/** The whole body, read with the stream's reader (cheaper than Response.arrayBuffer() in Node 20). */
async function readWhole(body: ReadableStream<Uint8Array>): Promise<Uint8Array> {
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    size += value.byteLength;
  }
  return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size);
}

/**
 * Writes a Web `Response` to a Node response. A JSON or text answer goes out in one write with its
 * Content-Length; any other body (server-sent events) is streamed, flushed per chunk.
 */
export async function writeWebResponse(res: ServerResponse, response: Response): Promise<void> {
  const headers = headersOf(response);
  const text = unreadJsonText(response);
  if (text !== undefined) {
    headers['content-length'] = String(Buffer.byteLength(text));
    res.writeHead(response.status, headers);
    res.end(text);
    return;
  }
  if (!response.body) {
    res.writeHead(response.status, headers);
    res.end();
    return;
  }
  const type = response.headers.get('content-type');
  if (
    type !== null &&
    WHOLE_TYPE.test(type) &&
    !response.headers.has('transfer-encoding') &&
    response.headers.get('x-accel-buffering')?.trim().toLowerCase() !== 'no'
  ) {
    let whole: Uint8Array;
    try {
      whole = await readWhole(response.body);
    } catch {
      // The body failed before anything was sent: drop the connection rather than answer a
      // complete-looking but truncated body.
      res.destroy();
      return;
    }
    headers['content-length'] = String(whole.byteLength);
    res.writeHead(response.status, headers);
    res.end(whole);
    return;
  }
  res.writeHead(response.status, headers);
  const reader = response.body.getReader();
  const stop = () => void reader.cancel().catch(() => undefined);
  res.on('close', stop);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (!res.write(value)) await new Promise<void>((resolve) => res.once('drain', resolve).once('close', resolve));
      if (res.destroyed) break;
    }
  } catch {
    // the client went away, or the body failed: end the answer
  } finally {
    res.off('close', stop);
    if (!res.writableEnded) res.end();
  }
}

async function serve(handler: FetchHandler, req: IncomingMessage, res: ServerResponse, options: Parameters<typeof toWebRequest>[1]) {
  const aborter = new AbortController();
  res.on('close', () => {
    if (!res.writableFinished) aborter.abort();
  });
  let request: Request;
  try {
    request = toWebRequest(req, { ...options, signal: aborter.signal });
  } catch {
    res.writeHead(400, { 'content-type': 'application/json; charset=utf-8' });
    res.end(JSON.stringify({ error: { code: 'bad_request', message: 'The request URL is invalid.', retryable: false } }));
    return;
  }
  let response: Response;
  try {
    response = await handler(request);
  } catch {
    response = new Response(JSON.stringify({ error: { code: 'internal_error', message: 'Something went wrong.', retryable: true } }), {
      status: 500,
      headers: { 'content-type': 'application/json; charset=utf-8' },
    });
  }
  await writeWebResponse(res, response);
}

/**
 * Node `http` listener.
 *
 * @example
 *   http.createServer(toNodeListener(handler)).listen(3000, '127.0.0.1');
 */
export function toNodeListener(handler: FetchHandler, options: NodeAdapterOptions = {}) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    void serve(handler, req, res, options);
  };
}

/** The parts of Express's request the middleware reads (Express 4 and 5). */
type ExpressRequest = IncomingMessage & { originalUrl?: string; body?: unknown };

/**
 * Express middleware. Mount it before any body parser (or the raw body, which webhook signatures
 * need, is gone); a body an earlier parser consumed is passed on re-serialised.
 *
 * @example
 *   app.use('/api/paydesk', toExpressMiddleware(handler));
 */
export function toExpressMiddleware(handler: FetchHandler, options: NodeAdapterOptions = {}) {
  return (req: ExpressRequest, res: ServerResponse, next: (err?: unknown) => void): void => {
    let body: BodyInit | null | undefined;
    if (req.readableEnded && req.body !== undefined) {
      const b = req.body;
      body = typeof b === 'string' ? b : b instanceof Uint8Array ? new Uint8Array(b) : JSON.stringify(b);
    }
    serve(handler, req, res, { ...options, url: req.originalUrl ?? req.url, ...(body !== undefined && { body }) }).catch(next);
  };
}

/**
 * Next.js App Router route handlers, for `app/api/paydesk/[...path]/route.ts`.
 *
 * @example
 *   export const { GET, POST, OPTIONS } = toNextRouteHandlers(handler);
 *   export const dynamic = 'force-dynamic';
 */
export function toNextRouteHandlers(handler: FetchHandler): { GET: FetchHandler; POST: FetchHandler; OPTIONS: FetchHandler } {
  const route = (request: Request) => handler(request);
  return { GET: route, POST: route, OPTIONS: route };
}

/** The part of a Hono context the adapter reads. With @hono/node-server, `env.incoming` is the Node request. */
interface HonoContextLike {
  req: { raw: Request };
  env?: unknown;
}

/**
 * Hono handler.
 *
 * @example
 *   app.all('/api/paydesk/*', toHonoHandler(handler));   // or (c) => handler(c.req.raw)
 */
export function toHonoHandler(handler: FetchHandler) {
  return (c: HonoContextLike): Promise<Response> => {
    const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
    if (incoming?.socket) setClientAddress(c.req.raw, incoming.socket.remoteAddress);
    return handler(c.req.raw);
  };
}
