/** `GET {endpoint}/sessions/S/events`: the session's server-sent events (resumed with Last-Event-ID). */
import type { ServerContext } from '../context.js';
import { CheckoutError } from '../errors.js';
import { parseLastEventId } from '../sse.js';

export async function eventsRoute(ctx: ServerContext, req: Request, token: string, cors: Record<string, string>): Promise<Response> {
  const sid = await ctx.authorize(token);
  await ctx.limiter.hit(ctx.opts.limits.perSession, `s:${sid}`);
  const rec = await ctx.core.repo.get(sid);
  if (!rec) throw new CheckoutError(404, 'session_not_found', 'No session is stored for this token (pruned after its retention, or another store).');
  const lastEventId = parseLastEventId(req.headers.get('last-event-id'));
  return ctx.streams.stream(req, sid, lastEventId, cors);
}
