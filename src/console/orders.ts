/** The console's orders: `GET /orders` (the provider's list, a `q` search, an exact client order id) and `GET /orders/{key}`. */
import type { Hono } from 'hono';
import type { Order } from '../provider/index.js';
import { check, dateOrder, defined, id, OrdersQuery, param, readQuery } from './checks.js';
import type { OrderDetailResponse, OrdersPage } from './contract.js';
import { ConsoleHttpError, invalid } from './errors.js';
import type { ReadContext } from './lists.js';
import { refundedSum, refundView } from './refunds.js';
import { minorUnits } from './views.js';
import { compareAmounts, currencyDigits, subtractAmounts } from '../money/index.js';

const maxZero = (a: string) => (compareAmounts(a, '0') < 0 ? '0.00' : a);

/** GET /orders (list, `q` search, exact client order id) and /orders/{key}. */
export function registerOrders(app: Hono, { client, shops, refunds }: ReadContext): void {
  /** The provider's page of orders, each row with the shop's session beside it. */
  const ordersPage = async (orders: { items: Order[]; total: number; page: number; size: number; pages: number }): Promise<OrdersPage> => ({
    items: await shops.rows(orders.items),
    total: orders.total,
    page: orders.page,
    size: orders.size,
    pages: orders.pages,
    search: null,
  });

  app.get('/orders', async (c) => {
    const q = check(OrdersQuery, readQuery(c));
    dateOrder(q);
    const { q: search, client_order_id: exact, page: pageNumber, size: pageSize, ...filters } = q;
    if (search !== undefined && exact !== undefined) throw invalid('q', 'give q or client_order_id, not both');
    if (search !== undefined) {
      return c.json((await shops.search(search, defined(filters), pageNumber ?? 1, pageSize ?? 10)) satisfies OrdersPage);
    }
    if (exact !== undefined) {
      const res = await client.searchOrdersByClientOrderId(defined({ id: exact, size: pageSize }));
      return c.json(await ordersPage(res));
    }
    const res = await client.listOrders(defined({ ...filters, page: pageNumber, size: pageSize }));
    return c.json(await ordersPage(res));
  });

  app.get('/orders/:key', async (c) => {
    const key = param(id, c.req.param('key'), 'key');
    const order = await shops.order(key);
    if (!order) throw new ConsoleHttpError(404, 'not_found', `neither the shop's sessions nor the provider have an order ${key}`);
    const list = order.id ? await refunds.current(order.id) : [];
    const view = order.provider && 'order' in order.provider ? order.provider.order : null;
    const paid = view && view.side === 'Buy' && (view.outcome === 'paid' || order.shop?.status === 'paid') ? minorUnits(view.amount, view.currency) : null;
    const digits = currencyDigits(view?.currency);
    const refundable = paid !== null && view ? { paid, amount: maxZero(subtractAmounts(paid, refundedSum(list, digits), digits)), currency: view.currency } : null;
    return c.json({ order: { ...order, refunds: list.map(refundView), refundable } } satisfies OrderDetailResponse);
  });
}
