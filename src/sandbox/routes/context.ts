/** What the route modules share: the engine, the clock, options, and request helpers. */
import type { Context } from 'hono';
import type { z } from 'zod';
import type { SandboxEngine } from '../engine.js';
import type { SandboxClock } from '../clock.js';
import type { SandboxLogger } from '../logger.js';
import type { Terminal } from '../terminal.js';
import type { SeedOrdersOptions } from '../seed.js';
import { SandboxHttpError, validationError } from '../errors.js';

export type SandboxEnv = { Variables: { terminal: Terminal } };
export type SandboxContext = Context<SandboxEnv>;

export interface AppContext {
  engine: SandboxEngine;
  clock: SandboxClock;
  logger: SandboxLogger;
  logRequests: boolean;
  /** Base of `form_url`: the public URL, else the listening URL, else the request's origin. */
  baseUrl(requestUrl: string): string;
  widgetScript: (() => Promise<string | null>) | undefined;
  /** Seeds a terminal again after a reset. */
  reseed(terminal: Terminal): void;
  seedOrders(terminal: Terminal, count: number, options?: SeedOrdersOptions): number;
}

/** Reads the body as a JSON object; malformed, empty or non-object bodies are a clear 422. */
export async function readJsonObject(c: Context, options: { optional?: boolean } = {}): Promise<Record<string, unknown>> {
  const where = 'body';
  const text = await c.req.text();
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

export function parseBody<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const result = schema.safeParse(value);
  if (!result.success) throw validationError('body', result.error.issues);
  return result.data;
}

/**
 * The query as an object for a query schema: a parameter given once is a string, several times an
 * array. Parameters the endpoint does not know are ignored (as the provider's framework does).
 */
export function parseQuery<S extends z.ZodObject>(c: Context, schema: S): z.output<S> {
  const params = new URL(c.req.url).searchParams;
  const known = new Set(Object.keys(schema.shape));
  const out: Record<string, string | string[]> = {};
  for (const key of new Set(params.keys())) {
    if (!known.has(key)) continue;
    const values = params.getAll(key);
    out[key] = values.length === 1 ? values[0]! : values;
  }
  const result = schema.safeParse(out);
  if (!result.success) throw validationError('query', result.error.issues);
  return result.data;
}
