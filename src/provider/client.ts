/**
 * The typed client of the provider API (provider-api.md, and provider-notes.md's order by id and
 * dispute upload): one method per endpoint, requests checked before sending, answers checked after,
 * typed errors, retries for reads, and creates that are sent once per call: a lost answer is
 * resolved by looking the record up over a bounded window, never by sending it again.
 *
 * Works with any WHATWG `fetch` (Node 20, browsers, Deno, Bun); no Node-only imports.
 */
import type { z } from 'zod';
import { classifyProviderError, extractErrorMessage, parseRetryAfter, ProviderError } from './errors.js';
import type { EndpointKind } from './errors.js';
import { numberToDecimal } from '../money/index.js';
import { createdSince, latestCreated, orderMatchesRequest, sessionMatchesRequest } from './matching.js';
import { detectReceiptType } from '../protocol/receipts.js';
import { encodeMultipart } from './multipart.js';
import {
  BalanceResponseSchema,
  CreateDisputeRequestSchema,
  CreateDisputeResponseSchema,
  CreateOrderRequestSchema,
  CreateOrderResponseSchema,
  createOrderRuleViolations,
  DisputeSearchQuerySchema,
  DisputeSearchResponseSchema,
  FormCreateRequestSchema,
  FormCreateResponseSchema,
  formCreateRuleViolations,
  FormSearchQuerySchema,
  FormSearchResponseSchema,
  OrderResponseSchema,
  OrderSearchQuerySchema,
  OrdersQuerySchema,
  OrdersResponseSchema,
  PaymentMethodsQuerySchema,
  PaymentMethodsResponseSchema,
  TransactionsQuerySchema,
  TransactionsResponseSchema,
} from './schemas.js';
import type { Balance, CreateOrderRequest, Dispute, FormCreateRequest, FormData, FormSession, Order, Page, PaymentMethod, RuleViolation, Transaction } from './schemas.js';
import type { CreateDisputeRequest, CreateDisputeResponse, CreateOutcome, ProviderClient, ProviderClientOptions, RequestOptions } from './types.js';
import { eachItem } from './types.js';

export const DEFAULT_TIMEOUT_MS = 15_000;
export const DEFAULT_MAX_RETRIES = 2;
/** Backoff: the first wait is about this long, then doubles per retry ... */
export const BACKOFF_BASE_MS = 500;
/** ... up to this cap. */
export const BACKOFF_CAP_MS = 8_000;
/** A `Retry-After` longer than this is not waited for: the error is thrown with `retryAfterMs`. */
export const MAX_RETRY_AFTER_MS = 60_000;
/** After a lost create answer the client looks the record up for this long by default. */
export const DEFAULT_LOOKUP_WINDOW_MS = 10_000;
/** The first wait before a lookup after a lost create answer; it doubles (0.5, 1, 2, 4 s …) within the window. */
export const LOOKUP_FIRST_DELAY_MS = 500;
/** Lookups after a lost create ask for this many candidates (the document's maximum page size). */
const LOOKUP_SIZE = 100;
/** Creates whose outcome is unknown that a client remembers (the next create of the same record looks up first). */
const MAX_UNRESOLVED = 1_000;
/** How long such a memory is kept. */
const UNRESOLVED_TTL_MS = 24 * 60 * 60 * 1000;

const PATHS = {
  formSearch: '/api/v1/form/search',
  formCreate: '/api/v1/form/create',
  disputes: '/api/v1/disputes/search',
  transactions: '/api/v1/finance/transactions',
  paymentMethods: '/api/v1/finance/payment_methods',
  balance: '/api/v1/finance/balance',
  orders: '/api/v1/order/',
  orderSearch: '/api/v1/order/search-by-client-order-id',
  order: (id: string) => `/api/v1/order/${encodeURIComponent(id)}`,
  disputeCreate: '/api/v1/disputes/create',
} as const;

/** Fields of H2H creation that only the integration type `order_with_form` accepts. */
const ORDER_WITH_FORM_FIELDS = ['redirect_url', 'support_url', 'return_url', 'customer_bank'] as const;

interface Call {
  method: 'GET' | 'POST';
  path: string;
  kind: EndpointKind;
  query?: URLSearchParams;
  /** A JSON body (serialised when sent) … */
  body?: unknown;
  /** … or a ready one with its type (multipart). */
  raw?: { contentType: string; bytes: Uint8Array };
}

