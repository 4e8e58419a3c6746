/**
 * The hosted payment form at `form_url` (`GET /pay?session_id=…`) and the widget protocol it speaks
 * under `/pay/api` (DESIGN.md): no API key, the unguessable session id is the capability. Errors are
 * `{"error": {"code", "message", "retryable"}}`. One module per job: the page (pay-page.ts), the
 * protocol's requests (pay-api.ts), its event stream (pay-events.ts), its errors (pay-errors.ts).
 */
import type { Hono } from 'hono';
import type { AppContext, SandboxEnv } from './context.js';
import { registerPayApiRoutes } from './pay-api.js';
import { registerPayEventsRoute } from './pay-events.js';
import { registerPayPageRoutes } from './pay-page.js';
import { paySessions } from './pay-session.js';

export { PAGE_CSS } from './pay-page.js';
export { ProtocolHttpError, protocolErrorResponse, toProtocolError } from './pay-errors.js';

export function registerPayRoutes(app: Hono<SandboxEnv>, ctx: AppContext): void {
  const pay = paySessions(ctx);
  registerPayPageRoutes(app, ctx);
  registerPayApiRoutes(app, ctx, pay);
  registerPayEventsRoute(app, ctx, pay);
}
