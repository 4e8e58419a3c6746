/** `POST {endpoint}/sessions/S/dispute`: the shopper's receipt (multipart), opened as a dispute at the provider. */
import type { ServerContext } from '../context.js';
import { CheckoutError } from '../errors.js';
import { jsonResponse } from '../http.js';
import { checkReceiptRequest, claimReceiptUpload, readReceipts } from '../receipts.js';
import { requireProtocolHeader } from './body.js';

/**
 * A receipt upload. Its body is read only once it can be taken: the headers (type, declared size),
 * the token, the stored session (an order that is paid, ended too long ago or has a receipt being
 * checked is refused) and this session's one upload slot are all checked first, so refused uploads
 * cost no memory however large they are.
 */
export async function disputeRoute(ctx: ServerContext, req: Request, token: string, cors: Record<string, string>): Promise<Response> {
  requireProtocolHeader(req);
  checkReceiptRequest(req);
  const sid = await ctx.authorize(token);
  await ctx.limiter.hit(ctx.opts.limits.disputePerSession, `d:${sid}`);
  const rec = await ctx.core.repo.get(sid);
  if (!rec) throw new CheckoutError(404, 'session_not_found', 'This payment session was not found.');
  const refused = ctx.core.disputes.refusal(rec);
  if (refused) throw refused;
  const release = await claimReceiptUpload(ctx.store, sid);
  try {
    const { files, comment } = await readReceipts(req);
    const after = await ctx.core.disputes.open(sid, files, comment);
    return jsonResponse(201, { order: after.view, server_time: ctx.serverTime() }, cors);
  } finally {
    await release();
  }
}
