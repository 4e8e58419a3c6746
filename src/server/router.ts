/**
 * The router of a started handler. Routes are matched by their trailing segments, so any mount path works:
 *
 *   GET  …/methods?order_ref=R     routes/methods.ts      POST …/sessions, GET …/sessions/S   routes/sessions.ts
 *   GET  …/sessions/S/events       routes/events.ts       POST …/sessions/S/dispute           routes/dispute.ts
 *   POST …/webhooks                routes/webhooks.ts
 *
 * Order of checks for browser routes: origin → preflight → per-address rate limit → the route's own
 * checks (X-Paydesk header, JSON content type, body size, body shape; token signature before any
 * store or provider work). Every failure is a `{"error": {"code", "message", "retryable"}}` answer.
 */
import type { ServerContext } from './context.js';
import { CheckoutError, internalError } from './errors.js';
import { corsHeaders, errorResponse, preflightHeaders } from './http.js';
import type { OriginDecision } from './http.js';
import { disputeRoute } from './routes/dispute.js';
import { eventsRoute } from './routes/events.js';
import { methodsRoute } from './routes/methods.js';
import { createRoute, sessionRoute } from './routes/sessions.js';
import { webhooksRoute } from './routes/webhooks.js';
import { inWebhook } from './telemetry.js';

export type Route =
  | { kind: 'methods' }
  | { kind: 'create' }
  | { kind: 'session'; token: string }
  | { kind: 'events'; token: string }
  | { kind: 'dispute'; token: string }
  | { kind: 'webhooks' };

/** Matches the trailing segments of a path. */
export function matchRoute(pathname: string): Route | null {
  const segs = pathname.split('/').filter((s) => s.length > 0);
  const n = segs.length;
  const last = segs[n - 1];
  if (n >= 3 && segs[n - 3] === 'sessions' && last === 'events') return { kind: 'events', token: segs[n - 2]! };
  if (n >= 3 && segs[n - 3] === 'sessions' && last === 'dispute') return { kind: 'dispute', token: segs[n - 2]! };
  if (n >= 2 && segs[n - 2] === 'sessions') return { kind: 'session', token: last! };
  if (last === 'sessions') return { kind: 'create' };
  if (last === 'methods') return { kind: 'methods' };
  if (last === 'webhooks') return { kind: 'webhooks' };
  return null;
}

/** The method each route takes. */
const METHODS: Record<Route['kind'], string> = {
  methods: 'GET',
  create: 'POST',
  session: 'GET',
  events: 'GET',
  dispute: 'POST',
  webhooks: 'POST',
};

/** Answers one request: every failure becomes an error answer (CORS headers on browser routes). */
export async function handleRequest(ctx: ServerContext, req: Request): Promise<Response> {
  let origin: OriginDecision | null = null;
  try {
    let url: URL;
    try {
      url = new URL(req.url);
    } catch {
      throw new CheckoutError(400, 'bad_request', 'The request URL is invalid.');
    }
    const r = matchRoute(url.pathname);
    if (!r) throw new CheckoutError(404, 'not_found', 'No such endpoint.');
    const method = req.method.toUpperCase();
    if (r.kind === 'webhooks') {
      if (method !== METHODS[r.kind]) throw methodNotAllowed(METHODS[r.kind]);
      return await inWebhook(() => webhooksRoute(ctx, req));
    }
    const decided = ctx.opts.origins.decide(req, url);
    if (decided.kind === 'forbidden') throw new CheckoutError(403, 'forbidden_origin', 'This origin may not use this payment endpoint.');
    if (method === 'OPTIONS') return new Response(null, { status: 204, headers: preflightHeaders(decided) });
    origin = decided;
    return await browserRoute(ctx, req, url, r, method, corsHeaders(decided));
  } catch (err) {
    const cors = origin ? corsHeaders(origin) : {};
    if (err instanceof CheckoutError) return errorResponse(err, cors);
    ctx.log.error('unexpected failure', { err });
    return errorResponse(internalError(err), cors);
  }
}

async function browserRoute(
  ctx: ServerContext,
  req: Request,
  url: URL,
  r: Exclude<Route, { kind: 'webhooks' }>,
  method: string,
  cors: Record<string, string>,
): Promise<Response> {
  const address = ctx.clientAddress(req);
  if (address) await ctx.limiter.hit(ctx.opts.limits.perAddress, `a:${address}`);
  if (method !== METHODS[r.kind]) throw methodNotAllowed(METHODS[r.kind]);
  switch (r.kind) {
    case 'methods':
      return methodsRoute(ctx, req, url, cors);
    case 'create':
      return createRoute(ctx, req, cors, address);
    case 'session':
      return sessionRoute(ctx, r.token, url, cors);
    case 'events':
      return eventsRoute(ctx, req, r.token, cors);
    case 'dispute':
      return disputeRoute(ctx, req, r.token, cors);
  }
}

function methodNotAllowed(allow: string): CheckoutError {
  return new CheckoutError(405, 'method_not_allowed', `Use ${allow} here.`, { headers: { allow } });
}
