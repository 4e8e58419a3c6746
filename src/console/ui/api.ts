/**
 * The console page's calls to its server (`{basePath}/api`, src/console/api.ts): same-origin with the
 * login cookie; every POST carries the protocol header (the server refuses a POST without it).
 */
import type { ConsoleErrorBody } from '../contract.js';
import { CONSOLE_API_PATH } from './url.js';
import { PROTOCOL_HEADER } from '../../protocol/index.js';

type ErrorInfo = ConsoleErrorBody['error'];

export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly retryable: boolean;
  readonly field: string | undefined;
  readonly details: NonNullable<ErrorInfo['details']>;
  constructor(status: number, error: Partial<ErrorInfo>) {
    super(typeof error.message === 'string' ? error.message : `HTTP ${status}`);
    this.name = 'ApiError';
    this.status = status;
    this.code = typeof error.code === 'string' ? error.code : status === 0 ? 'network' : 'internal_error';
    this.retryable = error.retryable === true;
    this.field = typeof error.field === 'string' ? error.field : undefined;
    this.details = error.details && typeof error.details === 'object' ? error.details : {};
  }
}

export const isUnauthorized = (err: unknown) => err instanceof ApiError && err.status === 401;

/** GET (default) or POST a JSON body; resolves with the JSON answer (null for 204), rejects with an {@link ApiError}. */
export async function api<T>(path: string, init: { method?: 'GET' | 'POST'; body?: unknown; signal?: AbortSignal; headers?: Record<string, string> } = {}): Promise<T> {
  const post = init.method === 'POST';
  let res: Response;
  try {
    res = await fetch(`${CONSOLE_API_PATH}${path}`, {
      method: init.method ?? 'GET',
      headers: { accept: 'application/json', ...(post ? { 'content-type': 'application/json', [PROTOCOL_HEADER]: '1' } : {}), ...init.headers },
      credentials: 'same-origin',
      ...(post ? { body: JSON.stringify(init.body ?? {}) } : {}),
      ...(init.signal ? { signal: init.signal } : {}),
    });
  } catch (err) {
    if (init.signal?.aborted) throw err;
    throw new ApiError(0, { code: 'network', message: err instanceof Error ? err.message : String(err) });
  }
  if (res.status === 204) return null as T;
  const body = (await res.json().catch(() => null)) as unknown;
  if (!res.ok) throw new ApiError(res.status, ((body as Partial<ConsoleErrorBody> | null)?.error ?? {}) as Partial<ErrorInfo>);
  return body as T;
}