interface Exchange {
  status: number;
  headers: { get(name: string): string | null };
  text: string;
}

interface Resolved {
  signal: AbortSignal | undefined;
  timeoutMs: number;
  maxRetries: number;
  lookupWindowMs: number;
}

/** How one create finds what it may have created after a lost answer. */
interface CreateSpec<S extends z.ZodType, F> {
  call: Call;
  schema: S;
  /** Names the record across calls (`order:<client_order_id>` …): an unknown outcome is remembered by it. */
  key: string;
  /** Looks the record up: one created since `sinceMs` (epoch ms of the first attempt). */
  lookup: (sinceMs: number, r: Resolved) => Promise<F | undefined>;
  /** What the call answers when the lookup found it (`lost`: the lost answer's error, null on a lookup-first). */
  onFound: (found: F, lost: ProviderError | null) => z.output<S>;
  /** e.g. `the order`, for messages. */
  subject: string;
  /** How a caller names it again, e.g. `client_order_id shop-1`. */
  handle: string;
}

/**
 * Creates a client for one terminal (one API key).
 *
 * @example
 * const provider = createProviderClient({ baseUrl: 'http://127.0.0.1:4010', apiKey: process.env.PAYDESK_API_KEY! });
 * const order = await provider.createOrder({ client_order_id: 'A-1', order_side: 'Buy', method_type: 'SBP', amount: '1500.00' });
 */
