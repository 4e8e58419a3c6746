/**
 * Errors of the hosted form's widget protocol under `/pay/api`: `{"error": {"code", "message",
 * "retryable"}}` (built by src/protocol/errors.ts), codes from PROTOCOL_ERROR_CODES only. Messages
 * are for developers; the element shows the shopper its own sentence for the code.
 */
import type { Context } from 'hono';
import { PROVIDER_MESSAGES } from '../../provider/facts.js';
import { isProtocolErrorCode, type ProtocolErrorBody, type ProtocolErrorCode } from '../../protocol/index.js';
import { protocolErrorBody } from '../../protocol/errors.js';
import { SandboxHttpError } from '../errors.js';
import type { UploadError } from '../receipts.js';

/** An error of the hosted form's widget protocol; its code is one of PROTOCOL_ERROR_CODES. */
export class ProtocolHttpError extends Error {
  readonly status: number;
  readonly code: ProtocolErrorCode;
  readonly retryable: boolean;
  constructor(status: number, code: ProtocolErrorCode, message: string, retryable = false) {
    super(message);
    this.name = 'ProtocolHttpError';
    this.status = status;
    this.code = code;
    this.retryable = retryable;
  }
  body(): ProtocolErrorBody {
    return protocolErrorBody(this.code, this.message, this.retryable);
  }
}

const CODE_BY_MESSAGE = new Map<string, string>(Object.entries(PROVIDER_MESSAGES).map(([key, text]) => [text, key]));

/** A provider-style error as the widget protocol writes it (codes from PROTOCOL_ERROR_CODES only). */
export function toProtocolError(err: SandboxHttpError): ProtocolHttpError {
  const key = CODE_BY_MESSAGE.get(err.message);
  if (key === 'no_traders') return new ProtocolHttpError(503, 'no_traders', err.message, true);
  if (key === 'user_pending_limit' || key === 'rate_limited') return new ProtocolHttpError(429, 'rate_limited', err.message, true);
  if (key && isProtocolErrorCode(key)) return new ProtocolHttpError(err.status, key, err.message, false);
  const code: ProtocolErrorCode =
    err.status === 422
      ? 'validation_failed'
      : err.status === 404
        ? 'not_found'
        : err.status === 409
          ? 'session_expired'
          : err.status === 413
            ? 'payload_too_large'
            : err.status === 401
              ? 'unauthorized'
              : 'bad_request';
  return new ProtocolHttpError(err.status === 422 ? 400 : err.status, code, err.message, false);
}

/** An upload refused, in the widget protocol's codes. */
export function uploadRefusal(err: UploadError): ProtocolHttpError {
  switch (err.problem) {
    case 'file_too_large':
    case 'total_too_large':
      return new ProtocolHttpError(413, 'payload_too_large', err.message);
    case 'unsupported_file':
      return new ProtocolHttpError(415, 'unsupported_file', err.message);
    case 'not_multipart':
      return new ProtocolHttpError(415, 'unsupported_media_type', err.message);
    default:
      return new ProtocolHttpError(400, 'validation_failed', err.message);
  }
}

/** True for a path of the widget protocol (its errors are protocol error bodies). */
export const isProtocolPath = (path: string) => path.startsWith('/pay/api');

/** Converts errors on `/pay/api` routes to the widget protocol's error body. */
export function protocolErrorResponse(c: Context, err: unknown): Response | null {
  if (!isProtocolPath(c.req.path)) return null;
  const e = err instanceof ProtocolHttpError ? err : err instanceof SandboxHttpError ? toProtocolError(err) : null;
  if (!e) return null;
  return c.json(e.body(), e.status as 400);
}
