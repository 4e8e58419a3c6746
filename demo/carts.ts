/**
 * The storefront's carts: each "Buy" opens one, and its id (`cart_<random>`) is the `order_ref` the
 * widget sends, so every purchase is its own order (a second tab's "Buy" never takes over the first
 * tab's order). The cart → product mapping lives here, on the server: the token endpoint's
 * `resolveOrder` prices a cart from its product in the catalog, so a shopper cannot change a price.
 *
 * Kept in a store's sorted index (member `<cart id> <product ref>`, score = when it was opened): in the
 * data directory it survives a restart like the rest of the demo's state. At most {@link MAX_CARTS}
 * are kept (the oldest go first) and none older than {@link CART_TTL_MS}; a cart that is gone reads
 * as unknown (the storefront then says so and offers the products again).
 *
 * The shop's own record of a cart's payment lives beside it in the same store (as durable as the
 * carts): the first paid order of a cart is the one fulfilled ({@link Carts.markPaid}); another paid
 * order of the same cart is a double payment to refund, never a second fulfilment.
 *
 *   POST /demo/api/carts {"product": "<ref>"}  → 201 {"cart": "cart_…", "product": "<ref>"}
 *   GET  /demo/api/carts/{id}                  → 200 {"cart", "product", "paid": null | {"order_id", "client_order_id", "at"},
 *                                                        "double_payments": ["<provider order id>", …]}
 *                                                | 404 cart_not_found
 */
import { randomBytes } from 'node:crypto';
import type { Hono } from 'hono';
import type { CheckoutStore } from '../src/server/index.js';
import type { Product } from './catalog.js';
import { errorJson } from './http.js';

/** How many carts are kept at most (the oldest are dropped first). */
export const MAX_CARTS = 10_000;
/** How long a cart is kept after it was opened (7 days). */
export const CART_TTL_MS = 7 * 24 * 3600_000;
/**
 * How long a cart's payment record is kept (30 days): past any late payment of its orders (an order
 * may be paid up to the handler's late window, 7 days, after it ended, and a receipt's dispute is
 * followed 7 days more), so a late one is always seen as a double payment, never fulfilled again.
 */
export const PAYMENT_TTL_MS = 30 * 24 * 3600_000;
/** A cart id: `cart_` and 16 random base64url characters (96 bits). */
export const CART_ID = /^cart_[A-Za-z0-9_-]{16}$/;
const INDEX = 'carts';
/** Store keys of the payment records: `demo:cart-paid:<cart>` (the fulfilled order) and the double payments' index. */
const PAID_KEY = (cart: string) => `demo:cart-paid:${cart}`;
const DOUBLES_INDEX = (cart: string) => `demo:cart-doubles:${cart}`;

/** The shop's record of a cart's payment: the provider order that paid it (and was fulfilled). */
export interface CartPayment {
  order_id: string;
  /** Its client order id: the order number the widget showed the shopper. */
  client_order_id: string;
  /** When the shop learned of it (ms). */
  at: number;
}

/** What {@link Carts.markPaid} decided for a paid order. */
export type PaidOutcome =
  | { outcome: 'fulfil' }
  /** The same order again (a repeated hook): already fulfilled, nothing to do. */
  | { outcome: 'already' }
  /** Another order of a cart already paid by `paid`: a double payment, to refund. */
  | { outcome: 'double'; paid: CartPayment };

export interface Carts {
  /** Opens a new cart for `product` (a catalog ref); null when the catalog has no such product. */
  open(product: string): Promise<{ cart: string; product: Product } | null>;
  /** The product of a live cart, or null (unknown, malformed, dropped or expired). */
  productOf(cart: string): Product | null;
  /**
   * Records that `order` (the provider's order id and its client order id) paid `cart` (atomic in the store): `fulfil` for the cart's first paid order,
   * `already` for that order again, `double` for any other order (also recorded, see {@link paymentOf}).
   */
  markPaid(cart: string, order: { order_id: string; client_order_id: string }): Promise<PaidOutcome>;
  /** The cart's payment and the double payments seen (provider order ids), or null when it is unpaid. */
  paymentOf(cart: string): Promise<(CartPayment & { double_payments: string[] }) | null>;
  /**
   * Whether a create request may price this cart: only while it is unpaid. A paid cart gets no new
   * order, and no replay either: a key whose create failed or lapsed would make one.
   */
  mayCreate(cart: string): Promise<boolean>;
}

