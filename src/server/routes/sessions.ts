/**
 * `POST {endpoint}/sessions` (a new payment session) and `GET {endpoint}/sessions/S` (its order), and
 * {@link createSession}: the one implementation of a create, shared by the route and by
 * `handler.createSession(input, request)` (a server-rendered checkout page).
 */
import { z } from 'zod';
import { BUTTON_NAMES, CUSTOMER_BANKS } from '../../provider/facts.js';
import { INTEGRATION_MODES } from '../../protocol/index.js';
import type { IntegrationMode, OrderView } from '../../protocol/index.js';
import type { CreateSessionInput } from '../checkout/index.js';
import type { ServerContext } from '../context.js';
import { CheckoutError } from '../errors.js';
import { isJsonContentType, jsonResponse, jsonTextResponse, parseJsonObject, readBodyText } from '../http.js';
import { ORDER_REF, requireProtocolHeader, validationError } from './body.js';

const optional = <T extends z.ZodType>(schema: T) => schema.nullish().transform((v) => v ?? undefined);

const CreateBody = z.object({
  order_ref: ORDER_REF,
  payment_method_id: optional(z.string({ error: 'must be a string' }).min(1, 'must not be empty').max(64, 'must be at most 64 characters')),
  method_type: optional(z.string({ error: 'must be a string' }).regex(/^[A-Za-z][A-Za-z0-9_]{0,31}$/, 'must be a method type such as "SBP"')),
  nspk_code: optional(z.string({ error: 'must be a string' }).regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be a bank code such as "bank100000000111"')),
  customer_bank: optional(z.enum(CUSTOMER_BANKS, { error: `must be one of ${CUSTOMER_BANKS.join(', ')}` })),
  button_name: optional(z.enum(BUTTON_NAMES, { error: `must be one of ${BUTTON_NAMES.join(', ')}` })),
  mode: optional(z.enum(INTEGRATION_MODES as [IntegrationMode, ...IntegrationMode[]], { error: `must be one of ${INTEGRATION_MODES.join(', ')}` })),
});

const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;

/** What `POST /sessions` answers (201), and what `handler.createSession` resolves with. */
export interface CreatedSessionAnswer {
  session: string;
  order: OrderView;
  server_time: string;
}

/** The request's Idempotency-Key header (null without one); a malformed one is a 400. */
export function idempotencyKeyOf(request: Request): string | null {
  const key = request.headers.get('idempotency-key');
  if (key !== null && !IDEMPOTENCY_KEY.test(key)) {
    throw new CheckoutError(400, 'validation_failed', 'Idempotency-Key must be 1 to 255 visible ASCII characters.');
  }
  return key;
}

/**
 * Creates a session from a `POST /sessions` body (`body`: any JSON value, checked here): the body's
 * shape and mode, then resolveOrder (with `request`), the method and the order at the provider, once
 * per `key` (an Idempotency-Key) or per pending order of the merchant's client_order_id.
 */
export async function createSession(
  ctx: ServerContext,
  body: unknown,
  request: Request,
  key: string | null,
  purchase?: string,
): Promise<{ answer: CreatedSessionAnswer; replayed: boolean }> {
  // Only the known fields are read: an amount (or anything else) in the body is ignored, never forwarded.
  const parsed = CreateBody.safeParse(body);
  if (!parsed.success) throw validationError(parsed.error);
  const b = parsed.data;
  const mode = b.mode ?? ctx.opts.mode;
  if (!ctx.opts.modes.has(mode)) {
    throw new CheckoutError(400, 'validation_failed', `mode ${mode} is not enabled here; use one of ${[...ctx.opts.modes].join(', ')}.`);
  }
  const input: CreateSessionInput = {
    order_ref: b.order_ref,
    mode,
    payment_method_id: b.payment_method_id,
    method_type: b.method_type,
    nspk_code: b.nspk_code,
    customer_bank: b.customer_bank,
    button_name: b.button_name,
    ...(purchase !== undefined && { purchase }),
  };
  const created = await ctx.core.createSession(input, request, key);
  return { answer: { session: created.token, order: created.record.view, server_time: ctx.serverTime() }, replayed: created.replayed };
}

export async function createRoute(ctx: ServerContext, req: Request, cors: Record<string, string>, address: string | undefined): Promise<Response> {
  requireProtocolHeader(req);
  if (!isJsonContentType(req.headers.get('content-type'))) {
    throw new CheckoutError(415, 'unsupported_media_type', 'Send the body as JSON (Content-Type: application/json).');
  }
  if (address) await ctx.limiter.hit(ctx.opts.limits.createPerAddress, `c:${address}`);
  const key = idempotencyKeyOf(req);
  const body = parseJsonObject(await readBodyText(req, ctx.opts.maxBodyBytes));
  const { answer, replayed } = await createSession(ctx, body, req, key);
  return jsonResponse(201, answer, { ...cors, ...(replayed && { 'idempotent-replayed': 'true' }) });
}

export async function sessionRoute(ctx: ServerContext, token: string, url: URL, cors: Record<string, string>): Promise<Response> {
  const sid = await ctx.authorize(token);
  const { limits } = ctx.opts;
  await ctx.limiter.hit(limits.perSession, `s:${sid}`);
  const refresh = url.searchParams.get('refresh');
  const force = refresh === '1' || refresh === 'true';
  if (force) await ctx.limiter.hit(limits.refreshPerSession, `r:${sid}`);
  const { viewJson } = await ctx.core.status.read(sid, force);
  // The view's JSON is cached with the record; only the time is new.
  return jsonTextResponse(200, `{"order":${viewJson},"server_time":"${ctx.serverTime()}"}`, cors);
}
