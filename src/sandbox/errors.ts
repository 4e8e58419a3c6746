/**
 * Errors of the provider API as the sandbox answers them: `{"success": false, "message": "…"}` with the
 * status of the document's tables (provider-notes.md). Thrown anywhere, turned into a response in one
 * place (the app's error handler).
 */
import type { z } from 'zod';
import { PROVIDER_MESSAGES } from '../provider/facts.js';

export type ProviderMessageKey = keyof typeof PROVIDER_MESSAGES;

export interface ValidationDetail {
  loc: (string | number)[];
  msg: string;
  type: string;
}

export class SandboxHttpError extends Error {
  readonly status: number;
  readonly detail: ValidationDetail[] | undefined;
  readonly headers: Record<string, string> | undefined;
  constructor(status: number, message: string, options: { detail?: ValidationDetail[]; headers?: Record<string, string> } = {}) {
    super(message);
    this.name = 'SandboxHttpError';
    this.status = status;
    this.detail = options.detail;
    this.headers = options.headers;
  }

  body(): { success: false; message: string; detail?: ValidationDetail[] } {
    return this.detail ? { success: false, message: this.message, detail: this.detail } : { success: false, message: this.message };
  }
}

/** Statuses of the document's error rows, keyed like {@link PROVIDER_MESSAGES}. */
const STATUS: Record<ProviderMessageKey, number> = {
  no_payment_method: 400,
  customer_account_required: 400,
  insufficient_funds: 402,
  payment_method_not_found: 404,
  amount_out_of_limits: 409,
  customer_blacklisted: 409,
  user_pending_limit: 429,
  no_traders: 500,
  form_sell_not_allowed: 400,
  button_not_enabled: 400,
  form_not_activated: 409,
  rate_limited: 429,
  unauthorized: 401,
  order_not_found: 404,
};

/** One row of the document's error tables, with its exact status and message. */
export function providerError(key: ProviderMessageKey, headers?: Record<string, string>): SandboxHttpError {
  return new SandboxHttpError(STATUS[key], PROVIDER_MESSAGES[key], headers ? { headers } : {});
}

/** 422 naming the field (the shape of a FastAPI validation error, plus the provider's `success`/`message`). */
export function validationError(where: 'body' | 'query' | 'path', issues: readonly z.core.$ZodIssue[]): SandboxHttpError {
  const detail: ValidationDetail[] = [];
  const parts: string[] = [];
  for (const issue of issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        const loc = [...issue.path.map(pathPart), key];
        detail.push({ loc: [where, ...loc], msg: 'unknown field', type: 'extra_forbidden' });
        parts.push(`${loc.join('.')}: unknown field`);
      }
      continue;
    }
    const loc = issue.path.map(pathPart);
    const field = loc.length ? loc.join('.') : where;
    detail.push({ loc: [where, ...loc], msg: issue.message, type: issue.code });
    parts.push(`${field}: ${issue.message}`);
  }
  return new SandboxHttpError(422, `Invalid request ${where}: ${parts.join('; ')}`, { detail });
}

/** 422 for one field, with a message written here. */
export function fieldError(where: 'body' | 'query' | 'path', field: string, message: string): SandboxHttpError {
  return new SandboxHttpError(422, `Invalid request ${where}: ${field}: ${message}`, {
    detail: [{ loc: [where, ...field.split('.')], msg: message, type: 'value_error' }],
  });
}

function pathPart(p: PropertyKey): string | number {
  return typeof p === 'number' ? p : String(p);
}
