/** The provider API under `/api/v1`: the nine endpoints of provider-api.md. */
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
import { CATALOG, methodJson } from '../catalog.js';
import { fieldError, providerError } from '../errors.js';
import { formUrl } from '../engine.js';
import { dateQueryMs, listDisputes, listOrders, listSessions, listTransactions, ordersByClientId, type PageResult } from '../lists.js';
import { balanceJson, disputeJson, formDataJson, orderJson, sessionJson, transactionJson } from '../serialize.js';
import { parseBody, parseQuery, readJsonObject, type AppContext, type SandboxContext, type SandboxEnv } from './context.js';

const OK = 'Success';
const KNOWN_STATUSES: readonly string[] = [...ORDER_STATUSES, ...LEGACY_ORDER_STATUSES];

function mapPage<T, U>(page: PageResult<T>, f: (x: T) => U) {
  return { items: page.items.map(f), total: page.total, page: page.page, size: page.size, pages: page.pages };
}

function oneOf(field: string, value: string | undefined, allowed: readonly string[]): void {
  if (value !== undefined && !allowed.includes(value)) {
    throw fieldError('query', field, `must be one of ${allowed.join(', ')}`);
  }
}

export function registerApiRoutes(app: Hono<SandboxEnv>, ctx: AppContext): void {
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
    const body = parseBody(FormCreateRequestSchema, raw) as FormCreateRequest;
    const baseUrl = ctx.baseUrl(c.req.url);
    const session = engine.createForm(t, body, { baseUrl });
    return c.json({ success: true, message: OK, form_data: formDataJson(session, formUrl(baseUrl, session.id)) }, 201);
  });

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
    const methods = CATALOG.filter((m) => (q.active !== true || m.active) && (types === null || types.has(m.type)));
    return c.json({ success: true, message: OK, payment_methods: methods.map(methodJson) });
  });

  // 6. Balance.
  app.get('/api/v1/finance/balance', (c) => c.json({ success: true, message: OK, deposit: balanceJson(c.get('terminal')) }));

  // 7. Create order (H2H).
  const createOrder = async (c: SandboxContext) => {
    const raw = await readJsonObject(c);
    const body = parseBody(CreateOrderRequestSchema, raw) as CreateOrderRequest;
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

  // 9. Orders by client order id: same shape as the list, one page.
  app.get('/api/v1/order/search-by-client-order-id', (c) => {
    const q = parseQuery(c, OrderSearchQuerySchema);
    const page = ordersByClientId(c.get('terminal'), q.id, q.size ?? 10);
    return c.json({ success: true, message: OK, orders: mapPage(page, orderJson) });
  });
}

/** The documented endpoints (method, path) this module serves; the OpenAPI test checks against it. */
export const API_ROUTES: ReadonlyArray<{ method: 'get' | 'post'; path: string }> = [
  { method: 'get', path: '/api/v1/form/search' },
  { method: 'post', path: '/api/v1/form/create' },
  { method: 'get', path: '/api/v1/disputes/search' },
  { method: 'get', path: '/api/v1/finance/transactions' },
  { method: 'get', path: '/api/v1/finance/payment_methods' },
  { method: 'get', path: '/api/v1/finance/balance' },
  { method: 'post', path: '/api/v1/order/' },
  { method: 'get', path: '/api/v1/order/' },
  { method: 'get', path: '/api/v1/order/search-by-client-order-id' },
];
