/**
 * The provider client's options: checked once when the client is made (a bad option throws
 * `invalid_request` naming it), with their defaults, and each request's own options over them.
 */
import { ProviderError } from './errors.js';
import type { ProviderClientOptions, ProviderTransport, RequestOptions } from './types.js';

export const DEFAULT_TIMEOUT_MS = 15_000;
export const DEFAULT_MAX_RETRIES = 2;
/** After a lost create answer the client looks the record up for this long by default. */
export const DEFAULT_LOOKUP_WINDOW_MS = 10_000;
/** The longest lookup window a client or a request may ask for (10 minutes). */
const MAX_LOOKUP_WINDOW_MS = 10 * 60 * 1000;

/** The settings of one request: its own options over the client's. */
export interface Resolved {
  signal: AbortSignal | undefined;
  timeoutMs: number;
  maxRetries: number;
  lookupWindowMs: number;
}

/** A client's checked options, without the key (which only the transport's closure holds). */
export interface ClientSettings {
  /** The base URL without a trailing `/`. */
  baseUrl: string;
  defaults: Omit<Resolved, 'signal'>;
  fetch: typeof fetch;
  transport: ProviderTransport | undefined;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  random: () => number;
  now: () => number;
  integrationType: ProviderClientOptions['integrationType'];
}

/** Checks a client's options (in this order: baseUrl, apiKey, the numbers, transport) and fills in the defaults. */
export function resolveClientOptions(options: ProviderClientOptions): { settings: ClientSettings; apiKey: string } {
  const baseUrl = checkBaseUrl(options?.baseUrl);
  const apiKey = options.apiKey;
  if (typeof apiKey !== 'string' || apiKey.trim() === '') {
    throw invalidOption('apiKey', 'apiKey must be a non-empty string');
  }
  const defaults = {
    timeoutMs: checkTimeout(options.timeoutMs ?? DEFAULT_TIMEOUT_MS, 'timeoutMs'),
    maxRetries: checkRetries(options.maxRetries ?? DEFAULT_MAX_RETRIES, 'maxRetries'),
    lookupWindowMs: checkWindow(options.lookupWindowMs ?? DEFAULT_LOOKUP_WINDOW_MS, 'lookupWindowMs'),
  };
  const transport = options.transport;
  if (transport !== undefined && typeof transport !== 'function') throw invalidOption('transport', 'transport must be a function');
  const settings: ClientSettings = {
    baseUrl,
    defaults,
    fetch: options.fetch ?? ((input, init) => globalThis.fetch(input, init)),
    transport,
    sleep: options.sleep ?? defaultSleep,
    random: options.random ?? Math.random,
    now: options.now ?? Date.now,
    integrationType: options.integrationType,
  };
  return { settings, apiKey };
}

/** One request's settings: its options (checked like the client's) over the client's defaults. */
export function resolveRequest(defaults: ClientSettings['defaults'], opts: RequestOptions | undefined): Resolved {
  return {
    signal: opts?.signal,
    timeoutMs: opts?.timeoutMs === undefined ? defaults.timeoutMs : checkTimeout(opts.timeoutMs, 'timeoutMs'),
    maxRetries: opts?.maxRetries === undefined ? defaults.maxRetries : checkRetries(opts.maxRetries, 'maxRetries'),
    lookupWindowMs: opts?.lookupWindowMs === undefined ? defaults.lookupWindowMs : checkWindow(opts.lookupWindowMs, 'lookupWindowMs'),
  };
}

function invalidOption(field: string, message: string): ProviderError {
  return new ProviderError({ code: 'invalid_request', message: `createProviderClient: ${message}`, field });
}

function checkBaseUrl(value: unknown): string {
  if (typeof value !== 'string') throw invalidOption('baseUrl', 'baseUrl must be an http(s) URL');
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw invalidOption('baseUrl', 'baseUrl must be an http(s) URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw invalidOption('baseUrl', 'baseUrl must be an http(s) URL');
  if (url.search || url.hash) throw invalidOption('baseUrl', 'baseUrl must not carry a query or fragment');
  return url.href.replace(/\/+$/, '');
}

function checkTimeout(value: unknown, field: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
    throw invalidOption(field, `${field} must be a positive number of milliseconds`);
  }
  return value;
}

function checkWindow(value: unknown, field: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > MAX_LOOKUP_WINDOW_MS) {
    throw invalidOption(field, `${field} must be a number of milliseconds from 0 to ${MAX_LOOKUP_WINDOW_MS}`);
  }
  return value;
}

function checkRetries(value: unknown, field: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
    throw invalidOption(field, `${field} must be a whole number ≥ 0`);
  }
  return value;
}

/** setTimeout-based sleep that ends early (rejecting) when the signal aborts. */
function defaultSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
