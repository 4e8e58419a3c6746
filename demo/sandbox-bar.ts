/**
 * The storefront's sandbox bar: complete / expire / dispute the order of a session this browser
 * holds, and accept or reject its open dispute. "dispute" opens one per order: while one is open it
 * answers that one. After "accept" or "reject" the server sweeps at once (as its next sweep would).
 * A hosted form's session without an order is read again for a moment before "no order yet" is said:
 * the order may have just been made on the provider's page.
 *
 *   POST /demo/api/sandbox/{complete|expire|dispute|accept|reject} {"session", "endpoint"?}
 */
import type { Context, Hono } from 'hono';
import { setClientAddress, type CheckoutHandler } from '../src/server/index.js';
import { errorJson, remoteAddress } from './http.js';

export const SANDBOX_ACTIONS = ['complete', 'expire', 'dispute', 'accept', 'reject'] as const;
type SandboxAction = (typeof SANDBOX_ACTIONS)[number];

export interface SandboxBarOptions {
  /** The token endpoints by mount path, the default one first. */
  handlers: Record<string, CheckoutHandler>;
  defaultEndpoint: string;
  /** Sandbox URL and the terminal key behind each endpoint; null with a real provider. */
  sandbox: { url: string; keys: Record<string, string> } | null;
  merchantUrl: string;
}

/** What the bar reads of the token endpoint's answer for a session. */
type SessionRead = { order?: { id?: string; form_url?: string | null }; error?: { code: string; message: string } };
/** How long "no order yet" of a hosted form's session is read again for (past the handler's 2 s refresh interval), and how often. */
const FORM_ORDER_WAIT_MS = 2500;
const FORM_ORDER_POLL_MS = 700;

type Checked = { ok: true; session: string; endpoint: string } | { ok: false; res: Response };

async function readBody(c: Context, handlers: Record<string, CheckoutHandler>, defaultEndpoint: string): Promise<Checked> {
  let body: unknown;
  try {
    body = await c.req.json();
  } catch {
    return { ok: false, res: errorJson(c, 400, 'bad_request', `Send a JSON body {"session": "…", "endpoint": "${defaultEndpoint}"}.`) };
  }
  const { session, endpoint = defaultEndpoint } = (body ?? {}) as { session?: unknown; endpoint?: unknown };
  if (typeof session !== 'string' || session.length === 0 || session.length > 4096 || !/^[\x21-\x7e]+$/.test(session)) {
    return { ok: false, res: errorJson(c, 400, 'validation_failed', 'session: the session token of the order on screen is required.') };
  }
  // Own keys only: "__proto__", "constructor" or "toString" name no endpoint.
  if (typeof endpoint !== 'string' || !Object.hasOwn(handlers, endpoint)) {
    return { ok: false, res: errorJson(c, 400, 'validation_failed', `endpoint: one of ${Object.keys(handlers).join(', ')}.`) };
  }
  return { ok: true, session, endpoint };
}

/** The sandbox's API with one terminal's key. */
function sandboxCaller(url: string, key: string) {
  return (path: string, method = 'POST', payload: unknown = {}) =>
    fetch(`${url}${path}`, {
      method,
      headers: { 'X-API-Key': key, 'Content-Type': 'application/json' },
      ...(method === 'POST' ? { body: JSON.stringify(payload) } : {}),
    });
}

