/**
 * The provider API under `/api/v1`: the nine endpoints of provider-api.md, plus the two that
 * merchants' production code relies on (provider-notes.md): `GET /api/v1/order/{id}` and
 * `POST /api/v1/disputes/create`. Bodies are read as the provider does: fields it does not know are
 * ignored (and named in the request log), amounts may be JSON numbers.
 */
import type { Hono } from 'hono';
import {
  CreateOrderRequestSchema,
  DisputeSearchQuerySchema,
  FormCreateRequestSchema,
  FormSearchQuerySchema,
  OrderSearchQuerySchema,
  OrdersQuerySchema,
  PaymentMethodsQuerySchema,
  TransactionsQuerySchema,
  type CreateOrderRequest,
  type FormCreateRequest,
} from '../../provider/schemas.js';
import { CURRENCIES, FORM_SESSION_STATES, LEGACY_ORDER_STATUSES, ORDER_STATUSES } from '../../provider/facts.js';
import { SandboxHttpError, fieldError, providerError } from '../errors.js';
import { formUrl } from '../form-sessions.js';
import { dateQueryMs, listDisputes, listOrders, listSessions, listTransactions, ordersByClientId, type PageResult } from '../lists.js';
import { normalizeAmount } from '../orders.js';
import { methodJson } from '../payment-methods.js';
import { UploadError, formText, readReceipts } from '../receipts.js';
import { balanceJson, disputeFilesJson, disputeJson, formDataJson, orderJson, sessionJson, transactionJson } from '../serialize.js';
import {
  noteIgnored,
  parseProviderBody,
  parseQuery,
  readJsonObject,
  readMultipart,
  type AppContext,
  type SandboxContext,
  type SandboxEnv,
} from './context.js';

const OK = 'Success';
const KNOWN_STATUSES: readonly string[] = [...ORDER_STATUSES, ...LEGACY_ORDER_STATUSES];

/** Form fields of `POST /api/v1/disputes/create`; receipts come in `files[]` (or `files`). */
export const DISPUTE_CREATE_FIELDS = { orderId: 'order_id', amount: 'amount', files: ['files[]', 'files'] } as const;

function mapPage<T, U>(page: PageResult<T>, f: (x: T) => U) {
  return { items: page.items.map(f), total: page.total, page: page.page, size: page.size, pages: page.pages };
}

function oneOf(field: string, value: string | undefined, allowed: readonly string[]): void {
  if (value !== undefined && !allowed.includes(value)) {
    throw fieldError('query', field, `must be one of ${allowed.join(', ')}`);
  }
}

/** An upload refused, as the provider API answers: 413 for sizes, 415 for a type, else 422 naming the field. */
function uploadRefusal(err: UploadError): SandboxHttpError {
  switch (err.problem) {
    case 'file_too_large':
    case 'total_too_large':
      return new SandboxHttpError(413, `Invalid request body: ${err.message}`);
    case 'unsupported_file':
      return new SandboxHttpError(415, `Unsupported file type: ${err.message}`);
    case 'not_multipart':
    case 'malformed':
      return new SandboxHttpError(422, `Invalid request body: ${err.message}`);
    default:
      return fieldError('body', err.field ?? 'body', err.message);
  }
}

export function registerApiRoutes(app: Hono<SandboxEnv>, ctx: AppContext): void {
  // In the document's order (`/order/search-by-client-order-id` before `/order/:id`).
  registerFormRoutes(app, ctx);
  registerDisputeRoutes(app, ctx);
  registerFinanceRoutes(app);
  registerOrderRoutes(app, ctx);
}

