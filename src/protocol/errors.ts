/**
 * The one builder of the widget protocol's error body, `{"error": {"code", "message", "retryable"}}`
 * (DESIGN.md, "Widget protocol"), used by `paydesk/server` and by the sandbox's hosted form.
 *
 * `message` is for developers (logs, the element's `paydesk-error` event): the element never shows
 * it to a shopper, who reads the element's own sentence for `code` (src/element/i18n). Write it in
 * plain English, saying what happened and, where it helps, what the integrator can do.
 */
import type { ProtocolErrorBody, ProtocolErrorCode } from './index.js';

export function protocolErrorBody(code: ProtocolErrorCode, message: string, retryable = false): ProtocolErrorBody {
  return { error: { code, message, retryable } };
}
