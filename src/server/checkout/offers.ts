/**
 * The payment methods an order may be paid with: the provider's list (cached by MethodsCache), the
 * Buy methods whose range holds the amount, with fees — worked out once per amount and currency for
 * each list the provider gave, frozen and shared.
 */
import type { PaymentMethod } from '../../provider/schemas.js';
import { CheckoutError, fromProviderError } from '../errors.js';
import { MethodsCache, offersFor, selectMethod } from '../methods.js';
import type { MethodOffer, MethodRequest, MethodSelection } from '../methods.js';
import type { IntegrationMode } from '../../protocol/index.js';
import type { CheckoutCore } from './core.js';
import type { CheckedOrder } from './resolve.js';

/** Amounts whose offers are kept per methods list (beyond it, the cache starts over). */
const OFFER_CACHE_SIZE = 1000;

function freezeOffer(offer: MethodOffer): MethodOffer {
  Object.freeze(offer.view);
  return Object.freeze(offer);
}

export class Offers {
  readonly methods: MethodsCache;
  private cache: { methods: readonly PaymentMethod[]; byAmount: Map<string, readonly MethodOffer[]> } | null = null;

  constructor(private readonly core: CheckoutCore) {
    this.methods = new MethodsCache(core.cfg.client, core.cfg.methodsCacheMs, core.cfg.now);
  }

  /** Active Buy methods that accept the order's amount, with fees. */
  async for(order: CheckedOrder): Promise<readonly MethodOffer[]> {
    let methods;
    try {
      methods = await this.methods.list();
    } catch (err) {
      this.core.logProviderFailure('listing payment methods failed', err);
      throw fromProviderError(err);
    }
    let cache = this.cache;
    if (cache?.methods !== methods) cache = this.cache = { methods, byAmount: new Map() };
    const key = `${order.currency} ${order.amount}`;
    let offers = cache.byAmount.get(key);
    if (!offers) {
      offers = Object.freeze(offersFor(methods, order.amount, order.currency, this.core.cfg.feePayer).map(freezeOffer));
      if (cache.byAmount.size >= OFFER_CACHE_SIZE) cache.byAmount.clear();
      cache.byAmount.set(key, offers);
    }
    if (offers.length === 0) this.checkCurrency(methods, order.currency);
    return offers;
  }

  /**
   * No method for the order: when the terminal's methods are all in other currencies (a handler or a
   * `resolveOrder` left on RUB with a UZS terminal), say so in the log and in the error, not only
   * "no method".
   */
  private checkCurrency(methods: readonly PaymentMethod[], currency: string): void {
    const terminal = [...new Set(methods.filter((m) => m.active !== false).map((m) => m.method_currency.toUpperCase()))].sort();
    if (terminal.length === 0 || terminal.includes(currency.toUpperCase())) return;
    this.core.cfg.log.error('currency mismatch: the order is in a currency the payment terminal does not take', {
      order_currency: currency,
      terminal_currencies: terminal,
    });
    throw new CheckoutError(
      409,
      'method_unavailable',
      `Currency mismatch: the order is in ${currency} but the payment terminal takes ${terminal.join(', ')}. Set the currency in resolveOrder or the handler's currency option.`,
    );
  }

  /** The method a request asks for, checked against the offers (409 when none accepts the amount). */
  choose(input: MethodRequest & { mode: IntegrationMode }, offers: readonly MethodOffer[]): MethodSelection {
    if (offers.length === 0) {
      throw new CheckoutError(409, 'method_unavailable', 'No payment method accepts this amount right now.');
    }
    return selectMethod(input, offers, input.mode);
  }

  /** The order as sent to the provider: with `feePayer: 'shopper'` its amount includes the method's fee. */
  priced(order: CheckedOrder, selection: MethodSelection): CheckedOrder {
    if (this.core.cfg.feePayer !== 'shopper' || selection.offer === null) return order;
    return { ...order, amount: selection.offer.view.total };
  }
}
