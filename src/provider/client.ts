/**
 * The typed client of the provider API (provider-api.md): one method per endpoint, requests checked
 * before sending, answers checked after, typed errors, retries for reads, and creation calls that
 * never make two orders for one logical create.
 *
 * Works with any WHATWG `fetch` (Node 20, browsers, Deno, Bun); no Node-only imports.
 */
import type { z } from 'zod';
import { addAmounts, compareAmounts, numberToDecimal } from '../money/index.js';
import { classifyProviderError, extractErrorMessage, parseRetryAfter, ProviderError } from './errors.js';
import type { EndpointKind } from './errors.js';
import {
  BalanceResponseSchema,
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
  OrderSearchQuerySchema,
  OrdersQuerySchema,
  OrdersResponseSchema,
  PaymentMethodsQuerySchema,
  PaymentMethodsResponseSchema,
  TransactionsQuerySchema,
  TransactionsResponseSchema,
} from './schemas.js';
import type {
  CreateOrderRequest,
  FormCreateRequest,
  FormCreateResponse,
  FormSession,
  Order,
  RuleViolation,
} from './schemas.js';
import type { ProviderClient, ProviderClientOptions, RequestOptions } from './types.js';

export const DEFAULT_TIMEOUT_MS = 15_000;
export const DEFAULT_MAX_RETRIES = 2;
/** Backoff: the first wait is about this long, then doubles per retry ... */
export const BACKOFF_BASE_MS = 500;
/** ... up to this cap. */
export const BACKOFF_CAP_MS = 8_000;
/** A `Retry-After` longer than this is not waited for: the error is thrown with `retryAfterMs`. */
export const MAX_RETRY_AFTER_MS = 60_000;
/** `unique_amount`: the provider may raise the amount by up to this much (provider-api.md, Limits). */
const UNIQUE_AMOUNT_SPREAD = '9';
/** Lookups after a lost create ask for this many candidates (the document's maximum page size). */
const LOOKUP_SIZE = 100;

const PATHS = {
  formSearch: '/api/v1/form/search',
  formCreate: '/api/v1/form/create',
  disputes: '/api/v1/disputes/search',
  transactions: '/api/v1/finance/transactions',
  paymentMethods: '/api/v1/finance/payment_methods',
  balance: '/api/v1/finance/balance',
  orders: '/api/v1/order/',
  orderSearch: '/api/v1/order/search-by-client-order-id',
} as const;

/** Fields of H2H creation that only the integration type `order_with_form` accepts. */
const ORDER_WITH_FORM_FIELDS = ['redirect_url', 'support_url', 'return_url', 'customer_bank'] as const;