export function createProviderClient(options: ProviderClientOptions): ProviderClient {
  const baseUrl = checkBaseUrl(options?.baseUrl);
  // The key lives only in this closure: never on an object, in a message, or in a thrown error.
  const apiKey = options.apiKey;
  if (typeof apiKey !== 'string' || apiKey.trim() === '') {
    throw invalidOption('apiKey', 'apiKey must be a non-empty string');
  }
  const defaultTimeoutMs = checkTimeout(options.timeoutMs ?? DEFAULT_TIMEOUT_MS, 'timeoutMs');
  const defaultMaxRetries = checkRetries(options.maxRetries ?? DEFAULT_MAX_RETRIES, 'maxRetries');
  const defaultLookupWindowMs = checkWindow(options.lookupWindowMs ?? DEFAULT_LOOKUP_WINDOW_MS, 'lookupWindowMs');
  const fetchImpl: typeof fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const transport = options.transport;
  if (transport !== undefined && typeof transport !== 'function') throw invalidOption('transport', 'transport must be a function');
  const sleep = options.sleep ?? defaultSleep;
  const random = options.random ?? Math.random;
  const now = options.now ?? Date.now;
  const integrationType = options.integrationType;

  const redact = (text: string): string => text.split(apiKey).join('[redacted]');

  function resolve(opts: RequestOptions | undefined): Resolved {
    return {
      signal: opts?.signal,
      timeoutMs: opts?.timeoutMs === undefined ? defaultTimeoutMs : checkTimeout(opts.timeoutMs, 'timeoutMs'),
      maxRetries: opts?.maxRetries === undefined ? defaultMaxRetries : checkRetries(opts.maxRetries, 'maxRetries'),
      lookupWindowMs: opts?.lookupWindowMs === undefined ? defaultLookupWindowMs : checkWindow(opts.lookupWindowMs, 'lookupWindowMs'),
    };
  }

  /**
   * Creates whose outcome is unknown, by record key → epoch ms of the first attempt. The next create
   * of the same record looks it up first. Bounded in size and age.
   */
  const unresolved = new Map<string, { sinceMs: number; atMs: number }>();
  function rememberUnresolved(key: string, sinceMs: number): void {
    const at = now();
    unresolved.delete(key);
    unresolved.set(key, { sinceMs, atMs: at });
    for (const [k, v] of unresolved) {
      if (unresolved.size <= MAX_UNRESOLVED && at - v.atMs <= UNRESOLVED_TTL_MS) break;
      unresolved.delete(k); // oldest first (insertion order)
    }
  }
  function unresolvedSince(key: string): number | undefined {
    const entry = unresolved.get(key);
    if (!entry) return undefined;
    if (now() - entry.atMs > UNRESOLVED_TTL_MS) {
      unresolved.delete(key);
      return undefined;
    }
    return entry.sinceMs;
  }

  function backoff(retry: number): number {
    const exp = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** retry);
    // Equal jitter: at least half the exponential step, so retries never bunch at zero.
    const r = Math.min(Math.max(random(), 0), 1);
    return Math.round(exp / 2 + (exp / 2) * r);
  }

  async function wait(ms: number, signal: AbortSignal | undefined): Promise<void> {
    await sleep(ms, signal);
    signal?.throwIfAborted();
  }

  const label = (call: Call) => `${call.method} ${call.path}`;

  /**
   * One HTTP exchange. Throws `network`/`timeout` ProviderErrors, or the caller's abort reason.
   * The deadline is one timer cleared when the exchange ends (no `AbortSignal.timeout`/`any` per call).
   */
  async function send(call: Call, r: Resolved): Promise<Exchange> {
    r.signal?.throwIfAborted();
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort(new DOMException(`no answer within ${r.timeoutMs} ms`, 'TimeoutError'));
    }, r.timeoutMs);
    // Like AbortSignal.timeout: the deadline alone does not keep the process alive.
    (timer as { unref?: () => void }).unref?.();
    const caller = r.signal;
    const onAbort = () => controller.abort(caller!.reason);
    caller?.addEventListener('abort', onAbort, { once: true });
    const signal = controller.signal;
    const url = baseUrl + call.path + (call.query && [...call.query].length ? `?${call.query}` : '');
    const headers: Record<string, string> = { Accept: 'application/json', 'X-API-Key': apiKey };
    let body: string | Uint8Array | undefined;
    if (call.raw !== undefined) {
      headers['Content-Type'] = call.raw.contentType;
      body = call.raw.bytes;
    } else if (call.body !== undefined) {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(call.body);
    }
    try {
      if (transport) {
        return await transport({ method: call.method, url, headers, ...(body !== undefined && { body }), signal });
      }
      const res = await fetchImpl(url, { method: call.method, headers, body: body as BodyInit | undefined, signal, redirect: 'error' });
      const text = await res.text();
      return { status: res.status, headers: res.headers, text };
    } catch (err) {
      if (caller?.aborted) throw caller.reason;
      if (timedOut) {
        throw new ProviderError({
          code: 'timeout',
          message: `${label(call)}: no answer within ${r.timeoutMs} ms`,
          retryable: true,
          endpoint: label(call),
        });
      }
      const detail = err instanceof Error ? err.message : String(err);
      throw new ProviderError({
        code: 'network',
        message: redact(`${label(call)}: network error: ${detail}`),
        retryable: true,
        endpoint: label(call),
        cause: sanitize(err, redact),
      });
    } finally {
      clearTimeout(timer);
      caller?.removeEventListener('abort', onAbort);
    }
  }

  /** Turns an exchange into checked data, or throws the matching ProviderError. */
  function interpret<S extends z.ZodType>(call: Call, ex: Exchange, schema: S): z.output<S> {
    const requestId = ex.headers.get('x-request-id') ?? ex.headers.get('request-id') ?? undefined;
    let json: unknown;
    let isJson = false;
    try {
      json = JSON.parse(ex.text);
      isJson = true;
    } catch {
      json = undefined;
    }
    const ok = ex.status >= 200 && ex.status < 300;
    const bodyRequestId =
      isJson && json && typeof json === 'object' && typeof (json as { request_id?: unknown }).request_id === 'string'
        ? (json as { request_id: string }).request_id
        : undefined;
    const reqId = requestId ?? bodyRequestId;

    if (ok && isJson && !(json && typeof json === 'object' && (json as { success?: unknown }).success === false)) {
      const parsed = schema.safeParse(json);
      if (parsed.success) return parsed.data;
      const issue = parsed.error.issues[0]!;
      const path = issue.path.map(String).join('.') || '(root)';
      throw new ProviderError({
        code: 'invalid_response',
        message: redact(`${label(call)}: unexpected answer at ${path}: ${issue.message}`),
        status: ex.status,
        path,
        endpoint: label(call),
        ...(reqId !== undefined && { requestId: reqId }),
      });
    }
    if (ok && !isJson) {
      throw new ProviderError({
        code: 'invalid_response',
        message: `${label(call)}: the answer is not JSON`,
        status: ex.status,
        path: '(root)',
        endpoint: label(call),
        ...(reqId !== undefined && { requestId: reqId }),
      });
    }
    // Not 2xx, or a 2xx that says success: false.
    const rawMessage = extractErrorMessage(json, isJson ? '' : ex.text);
    const providerMessage = rawMessage === null ? null : redact(rawMessage);
    // A 2xx that says `success: false` is classified by its message like a 400.
    const { code, retryable } = classifyProviderError(ok ? 400 : ex.status, providerMessage, call.kind);
    const retryAfterMs = code === 'rate_limited' || ex.status >= 500 ? parseRetryAfter(ex.headers.get('retry-after'), now()) : undefined;
    throw new ProviderError({
      code,
      message: `${label(call)}: ${ex.status} ${code}${providerMessage ? `: ${providerMessage}` : ''}`,
      status: ex.status,
      providerMessage,
      retryable,
      endpoint: label(call),
      ...(reqId !== undefined && { requestId: reqId }),
      ...(retryAfterMs !== undefined && { retryAfterMs }),
    });
  }

  /** A read: retried on network errors, timeouts, 429 and 5xx, with backoff or Retry-After. */
  async function read<S extends z.ZodType>(call: Call, schema: S, r: Resolved): Promise<z.output<S>> {
    for (let retry = 0; ; retry++) {
      try {
        return interpret(call, await send(call, r), schema);
      } catch (err) {
        if (!(err instanceof ProviderError) || !err.retryable || retry >= r.maxRetries) throw err;
        if (err.retryAfterMs !== undefined && err.retryAfterMs > MAX_RETRY_AFTER_MS) throw err;
        await wait(err.retryAfterMs ?? backoff(retry), r.signal);
      }
    }
  }

  /**
   * A create, sent at most once per call. After a lost answer (network error, timeout, an ambiguous
   * 5xx) the first attempt may still land, so nothing is sent again: the record is looked up at
   * growing intervals (0.5, 1, 2, 4 s …) within `lookupWindowMs` and returned when found; else the
   * call fails retryable with `outcome: 'unknown'`, and this client remembers it, so the next create
   * of the same record looks it up before sending.
   */
  async function create<S extends z.ZodType, F>(spec: CreateSpec<S, F>, r: Resolved): Promise<z.output<S>> {
    const { call, key } = spec;
    const pendingSince = unresolvedSince(key);
    if (pendingSince !== undefined) {
      // An earlier attempt's outcome is unknown: it may have landed since. Look before sending.
      let found: F | undefined;
      try {
        found = await spec.lookup(pendingSince, r);
      } catch (err) {
        if (!(err instanceof ProviderError)) throw err;
        throw new ProviderError({
          code: err.code,
          message:
            `${label(call)}: an earlier attempt for ${spec.handle} has an unknown outcome and looking it up failed (${err.message}); ` +
            `nothing was sent: try again later`,
          status: err.status,
          retryable: true,
          endpoint: label(call),
          outcome: 'unknown',
          cause: err,
        });
      }
      if (found !== undefined) {
        unresolved.delete(key);
        return spec.onFound(found, null);
      }
    }
    const sinceMs = pendingSince ?? now();
    let lost: ProviderError;
    try {
      const answer = interpret(call, await send(call, r), spec.schema);
      unresolved.delete(key);
      return answer;
    } catch (err) {
      if (err instanceof ProviderError && err.code === 'invalid_response') {
        // The create took effect (2xx) but its answer is unreadable: say so, so nobody creates again.
        rememberUnresolved(key, sinceMs);
        throw new ProviderError({
          code: 'invalid_response',
          message: `${err.message}; ${spec.subject} was probably created: look it up before creating it again`,
          status: err.status,
          retryable: false,
          endpoint: label(call),
          outcome: 'created',
          ...(err.path !== undefined && { path: err.path }),
          ...(err.requestId !== undefined && { requestId: err.requestId }),
        });
      }
      if (!(err instanceof ProviderError)) {
        // The caller aborted: the request may have gone out.
        rememberUnresolved(key, sinceMs);
        throw err;
      }
      if (!isLostAnswer(err)) {
        unresolved.delete(key);
        throw withOutcome(err, 'not_created');
      }
      lost = err;
    }
    rememberUnresolved(key, sinceMs);
    const windowMs = r.lookupWindowMs;
    let spent = 0;
    let delay = LOOKUP_FIRST_DELAY_MS;
    let lookups = 0;
    let lookupError: ProviderError | undefined;
    for (;;) {
      const pause = Math.min(delay, Math.max(0, windowMs - spent));
      if (pause > 0) {
        await wait(pause, r.signal); // the caller's abort ends the wait (the outcome stays remembered as unknown)
        spent += pause;
      }
      const started = now();
      lookups++;
      let found: F | undefined;
      try {
        found = await spec.lookup(sinceMs, { ...r, maxRetries: 0 });
        lookupError = undefined;
      } catch (err) {
        if (!(err instanceof ProviderError)) throw err;
        lookupError = err;
        if (!err.retryable) break;
      }
      if (found !== undefined) {
        unresolved.delete(key);
        return spec.onFound(found, lost);
      }
      spent += Math.max(0, now() - started);
      if (spent >= windowMs) break;
      delay *= 2;
    }
    throw new ProviderError({
      code: lost.code,
      message:
        `${label(call)}: the answer was lost (${lost.message}) and ${lookups} lookup${lookups === 1 ? '' : 's'} over ${windowMs} ms ` +
        `did not find ${spec.subject}${lookupError ? ` (the last one failed: ${lookupError.message})` : ''}: the outcome is unknown. ` +
        `It may still appear: do not create another for ${spec.handle}; call again with the same data (this client looks it up first) or look it up`,
      status: lost.status,
      providerMessage: lost.providerMessage,
      retryable: true,
      endpoint: label(call),
      outcome: 'unknown',
      ...(lost.retryAfterMs !== undefined && { retryAfterMs: lost.retryAfterMs }),
      ...(lost.requestId !== undefined && { requestId: lost.requestId }),
      ...(lookupError !== undefined && { cause: lookupError }),
    });
  }

  function query(schema: z.ZodType, input: object | undefined, what: string): URLSearchParams {
    const given = Object.fromEntries(Object.entries(input ?? {}).filter(([, v]) => v !== undefined && v !== null));
    const data = check(schema, given, what) as Record<string, unknown>;
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries(data)) {
      if (value === undefined || value === null) continue;
      for (const item of Array.isArray(value) ? value : [value]) params.append(key, String(item));
    }
    return params;
  }

  async function findCreatedOrder(req: CreateOrderRequest, sinceMs: number, r: Resolved): Promise<Order | undefined> {
    const params = new URLSearchParams({ id: req.client_order_id, size: String(LOOKUP_SIZE) });
    const page = await read({ method: 'GET', path: PATHS.orderSearch, kind: 'read', query: params }, OrdersResponseSchema, r);
    return latestCreated(page.orders.items.filter((o) => orderMatchesRequest(o, req) && createdSince(o, sinceMs)));
  }

  async function findCreatedSession(req: FormCreateRequest, sinceMs: number, r: Resolved): Promise<FormSession | undefined> {
    const params = new URLSearchParams({ client_order_id: req.order_data.client_order_id, size: String(LOOKUP_SIZE) });
    const page = await read({ method: 'GET', path: PATHS.formSearch, kind: 'read', query: params }, FormSearchResponseSchema, r);
    return latestCreated(page.items.filter((s) => sessionMatchesRequest(s, req) && createdSince(s, sinceMs)));
  }

  async function findCreatedDispute(orderId: string, sinceMs: number, r: Resolved): Promise<Dispute | undefined> {
    const params = new URLSearchParams({ order_id: orderId, size: String(LOOKUP_SIZE) });
    const page = await read({ method: 'GET', path: PATHS.disputes, kind: 'read', query: params }, DisputeSearchResponseSchema, r);
    return latestCreated(page.data.items.filter((d) => d.order_id === orderId && createdSince(d, sinceMs)));
  }

  const client: ProviderClient = {
    async searchFormSessions(q, opts) {
      const call: Call = { method: 'GET', path: PATHS.formSearch, kind: 'read', query: query(FormSearchQuerySchema, q, 'query') };
      return (await read(call, FormSearchResponseSchema, resolve(opts))) as Page<FormSession>;
    },

    async createForm(body, opts) {
      const r = resolve(opts);
      refuseNumberAmount((body as { order_data?: { amount?: unknown } } | undefined)?.order_data?.amount, 'order_data.amount');
      const req = check(FormCreateRequestSchema, body, 'body', 'not_created') as FormCreateRequest;
      throwViolations(formCreateRuleViolations(req), 'not_created');
      const call: Call = { method: 'POST', path: PATHS.formCreate, kind: 'form_create', body: req };
      const created = await create(
        {
          call,
          schema: FormCreateResponseSchema,
          key: `form:${req.order_data.client_order_id}`,
          lookup: (since, rr) => findCreatedSession(req, since, rr),
          onFound: (session, lost): z.output<typeof FormCreateResponseSchema> => {
            // form_url is not part of a session and its address is the provider's to choose, so the
            // creation answer cannot be rebuilt honestly: hand the found session to the caller instead.
            throw new ProviderError({
              code: lost?.code ?? 'network',
              message:
                `${label(call)}: ${lost ? `the answer was lost (${lost.message}), but ` : 'an earlier attempt whose outcome was unknown created '}` +
                `the form session ${session.session_id}${lost ? ' was created' : ''}; do not create it again: resume with error.formSession`,
              retryable: true,
              endpoint: label(call),
              formSession: session,
              outcome: 'created',
            });
          },
          subject: 'the form session',
          handle: `client_order_id ${req.order_data.client_order_id}`,
        },
        r,
      );
      return created.form_data as FormData;
    },

    async searchDisputes(q, opts) {
      const call: Call = { method: 'GET', path: PATHS.disputes, kind: 'read', query: query(DisputeSearchQuerySchema, q, 'query') };
      return (await read(call, DisputeSearchResponseSchema, resolve(opts))).data as Page<Dispute>;
    },

    async listTransactions(q, opts) {
      const call: Call = { method: 'GET', path: PATHS.transactions, kind: 'read', query: query(TransactionsQuerySchema, q, 'query') };
      return (await read(call, TransactionsResponseSchema, resolve(opts))) as Page<Transaction>;
    },

    async listPaymentMethods(q, opts) {
      const call: Call = {
        method: 'GET',
        path: PATHS.paymentMethods,
        kind: 'read',
        query: query(PaymentMethodsQuerySchema, q, 'query'),
      };
      return (await read(call, PaymentMethodsResponseSchema, resolve(opts))).payment_methods as PaymentMethod[];
    },

    async getBalance(opts) {
      return (await read({ method: 'GET', path: PATHS.balance, kind: 'read' }, BalanceResponseSchema, resolve(opts))).deposit as Balance;
    },

    async createOrder(body, opts) {
      const r = resolve(opts);
      refuseNumberAmount((body as { amount?: unknown } | undefined)?.amount, 'amount');
      const req = check(CreateOrderRequestSchema, body, 'body', 'not_created') as CreateOrderRequest;
      throwViolations(createOrderRuleViolations(req), 'not_created');
      if (integrationType === 'plain') {
        const extra = ORDER_WITH_FORM_FIELDS.find((f) => req[f] != null);
        if (extra) {
          throwViolations([{ field: extra, message: `${extra} is only for the integration type order_with_form` }], 'not_created');
        }
      }
      const call: Call = { method: 'POST', path: PATHS.orders, kind: 'order_create', body: req };
      return create(
        {
          call,
          schema: CreateOrderResponseSchema,
          key: `order:${req.client_order_id}`,
          lookup: (since, rr) => findCreatedOrder(req, since, rr),
          onFound: (order) => order as z.output<typeof CreateOrderResponseSchema>,
          subject: 'the order',
          handle: `client_order_id ${req.client_order_id}`,
        },
        r,
      );
    },

    async listOrders(q, opts) {
      const call: Call = { method: 'GET', path: PATHS.orders, kind: 'read', query: query(OrdersQuerySchema, q, 'query') };
      return (await read(call, OrdersResponseSchema, resolve(opts))).orders as Page<Order>;
    },

    async searchOrdersByClientOrderId(q, opts) {
      const call: Call = { method: 'GET', path: PATHS.orderSearch, kind: 'read', query: query(OrderSearchQuerySchema, q, 'query') };
      return (await read(call, OrdersResponseSchema, resolve(opts))).orders as Page<Order>;
    },

    async getOrder(id, opts) {
      const r = resolve(opts);
      if (typeof id !== 'string' || id.trim() === '' || id.length > 256 || /[\u0000-\u001f\u007f]/.test(id)) {
        throw new ProviderError({ code: 'invalid_request', message: 'invalid request: id: must be the provider order id (1 to 256 printable characters)', field: 'id' });
      }
      const res = await read({ method: 'GET', path: PATHS.order(id), kind: 'order_read' }, OrderResponseSchema, r);
      return res.order;
    },

    async createDispute(body, opts) {
      const r = resolve(opts);
      refuseNumberAmount((body as { amount?: unknown } | undefined)?.amount, 'amount');
      const req = check(CreateDisputeRequestSchema, body, 'body', 'not_created') as CreateDisputeRequest & { order_id: string };
      const amount = typeof req.amount === 'number' ? numberAmount(req.amount) : req.amount;
      const multipart = encodeMultipart(
        [
          { name: 'order_id', value: req.order_id },
          { name: 'amount', value: amount },
          // Each part carries the type its content proved (checked above), whatever was declared.
          ...req.files.map((f) => ({ name: 'files[]', filename: f.name, contentType: detectedType(f.data, f.type), data: f.data })),
        ],
      );
      const call: Call = { method: 'POST', path: PATHS.disputeCreate, kind: 'dispute_create', raw: multipart };
      return create(
        {
          call,
          schema: CreateDisputeResponseSchema,
          key: `dispute:${req.order_id}`,
          lookup: (since, rr) => findCreatedDispute(req.order_id, since, rr),
          onFound: (dispute) => ({ order_id: dispute.order_id, dispute_id: dispute.dispute_id, dispute_files: [], recovered: true as const }),
          subject: 'the dispute',
          handle: `order_id ${req.order_id}`,
        },
        r,
      ) as Promise<CreateDisputeResponse>;
    },

    listAllOrders(q, opts) {
      return eachItem((page) => client.listOrders({ size: 100, ...q, page }, opts), (o) => o.id);
    },
    listAllTransactions(q, opts) {
      return eachItem((page) => client.listTransactions({ size: 100, ...q, page }, opts), (t) => t.id);
    },
    searchAllDisputes(q, opts) {
      return eachItem((page) => client.searchDisputes({ size: 100, ...q, page }, opts), (d) => d.dispute_id);
    },
    searchAllFormSessions(q, opts) {
      return eachItem((page) => client.searchFormSessions({ size: 100, ...q, page }, opts), (f) => f.session_id);
    },
  };
  return Object.freeze(client);
}