/** The hosted form's sessions: list and create. */
function registerFormRoutes(app: Hono<SandboxEnv>, ctx: AppContext): void {
  const { engine } = ctx;

  // 1. List form sessions: envelope at the top level.
  app.get('/api/v1/form/search', (c) => {
    const q = parseQuery(c, FormSearchQuerySchema);
    oneOf('state', q.state, FORM_SESSION_STATES);
    oneOf('currency', q.currency, CURRENCIES);
    const t = c.get('terminal');
    const page = listSessions(t, {
      page: q.page ?? 1,
      size: q.size ?? 10,
      order_id: q.order_id,
      client_order_id: q.client_order_id,
      session_id: q.session_id,
      state: q.state,
      currency: q.currency,
      terminal_id: q.terminal_id,
    });
    return c.json(mapPage(page, (s) => sessionJson(t, s)));
  });

  // 2. Create form.
  app.post('/api/v1/form/create', async (c) => {
    const t = c.get('terminal');
    const raw = await readJsonObject(c);
    // Terminal-level refusals come before the body's shape: the form is off, or Sell was asked.
    if (!t.settings.formActivated) throw providerError('form_not_activated');
    const od = raw.order_data;
    if (typeof od === 'object' && od !== null && (od as Record<string, unknown>).order_side === 'Sell') {
      throw providerError('form_sell_not_allowed');
    }
    const body = parseProviderBody(c, FormCreateRequestSchema, raw) as FormCreateRequest;
    const baseUrl = ctx.baseUrl(c.req.url);
    const session = engine.sessions.create(t, body, { baseUrl });
    return c.json({ success: true, message: OK, form_data: formDataJson(session, formUrl(baseUrl, session.id)) }, 201);
  });

}

/** Disputes: list, and the shopper's appeal with receipts. */
function registerDisputeRoutes(app: Hono<SandboxEnv>, ctx: AppContext): void {
  const { engine } = ctx;

  // 3. List disputes: envelope inside `data`.
  app.get('/api/v1/disputes/search', (c) => {
    const q = parseQuery(c, DisputeSearchQuerySchema);
    const page = listDisputes(c.get('terminal'), {
      page: q.page ?? 1,
      size: q.size ?? 10,
      order_id: q.order_id,
      dispute_id: q.dispute_id,
      processed: q.processed,
      start: dateQueryMs(q.start_date),
      end: dateQueryMs(q.end_date),
    });
    return c.json({ success: true, message: OK, data: mapPage(page, disputeJson) });
  });

  // Observed: the shopper's appeal with receipts (multipart: order_id, amount, files[]).
  app.post('/api/v1/disputes/create', async (c) => {
    const t = c.get('terminal');
    try {
      const form = await readMultipart(c);
      const orderId = formText(form, DISPUTE_CREATE_FIELDS.orderId)?.trim();
      if (!orderId) throw fieldError('body', 'order_id', 'is required (the order id of the service)');
      const amountText = formText(form, DISPUTE_CREATE_FIELDS.amount)?.trim();
      if (!amountText) throw fieldError('body', 'amount', 'is required (a decimal such as "1500.00")');
      const amount = normalizeAmount(amountText, t.digits);
      const known = new Set<string>([DISPUTE_CREATE_FIELDS.orderId, DISPUTE_CREATE_FIELDS.amount, ...DISPUTE_CREATE_FIELDS.files]);
      noteIgnored(c, [...new Set([...form.keys()].filter((k) => !known.has(k)))]);
      const order = t.data.ordersById.get(orderId);
      if (!order) throw providerError('order_not_found');
      const files = await readReceipts(form, DISPUTE_CREATE_FIELDS.files);
      const dispute = engine.disputes.open(t, order, { source: 'api', claimedAmount: amount, files });
      return c.json({ order_id: order.id, dispute_id: dispute.id, dispute_files: disputeFilesJson(dispute) }, 201);
    } catch (err) {
      if (err instanceof UploadError) throw uploadRefusal(err);
      throw err;
    }
  });

}

/** The terminal's money: transactions, payment methods, balance. */
function registerFinanceRoutes(app: Hono<SandboxEnv>): void {
  // 4. List transactions: envelope at the top level, size default 20.
  app.get('/api/v1/finance/transactions', (c) => {
    const q = parseQuery(c, TransactionsQuerySchema);
    const t = c.get('terminal');
    const page = listTransactions(t, {
      page: q.page ?? 1,
      size: q.size ?? 20,
      transaction_type: q.transaction_type,
      start: dateQueryMs(q.start_date),
      end: dateQueryMs(q.end_date),
    });
    return c.json(mapPage(page, (x) => transactionJson(t, x)));
  });

  // 5. List payment methods: `active` default false; `method_type` may be given several times.
  app.get('/api/v1/finance/payment_methods', (c) => {
    const q = parseQuery(c, PaymentMethodsQuerySchema, ['method_type']);
    const types = q.method_type === undefined ? null : new Set(Array.isArray(q.method_type) ? q.method_type : [q.method_type]);
    const methods = c.get('terminal').catalog.methods.filter((m) => (q.active !== true || m.active) && (types === null || types.has(m.type)));
    return c.json({ success: true, message: OK, payment_methods: methods.map(methodJson) });
  });

  // 6. Balance.
  app.get('/api/v1/finance/balance', (c) => c.json({ success: true, message: OK, deposit: balanceJson(c.get('terminal')) }));

}