interface Call {
  method: 'GET' | 'POST';
  path: string;
  kind: EndpointKind;
  query?: URLSearchParams;
  body?: unknown;
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
    };
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
    let body: string | undefined;
    if (call.body !== undefined) {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(call.body);
    }
    try {
      if (transport) {
        return await transport({ method: call.method, url, headers, ...(body !== undefined && { body }), signal });
      }
      const res = await fetchImpl(url, { method: call.method, headers, body, signal, redirect: 'error' });
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
   * A create: sent once; after a lost answer (network error, timeout, ambiguous 5xx) the client looks
   * the result up and only sends again when the lookup proves nothing was created.
   */
  async function create<S extends z.ZodType, F>(
    call: Call,
    schema: S,
    r: Resolved,
    lookup: (r: Resolved) => Promise<F | undefined>,
    onFound: (found: F, lost: ProviderError) => z.output<S>,
    subject: string,
  ): Promise<z.output<S>> {
    for (let attempt = 0; ; attempt++) {
      let lost: ProviderError;
      try {
        return interpret(call, await send(call, r), schema);
      } catch (err) {
        if (err instanceof ProviderError && err.code === 'invalid_response') {
          // The create took effect (2xx) but its answer is unreadable: say so, so nobody creates again.
          throw new ProviderError({
            code: 'invalid_response',
            message: `${err.message}; ${subject} was probably created: look it up before creating it again`,
            status: err.status,
            retryable: false,
            endpoint: label(call),
            ...(err.path !== undefined && { path: err.path }),
            ...(err.requestId !== undefined && { requestId: err.requestId }),
          });
        }
        if (!(err instanceof ProviderError) || !isLostAnswer(err)) throw err;
        lost = err;
      }
      await wait(backoff(attempt), r.signal);
      let found: F | undefined;
      try {
        found = await lookup(r);
      } catch (err) {
        if (!(err instanceof ProviderError)) throw err;
        throw new ProviderError({
          code: lost.code,
          message:
            `${label(call)}: the answer was lost (${lost.message}) and the lookup failed (${err.message}); ` +
            `${subject} may exist: look it up before creating it again`,
          status: lost.status,
          providerMessage: lost.providerMessage,
          retryable: true,
          endpoint: label(call),
          cause: err,
        });
      }
      if (found !== undefined) return onFound(found, lost);
      if (attempt >= r.maxRetries) {
        throw new ProviderError({
          code: lost.code,
          message: `${lost.message}; the lookup shows ${subject} was not created (${attempt + 1} attempt${attempt ? 's' : ''})`,
          status: lost.status,
          providerMessage: lost.providerMessage,
          retryable: true,
          endpoint: label(call),
          ...(lost.retryAfterMs !== undefined && { retryAfterMs: lost.retryAfterMs }),
          ...(lost.requestId !== undefined && { requestId: lost.requestId }),
        });
      }
    }
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

  async function findCreatedOrder(req: CreateOrderRequest, r: Resolved): Promise<Order | undefined> {
    const params = new URLSearchParams({ id: req.client_order_id, size: String(LOOKUP_SIZE) });
    const page = await read({ method: 'GET', path: PATHS.orderSearch, kind: 'read', query: params }, OrdersResponseSchema, r);
    return latest(page.orders.items.filter((o) => orderMatches(o, req)));
  }

  async function findCreatedSession(req: FormCreateRequest, r: Resolved): Promise<FormSession | undefined> {
    const params = new URLSearchParams({ client_order_id: req.order_data.client_order_id, size: String(LOOKUP_SIZE) });
    const page = await read({ method: 'GET', path: PATHS.formSearch, kind: 'read', query: params }, FormSearchResponseSchema, r);
    return latest(page.items.filter((s) => sessionMatches(s, req)));
  }

  const client: ProviderClient = {
    async searchFormSessions(q, opts) {
      const call: Call = { method: 'GET', path: PATHS.formSearch, kind: 'read', query: query(FormSearchQuerySchema, q, 'query') };
      return read(call, FormSearchResponseSchema, resolve(opts));
    },

    async createForm(body, opts) {
      const r = resolve(opts);
      const req = check(FormCreateRequestSchema, body, 'body') as FormCreateRequest;
      throwViolations(formCreateRuleViolations(req));
      const call: Call = { method: 'POST', path: PATHS.formCreate, kind: 'form_create', body: req };
      return create(
        call,
        FormCreateResponseSchema,
        r,
        (rr) => findCreatedSession(req, rr),
        (session, lost): FormCreateResponse => {
          // form_url is not part of a session and its address is the provider's to choose, so the
          // creation answer cannot be rebuilt honestly: hand the found session to the caller instead.
          throw new ProviderError({
            code: 'network',
            message:
              `${label(call)}: the answer was lost (${lost.message}), but the form session ${session.session_id} ` +
              `was created; do not create it again: resume with error.formSession`,
            retryable: true,
            endpoint: label(call),
            formSession: session,
          });
        },
        'the form session',
      );
    },

    async searchDisputes(q, opts) {
      const call: Call = { method: 'GET', path: PATHS.disputes, kind: 'read', query: query(DisputeSearchQuerySchema, q, 'query') };
      return read(call, DisputeSearchResponseSchema, resolve(opts));
    },

    async listTransactions(q, opts) {
      const call: Call = { method: 'GET', path: PATHS.transactions, kind: 'read', query: query(TransactionsQuerySchema, q, 'query') };
      return read(call, TransactionsResponseSchema, resolve(opts));
    },

    async listPaymentMethods(q, opts) {
      const call: Call = {
        method: 'GET',
        path: PATHS.paymentMethods,
        kind: 'read',
        query: query(PaymentMethodsQuerySchema, q, 'query'),
      };
      return read(call, PaymentMethodsResponseSchema, resolve(opts));
    },

    async getBalance(opts) {
      return read({ method: 'GET', path: PATHS.balance, kind: 'read' }, BalanceResponseSchema, resolve(opts));
    },

    async createOrder(body, opts) {
      const r = resolve(opts);
      const req = check(CreateOrderRequestSchema, body, 'body') as CreateOrderRequest;
      throwViolations(createOrderRuleViolations(req));
      if (integrationType === 'plain') {
        const extra = ORDER_WITH_FORM_FIELDS.find((f) => req[f] != null);
        if (extra) {
          throwViolations([{ field: extra, message: `${extra} is only for the integration type order_with_form` }]);
        }
      }
      const call: Call = { method: 'POST', path: PATHS.orders, kind: 'order_create', body: req };
      return create(call, CreateOrderResponseSchema, r, (rr) => findCreatedOrder(req, rr), (order) => order, 'the order');
    },

    async listOrders(q, opts) {
      const call: Call = { method: 'GET', path: PATHS.orders, kind: 'read', query: query(OrdersQuerySchema, q, 'query') };
      return read(call, OrdersResponseSchema, resolve(opts));
    },

    async searchOrdersByClientOrderId(q, opts) {
      const call: Call = { method: 'GET', path: PATHS.orderSearch, kind: 'read', query: query(OrderSearchQuerySchema, q, 'query') };
      return read(call, OrdersResponseSchema, resolve(opts));
    },
  };
  return Object.freeze(client);
}

// -----------------------------------------------------------------------------------------------
// Helpers (no access to the key)

/** An answer that does not tell whether the create took effect. */
function isLostAnswer(err: ProviderError): boolean {
  if (err.code === 'network' || err.code === 'timeout') return true;
  // A 5xx other than the documented soft refusal ("no available traders": nothing was created).
  return err.code === 'provider_error' && err.status !== null && err.status >= 500;
}

/** Does a found order belong to this create request? Same client_order_id, side and amount. */
function orderMatches(order: Order, req: CreateOrderRequest): boolean {
  if (order.client_order_id !== req.client_order_id || order.order_side !== req.order_side) return false;
  if (req.customer_account != null && order.customer_account != null && order.customer_account !== req.customer_account) {
    return false;
  }
  return amountMatches(order.amount, req.amount, req.unique_amount === true);
}

function sessionMatches(session: FormSession, req: FormCreateRequest): boolean {
  const data = req.order_data;
  if (session.client_order_id !== data.client_order_id || session.order_side !== data.order_side) return false;
  return amountMatches(session.amount, data.amount, data.unique_amount === true);
}

/** Exact amount, or with `unique_amount` anywhere from the amount to the amount + 9. */
function amountMatches(found: string, requested: string | number, unique: boolean): boolean {
  try {
    const want = typeof requested === 'number' ? numberToDecimal(requested) : requested;
    if (!unique) return compareAmounts(found, want) === 0;
    return compareAmounts(found, want) >= 0 && compareAmounts(found, addAmounts(want, UNIQUE_AMOUNT_SPREAD)) <= 0;
  } catch {
    return false;
  }
}

/** The most recently created of several candidates. */
function latest<T extends { created_at: string }>(items: T[]): T | undefined {
  let best: T | undefined;
  for (const item of items) {
    if (!best || (Date.parse(item.created_at) || 0) >= (Date.parse(best.created_at) || 0)) best = item;
  }
  return best;
}

function check(schema: z.ZodType, value: unknown, what: string): unknown {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const { issue, path } = mostTellingIssue(parsed.error.issues[0]!);
  if (issue.code === 'unrecognized_keys') path.push(String(issue.keys[0]));
  const field = path.join('.') || what;
  const message = issue.code === 'unrecognized_keys' ? 'is not a field of this request' : issue.message;
  throw new ProviderError({ code: 'invalid_request', message: `invalid request: ${field}: ${message}`, field });
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

function throwViolations(violations: RuleViolation[]): void {
  const first = violations[0];
  if (first) {
    throw new ProviderError({ code: 'invalid_request', message: `invalid request: ${first.field}: ${first.message}`, field: first.field });
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
