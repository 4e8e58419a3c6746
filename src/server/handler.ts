/**
 * `createCheckoutHandler(options)`: the merchant's token endpoint as a Web-standard fetch handler.
 *
 * Routes (matched by their trailing segments, so any mount path works):
 *   GET  …/methods?order_ref=R     POST …/sessions      GET …/sessions/S
 *   GET  …/sessions/S/events       POST …/sessions/S/dispute (multipart receipts)
 *   POST …/webhooks
 *
 * Order of checks for browser routes: origin → preflight → per-address rate limit → the route's own
 * checks (X-Paydesk header, JSON content type, body size, body shape; token signature before any
 * store or provider work). Every failure is a `{"error": {"code", "message", "retryable"}}` answer.
 */
import { z } from 'zod';
import { BUTTON_NAMES, CUSTOMER_BANKS } from '../provider/facts.js';
import { createProviderClient } from '../provider/client.js';
import { isHttpUrl } from '../provider/schemas.js';
import type { ProviderClient } from '../provider/types.js';
import { INTEGRATION_MODES, PROTOCOL_HEADER } from '../protocol/index.js';
import type { IntegrationMode, MethodsResponse } from '../protocol/index.js';
import { Checkout } from './checkout/index.js';
import type { CreateSessionInput, ReconcileReport, SessionDetail, SessionSummary, WebhookLogEntry, WebhookLogQuery } from './checkout/index.js';
import { CheckoutError, internalError } from './errors.js';
import {
  JSON_HEADERS,
  corsHeaders,
  errorResponse,
  forwardedFor,
  getRecordedClientAddress,
  isJsonContentType,
  jsonResponse,
  jsonTextResponse,
  OriginPolicy,
  parseJsonObject,
  preflightHeaders,
  readBodyText,
} from './http.js';
import type { OriginDecision } from './http.js';
import { createSafeLogger } from './log.js';
import type { CheckoutHandlerOptions } from './options.js';
import { RateLimiter, resolveRateLimits } from './rate-limit.js';
import { EventStreams, parseLastEventId } from './sse.js';
import { checkReceiptRequest, claimReceiptUpload, readReceipts } from './receipts.js';
import { tokenUsableUntil } from './sessions.js';
import { MemoryStore } from './store.js';
import type { CheckoutStore } from './store.js';
import { SessionTokens } from './tokens.js';
import { createNodeTransport } from './transport.js';
import type { NodeTransport } from './transport.js';
import { verifyWebhookRequest } from './webhooks.js';
import { inWebhook, startTelemetry } from './telemetry.js';
import type { WebhookAuthMode } from './webhooks.js';

export interface CheckoutHandler {
  (request: Request): Promise<Response>;
  /** The store in use (the in-memory default, or the one given). */
  readonly store: CheckoutStore;
  /** Resolves when background work (hooks, webhook confirmations, refreshes) has finished. */
  idle(): Promise<void>;
  /**
   * Runs one reconciliation sweep now (DESIGN.md, "Money safety contract"): re-reads pending orders,
   * recently ended ones (late payments) and processed disputes from the provider, retries failed
   * hooks, and resolves when the hooks it triggered have settled. With several instances on one
   * store one sweep runs at a time: this waits for another instance's sweep, then runs.
   */
  reconcile(): Promise<ReconcileReport>;
  /** Read-only views for a back office: sessions, one order's history and hooks, the webhook log. */
  readonly inspect: {
    sessions(options?: { query?: string; limit?: number; before?: number }): Promise<SessionSummary[]>;
    session(id: string): Promise<SessionDetail | null>;
    webhooks(options?: WebhookLogQuery): Promise<WebhookLogEntry[]>;
  };
  /**
   * Stops the sweep, ends open event streams, waits for background work, closes the provider
   * connections the handler opened, and closes the store if the handler created it.
   */
  close(): Promise<void>;
}

const ORDER_REF = z
  .string({ error: 'must be a string' })
  .min(1, 'must not be empty')
  .max(128, 'must be at most 128 characters')
  .regex(/^[^\u0000-\u001f\u007f]+$/, 'must not contain control characters');

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

function validationError(error: z.ZodError, field0 = 'body'): CheckoutError {
  const issue = error.issues[0];
  const field = issue?.path.join('.') || field0;
  const detail = issue?.code === 'invalid_type' && issue.input === undefined ? 'is required' : (issue?.message ?? 'is invalid');
  return new CheckoutError(400, 'validation_failed', `${field} ${detail}.`);
}

