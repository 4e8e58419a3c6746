/**
 * Orders (provider-api.md 7–9, provider-notes.md "order by id"): create (H2H, sent once), list,
 * find by client order id, one by id, and every order page after page.
 */
import type { z } from 'zod';
import type { Call } from '../call.js';
import type { ClientContext } from '../context.js';
import { LOOKUP_SIZE } from '../create-once.js';
import { ProviderError } from '../errors.js';
import { createdSince, latestCreated, orderMatchesRequest } from '../matching.js';
import { check, queryOf, refuseNumberAmount, throwViolations } from '../request-checks.js';
import type { Resolved } from '../options.js';
import {
  CreateOrderRequestSchema,
  CreateOrderResponseSchema,
  createOrderRuleViolations,
  OrderResponseSchema,
  OrderSearchQuerySchema,
  OrdersQuerySchema,
  OrdersResponseSchema,
} from '../schemas.js';
import type { CreateOrderRequest, Order, Page } from '../schemas.js';
import { eachItem, type ProviderClient } from '../types.js';

const PATHS = {
  orders: '/api/v1/order/',
  orderSearch: '/api/v1/order/search-by-client-order-id',
  order: (id: string) => `/api/v1/order/${encodeURIComponent(id)}`,
} as const;

/** Fields of H2H creation that only the integration type `order_with_form` accepts. */
const ORDER_WITH_FORM_FIELDS = ['redirect_url', 'support_url', 'return_url', 'customer_bank'] as const;

type OrderMethods = Pick<ProviderClient, 'createOrder' | 'listOrders' | 'searchOrdersByClientOrderId' | 'getOrder' | 'listAllOrders'>;

export function orderMethods({ read, create, resolve, integrationType }: ClientContext): OrderMethods {
  /** The order a create made since `sinceMs`, found by its client order id (a lost answer's lookup). */
  async function findCreatedOrder(req: CreateOrderRequest, sinceMs: number, r: Resolved): Promise<Order | undefined> {
    const params = new URLSearchParams({ id: req.client_order_id, size: String(LOOKUP_SIZE) });
    const page = await read({ method: 'GET', path: PATHS.orderSearch, kind: 'read', query: params }, OrdersResponseSchema, r);
    return latestCreated(page.orders.items.filter((o) => orderMatchesRequest(o, req) && createdSince(o, sinceMs)));
  }

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
          lookup: (since, rr) => findCreatedOrder(req, since, rr),
          onFound: (order) => order as z.output<typeof CreateOrderResponseSchema>,
          subject: 'the order',
          handle: `client_order_id ${req.client_order_id}`,
        },
        r,
      );
    },

    async listOrders(q, opts) {
      const call: Call = { method: 'GET', path: PATHS.orders, kind: 'read', query: queryOf(OrdersQuerySchema, q, 'query') };
      return (await read(call, OrdersResponseSchema, resolve(opts))).orders as Page<Order>;
    },

    async searchOrdersByClientOrderId(q, opts) {
      const call: Call = { method: 'GET', path: PATHS.orderSearch, kind: 'read', query: queryOf(OrderSearchQuerySchema, q, 'query') };
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

    listAllOrders(q, opts) {
      return eachItem((page) => methods.listOrders({ size: 100, ...q, page }, opts), (o) => o.id);
    },
  };
  return methods;
}
