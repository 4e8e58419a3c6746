/**
 * The merchant's `resolveOrder`: called for every methods and sessions request, its answer checked
 * and normalised (the browser never says an amount; this is where the price comes from).
 */
import { MoneyError, parseAmount } from '../../money/index.js';
import { CheckoutError, internalError } from '../errors.js';
import type { ResolvedOrder } from '../options.js';
import { sanitizeUrl } from '../order-view.js';
import type { CheckoutCore } from './core.js';

/** resolveOrder's answer, checked and normalised. */
export interface CheckedOrder {
  amount: string;
  currency: string;
  client_order_id: string | null;
  user_id: string | null;
  customer_name: string | null;
  redirect_url: string | null;
  support_url: string | null;
  return_url: string | null;
  unique_amount: boolean;
}

export const PRINTABLE = /^[^\u0000-\u001f\u007f]+$/;

function orderError(message: string): CheckoutError {
  return new CheckoutError(500, 'internal_error', 'resolveOrder answered something that cannot be used for an order; the server log names the field.', {
    cause: new Error(message),
  });
}

/** Calls the merchant's resolveOrder and checks what it answers; null → 404 `order_not_found`. */
export async function resolveOrder(core: CheckoutCore, orderRef: string, request: Request): Promise<CheckedOrder> {
  const { cfg } = core;
  let r: ResolvedOrder | null;
  try {
    r = await cfg.resolveOrder(orderRef, request);
  } catch (err) {
    cfg.log.error('resolveOrder threw', { order_ref: orderRef, err });
    throw internalError(err);
  }
  if (r === null || r === undefined) {
    throw new CheckoutError(404, 'order_not_found', 'This order was not found.');
  }
  if (typeof r !== 'object') {
    cfg.log.error('resolveOrder must answer an object or null', { order_ref: orderRef });
    throw orderError('resolveOrder answered a non-object');
  }
  const currency = (r.currency ?? cfg.currency).toUpperCase();
  if (!/^[A-Z]{3,5}$/.test(currency)) {
    cfg.log.error('resolveOrder answered an invalid currency', { order_ref: orderRef, currency: r.currency });
    throw orderError('invalid currency');
  }
  let amount: string;
  try {
    amount = parseAmount(r.amount, { currency, field: 'amount' });
  } catch (err) {
    const message = err instanceof MoneyError ? err.message : String(err);
    cfg.log.error(`resolveOrder answered an invalid amount: ${message}`, { order_ref: orderRef });
    throw orderError('invalid amount');
  }
  const coid = r.client_order_id;
  if (coid !== undefined && coid !== null && (typeof coid !== 'string' || coid.length < 1 || coid.length > 64 || !PRINTABLE.test(coid))) {
    cfg.log.error('resolveOrder answered an invalid client_order_id (1 to 64 printable characters)', { order_ref: orderRef });
    throw orderError('invalid client_order_id');
  }
  const optionalText = (value: unknown, field: string, max: number): string | null => {
    if (value === undefined || value === null || value === '') return null;
    if (typeof value !== 'string' || value.length > max || !PRINTABLE.test(value)) {
      cfg.log.error(`resolveOrder answered an invalid ${field} (a string of at most ${max} characters)`, { order_ref: orderRef });
      throw orderError(`invalid ${field}`);
    }
    return value;
  };
  const url = (value: unknown, field: string): string | null => {
    if (value === undefined || value === null || value === '') return null;
    const clean = sanitizeUrl(value);
    if (clean === null || clean.length > 512) {
      cfg.log.warn(`resolveOrder answered a ${field} that is not an http(s) URL of at most 512 characters; it is left out`, {
        order_ref: orderRef,
      });
      return null;
    }
    return clean;
  };
  return {
    amount,
    currency,
    client_order_id: coid ?? null,
    user_id: optionalText(r.user_id, 'user_id', 256),
    customer_name: optionalText(r.customer_name, 'customer_name', 256),
    redirect_url: url(r.redirect_url, 'redirect_url'),
    support_url: url(r.support_url, 'support_url'),
    return_url: url(r.return_url, 'return_url'),
    unique_amount: r.unique_amount === true,
  };
}
