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
export function registerOrders(app: Hono, { client, shops, refunds, doubles }: ReadContext): void {
  /** The rows with each double payment's shop state marked (read only when a row is a paid session). */
  const marked = async (page: OrdersPage): Promise<OrdersPage> => {
    if (!page.items.some((r) => r.shop?.status === 'paid')) return page;
    const known = await doubles(new Set(page.items.flatMap((r) => (r.id && r.shop?.status === 'paid' ? [r.id] : []))));
    return { ...page, items: page.items.map((r) => (r.shop && r.id && known.has(r.id) ? { ...r, shop: { ...r.shop, double_payment: known.get(r.id)! } } : r)) };
  };
  /** The provider's page of orders, each row with the shop's session beside it. */
  const ordersPage = async (orders: { items: Order[]; total: number; page: number; size: number; pages: number }): Promise<OrdersPage> =>
    marked({
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
      return c.json((await marked(await shops.search(search, defined(filters), pageNumber ?? 1, pageSize ?? 10))) satisfies OrdersPage);
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
    const double = order.id && order.shop?.status === 'paid' ? ((await doubles()).get(order.id) ?? null) : null;
    const shop = order.shop && double ? { ...order.shop, double_payment: double } : order.shop;
    return c.json({ order: { ...order, shop, refunds: list.map(refundView), refundable } } satisfies OrderDetailResponse);
  });
}
