/**
 * The hosted form's server-sent events (`GET /pay/api/sessions/S/events`), written by the protocol's
 * one SSE writer (src/protocol/sse.ts): event `order` with the OrderView at once and on every change
 * (a dispute's too), numbered ids, a keep-alive comment after 15 s of quiet (due expiries are applied
 * then too). It ends after paid, when the session ends without an order, or when the session is
 * reset; after expired or cancelled it stays open, for a late payment may still arrive.
 */
import type { Hono } from 'hono';
import { ORDER_EVENT } from '../../protocol/index.js';
import { createSseWriter, sseResponse } from '../../protocol/sse.js';
import { isFinalSessionState } from '../form-sessions.js';
import type { AppContext, SandboxEnv } from './context.js';
import type { PaySessions } from './pay-session.js';

/** Quiet time before a keep-alive comment (and a fresh look at due expiries). */
export const PAY_EVENTS_KEEP_ALIVE_MS = 15_000;

export function registerPayEventsRoute(app: Hono<SandboxEnv>, ctx: AppContext, pay: PaySessions): void {
  const { engine } = ctx;
  app.get('/pay/api/sessions/:s/events', (c) => {
    const { terminal, session } = pay.sessionOr(c.req.param('s'), 'session_not_found');
    let last = '';
    let n = 0;
    let queued = false;
    let unsubscribe = () => {};
    const writer = createSseWriter({
      signal: c.req.raw.signal,
      keepAliveMs: PAY_EVENTS_KEEP_ALIVE_MS,
      onKeepAlive: () => safeUpdate(),
      onClose: () => unsubscribe(),
    });
    /** Writes the OrderView when it changed; ends the stream once nothing more will be sent. */
    const update = () => {
      if (writer.closed) return;
      if (engine.sessions.find(session.id)?.session !== session) return writer.close(); // reset meanwhile
      engine.processDue(terminal);
      if (session.order) {
        const v = pay.view(c, terminal, session);
        const data = JSON.stringify(v);
        if (data !== last) {
          writer.send({ event: ORDER_EVENT, data, id: ++n });
          last = data;
        }
        if (v.status === 'paid') writer.close();
      } else if (isFinalSessionState(session.state)) {
        writer.close();
      }
    };
    /** Runs outside the request (a timer, a change): a failure ends this stream, logged, never the process. */
    const safeUpdate = () => {
      try {
        update();
      } catch (err) {
        ctx.logger.error(`event stream of session ${session.id} failed; it is closed`, err);
        writer.close();
      }
    };
    // A change is looked at once the code that made it has finished (changes of one moment: one look).
    const changed = () => {
      if (queued) return;
      queued = true;
      queueMicrotask(() => {
        queued = false;
        safeUpdate();
      });
    };
    if (!writer.closed) {
      unsubscribe = engine.sessions.subscribe(session.id, changed);
      try {
        update();
      } catch (err) {
        writer.close(); // unsubscribes; the app's error handler answers
        throw err;
      }
    }
    return sseResponse(writer);
  });
}