const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;

type Route =
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

function positive(value: number | undefined, fallback: number, name: string): number {
  const v = value ?? fallback;
  if (typeof v !== 'number' || !Number.isFinite(v) || v <= 0) throw new TypeError(`paydesk/server: ${name} must be a positive number`);
  return v;
}

function nonNegative(value: number | undefined, fallback: number, name: string): number {
  const v = value ?? fallback;
  if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) throw new TypeError(`paydesk/server: ${name} must be 0 or a positive number`);
  return v;
}

/** `disputeGraceSeconds`: 0 or more (default 600), and no longer than the late window it is part of. */
function disputeGrace(value: number | undefined, lateWindowSeconds: number): number {
  const v = nonNegative(value, Math.min(600, lateWindowSeconds), 'disputeGraceSeconds');
  if (v > lateWindowSeconds) throw new TypeError('paydesk/server: disputeGraceSeconds must not be longer than lateWindowSeconds');
  return v;
}

/**
 * Creates the token endpoint.
 *
 * @example
 * const handler = createCheckoutHandler({
 *   provider: { baseUrl: process.env.PAYDESK_PROVIDER_URL!, apiKey: process.env.PAYDESK_API_KEY! },
 *   sessionSecrets: [process.env.PAYDESK_SESSION_SECRET!],
 *   resolveOrder: async (ref) => {
 *     const product = await db.products.find(ref);
 *     return product ? { amount: product.price } : null;
 *   },
 * });
 */