// -----------------------------------------------------------------------------------------------
// Helpers (no access to the key)

/** An answer that does not tell whether the create took effect. */
function isLostAnswer(err: ProviderError): boolean {
  if (err.code === 'network') return !connectionRefused(err);
  if (err.code === 'timeout') return true;
  // A 5xx other than the documented soft refusal ("no available traders": nothing was created).
  return err.code === 'provider_error' && err.status !== null && err.status >= 500;
}

/**
 * A connection the provider refused (ECONNREFUSED) never carried the request: nothing can have been
 * created. Any other network failure (a reset, a hang-up) may have come after the request was sent.
 */
function connectionRefused(err: unknown, depth = 0): boolean {
  if (!(err instanceof Error) || depth > 4) return false;
  if ((err as { code?: unknown }).code === 'ECONNREFUSED' || /\bECONNREFUSED\b/.test(err.message)) {
    return !/ECONNRESET|socket hang up|EPIPE/i.test(err.message);
  }
  return connectionRefused(err.cause, depth + 1);
}

/** A ProviderError of a create with what it says of the record. */
function withOutcome(err: ProviderError, outcome: CreateOutcome): ProviderError {
  return new ProviderError({
    code: err.code,
    message: err.message,
    status: err.status,
    providerMessage: err.providerMessage,
    retryable: err.retryable,
    outcome,
    ...(err.field !== undefined && { field: err.field }),
    ...(err.path !== undefined && { path: err.path }),
    ...(err.requestId !== undefined && { requestId: err.requestId }),
    ...(err.retryAfterMs !== undefined && { retryAfterMs: err.retryAfterMs }),
    ...(err.endpoint !== undefined && { endpoint: err.endpoint }),
    ...(err.cause !== undefined && { cause: err.cause }),
  });
}