export function registerSandboxBar(app: Hono, options: SandboxBarOptions): void {
  const { handlers, sandbox, merchantUrl, defaultEndpoint } = options;
  app.post('/demo/api/sandbox/:action', async (c) => {
    if (!sandbox) return errorJson(c, 404, 'not_found', 'The sandbox controls exist only when the demo runs against the sandbox.');
    if (c.req.header('x-paydesk') !== '1') return errorJson(c, 403, 'missing_protocol_header', 'POST requests need the header X-Paydesk: 1');
    const action = c.req.param('action') as SandboxAction;
    if (!SANDBOX_ACTIONS.includes(action)) return errorJson(c, 404, 'not_found', `Unknown action; use one of ${SANDBOX_ACTIONS.join(', ')}.`);
    const input = await readBody(c, handlers, defaultEndpoint);
    if (!input.ok) return input.res;
    const { session, endpoint } = input;
    // The order behind the session, as the token endpoint knows it (re-read from the provider), asked
    // for the shopper's address: the per-address limits count it (a request without one is said in the log).
    const readSession = async () => {
      const request = new Request(`${merchantUrl}${endpoint}/sessions/${encodeURIComponent(session)}?refresh=1`);
      setClientAddress(request, remoteAddress(c));
      const read = await handlers[endpoint]!(request);
      return { read, known: (await read.json().catch(() => null)) as SessionRead | null };
    };
    let { read, known } = await readSession();
    // A hosted form's order is made on the provider's page, and the handler reads the provider at most
    // once per refresh interval (2 s) per session: a read just before the method was picked (the
    // widget's own, when the shopper comes back to the tab) holds this one back. Read again until
    // that interval has passed before answering that there is no order.
    for (const started = Date.now(); read.ok && !known?.order?.id && known?.order?.form_url && Date.now() - started < FORM_ORDER_WAIT_MS; ) {
      await new Promise((r) => setTimeout(r, FORM_ORDER_POLL_MS));
      ({ read, known } = await readSession());
    }
    if (!read.ok) {
      return errorJson(c, read.status, known?.error?.code ?? 'session_invalid', known?.error?.message ?? 'This payment session is not valid.');
    }
    const orderId = known?.order?.id;
    if (!orderId) {
      return errorJson(c, 409, 'no_order_yet', 'There is no order yet: pick a payment method on the hosted form first.', true);
    }
    const res = await act(c, action, orderId, sandboxCaller(sandbox.url, sandbox.keys[endpoint]!));
    // A decided dispute reaches the shop through the server's sweep (every minute): the bar runs one
    // now, so a seller sees its outcome at once (an expired order paid late, say), as the next sweep would.
    if ((action === 'accept' || action === 'reject') && res.ok) {
      await handlers[endpoint]!.reconcile().catch((err: unknown) => console.error('[sandbox bar] the sweep after a decided dispute failed', err));
    }
    return res;
  });
}

/** Does `action` on the order at the sandbox and answers what happened. */
async function act(c: Context, action: SandboxAction, orderId: string, call: ReturnType<typeof sandboxCaller>): Promise<Response> {
  // The order's dispute in work, if any: "dispute" opens at most one, "accept"/"reject" decide it.
  const openDispute = async (): Promise<string | null> => {
    const list = await call(`/api/v1/disputes/search?order_id=${encodeURIComponent(orderId)}&processed=false&size=1`, 'GET');
    const page = (await list.json().catch(() => null)) as { data?: { items?: Array<{ dispute_id?: unknown }> } } | null;
    const id = list.ok ? page?.data?.items?.[0]?.dispute_id : undefined;
    return typeof id === 'string' ? id : null;
  };
  let res: Response;
  let disputeId: string | null = null;
  if (action === 'dispute') {
    disputeId = await openDispute();
    if (disputeId) return c.json({ ok: true, action, order_id: orderId, dispute: { id: disputeId, status: 'open' }, already_open: true, message: 'A dispute is already open for this order.' });
    res = await call(`/sandbox/orders/${encodeURIComponent(orderId)}/dispute`);
  } else if (action === 'accept' || action === 'reject') {
    disputeId = await openDispute();
    if (!disputeId) return errorJson(c, 409, 'no_open_dispute', 'There is no open dispute for this order: open one first.');
    res = await call(`/sandbox/disputes/${encodeURIComponent(disputeId)}/process`, 'POST', { accepted: action === 'accept' });
  } else {
    res = await call(`/sandbox/orders/${encodeURIComponent(orderId)}/${action}`);
  }
  const answer = (await res.json().catch(() => null)) as { message?: string; dispute?: { dispute_id?: unknown } } | null;
  if (!res.ok) {
    return errorJson(c, res.status === 404 ? 404 : 409, 'sandbox_refused', `The sandbox refused: ${answer?.message ?? `HTTP ${res.status}`}`);
  }
  if (action === 'dispute' && typeof answer?.dispute?.dispute_id === 'string') disputeId = answer.dispute.dispute_id;
  const dispute = disputeId ? { id: disputeId, status: action === 'dispute' ? 'open' : action === 'accept' ? 'accepted' : 'rejected' } : null;
  return c.json({ ok: true, action, order_id: orderId, ...(dispute ? { dispute } : {}), message: answer?.message ?? null });
}
