/**
 * What the hosted form's routes share: a session by its id (the unguessable id is the capability),
 * its OrderView, the server time, the protocol header check and the visitor's address.
 */
import type { Context } from 'hono';
import { getConnInfo } from '@hono/node-server/conninfo';
import { PROTOCOL_HEADER, type OrderView } from '../../protocol/index.js';
import { formUrl } from '../form-sessions.js';
import { isoMillis } from '../format.js';
import { orderView } from '../order-view.js';
import type { SessionRecord } from '../records.js';
import type { Terminal } from '../terminal.js';
import type { AppContext } from './context.js';
import { ProtocolHttpError } from './pay-errors.js';

export interface PaySessions {
  /** The session of an id (unknown: `session_not_found`; `order_not_found` where the id came as `order_ref`). Due expiries are applied first. */
  sessionOr(id: string | undefined, code: 'session_not_found' | 'order_not_found'): { terminal: Terminal; session: SessionRecord };
  /** The OrderView of a session that has an order. */
  view(c: Context, terminal: Terminal, s: SessionRecord): OrderView;
  serverTime(): string;
  /** Every POST needs `X-Paydesk: 1` (a cross-site form cannot set it). */
  requireProtocolHeader(c: Context): void;
}

export function paySessions(ctx: AppContext): PaySessions {
  const { engine } = ctx;
  return {
    sessionOr(id, code) {
      const found = id ? engine.sessions.find(id) : undefined;
      if (!found) throw new ProtocolHttpError(404, code, 'Unknown payment session');
      engine.processDue(found.terminal);
      return found;
    },
    view(c, terminal, s) {
      const order = s.order!;
      return orderView(order, {
        session: s,
        formUrl: terminal.settings.integrationType === 'order_with_form' ? null : formUrl(ctx.baseUrl(c.req.url), s.id),
        dispute: engine.disputes.latestOf(terminal, order),
        creditedLate: engine.disputes.creditedLate(terminal, order),
      });
    },
    serverTime: () => isoMillis(engine.now()),
    requireProtocolHeader(c) {
      if (c.req.header(PROTOCOL_HEADER) !== '1') {
        throw new ProtocolHttpError(403, 'missing_protocol_header', `Every POST needs the header ${PROTOCOL_HEADER}: 1`);
      }
    },
  };
}

/** The visitor's address (null for in-process requests, which have no socket). */
export function clientIp(c: Context): string | null {
  try {
    return getConnInfo(c).remote.address ?? null;
  } catch {
    return null;
  }
}
