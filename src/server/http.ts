/**
 * HTTP plumbing of the token endpoint: JSON answers with safe headers, the body reader with a size
 * limit, the content-type check, CORS for an Origin allowlist, and the client address.
 */
import { CheckoutError } from './errors.js';

export const JSON_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'application/json; charset=utf-8',
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
};

/** The text each JSON answer was made from, so the Node adapters write it without reading the body stream. */
const jsonTexts = new WeakMap<Response, string>();

/** A JSON answer from its text (already serialised). */
export function jsonTextResponse(status: number, text: string, headers: Record<string, string> = {}): Response {
  const response = new Response(text, { status, headers: { ...JSON_HEADERS, ...headers } });
  jsonTexts.set(response, text);
  return response;
}

export function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return jsonTextResponse(status, JSON.stringify(body), headers);
}

/**
 * The text of an answer made by {@link jsonTextResponse}, while its body is still unread (a Response's
 * body cannot change, only be consumed); undefined for any other answer.
 */
export function unreadJsonText(response: Response): string | undefined {
  const text = jsonTexts.get(response);
  if (text === undefined || response.bodyUsed || response.body?.locked) return undefined;
  return text;
}

export function errorResponse(err: CheckoutError, headers: Record<string, string> = {}): Response {
  return jsonResponse(err.status, err.toBody(), { ...headers, ...err.headers });
}

/** True for `application/json` (any parameters, any case) and `application/*+json`. */
export function isJsonContentType(value: string | null): boolean {
  if (!value) return false;
  const type = value.split(';')[0]!.trim().toLowerCase();
  return type === 'application/json' || (type.startsWith('application/') && type.endsWith('+json'));
}

/** One-shot decodes keep no state between calls, so one decoder serves every request. */
const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** Reads the whole body, refusing (413) more than `limit` bytes, whether declared or streamed. */
export async function readBodyBytes(req: Request, limit: number): Promise<Uint8Array> {
  const tooLarge = () =>
    new CheckoutError(413, 'payload_too_large', `The request body is larger than ${limit} bytes.`);
  const declared = req.headers.get('content-length');
  if (declared !== null) {
    const n = Number(declared);
    if (!/^\d+$/.test(declared.trim()) || !Number.isSafeInteger(n)) {
      throw new CheckoutError(400, 'bad_request', 'Content-Length is not a number.');
    }
    if (n > limit) throw tooLarge();
  }
  if (!req.body) return new Uint8Array(0);
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > limit) {
        await reader.cancel().catch(() => undefined);
        throw tooLarge();
      }
      chunks.push(value);
    }
  } catch (err) {
    if (err instanceof CheckoutError) throw err;
    throw new CheckoutError(400, 'bad_request', 'The request body could not be read.', { cause: err });
  }
  if (chunks.length === 1) return chunks[0]!;
  const all = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    all.set(c, at);
    at += c.byteLength;
  }
  return all;
}

/** Reads the body as UTF-8 text, refusing (413) more than `limit` bytes, whether declared or streamed. */
export async function readBodyText(req: Request, limit: number): Promise<string> {
  const bytes = await readBodyBytes(req, limit);
  try {
    return UTF8.decode(bytes);
  } catch {
    throw new CheckoutError(400, 'bad_request', 'The request body is not valid UTF-8.');
  }
}

/** Parses a JSON object body; anything else is a 400 with a message that says what was wrong. */
export function parseJsonObject(text: string): Record<string, unknown> {
  if (text.trim() === '') throw new CheckoutError(400, 'bad_request', 'The request body is empty; send a JSON object.');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new CheckoutError(400, 'bad_request', 'The request body is not valid JSON.');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new CheckoutError(400, 'bad_request', 'The request body must be a JSON object.');
  }
  return value as Record<string, unknown>;
}

// ---------------------------------------------------------------------------------------------
// Origins and CORS

export const CORS_ALLOWED_HEADERS = 'Content-Type, X-Paydesk, Idempotency-Key, Last-Event-ID';
export const CORS_ALLOWED_METHODS = 'GET, POST, OPTIONS';

/** Normalises an origin for comparison (`https://Shop.Example:443` → `https://shop.example`); null when not one. */
export function normaliseOrigin(value: string): string | null {
  if (value === '*') return '*';
  try {
    const u = new URL(value);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') return null;
    return u.origin;
  } catch {
    return null;
  }
}

export type OriginDecision =
  /** No Origin header: not a cross-site browser request (server-to-server, or a same-origin GET). */
  | { kind: 'none' }
  | { kind: 'same' }
  | { kind: 'allowed'; origin: string }
  | { kind: 'forbidden'; origin: string };

export class OriginPolicy {
  private readonly allowed: Set<string>;
  private readonly any: boolean;
  constructor(allowedOrigins: readonly string[] = []) {
    this.allowed = new Set();
    let any = false;
    for (const o of allowedOrigins) {
      const n = normaliseOrigin(o);
      if (n === null) throw new TypeError(`paydesk/server: allowedOrigins has an invalid origin ${JSON.stringify(o)}`);
      if (n === '*') any = true;
      else this.allowed.add(n);
    }
    this.any = any;
  }

  decide(req: Request, url: URL): OriginDecision {
    const origin = req.headers.get('origin');
    if (origin === null) return { kind: 'none' };
    if (origin === url.origin) return { kind: 'same' };
    // Behind a proxy the request URL may name an internal host; browsers say same-origin themselves
    // (a page cannot set Sec-Fetch-* headers).
    if (req.headers.get('sec-fetch-site') === 'same-origin') return { kind: 'same' };
    const n = origin === 'null' ? null : normaliseOrigin(origin);
    if (n !== null && n === url.origin) return { kind: 'same' };
    if (n !== null && (this.any || this.allowed.has(n))) return { kind: 'allowed', origin };
    return { kind: 'forbidden', origin };
  }
}

/** Headers that let an allowed origin read the answer. */
export function corsHeaders(decision: OriginDecision): Record<string, string> {
  if (decision.kind !== 'allowed') return {};
  return {
    'access-control-allow-origin': decision.origin,
    'access-control-expose-headers': 'Retry-After, Idempotent-Replayed',
    vary: 'Origin',
  };
}

export function preflightHeaders(decision: OriginDecision): Record<string, string> {
  if (decision.kind !== 'allowed' && decision.kind !== 'same') return { vary: 'Origin' };
  const origin = decision.kind === 'allowed' ? decision.origin : undefined;
  return {
    ...(origin ? { 'access-control-allow-origin': origin } : {}),
    'access-control-allow-methods': CORS_ALLOWED_METHODS,
    'access-control-allow-headers': CORS_ALLOWED_HEADERS,
    'access-control-max-age': '600',
    vary: 'Origin',
  };
}

// ---------------------------------------------------------------------------------------------
// Client address

const clientAddresses = new WeakMap<Request, string>();

/**
 * Records the socket address of a request (adapters call this; a browser cannot forge it, unlike a
 * header). The handler reads it for per-address rate limits.
 */
export function setClientAddress(req: Request, address: string | undefined): void {
  if (address) clientAddresses.set(req, address);
}

export function getRecordedClientAddress(req: Request): string | undefined {
  return clientAddresses.get(req);
}
