/**
 * The provider transport of the token endpoint on node:http / node:https: one keep-alive agent per
 * scheme, the request written in one piece, the answer collected as text. It does what the provider
 * client needs of `fetch` (status, headers, text, abort, redirects refused, gzip/deflate/br answers)
 * without a `Request`, a `Response` or a web stream per call, which is most of what `fetch` costs
 * on loopback-fast links.
 */
import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import type { IncomingMessage, OutgoingHttpHeaders } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { Readable } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import type { ProviderHttpRequest, ProviderHttpResponse, ProviderTransport } from '../provider/types.js';

export interface NodeTransportOptions {
  /** Largest answer accepted (after decompression); more is a network error. Default 16 MiB. */
  maxResponseBytes?: number;
  /** Connections per provider origin; default unlimited, as `fetch`. */
  maxSockets?: number;
}

export interface NodeTransport extends ProviderTransport {
  /** Closes the idle keep-alive connections (and any still open). */
  close(): void;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
/** Longest idle time of a kept-alive connection to the provider (ms). */
const IDLE_MS = 4000;

function failure(message: string, cause?: unknown): TypeError {
  return new TypeError(message, cause === undefined ? undefined : { cause });
}

function headerGetter(res: IncomingMessage): ProviderHttpResponse['headers'] {
  const all = res.headers;
  return {
    get(name: string): string | null {
      const v = all[name.toLowerCase()];
      if (v === undefined) return null;
      return Array.isArray(v) ? v.join(', ') : v;
    },
  };
}

/** The answer's body, decompressed per Content-Encoding (as fetch does), or null when the coding is unknown. */
function decoded(res: IncomingMessage): Readable | null {
  const coding = String(res.headers['content-encoding'] ?? '').trim().toLowerCase();
  if (coding === '' || coding === 'identity') return res;
  const decoder =
    coding === 'gzip' || coding === 'x-gzip' ? createGunzip() : coding === 'deflate' ? createInflate() : coding === 'br' ? createBrotliDecompress() : null;
  if (!decoder) return null;
  res.on('error', (err) => decoder.destroy(err));
  return res.pipe(decoder);
}

/**
 * Creates the transport. The handler makes one per provider client and closes it with the handler.
 *
 * @example
 *   const transport = createNodeTransport();
 *   const client = createProviderClient({ baseUrl, apiKey, transport });
 */
export function createNodeTransport(options: NodeTransportOptions = {}): NodeTransport {
  const maxBytes = options.maxResponseBytes ?? 16 * 1024 * 1024;
  if (!Number.isSafeInteger(maxBytes) || maxBytes <= 0) throw new TypeError('paydesk/server: maxResponseBytes must be a positive integer');
  // `timeout` caps how long an idle connection is kept: Node's agent then closes it 1 s before the
  // server's advertised Keep-Alive timeout (or after 4 s without one, as undici does), so a request is
  // not sent on a connection the server is closing. A request in flight is bounded by the client's deadline.
  const agentOptions = {
    keepAlive: true,
    timeout: IDLE_MS,
    scheduling: 'lifo' as const,
    ...(options.maxSockets !== undefined && { maxSockets: options.maxSockets }),
  };
  const http = new HttpAgent(agentOptions);
  const https = new HttpsAgent(agentOptions);

  const exchange = (req: ProviderHttpRequest): Promise<ProviderHttpResponse> =>
    new Promise((resolve, reject) => {
      const { signal } = req;
      if (signal.aborted) return reject(signal.reason);
      let url: URL;
      try {
        url = new URL(req.url);
      } catch (err) {
        return reject(failure('Invalid URL', err));
      }
      const secure = url.protocol === 'https:';
      if (!secure && url.protocol !== 'http:') return reject(failure(`unsupported protocol ${url.protocol}`));

      let done = false;
      let outgoing: ReturnType<typeof httpRequest> | undefined;
      const finish = (fn: () => void) => {
        if (done) return;
        done = true;
        signal.removeEventListener('abort', onAbort);
        fn();
      };
      // A failed exchange never leaves its connection to the pool: it may hold half an answer.
      const fail = (err: unknown) =>
        finish(() => {
          reject(err);
          outgoing?.destroy();
        });
      const onAbort = () => fail(signal.reason);
      signal.addEventListener('abort', onAbort, { once: true });

      const headers: OutgoingHttpHeaders = { ...req.headers, 'accept-encoding': 'gzip, deflate, br' };
      // JSON text (UTF-8) or the bytes of a multipart upload, sent as they are.
      const body = req.body === undefined ? undefined : typeof req.body === 'string' ? Buffer.from(req.body, 'utf8') : Buffer.from(req.body.buffer, req.body.byteOffset, req.body.byteLength);
      if (body !== undefined) headers['content-length'] = body.byteLength;
      try {
        outgoing = (secure ? httpsRequest : httpRequest)(url, { method: req.method, headers, agent: secure ? https : http }, (res) => {
          const status = res.statusCode ?? 0;
          if (REDIRECTS.has(status)) {
            fail(failure('fetch failed', new Error(`unexpected redirect (${status})`)));
            return;
          }
          const body = decoded(res);
          if (!body) {
            fail(failure('fetch failed', new Error('unsupported content encoding')));
            return;
          }
          const chunks: Buffer[] = [];
          let size = 0;
          body.on('data', (chunk: Buffer) => {
            size += chunk.byteLength;
            if (size > maxBytes) {
              fail(failure('fetch failed', new Error(`the answer is larger than ${maxBytes} bytes`)));
              body.destroy();
              return;
            }
            chunks.push(chunk);
          });
          body.on('error', (err) => fail(failure('fetch failed', err)));
          res.on('close', () => {
            if (!res.complete) fail(failure('fetch failed', new Error('the answer was cut short')));
          });
          body.on('end', () => {
            const all = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size);
            // Response.text(): UTF-8, a leading BOM dropped, bad bytes replaced.
            finish(() => resolve({ status, headers: headerGetter(res), text: new TextDecoder().decode(all) }));
          });
        });
      } catch (err) {
        // e.g. a header value with a newline: refused before anything is sent.
        return fail(failure('fetch failed', err));
      }
      outgoing.on('error', (err) => fail(failure('fetch failed', err)));
      outgoing.end(body);
    });

  return Object.assign(exchange, {
    close() {
      http.destroy();
      https.destroy();
    },
  });
}
