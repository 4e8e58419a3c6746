/**
 * Orders (provider-api.md 7–9, provider-notes.md "order by id"): create (H2H, sent once), list,
 * find by client order id, one by id, and every order page after page.
 */
import type { z } from 'zod';
import type { Call } from '../call.js';
import type { ClientContext } from '../context.js';
import { ProviderError } from '../errors.js';
import { orderMatchesRequest } from '../matching.js';
import { check, refuseNumberAmount, throwViolations } from '../request-checks.js';
import {
  CreateOrderRequestSchema,
  CreateOrderResponseSchema,
  createOrderRuleViolations,
  OrderResponseSchema,
  OrderSearchQuerySchema,
  OrdersQuerySchema,
  OrdersResponseSchema,
} from '../schemas.js';
import type { CreateOrderRequest, Order, OrderSearchQuery, OrdersQuery, Page } from '../schemas.js';
import type { ProviderClient } from '../types.js';
import { pagedList } from './pages.js';

const PATHS = {
  orders: '/api/v1/order/',
  orderSearch: '/api/v1/order/search-by-client-order-id',
  order: (id: string) => `/api/v1/order/${encodeURIComponent(id)}`,
} as const;

/** Fields of H2H creation that only the integration type `order_with_form` accepts. */
const ORDER_WITH_FORM_FIELDS = ['redirect_url', 'support_url', 'return_url', 'customer_bank'] as const;

type OrderMethods = Pick<ProviderClient, 'createOrder' | 'listOrders' | 'searchOrdersByClientOrderId' | 'getOrder' | 'listAllOrders'>;

export function orderMethods(ctx: ClientContext): OrderMethods {
  const { read, create, resolve, integrationType } = ctx;
  // Both order lists answer the same envelope.
  const ordersPage = {
    answer: OrdersResponseSchema,
    items: (answer: z.output<typeof OrdersResponseSchema>) => answer.orders as Page<Order>,
    id: (o: Order) => o.id,
  };
  const orders = pagedList<OrdersQuery, Order, typeof OrdersResponseSchema>(ctx, { path: PATHS.orders, query: OrdersQuerySchema, ...ordersPage });
  const byClientOrderId = pagedList<OrderSearchQuery, Order, typeof OrdersResponseSchema>(ctx, {
    path: PATHS.orderSearch,
    query: OrderSearchQuerySchema,
    ...ordersPage,
  });

  const methods: OrderMethods = {
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
          // The order a create made since `since`, found by its client order id (a lost answer's lookup).
          lookup: (since, rr) => byClientOrderId.findCreated({ id: req.client_order_id }, (o) => orderMatchesRequest(o, req), since, rr),
          onFound: (order) => order as z.output<typeof CreateOrderResponseSchema>,
          subject: 'the order',
          handle: `client_order_id ${req.client_order_id}`,
        },
        r,
      );
    },

    listOrders: (q, opts) => orders.page(q, opts),

    searchOrdersByClientOrderId: (q, opts) => byClientOrderId.page(q, opts),

    async getOrder(id, opts) {
      const r = resolve(opts);
      if (typeof id !== 'string' || id.trim() === '' || id.length > 256 || /[\u0000-\u001f\u007f]/.test(id)) {
        throw new ProviderError({ code: 'invalid_request', message: 'invalid request: id: must be the provider order id (1 to 256 printable characters)', field: 'id' });
      }
      const res = await read({ method: 'GET', path: PATHS.order(id), kind: 'order_read' }, OrderResponseSchema, r);
      return res.order;
    },

    listAllOrders: (q, opts) => orders.all(q, opts),
  };
  return methods;
}