/** Orders (H2H): create, list, find by client order id, one by id. */
function registerOrderRoutes(app: Hono<SandboxEnv>, ctx: AppContext): void {
  const { engine } = ctx;

  // 7. Create order (H2H).
  const createOrder = async (c: SandboxContext) => {
    const raw = await readJsonObject(c);
    const body = parseProviderBody(c, CreateOrderRequestSchema, raw) as CreateOrderRequest;
    const order = engine.createOrder(c.get('terminal'), body, { baseUrl: ctx.baseUrl(c.req.url) });
    return c.json(orderJson(order), 201);
  };
  app.post('/api/v1/order/', createOrder);
  app.post('/api/v1/order', createOrder);

  // 8. List orders: envelope inside `orders`; period defaults to the last 24 hours.
  const listOrdersRoute = (c: SandboxContext) => {
    const q = parseQuery(c, OrdersQuerySchema);
    oneOf('status', q.status, KNOWN_STATUSES);
    const page = listOrders(
      c.get('terminal'),
      {
        page: q.page ?? 1,
        size: q.size ?? 10,
        payment_method_id: q.payment_method_id,
        order_side: q.order_side,
        status: q.status,
        sort_by: q.sort_by ?? 'created_at',
        sort: q.sort ?? 'desc',
        start: dateQueryMs(q.start_date),
        end: dateQueryMs(q.end_date),
      },
      engine.now(),
    );
    return c.json({ success: true, message: OK, orders: mapPage(page, orderJson) });
  };
  app.get('/api/v1/order/', listOrdersRoute);
  app.get('/api/v1/order', listOrdersRoute);

  // 9. Orders by client order id: same shape as the list, one page. (Registered before `/order/:id`.)
  app.get('/api/v1/order/search-by-client-order-id', (c) => {
    const q = parseQuery(c, OrderSearchQuerySchema);
    const page = ordersByClientId(c.get('terminal'), q.id, q.size ?? 10);
    return c.json({ success: true, message: OK, orders: mapPage(page, orderJson) });
  });

  // Observed: one order by the service's id.
  app.get('/api/v1/order/:id', (c) => {
    const order = c.get('terminal').data.ordersById.get(c.req.param('id'));
    if (!order) throw providerError('order_not_found');
    return c.json({ success: true, message: OK, order: orderJson(order) });
  });
}

/** The endpoints (method, path) this module serves; the OpenAPI document describes exactly these. */
export const API_ROUTES: ReadonlyArray<{ method: 'get' | 'post'; path: string }> = [
  { method: 'get', path: '/api/v1/form/search' },
  { method: 'post', path: '/api/v1/form/create' },
  { method: 'get', path: '/api/v1/disputes/search' },
  { method: 'post', path: '/api/v1/disputes/create' },
  { method: 'get', path: '/api/v1/finance/transactions' },
  { method: 'get', path: '/api/v1/finance/payment_methods' },
  { method: 'get', path: '/api/v1/finance/balance' },
  { method: 'post', path: '/api/v1/order/' },
  { method: 'get', path: '/api/v1/order/' },
  { method: 'get', path: '/api/v1/order/search-by-client-order-id' },
  { method: 'get', path: '/api/v1/order/{id}' },
];

/** Paths whose bodies are uploads (the larger size limit applies). */
export const UPLOAD_PATHS: readonly RegExp[] = [/^\/api\/v1\/disputes\/create\/?$/, /^\/pay\/api\/sessions\/[^/]+\/dispute\/?$/];