/** An amount given as a JSON number, as the decimal text the multipart body carries. */
function numberAmount(value: number): string {
  return numberToDecimal(value);
}

function detectedType(data: Uint8Array, declared: string): string {
  return detectReceiptType(data) ?? declared;
}

/**
 * Money is sent as a decimal string only: a number (`100.5`) is refused before anything is sent, with
 * a message that says so (the types already refuse it; this guards JavaScript callers and casts).
 */
function refuseNumberAmount(value: unknown, field: string): void {
  if (typeof value !== 'number') return;
  throw new ProviderError({
    code: 'invalid_request',
    message: `invalid request: ${field}: must be a decimal string such as "1500.00", not the number ${String(value)} (a float cannot carry money exactly)`,
    field,
    outcome: 'not_created',
  });
}

/** Checks a request; a create's refusal says nothing was created (`outcome`). */
function check(schema: z.ZodType, value: unknown, what: string, outcome?: CreateOutcome): unknown {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const { issue, path } = mostTellingIssue(parsed.error.issues[0]!);
  if (issue.code === 'unrecognized_keys') path.push(String(issue.keys[0]));
  const field = path.join('.') || what;
  const message = issue.code === 'unrecognized_keys' ? 'is not a field of this request' : issue.message;
  throw new ProviderError({ code: 'invalid_request', message: `invalid request: ${field}: ${message}`, field, ...(outcome && { outcome }) });
}