/** The carts of `products`, kept in `store` (loaded once here). */
export async function openCarts(store: CheckoutStore, products: readonly Product[], options: { now?: () => number; max?: number } = {}): Promise<Carts> {
  const now = options.now ?? Date.now;
  const max = options.max ?? MAX_CARTS;
  const byRef = new Map(products.map((p) => [p.ref, p]));
  /** cart id → [product ref, opened at], oldest first (the index's order). */
  const live = new Map<string, { ref: string; at: number }>();
  for (const { member, score } of await store.indexRange(INDEX, { limit: max + 1, reverse: true })) {
    const [cart, ref] = member.split(' ');
    if (cart && ref && CART_ID.test(cart)) live.set(cart, { ref, at: score });
  }
  // The index answered newest first (so the newest `max` survive): keep the map oldest first.
  const ordered = [...live].reverse();
  live.clear();
  for (const [cart, v] of ordered) live.set(cart, v);

  const fresh = (at: number) => at > now() - CART_TTL_MS;

  return {
    async open(ref) {
      const product = byRef.get(ref);
      if (!product) return null;
      const cart = `cart_${randomBytes(12).toString('base64url')}`;
      const at = now();
      await store.indexSet(INDEX, `${cart} ${ref}`, at);
      live.set(cart, { ref, at });
      if (live.size > max) {
        await store.indexTrim(INDEX, max);
        for (const old of live.keys()) {
          if (live.size <= max) break;
          live.delete(old);
        }
      }
      return { cart, product };
    },
    productOf(cart) {
      if (typeof cart !== 'string' || !CART_ID.test(cart)) return null;
      const entry = live.get(cart);
      if (!entry || !fresh(entry.at)) return null;
      return byRef.get(entry.ref) ?? null;
    },
    async markPaid(cart, order) {
      const at = now();
      const record: CartPayment = { order_id: order.order_id, client_order_id: order.client_order_id, at };
      if (await store.create(PAID_KEY(cart), JSON.stringify(record), PAYMENT_TTL_MS)) return { outcome: 'fulfil' };
      const paid = await readPayment(cart);
      if (!paid || paid.order_id === order.order_id) return { outcome: 'already' };
      await store.indexSet(DOUBLES_INDEX(cart), order.order_id, at);
      return { outcome: 'double', paid };
    },
    async paymentOf(cart) {
      const paid = await readPayment(cart);
      if (!paid) return null;
      const doubles = await store.indexRange(DOUBLES_INDEX(cart), { limit: 100 });
      return { ...paid, double_payments: doubles.map((d) => d.member) };
    },
    async mayCreate(cart) {
      return (await readPayment(cart)) === null;
    },
  };

  async function readPayment(cart: string): Promise<CartPayment | null> {
    const stored = await store.get(PAID_KEY(cart));
    if (!stored) return null;
    try {
      const v = JSON.parse(stored.value) as Partial<CartPayment>;
      return typeof v.order_id === 'string' && typeof v.client_order_id === 'string' && typeof v.at === 'number'
        ? { order_id: v.order_id, client_order_id: v.client_order_id, at: v.at }
        : null;
    } catch {
      return null;
    }
  }
}

/** The product an `order_ref` buys: a cart's product, or (older links, the code panel's snippets) a product ref itself. */
export function productForRef(carts: Carts, products: readonly Product[], orderRef: string): Product | null {
  if (orderRef.startsWith('cart_')) return carts.productOf(orderRef);
  return products.find((p) => p.ref === orderRef) ?? null;
}

/** `POST /demo/api/carts` and `GET /demo/api/carts/{id}` (the storefront's own routes, X-Paydesk on POST). */
export function registerCartRoutes(app: Hono, carts: Carts): void {
  app.post('/demo/api/carts', async (c) => {
    if (c.req.header('x-paydesk') !== '1') return errorJson(c, 403, 'missing_protocol_header', 'POST requests need the header X-Paydesk: 1');
    const body = (await c.req.json().catch(() => null)) as { product?: unknown } | null;
    const ref = body?.product;
    if (typeof ref !== 'string' || ref.length === 0 || ref.length > 64) {
      return errorJson(c, 400, 'validation_failed', 'product: the ref of a product of the catalog is required, e.g. {"product": "coffee-beans"}.');
    }
    const opened = await carts.open(ref);
    if (!opened) return errorJson(c, 404, 'product_not_found', `There is no product "${ref}" in the catalog.`);
    c.header('Cache-Control', 'no-store');
    return c.json({ cart: opened.cart, product: opened.product.ref }, 201);
  });

  app.get('/demo/api/carts/:id', async (c) => {
    c.header('Cache-Control', 'no-store');
    const cart = c.req.param('id');
    const product = carts.productOf(cart);
    if (!product) return errorJson(c, 404, 'cart_not_found', 'This cart is unknown or has expired: pick a product again.');
    const payment = await carts.paymentOf(cart);
    return c.json({
      cart,
      product: product.ref,
      paid: payment && { order_id: payment.order_id, client_order_id: payment.client_order_id, at: new Date(payment.at).toISOString() },
      double_payments: payment?.double_payments ?? [],
    });
  });
}
