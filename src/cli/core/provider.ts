/**
 * The provider a command talks to: its URL and key from `--provider-url` / `--api-key` or
 * PAYDESK_PROVIDER_URL / PAYDESK_API_KEY, the typed client over them, the sandbox's scenario
 * controls (`/sandbox/…`, same key), and provider errors turned into one line that says what to do.
 */
import { createProviderClient, isProviderError, type ProviderClient } from '../../provider/index.js';
import { Failure, UsageError, optionOrEnv, type Io } from './io.js';
import type { Input } from './spec.js';

export interface ProviderTarget {
  baseUrl: string;
  apiKey: string;
}

/** The provider's URL and key; a missing or malformed one is bad usage (exit 2). */
export function providerTarget(input: Input, io: Io): ProviderTarget {
  const url = optionOrEnv(input.options, 'provider-url', io, 'PAYDESK_PROVIDER_URL');
  const apiKey = optionOrEnv(input.options, 'api-key', io, 'PAYDESK_API_KEY');
  if (!url) throw new UsageError('no provider URL: set PAYDESK_PROVIDER_URL or pass --provider-url (the sandbox: http://127.0.0.1:4010)');
  if (!apiKey) throw new UsageError("no API key: set PAYDESK_API_KEY or pass --api-key (the terminal's key)");
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new UsageError(`the provider URL ${JSON.stringify(url)} is not a URL; give one like http://127.0.0.1:4010`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new UsageError(`the provider URL must be http(s), not ${parsed.protocol}`);
  return { baseUrl: url.replace(/\/+$/, ''), apiKey };
}

/** The typed client: one retry for reads (a person is waiting), 10 s per attempt. */
export function clientOf(target: ProviderTarget, io: Io): ProviderClient {
  return createProviderClient({ baseUrl: target.baseUrl, apiKey: target.apiKey, fetch: io.fetch, maxRetries: 1, timeoutMs: 10_000 });
}

/** A provider call's failure as one line (exit 1). */
export function providerFailure(err: unknown, target: ProviderTarget): Failure {
  if (!isProviderError(err)) return new Failure(err instanceof Error ? err.message : String(err));
  const at = target.baseUrl;
  switch (err.code) {
    case 'unauthorized':
      return new Failure(`the provider at ${at} refused the API key (HTTP ${err.status ?? 401}); check PAYDESK_API_KEY or --api-key`);
    case 'network':
    case 'timeout':
      return new Failure(`cannot reach the provider at ${at} (${err.message}); check PAYDESK_PROVIDER_URL and that it is running`);
    case 'order_not_found':
      return new Failure(`the provider has no order with that id on this terminal (${err.message})`);
    case 'invalid_request':
      return new Failure(`${err.message}${err.field ? ` (${err.field})` : ''}`);
    default:
      return new Failure(`the provider answered ${err.status ?? ''} ${err.code}: ${err.providerMessage ?? err.message}`.replace(/\s+/g, ' '));
  }
}

/** Runs a provider call; its error becomes a Failure of one line. */
export async function viaProvider<T>(target: ProviderTarget, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    throw providerFailure(err, target);
  }
}

export interface SandboxAnswer {
  status: number;
  body: Record<string, unknown> | null;
}

/** The sandbox's scenario controls with the terminal's key. */
export function sandboxCaller(target: ProviderTarget, io: Io) {
  return async (method: 'GET' | 'POST', path: string, payload?: unknown): Promise<SandboxAnswer> => {
    let res: Response;
    try {
      res = await io.fetch(`${target.baseUrl}${path}`, {
        method,
        headers: { 'X-API-Key': target.apiKey, ...(method === 'POST' ? { 'Content-Type': 'application/json' } : {}) },
        ...(method === 'POST' ? { body: JSON.stringify(payload ?? {}) } : {}),
        signal: AbortSignal.timeout(10_000),
      });
    } catch (err) {
      throw new Failure(`cannot reach ${target.baseUrl} (${err instanceof Error ? err.message : String(err)}); is the sandbox running? (npx paydesk sandbox)`);
    }
    const body = (await res.json().catch(() => null)) as Record<string, unknown> | null;
    return { status: res.status, body: body && typeof body === 'object' ? body : null };
  };
}

export type SandboxCall = ReturnType<typeof sandboxCaller>;

/**
 * Checks that the provider is the paydesk sandbox (its `GET /sandbox/terminal` answers for this key):
 * the scenario controls exist nowhere else. Exit 1 otherwise, saying so.
 */
export async function requireSandbox(call: SandboxCall, target: ProviderTarget): Promise<void> {
  const answer = await call('GET', '/sandbox/terminal');
  if (answer.status === 401) throw new Failure(`the sandbox at ${target.baseUrl} refused the API key; check PAYDESK_API_KEY or --api-key`);
  if (answer.status !== 200 || !answer.body || typeof answer.body.terminal !== 'object') {
    throw new Failure(`${target.baseUrl} is not the paydesk sandbox (no /sandbox controls there); this command needs the sandbox: npx paydesk sandbox`);
  }
}

/** The message of a sandbox answer that is not 2xx. */
export function sandboxRefusal(what: string, answer: SandboxAnswer): Failure {
  const message = typeof answer.body?.message === 'string' ? answer.body.message : `HTTP ${answer.status}`;
  return new Failure(`${what}: the sandbox refused (${answer.status}): ${message}`);
}
