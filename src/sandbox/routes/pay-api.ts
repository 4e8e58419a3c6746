/**
 * The widget protocol of the hosted form under `/pay/api` (DESIGN.md, "Widget protocol"): the
 * methods of a session, choosing one (the order is created), reading it, "I have paid", and the
 * shopper's receipt. No API key: the unguessable session id is the capability.
 */
import type { Hono } from 'hono';
import { z } from 'zod';
import { BUTTON_NAMES, CUSTOMER_BANKS, METHOD_TYPES, bankByButtonName, bankByCustomerBank } from '../../provider/facts.js';
import { DISPUTE_COMMENT_FIELD, DISPUTE_FILES_FIELD, DISPUTE_MAX_COMMENT, INTEGRATION_MODES } from '../../protocol/index.js';
import { DISPUTE_LATE_WINDOW_SECONDS, MAX_BODY_BYTES } from '../constants.js';
import { ENDED_CANCELLED } from '../orders.js';
import { methodView } from '../order-view.js';
import { UploadError, formText, readReceipts } from '../receipts.js';
import type { OrderRecord } from '../records.js';
import type { Terminal } from '../terminal.js';
import { bodyText, noteIgnored, readMultipart, type AppContext, type SandboxContext, type SandboxEnv } from './context.js';
import { ProtocolHttpError, uploadRefusal } from './pay-errors.js';
import { clientIp, type PaySessions } from './pay-session.js';

const SelectBody = z.object({
  order_ref: z.string().min(1).max(200),
  payment_method_id: z.string().min(1).max(64).nullish(),
  method_type: z.enum(METHOD_TYPES).nullish(),
  nspk_code: z.string().min(1).max(64).nullish(),
  customer_bank: z.enum(CUSTOMER_BANKS).nullish(),
  button_name: z.enum(BUTTON_NAMES).nullish(),
  mode: z.enum(INTEGRATION_MODES).optional(),
});

export function registerPayApiRoutes(app: Hono<SandboxEnv>, ctx: AppContext, pay: PaySessions): void {
  const { engine } = ctx;
  const { sessionOr, view, serverTime, requireProtocolHeader } = pay;

  // GET /methods?order_ref=S: active Buy methods whose range holds the session's amount.
  app.get('/pay/api/methods', (c) => {
    const { terminal, session } = sessionOr(c.req.query('order_ref'), 'order_not_found');
    const bank =
      (session.buttonName ? bankByButtonName(session.buttonName) : undefined) ??
      (session.customerBank && !session.selection ? bankByCustomerBank(session.customerBank) : undefined);
    const methods = terminal.catalog
      .formMethods(session.requestedAmount, bank?.nspkCode ?? null)
      .map((m) => methodView(m, session.requestedAmount))
      .filter((m) => m !== null);
    return c.json({ methods, amount: session.requestedAmount, currency: terminal.currency });
  });

  // POST /sessions: the shopper picks a method; the session's order is created (or the existing one returned).
  app.post('/pay/api/sessions', async (c) => {
    requireProtocolHeader(c);
    const text = await bodyText(c);
    if (text.length > MAX_BODY_BYTES) throw new ProtocolHttpError(413, 'payload_too_large', 'Request body is too large');
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch {
      throw new ProtocolHttpError(400, 'bad_request', 'Request body must be a JSON object');
    }
    const parsed = SelectBody.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw new ProtocolHttpError(400, 'validation_failed', `${issue.path.join('.') || 'body'}: ${issue.message}`);
    }
    const { terminal, session } = sessionOr(parsed.data.order_ref, 'order_not_found');
    engine.sessions.noteVisitor(session, clientIp(c));
    engine.sessions.select(terminal, session, parsed.data);
    return c.json({ session: session.id, order: view(c, terminal, session), server_time: serverTime() }, 201);
  });

  app.get('/pay/api/sessions/:s', (c) => {
    const { terminal, session } = sessionOr(c.req.param('s'), 'session_not_found');
    if (!session.order) throw new ProtocolHttpError(404, 'order_not_found', 'No payment method has been chosen in this session yet');
    return c.json({ order: view(c, terminal, session), server_time: serverTime() });
  });

  // Extension: the shopper says the money is sent (requisites_found → payment_confirmation).
  app.post('/pay/api/sessions/:s/confirm', (c) => {
    requireProtocolHeader(c);
    const { terminal, session } = sessionOr(c.req.param('s'), 'session_not_found');
    engine.sessions.confirm(session);
    return c.json({ order: view(c, terminal, session), server_time: serverTime(), state: session.state });
  });

  registerDisputeRoute(app, ctx, pay);
}

