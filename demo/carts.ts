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
 *   POST /demo/api/carts {"product": "<ref>"}  → 201 {"cart": "cart_…", "product": "<ref>"}
 *   GET  /demo/api/carts/{id}                  → 200 {"cart", "product"} | 404 cart_not_found
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
/** A cart id: `cart_` and 16 random base64url characters (96 bits). */
export const CART_ID = /^cart_[A-Za-z0-9_-]{16}$/;
const INDEX = 'carts';

export interface Carts {
  /** Opens a new cart for `product` (a catalog ref); null when the catalog has no such product. */
  open(product: string): Promise<{ cart: string; product: Product } | null>;
  /** The product of a live cart, or null (unknown, malformed, dropped or expired). */
  productOf(cart: string): Product | null;
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
  };
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

  app.get('/demo/api/carts/:id', (c) => {
    c.header('Cache-Control', 'no-store');
    const cart = c.req.param('id');
    const product = carts.productOf(cart);
    if (!product) return errorJson(c, 404, 'cart_not_found', 'This cart is unknown or has expired: pick a product again.');
    return c.json({ cart, product: product.ref });
  });
}
