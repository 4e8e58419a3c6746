/**
 * The storefront's products (`demo/catalog.json`) and the token endpoint's `resolveOrder` over them:
 * the price of an order is decided here, on the server, from its `order_ref`; the browser never
 * sends an amount.
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { MoneyError, parseAmount } from '../src/money/index.js';

export interface Product {
  /** The `order_ref` the widget sends. */
  ref: string;
  /** Russian title (the catalog's primary language). */
  title: string;
  title_en: string;
  /** Decimal string in RUB, e.g. `"1500.00"`. */
  amount: string;
  /** Name of the illustration under `demo/public/img/`. */
  image: string;
}

const REF = /^[a-z0-9][a-z0-9-]{0,47}$/;

const ProductSchema = z.object({
  ref: z.string().regex(REF, 'must be 1-48 lower-case letters, digits or dashes'),
  title: z.string().min(1).max(120),
  title_en: z.string().min(1).max(120).optional(),
  amount: z.string(),
  image: z
    .string()
    .regex(/^[a-z0-9-]{1,32}$/)
    .optional(),
});

export class CatalogError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CatalogError';
  }
}

/** Checks a parsed catalog: an array of products with unique refs and valid decimal amounts. */
export function parseCatalog(value: unknown, source = 'catalog'): Product[] {
  if (!Array.isArray(value) || value.length === 0) throw new CatalogError(`${source}: expected a non-empty JSON array of products`);
  const seen = new Set<string>();
  return value.map((raw, i) => {
    const r = ProductSchema.safeParse(raw);
    if (!r.success) {
      const issue = r.error.issues[0];
      throw new CatalogError(`${source}[${i}].${issue?.path.join('.') ?? ''}: ${issue?.message ?? 'invalid product'}`);
    }
    const p = r.data;
    if (seen.has(p.ref)) throw new CatalogError(`${source}[${i}].ref: "${p.ref}" appears twice`);
    seen.add(p.ref);
    let amount: string;
    try {
      amount = parseAmount(p.amount, { currency: 'RUB', field: `${source}[${i}].amount` });
    } catch (err) {
      throw new CatalogError(err instanceof MoneyError ? err.message : String(err));
    }
    return { ref: p.ref, title: p.title, title_en: p.title_en ?? p.title, amount, image: p.image ?? 'gift' };
  });
}

export const DEFAULT_CATALOG_URL = new URL('./catalog.json', import.meta.url);

/** Reads and checks `demo/catalog.json` (or another file of the same shape). */
export function loadCatalog(path: string | URL = DEFAULT_CATALOG_URL): Product[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new CatalogError(`cannot read the catalog ${String(path)}: ${(err as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new CatalogError(`the catalog ${String(path)} is not valid JSON: ${(err as Error).message}`);
  }
  return parseCatalog(json, 'catalog');
}

export interface ResolveOptions {
  /** Where the shopper lands 5 s after paying (absolute http(s)). */
  redirectUrl?: (product: Product) => string | null;
  returnUrl?: (product: Product) => string | null;
  supportUrl?: string | null;
}

/** The token endpoint's `resolveOrder`: the catalog's price for a known ref, null (→ 404) otherwise. */
export function catalogResolver(products: readonly Product[], options: ResolveOptions = {}) {
  const byRef = new Map(products.map((p) => [p.ref, p]));
  return (orderRef: string) => {
    const product = byRef.get(orderRef);
    if (!product) return null;
    return {
      amount: product.amount,
      currency: 'RUB',
      redirect_url: options.redirectUrl?.(product) ?? null,
      return_url: options.returnUrl?.(product) ?? null,
      support_url: options.supportUrl ?? null,
    };
  };
}