/**
 * A shopper may open a dispute while the order is Unpaid, or within the late window after it ended
 * expired or cancelled; never when it is paid, and once while one is open.
 */
function checkDisputable(ctx: AppContext, terminal: Terminal, order: OrderRecord): void {
  const { engine } = ctx;
  if (order.status === 'Completed' || engine.disputes.creditedLate(terminal, order)) {
    throw new ProtocolHttpError(409, 'dispute_not_allowed', 'This order is paid: there is nothing to dispute');
  }
  if (order.status !== 'Unpaid' && !ENDED_CANCELLED.has(order.status)) {
    throw new ProtocolHttpError(409, 'dispute_not_allowed', `This order is ${order.status}: it cannot be disputed here`);
  }
  if (ENDED_CANCELLED.has(order.status) && engine.now() - order.updatedMs > DISPUTE_LATE_WINDOW_SECONDS * 1000) {
    throw new ProtocolHttpError(409, 'dispute_not_allowed', `This order ended more than ${DISPUTE_LATE_WINDOW_SECONDS / 86400} days ago (the late window): a dispute can no longer be opened here`);
  }
  const latest = engine.disputes.latestOf(terminal, order);
  if (latest && !latest.processed) throw new ProtocolHttpError(409, 'dispute_open', 'A dispute for this order is already open; the provider is checking it');
}

/** Reads the receipts and the comment of a dispute upload, refusals in the protocol's codes. */
async function readDisputeForm(c: SandboxContext) {
  let form: FormData;
  let comment: string | null;
  try {
    form = await readMultipart(c);
    comment = formText(form, DISPUTE_COMMENT_FIELD)?.trim() || null;
  } catch (err) {
    throw err instanceof UploadError ? uploadRefusal(err) : err;
  }
  if (comment !== null && comment.length > DISPUTE_MAX_COMMENT) {
    throw new ProtocolHttpError(400, 'validation_failed', `${DISPUTE_COMMENT_FIELD}: at most ${DISPUTE_MAX_COMMENT} characters, got ${comment.length}`);
  }
  noteIgnored(c, [...new Set([...form.keys()].filter((k) => k !== DISPUTE_FILES_FIELD && k !== DISPUTE_COMMENT_FIELD))]);
  try {
    return { files: await readReceipts(form, [DISPUTE_FILES_FIELD]), comment };
  } catch (err) {
    throw err instanceof UploadError ? uploadRefusal(err) : err;
  }
}

// The shopper's receipt (DESIGN.md, `POST {endpoint}/sessions/S/dispute`): opens the provider's dispute.
function registerDisputeRoute(app: Hono<SandboxEnv>, ctx: AppContext, pay: PaySessions): void {
  const { engine } = ctx;
  app.post('/pay/api/sessions/:s/dispute', async (c) => {
    pay.requireProtocolHeader(c);
    const { terminal, session } = pay.sessionOr(c.req.param('s'), 'session_not_found');
    // Whether a dispute may be opened at all is decided before the receipts are read.
    const order = session.order;
    if (!order) throw new ProtocolHttpError(409, 'dispute_not_allowed', 'No payment method has been chosen in this session yet: there is nothing to dispute');
    checkDisputable(ctx, terminal, order);
    const { files, comment } = await readDisputeForm(c as SandboxContext);
    // The order may have changed while the body was read: check once more before opening.
    engine.processDue(terminal);
    checkDisputable(ctx, terminal, order);
    engine.disputes.open(terminal, order, { source: 'form', claimedAmount: order.amount, files, comment });
    return c.json({ order: pay.view(c, terminal, session), server_time: pay.serverTime() }, 201);
  });
}
