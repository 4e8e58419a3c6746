/**
 * `POST {endpoint}/webhooks`: the provider's webhook. Verified first (cheap); only then read as JSON
 * and handed to the inbox, which records it before any 2xx. Every delivery lands in the webhook log.
 * A test delivery (`webhook_type: "paydesk_test"`, provider/webhook-test.ts) is answered 200 after
 * verification and logged with the outcome `test`; it never reaches the inbox or any order.
 */
import type { ServerContext } from '../context.js';
import { StoreUnavailableError } from '../store-guard.js';
import { CheckoutError } from '../errors.js';
import { isJsonContentType, jsonResponse, parseJsonObject, readBodyText } from '../http.js';
import { verifyWebhookRequest } from '../webhooks.js';
import { isTestWebhook } from '../../provider/webhook-test.js';

type Seen = { id: string | null; coid: string | null; status: string | null };

/** The payload's order id, client order id and status, when it has them (before or without trusting it). */
function payloadOf(text: string): Seen {
  try {
    const p = (JSON.parse(text) as { payload?: Record<string, unknown> } | null)?.payload;
    const str = (v: unknown, max: number) => (typeof v === 'string' && v.length >= 1 && v.length <= max ? v : null);
    return p && typeof p === 'object' ? { id: str(p.id, 128), coid: str(p.client_order_id, 64), status: str(p.status, 64) } : { id: null, coid: null, status: null };
  } catch {
    return { id: null, coid: null, status: null };
  }
}

/**
 * A delivery that failed verification: counted against its address (only these are: a real one is
 * never answered 429; beyond the limit nothing is logged, a flood writes one counter; a store that
 * cannot count leaves the answer 401), logged, refused.
 */
async function refuseUnverified(ctx: ServerContext, req: Request, seen: Seen, reason: string): Promise<never> {
  const address = ctx.clientAddress(req);
  if (address) {
    await ctx.limiter.hit(ctx.opts.limits.unverifiedWebhooksPerAddress, `w:${address}`).catch((err: unknown) => {
      if (err instanceof CheckoutError && !(err instanceof StoreUnavailableError)) throw err; // 429
      ctx.log.warn('could not count a refused webhook against its address', { err });
    });
  }
  ctx.log.warn(`webhook refused: ${reason}`);
  const entry = { order_id: seen.id, client_order_id: seen.coid, status: seen.status };
  await ctx.core.inbox.log({ ...entry, verified: false, outcome: 'refused', detail: reason, http_status: 401, session_id: null });
  throw new CheckoutError(401, 'unauthorized', 'Webhook authentication failed.');
}

export async function webhooksRoute(ctx: ServerContext, req: Request): Promise<Response> {
  const { opts, core } = ctx;
  const text = await readBodyText(req, opts.maxWebhookBodyBytes);
  const auth = verifyWebhookRequest(req.headers, text, {
    mode: opts.webhookAuth,
    secrets: opts.webhookSecrets,
    ...(opts.apiKey !== undefined && { apiKey: opts.apiKey }),
    toleranceSeconds: opts.webhookToleranceSeconds,
    now: opts.now,
  });
  const seen = payloadOf(text);
  if (!auth.ok) return refuseUnverified(ctx, req, seen, auth.reason);
  const entry = { order_id: seen.id, client_order_id: seen.coid, status: seen.status, verified: true };
  if (!isJsonContentType(req.headers.get('content-type'))) {
    await core.inbox.log({ ...entry, outcome: 'refused', detail: 'not JSON', http_status: 415, session_id: null });
    throw new CheckoutError(415, 'unsupported_media_type', 'Webhooks must be JSON (Content-Type: application/json).');
  }
  if (isTestWebhook(parseJsonObject(text))) {
    // `paydesk webhooks test`: verified like any delivery above; logged as a test; no order is read or touched.
    ctx.log.info('test webhook received and verified (paydesk webhooks test); nothing was fulfilled', { request_id: seen.id });
    await core.inbox.log({ ...entry, outcome: 'test', detail: 'test delivery: verified, nothing fulfilled', http_status: 200, session_id: null });
    return jsonResponse(200, { received: true, test: true });
  }
  if (seen.id === null || seen.coid === null) {
    await core.inbox.log({ ...entry, outcome: 'refused', detail: 'no payload.id / payload.client_order_id', http_status: 400, session_id: null });
    throw new CheckoutError(400, 'bad_request', 'The webhook has no payload with an order id and client_order_id.');
  }
  let result;
  try {
    result = await core.inbox.receive(seen.id, seen.coid);
  } catch (err) {
    // Nothing could be recorded: not 2xx, so the provider delivers it again.
    if (err instanceof StoreUnavailableError) throw err; // 503 store_unavailable, logged once by the guard
    ctx.log.error('a webhook could not be recorded; answered 503 so the provider retries it', { order_id: seen.id, err });
    await core.inbox.log({ ...entry, outcome: 'failed', detail: err instanceof Error ? err.message.slice(0, 200) : 'failed', http_status: 503, session_id: null });
    throw new CheckoutError(503, 'provider_unavailable', 'The webhook could not be recorded now; deliver it again.', {
      retryable: true,
      headers: { 'retry-after': '5' },
    });
  }
  const status = result.outcome === 'recorded' ? 202 : 200;
  await core.inbox.log({ ...entry, outcome: result.outcome, detail: null, http_status: status, session_id: result.sid });
  if (result.outcome === 'ignored') return jsonResponse(200, { received: true, ignored: 'unknown order' });
  return jsonResponse(status, { received: true, ...(result.outcome === 'orphan' && { recorded: 'orphan' }) });
}
