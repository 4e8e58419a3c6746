/** What the route modules share: the engine, the clock, options, and request helpers. */
import { IncomingMessage } from 'node:http';
import type { Context } from 'hono';
import { MAX_BODY_BYTES } from '../constants.js';
import { z } from 'zod';
import type { SandboxEngine } from '../engine.js';
import type { SandboxClock } from '../clock.js';
import type { SandboxLogger } from '../logger.js';
import type { Terminal } from '../terminal.js';
import type { SeedOrdersOptions } from '../seed.js';
import { SandboxHttpError, fieldError, validationError } from '../errors.js';
import { UploadError } from '../receipts.js';

export type SandboxEnv = {
  Variables: {
    terminal: Terminal;
    /** Body fields the endpoint does not know, ignored as the provider does (the request log names them). */
    ignoredFields: string[];
  };
};

/** Response header naming the body fields a request sent that the endpoint ignored. */
export const IGNORED_FIELDS_HEADER = 'X-Sandbox-Ignored-Fields';
export type SandboxContext = Context<SandboxEnv>;

export interface AppContext {
  engine: SandboxEngine;
  clock: SandboxClock;
  logger: SandboxLogger;
  logRequests: boolean;
  /** Base of `form_url`: the public URL, else the listening URL, else the request's origin. */
  baseUrl(requestUrl: string): string;
  widgetScript: (() => Promise<string | null>) | undefined;
  /** Files the widget loads beside its script (`chunks/kk.js`), or null. */
  widgetFile: ((path: string) => Promise<string | null>) | undefined;
  /** Seeds a terminal again after a reset. */
  reseed(terminal: Terminal): void;
  seedOrders(terminal: Terminal, count: number, options?: SeedOrdersOptions): number;
  /** With a state file: resolves once it holds every change made so far; rejects when it cannot be written. */
  durable?: (() => Promise<void>) | undefined;
}

/**
 * The request body as text. Under the Node adapter a body with a Content-Length is read straight from
 * the socket stream (`c.env.incoming`): going through `c.req.text()` makes the adapter build a full
 * web Request (headers copy, AbortController, stream wrapper), which is most of the cost of a small
 * POST. Anything else (in-process `app.request`, chunked bodies, a body already touched) uses
 * `c.req.text()`.
 */
export async function bodyText(c: Context): Promise<string> {
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  const length = c.req.header('content-length');
  if (
    incoming instanceof IncomingMessage &&
    length !== undefined &&
    c.req.header('transfer-encoding') === undefined &&
    !incoming.readableDidRead &&
    !incoming.destroyed
  ) {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of incoming as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) throw new SandboxHttpError(413, `Request body is larger than ${MAX_BODY_BYTES} bytes`);
      chunks.push(chunk);
    }
    return Buffer.concat(chunks, size).toString('utf8');
  }
  return c.req.text();
}

/** Reads the body as a JSON object; malformed, empty or non-object bodies are a clear 422. */
export async function readJsonObject(c: Context, options: { optional?: boolean } = {}): Promise<Record<string, unknown>> {
  const where = 'body';
  const text = await bodyText(c);
  if (text.trim() === '' && options.optional) return {};
  if (text.trim() === '') throw new SandboxHttpError(422, `Invalid request ${where}: a JSON object is required`);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new SandboxHttpError(422, `Invalid request ${where}: malformed JSON (${(err as Error).message})`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new SandboxHttpError(422, `Invalid request ${where}: must be a JSON object`);
  }
  return value as Record<string, unknown>;
}

/** The object schema inside optional/nullable/default wrappers, or null. */
function objectSchema(schema: z.ZodType): z.ZodObject | null {
  let current: z.ZodType | undefined = schema;
  for (let depth = 0; current && depth < 8; depth++) {
    if (current instanceof z.ZodObject) return current;
    const def: { innerType?: z.ZodType } | undefined = (current as { _zod?: { def?: { innerType?: z.ZodType } } })._zod?.def;
    current = def?.innerType;
  }
  return null;
}

/**
 * A copy of `value` without the object fields `schema` does not know, at any depth, and their dotted
 * paths. The provider ignores fields it does not list (provider-notes.md: production clients send
 * `customer_payment_account`, a stray top-level `order_side` …), so the sandbox does too.
 */
export function withoutUnknownFields(schema: z.ZodType, value: unknown, path = ''): { value: unknown; ignored: string[] } {
  const object = objectSchema(schema);
  if (!object || typeof value !== 'object' || value === null || Array.isArray(value)) return { value, ignored: [] };
  const shape = object.shape as Record<string, z.ZodType>;
  const out: Record<string, unknown> = {};
  const ignored: string[] = [];
  for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
    const field = shape[key];
    if (!field) {
      ignored.push(path + key);
      continue;
    }
    const inner = withoutUnknownFields(field, v, `${path}${key}.`);
    out[key] = inner.value;
    ignored.push(...inner.ignored);
  }
  return { value: out, ignored };
}

/** Parses a provider API body leniently: unknown fields are dropped and noted (request log, response header); the rest is checked strictly. */
export function parseProviderBody<S extends z.ZodType>(c: SandboxContext, schema: S, value: unknown): z.output<S> {
  const { value: known, ignored } = withoutUnknownFields(schema, value);
  noteIgnored(c, ignored);
  return parseBody(schema, known);
}

export function noteIgnored(c: SandboxContext, fields: readonly string[]): void {
  if (fields.length === 0) return;
  const all = [...(c.get('ignoredFields') ?? []), ...fields];
  c.set('ignoredFields', all);
  c.header(IGNORED_FIELDS_HEADER, all.join(', ').slice(0, 1000));
}

/**
 * A `multipart/form-data` body (uploads). The route's size limit has run already; a body of another
 * type or a broken one is an {@link UploadError}.
 */
export async function readMultipart(c: Context): Promise<FormData> {
  const type = c.req.header('content-type') ?? '';
  if (!/^multipart\/form-data\s*;/i.test(type) || !/boundary=/i.test(type)) {
    throw new UploadError('not_multipart', `the body must be multipart/form-data (with a boundary), got ${JSON.stringify(type.slice(0, 80) || 'no Content-Type')}`);
  }
  try {
    return await c.req.raw.formData();
  } catch (err) {
    throw new UploadError('malformed', `the multipart body could not be read (${err instanceof Error ? err.message : String(err)})`);
  }
}

export function parseBody<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const result = schema.safeParse(value);
  if (!result.success) throw validationError('body', result.error.issues);
  return result.data;
}

/**
 * The query as an object for a query schema: a parameter given once is a string; one of `repeatable`
 * given several times is an array, any other is a 422 naming it. Parameters the endpoint does not
 * know are ignored (as the provider's framework does).
 */
export function parseQuery<S extends z.ZodObject>(c: Context, schema: S, repeatable: readonly string[] = []): z.output<S> {
  const params = new URL(c.req.url).searchParams;
  const known = new Set(Object.keys(schema.shape));
  const out: Record<string, string | string[]> = {};
  for (const key of new Set(params.keys())) {
    if (!known.has(key)) continue;
    const values = params.getAll(key);
    if (values.length > 1 && !repeatable.includes(key)) throw fieldError('query', key, 'must be given once');
    out[key] = values.length === 1 ? values[0]! : values;
  }
  const result = schema.safeParse(out);
  if (!result.success) throw validationError('query', result.error.issues);
  return result.data;
}