/**
 * For a union (e.g. an amount as string or number), the issue of the arm that got furthest: a failed
 * rule ("must be greater than zero") says more than "expected number".
 */
function mostTellingIssue(issue: z.core.$ZodIssue): { issue: z.core.$ZodIssue; path: string[] } {
  const path = issue.path.map(String);
  if (issue.code !== 'invalid_union' || issue.errors.length === 0) return { issue, path };
  const inner = issue.errors.flat();
  const best = inner.find((i) => i.code !== 'invalid_type') ?? inner[0];
  if (!best) return { issue, path };
  const deeper = mostTellingIssue(best);
  return { issue: deeper.issue, path: [...path, ...deeper.path] };
}

function throwViolations(violations: RuleViolation[], outcome?: CreateOutcome): void {
  const first = violations[0];
  if (first) {
    throw new ProviderError({ code: 'invalid_request', message: `invalid request: ${first.field}: ${first.message}`, field: first.field, ...(outcome && { outcome }) });
  }
}

function invalidOption(field: string, message: string): ProviderError {
  return new ProviderError({ code: 'invalid_request', message: `createProviderClient: ${message}`, field });
}

function checkBaseUrl(value: unknown): string {
  if (typeof value !== 'string') throw invalidOption('baseUrl', 'baseUrl must be an http(s) URL');
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw invalidOption('baseUrl', 'baseUrl must be an http(s) URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw invalidOption('baseUrl', 'baseUrl must be an http(s) URL');
  if (url.search || url.hash) throw invalidOption('baseUrl', 'baseUrl must not carry a query or fragment');
  return url.href.replace(/\/+$/, '');
}

function checkTimeout(value: unknown, field: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
    throw invalidOption(field, `${field} must be a positive number of milliseconds`);
  }
  return value;
}

function checkWindow(value: unknown, field: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > 10 * 60 * 1000) {
    throw invalidOption(field, `${field} must be a number of milliseconds from 0 to 600000`);
  }
  return value;
}

function checkRetries(value: unknown, field: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
    throw invalidOption(field, `${field} must be a whole number ≥ 0`);
  }
  return value;
}

/** setTimeout-based sleep that ends early (rejecting) when the signal aborts. */
function defaultSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** A copy of a thrown value with the key removed from every message (fetch errors nest causes). */
function sanitize(err: unknown, redact: (text: string) => string, depth = 0): Error {
  if (!(err instanceof Error)) return new Error(redact(String(err)));
  const copy = new Error(redact(err.message));
  copy.name = err.name;
  copy.stack = redact(err.stack ?? `${err.name}: ${err.message}`);
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string') (copy as Error & { code?: string }).code = code;
  if (err.cause !== undefined && depth < 3) copy.cause = sanitize(err.cause, redact, depth + 1);
  return copy;
}