export function createCheckoutHandler(options: CheckoutHandlerOptions): CheckoutHandler {
  if (!options || typeof options !== 'object') throw new TypeError('paydesk/server: createCheckoutHandler needs options');
  if (typeof options.resolveOrder !== 'function') throw new TypeError('paydesk/server: resolveOrder(order_ref, request) is required');
  const provider = options.provider;
  if (!provider || typeof provider !== 'object') throw new TypeError('paydesk/server: provider ({ baseUrl, apiKey } or { client }) is required');

  const now = options.now ?? Date.now;
  let client: ProviderClient;
  let apiKey: string | undefined;
  let transport: NodeTransport | null = null;
  if ('client' in provider) {
    client = provider.client;
    apiKey = provider.apiKey;
  } else {
    apiKey = provider.apiKey;
    const mode = options.mode ?? 'h2h';
    // Without an injected fetch, provider calls go over node:http (a keep-alive agent of this handler).
    if (provider.fetch === undefined) transport = createNodeTransport();
    client = createProviderClient({
      baseUrl: provider.baseUrl,
      apiKey: provider.apiKey,
      ...(provider.timeoutMs !== undefined && { timeoutMs: provider.timeoutMs }),
      ...(provider.maxRetries !== undefined && { maxRetries: provider.maxRetries }),
      ...(provider.fetch !== undefined && { fetch: provider.fetch }),
      ...(transport !== null && { transport }),
      ...(mode === 'order_with_form' && { integrationType: 'order_with_form' as const }),
    });
  }

  const mode: IntegrationMode = options.mode ?? 'h2h';
  if (!INTEGRATION_MODES.includes(mode)) throw new TypeError(`paydesk/server: mode must be one of ${INTEGRATION_MODES.join(', ')}`);
  const modes = new Set<IntegrationMode>(options.modes ?? [mode]);
  for (const m of modes) if (!INTEGRATION_MODES.includes(m)) throw new TypeError(`paydesk/server: modes has an unknown mode ${String(m)}`);
  modes.add(mode);

  const webhookUrl = options.webhookUrl ?? null;
  if (webhookUrl !== null && (!isHttpUrl(webhookUrl) || webhookUrl.length > 512)) {
    throw new TypeError('paydesk/server: webhookUrl must be an http(s) URL of at most 512 characters');
  }
  const webhookSecrets = options.webhookSecrets ?? [];
  const webhookAuth: WebhookAuthMode = options.webhookAuth ?? (webhookSecrets.length > 0 ? 'signature' : 'api_key');
  if (webhookAuth === 'signature' && webhookSecrets.length === 0) {
    throw new TypeError('paydesk/server: webhookAuth "signature" needs webhookSecrets');
  }
  if (webhookAuth === 'api_key' && !apiKey) {
    throw new TypeError('paydesk/server: webhookAuth "api_key" needs provider.apiKey');
  }
  const tokens = new SessionTokens(options.sessionSecrets);
  const origins = new OriginPolicy(options.allowedOrigins ?? []);
  const ownsStore = !options.store;
  const store: CheckoutStore = options.store ?? new MemoryStore({ now });
  const log = createSafeLogger(options.logger ?? { warn: console.warn, error: console.error }, [
    apiKey,
    ...webhookSecrets,
    ...options.sessionSecrets,
  ]);
  const limits = resolveRateLimits(options.rateLimits);
  const limiter = new RateLimiter(store);
  const maxBody = positive(options.maxBodyBytes, 16 * 1024, 'maxBodyBytes');
  const maxWebhookBody = positive(options.maxWebhookBodyBytes, 256 * 1024, 'maxWebhookBodyBytes');
  const tolerance = positive(options.webhookToleranceSeconds, 300, 'webhookToleranceSeconds');

  const core = new Checkout({
    client,
    store,
    tokens,
    log,
    now,
    resolveOrder: options.resolveOrder,
    currency: (options.currency ?? 'RUB').toUpperCase(),
    feePayer: feePayerOption(options.feePayer),
    webhookUrl,
    sessionTtlMs: positive(options.sessionTtlSeconds, 24 * 3600, 'sessionTtlSeconds') * 1000,
    methodsCacheMs: positive(options.methodsCacheSeconds, 30, 'methodsCacheSeconds') * 1000,
    staleMs: positive(options.statusStaleSeconds, 30, 'statusStaleSeconds') * 1000,
    refreshIntervalMs: positive(options.refreshIntervalSeconds, 2, 'refreshIntervalSeconds') * 1000,
    idempotencyWaitMs: positive(options.idempotencyWaitSeconds, 30, 'idempotencyWaitSeconds') * 1000,
    idempotencyLeaseMs: positive(options.idempotencyLeaseSeconds, 90, 'idempotencyLeaseSeconds') * 1000,
    idempotencyTtlMs: positive(options.idempotencyTtlSeconds, 24 * 3600, 'idempotencyTtlSeconds') * 1000,
    webhookConfirmTimeoutMs: positive(options.webhookConfirmTimeoutMs, 2000, 'webhookConfirmTimeoutMs'),
    lateWindowMs: positive(options.lateWindowSeconds, 7 * 24 * 3600, 'lateWindowSeconds') * 1000,
    disputeGraceMs: disputeGrace(options.disputeGraceSeconds, options.lateWindowSeconds ?? 7 * 24 * 3600) * 1000,
    hookLeaseMs: positive(options.hookLeaseSeconds, 30, 'hookLeaseSeconds') * 1000,
    hooks: { paid: options.onOrderPaid, closed: options.onOrderClosed, flagged: options.onOrderFlagged },
  });
  const reconcileIntervalMs = nonNegative(options.reconcileIntervalSeconds, 60, 'reconcileIntervalSeconds') * 1000;
  const streams = new EventStreams(core, {
    heartbeatMs: positive(options.heartbeatSeconds, 15, 'heartbeatSeconds') * 1000,
    maxMs: positive(options.streamMaxSeconds, 600, 'streamMaxSeconds') * 1000,
  });

  const addressLimited = limits.perAddress !== false || limits.createPerAddress !== false || limits.unverifiedWebhooksPerAddress !== false;
  let warnedNoAddress = false;
  const clientAddress = (req: Request): string | undefined => {
    const recorded = getRecordedClientAddress(req);
    if (recorded) return recorded;
    if (options.getClientAddress) {
      try {
        const a = options.getClientAddress(req);
        if (typeof a === 'string' && a.length > 0) return a.slice(0, 100);
      } catch (err) {
        log.warn('getClientAddress threw', { err });
      }
    }
    if (options.trustProxy) {
      const forwarded = forwardedFor(req)?.slice(0, 100);
      if (forwarded) return forwarded;
    }
    if (addressLimited && !warnedNoAddress) {
      warnedNoAddress = true;
      log.warn(
        'paydesk/server: per-address rate limits are OFF: this request carries no client address. ' +
          'Set the getClientAddress option (e.g. from your platform\'s client-IP header) or trustProxy: true behind a proxy you trust; ' +
          'the Node, Express and Hono adapters record it by themselves.',
      );
    }
    return undefined;
  };

  const serverTime = () => new Date(now()).toISOString();

  /**
   * The session a token names, or 401. The signature is checked first (a tampered, foreign or
   * malformed token costs one HMAC, no store or provider work). Within the time signed into it the
   * token works; past it, the stored session decides: the token keeps working until the late window
   * after its order ended (a late payment or a receipt is still accepted then), see tokenUsableUntil.
   */
  async function authorize(token: string): Promise<string> {
    const check = tokens.authenticate(token);
    if (!check.ok) throw new CheckoutError(401, 'session_invalid', 'This payment session is not valid. Please start again.');
    const at = now();
    if (check.expiresAt > at) return check.sid;
    const found = await core.repo.read(check.sid);
    if (found && tokenUsableUntil(found.rec, check.expiresAt, core.cfg.lateWindowMs) > at) return check.sid;
    throw new CheckoutError(401, 'session_expired', 'This payment session has expired. Please start again.');
  }

  // ---------------------------------------------------------------------------------------------
  // Routes

  async function methods(req: Request, url: URL, cors: Record<string, string>): Promise<Response> {
    const parsed = ORDER_REF.safeParse(url.searchParams.get('order_ref') ?? undefined);
    if (!parsed.success) throw validationError(parsed.error, 'order_ref');
    const order = await core.resolve(parsed.data, req);
    const offers = await core.offers.for(order);
    const body: MethodsResponse = { methods: offers.map((o) => o.view), amount: order.amount, currency: order.currency };
    return jsonResponse(200, body, cors);
  }

  async function create(req: Request, cors: Record<string, string>, address: string | undefined): Promise<Response> {
    if (req.headers.get(PROTOCOL_HEADER) !== '1') {
      throw new CheckoutError(403, 'missing_protocol_header', `Requests must carry the header ${PROTOCOL_HEADER}: 1.`);
    }
    if (!isJsonContentType(req.headers.get('content-type'))) {
      throw new CheckoutError(415, 'unsupported_media_type', 'Send the body as JSON (Content-Type: application/json).');
    }
    if (address) await limiter.hit(limits.createPerAddress, `c:${address}`);
    const key = req.headers.get('idempotency-key');
    if (key !== null && !IDEMPOTENCY_KEY.test(key)) {
      throw new CheckoutError(400, 'validation_failed', 'Idempotency-Key must be 1 to 255 visible ASCII characters.');
    }
    const raw = parseJsonObject(await readBodyText(req, maxBody));
    // Only the known fields are read: an amount (or anything else) in the body is ignored, never forwarded.
    const parsed = CreateBody.safeParse(raw);
    if (!parsed.success) throw validationError(parsed.error);
    const b = parsed.data;
    const chosenMode = b.mode ?? mode;
    if (!modes.has(chosenMode)) {
      throw new CheckoutError(400, 'validation_failed', `mode ${chosenMode} is not enabled here; use one of ${[...modes].join(', ')}.`);
    }
    const input: CreateSessionInput = {
      order_ref: b.order_ref,
      mode: chosenMode,
      payment_method_id: b.payment_method_id,
      method_type: b.method_type,
      nspk_code: b.nspk_code,
      customer_bank: b.customer_bank,
      button_name: b.button_name,
    };
    const created = await core.createSession(input, req, key);
    return jsonResponse(
      201,
      { session: created.token, order: created.record.view, server_time: serverTime() },
      { ...cors, ...(created.replayed && { 'idempotent-replayed': 'true' }) },
    );
  }

  async function session(token: string, url: URL, cors: Record<string, string>): Promise<Response> {
    const sid = await authorize(token);
    await limiter.hit(limits.perSession, `s:${sid}`);
    const refresh = url.searchParams.get('refresh');
    const force = refresh === '1' || refresh === 'true';
    if (force) await limiter.hit(limits.refreshPerSession, `r:${sid}`);
    const { viewJson } = await core.status.read(sid, force);
    // The view's JSON is cached with the record; only the time is new.
    return jsonTextResponse(200, `{"order":${viewJson},"server_time":"${serverTime()}"}`, cors);
  }

  async function events(req: Request, token: string, cors: Record<string, string>): Promise<Response> {
    const sid = await authorize(token);
    await limiter.hit(limits.perSession, `s:${sid}`);
    const rec = await core.repo.get(sid);
    if (!rec) throw new CheckoutError(404, 'session_not_found', 'This payment session was not found. Please start again.');
    const lastEventId = parseLastEventId(req.headers.get('last-event-id'));
    return streams.stream(sid, lastEventId, cors, req.signal);
  }

  /**
   * A receipt upload. Its body is read only once it can be taken: the headers (type, declared size),
   * the token, the stored session (an order that is paid, ended too long ago or has a receipt being
   * checked is refused) and this session's one upload slot are all checked first, so refused uploads
   * cost no memory however large they are.
   */
  async function dispute(req: Request, token: string, cors: Record<string, string>): Promise<Response> {
    if (req.headers.get(PROTOCOL_HEADER) !== '1') {
      throw new CheckoutError(403, 'missing_protocol_header', `Requests must carry the header ${PROTOCOL_HEADER}: 1.`);
    }
    checkReceiptRequest(req);
    const sid = await authorize(token);
    await limiter.hit(limits.disputePerSession, `d:${sid}`);
    const rec = await core.repo.get(sid);
    if (!rec) throw new CheckoutError(404, 'session_not_found', 'This payment session was not found.');
    const refused = core.disputes.refusal(rec);
    if (refused) throw refused;
    const release = await claimReceiptUpload(store, sid);
    try {
      const { files, comment } = await readReceipts(req);
      const after = await core.disputes.open(sid, files, comment);
      return jsonResponse(201, { order: after.view, server_time: serverTime() }, cors);
    } finally {
      await release();
    }
  }

  /** The payload's order id, client order id and status, when it has them (before or without trusting it). */
  function payloadOf(text: string): { id: string | null; coid: string | null; status: string | null } {
    try {
      const p = (JSON.parse(text) as { payload?: Record<string, unknown> } | null)?.payload;
      const str = (v: unknown, max: number) => (typeof v === 'string' && v.length >= 1 && v.length <= max ? v : null);
      return p && typeof p === 'object' ? { id: str(p.id, 128), coid: str(p.client_order_id, 64), status: str(p.status, 64) } : { id: null, coid: null, status: null };
    } catch {
      return { id: null, coid: null, status: null };
    }
  }

  async function webhooks(req: Request): Promise<Response> {
    const text = await readBodyText(req, maxWebhookBody);
    const auth = verifyWebhookRequest(req.headers, text, {
      mode: webhookAuth,
      secrets: webhookSecrets,
      ...(apiKey !== undefined && { apiKey }),
      toleranceSeconds: tolerance,
      now,
    });
    const seen = payloadOf(text);
    const entry = { order_id: seen.id, client_order_id: seen.coid, status: seen.status };
    if (!auth.ok) {
      // Verified first (cheap), so only deliveries that fail it count against their address: a real
      // one is never answered 429. Beyond the limit nothing is logged (a flood writes one counter);
      // a store that cannot count leaves the answer 401.
      const address = clientAddress(req);
      if (address) {
        await limiter.hit(limits.unverifiedWebhooksPerAddress, `w:${address}`).catch((err: unknown) => {
          if (err instanceof CheckoutError) throw err;
          log.warn('could not count a refused webhook against its address', { err });
        });
      }
      log.warn(`webhook refused: ${auth.reason}`);
      await core.inbox.log({ ...entry, verified: false, outcome: 'refused', detail: auth.reason, http_status: 401, session_id: null });
      throw new CheckoutError(401, 'unauthorized', 'Webhook authentication failed.');
    }
    if (!isJsonContentType(req.headers.get('content-type'))) {
      await core.inbox.log({ ...entry, verified: true, outcome: 'refused', detail: 'not JSON', http_status: 415, session_id: null });
      throw new CheckoutError(415, 'unsupported_media_type', 'Webhooks must be JSON (Content-Type: application/json).');
    }
    parseJsonObject(text);
    if (seen.id === null || seen.coid === null) {
      await core.inbox.log({ ...entry, verified: true, outcome: 'refused', detail: 'no payload.id / payload.client_order_id', http_status: 400, session_id: null });
      throw new CheckoutError(400, 'bad_request', 'The webhook has no payload with an order id and client_order_id.');
    }
    let result;
    try {
      result = await core.inbox.receive(seen.id, seen.coid);
    } catch (err) {
      // Nothing could be recorded: not 2xx, so the provider delivers it again.
      log.error('a webhook could not be recorded; answered 503 so the provider retries it', { order_id: seen.id, err });
      await core.inbox.log({ ...entry, verified: true, outcome: 'failed', detail: err instanceof Error ? err.message.slice(0, 200) : 'failed', http_status: 503, session_id: null });
      throw new CheckoutError(503, 'provider_unavailable', 'The webhook could not be recorded now; deliver it again.', {
        retryable: true,
        headers: { 'retry-after': '5' },
      });
    }
    const status = result.outcome === 'recorded' ? 202 : 200;
    await core.inbox.log({ ...entry, verified: true, outcome: result.outcome, detail: null, http_status: status, session_id: result.sid });
    if (result.outcome === 'ignored') return jsonResponse(200, { received: true, ignored: 'unknown order' });
    return jsonResponse(status, { received: true, ...(result.outcome === 'orphan' && { recorded: 'orphan' }) });
  }

  // ---------------------------------------------------------------------------------------------

  async function route(req: Request): Promise<Response> {
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
      if (method !== 'POST') throw methodNotAllowed('POST');
      return inWebhook(() => webhooks(req));
    }

    const origin = origins.decide(req, url);
    if (origin.kind === 'forbidden') {
      throw new CheckoutError(403, 'forbidden_origin', 'This origin may not use this payment endpoint.');
    }
    const cors = corsHeaders(origin);
    if (method === 'OPTIONS') return new Response(null, { status: 204, headers: preflightHeaders(origin) });
    const address = clientAddress(req);
    try {
      if (address) await limiter.hit(limits.perAddress, `a:${address}`);
      switch (r.kind) {
        case 'methods':
          if (method !== 'GET') throw methodNotAllowed('GET');
          return await methods(req, url, cors);
        case 'create':
          if (method !== 'POST') throw methodNotAllowed('POST');
          return await create(req, cors, address);
        case 'session':
          if (method !== 'GET') throw methodNotAllowed('GET');
          return await session(r.token, url, cors);
        case 'events':
          if (method !== 'GET') throw methodNotAllowed('GET');
          return await events(req, r.token, cors);
        case 'dispute':
          if (method !== 'POST') throw methodNotAllowed('POST');
          return await dispute(req, r.token, cors);
      }
    } catch (err) {
      throw withCors(err, origin, (e) => log.error('unexpected failure', { err: e }));
    }
  }

  const handler = (async (req: Request): Promise<Response> => {
    try {
      return await route(req);
    } catch (err) {
      if (err instanceof CorsError) return errorResponse(err.error, corsHeaders(err.origin));
      if (err instanceof CheckoutError) return errorResponse(err);
      log.error('unexpected failure', { err });
      return errorResponse(internalError(err));
    }
  }) as CheckoutHandler;

  const inspect: CheckoutHandler['inspect'] = Object.freeze({
    sessions: (o?: { query?: string; limit?: number; before?: number }) => core.inspect.sessions(o),
    session: (id: string) => core.inspect.session(id),
    webhooks: (o?: WebhookLogQuery) => core.inspect.webhooks(o),
  });
  Object.defineProperties(handler, {
    store: { value: store, enumerable: true },
    inspect: { value: inspect, enumerable: true },
    idle: { value: () => core.idle() },
    reconcile: { value: () => core.reconciler.run(true) },
    close: {
      value: async () => {
        await core.reconciler.stop();
        streams.closeAll();
        await core.idle();
        transport?.close();
        if (ownsStore) await store.close();
      },
    },
  });
  core.reconciler.start(reconcileIntervalMs);
  startTelemetry();
  return handler;
}

class CorsError extends Error {
  constructor(
    readonly error: CheckoutError,
    readonly origin: OriginDecision,
  ) {
    super(error.message);
  }
}

function withCors(err: unknown, origin: OriginDecision, log: (err: unknown) => void): CorsError {
  if (err instanceof CheckoutError) return new CorsError(err, origin);
  log(err);
  return new CorsError(internalError(err), origin);
}

function methodNotAllowed(allow: string): CheckoutError {
  return new CheckoutError(405, 'method_not_allowed', `Use ${allow} here.`, { headers: { allow } });
}

function feePayerOption(value: unknown): 'merchant' | 'shopper' {
  if (value === undefined || value === 'merchant' || value === 'shopper') return value ?? 'merchant';
  throw new TypeError(`feePayer must be 'merchant' or 'shopper', got ${JSON.stringify(value)}`);
}
