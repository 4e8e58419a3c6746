/**
 * Payment methods: the provider's list (cached briefly, one request in flight at a time), the Buy
 * methods whose fee range holds an amount with the fee the shopper pays, and the choice of a method
 * from a widget request, checked against that list before any order is created.
 */
import { applyFee, compareAmounts, currencyDigits, numberToDecimal, roundHalfUp } from '../money/index.js';
import { METHOD_TYPES, bankByButtonName, bankByCustomerBank, bankByNspkCode } from '../provider/facts.js';
import type { ButtonName, CustomerBank } from '../provider/facts.js';
import type { FeeRange, PaymentMethod } from '../provider/schemas.js';
import type { ProviderClient } from '../provider/types.js';
import type { BankCode, IntegrationMode, PaymentMethodView } from '../protocol/index.js';
import { CheckoutError } from './errors.js';

/** A Buy method usable for one amount, with the range that holds the amount. */
export interface MethodOffer {
  method: PaymentMethod;
  range: FeeRange;
  view: PaymentMethodView;
}

function decimal(n: number): string | null {
  try {
    return numberToDecimal(n);
  } catch {
    return null;
  }
}

/** The Buy fee range of `method` that holds `amount` in `currency`, if any. */
export function rangeFor(method: PaymentMethod, amount: string, currency: string): FeeRange | undefined {
  const cur = currency.toUpperCase();
  return method.ranges.find((r) => {
    if (r.fee_side !== 'Buy') return false;
    if ((r.currency || method.method_currency).toUpperCase() !== cur) return false;
    const min = decimal(r.min_amount);
    const max = decimal(r.max_amount);
    if (min === null || max === null) return false;
    return compareAmounts(amount, min) >= 0 && compareAmounts(amount, max) <= 0;
  });
}

/**
 * Who bears the provider's fee. `merchant` (default): the shopper sends exactly the price and the
 * provider takes its fee from the merchant's balance, so the shopper's fee is 0. `shopper`: the fee
 * is added to the order, so the shopper sends price + fee.
 */
export type FeePayer = 'merchant' | 'shopper';

/**
 * Active Buy methods whose range holds the amount the shopper will send, with the fee the shopper
 * pays and the total (applyFee: percent + fixed, when the shopper bears it).
 */
export function offersFor(
  methods: readonly PaymentMethod[],
  amount: string,
  currency: string,
  feePayer: FeePayer = 'merchant',
): MethodOffer[] {
  const out: MethodOffer[] = [];
  const digits = currencyDigits(currency);
  for (const method of methods) {
    if (method.active === false) continue;
    if (method.method_currency.toUpperCase() !== currency.toUpperCase()) continue;
    const range = rangeFor(method, amount, currency);
    if (!range || !Number.isFinite(range.fee) || range.fee < 0) continue;
    if (range.fixed_fee !== null && (!Number.isFinite(range.fixed_fee) || range.fixed_fee < 0)) continue;
    const charged = applyFee(amount, { percent: range.fee, fixed: range.fixed_fee }, currency);
    const { fee, total } = feePayer === 'shopper' ? charged : { fee: roundHalfUp('0', digits), total: roundHalfUp(amount, digits) };
    // The order is created for `total`: the method must accept that amount too.
    if (feePayer === 'shopper' && rangeFor(method, total, currency) !== range) continue;
    out.push({
      method,
      range,
      view: {
        id: method.method_id,
        name: method.method_name,
        type: method.method_type,
        bank: (bankByNspkCode(method.nspk_code)?.customerBank as BankCode | undefined) ?? null,
        fee,
        fixed_fee: feePayer === 'merchant' || range.fixed_fee === null ? null : roundHalfUp(numberToDecimal(range.fixed_fee), digits),
        total,
      },
    });
  }
  return out;
}

/**
 * The provider's active methods, cached for `ttlMs`; concurrent callers share one request.
 * A failed refresh is not cached.
 */
export class MethodsCache {
  private value: { at: number; methods: PaymentMethod[] } | null = null;
  private inflight: Promise<PaymentMethod[]> | null = null;
  constructor(
    private readonly client: ProviderClient,
    private readonly ttlMs: number,
    private readonly now: () => number,
  ) {}

  async list(): Promise<PaymentMethod[]> {
    const v = this.value;
    if (v && this.now() - v.at < this.ttlMs) return v.methods;
    if (this.inflight) return this.inflight;
    this.inflight = this.client
      .listPaymentMethods({ active: true })
      .then((res) => {
        this.value = { at: this.now(), methods: res };
        return res;
      })
      .finally(() => {
        this.inflight = null;
      });
    return this.inflight;
  }

  clear(): void {
    this.value = null;
  }
}

/** The method part of a `POST /sessions` body, already shape-checked. */
export interface MethodRequest {
  payment_method_id?: string | undefined;
  method_type?: string | undefined;
  nspk_code?: string | undefined;
  customer_bank?: CustomerBank | undefined;
  button_name?: ButtonName | undefined;
}

/** What to send to the provider, and what the server remembers for the view. */
export interface MethodSelection {
  /** Way 1 or way 2 of H2H creation, or the form's preselection. */
  payment_method_id: string | null;
  method_type: string | null;
  nspk_code: string | null;
  /** The bank chosen, when the request named one. */
  bank: CustomerBank | null;
  button_name: ButtonName | null;
  /** The listed method matched (null for a form with nothing preselected). */
  offer: MethodOffer | null;
}

const unavailable = (what: string) =>
  new CheckoutError(409, 'method_unavailable', `${what} is not offered by the provider for this order (its amount, currency or terminal).`);

/**
 * Chooses the method for a new order from the request and the listed offers, refusing (with no
 * provider call) anything the provider does not list for this amount.
 */
export function selectMethod(req: MethodRequest, offers: readonly MethodOffer[], mode: IntegrationMode): MethodSelection {
  const bankFromButton = req.button_name ? bankByButtonName(req.button_name) : undefined;
  const bankFromCustomer = req.customer_bank ? bankByCustomerBank(req.customer_bank) : undefined;
  if (bankFromButton && bankFromCustomer && bankFromButton !== bankFromCustomer) {
    throw new CheckoutError(400, 'validation_failed', 'button_name and customer_bank name different banks; give one of them.');
  }
  const bank = bankFromButton ?? bankFromCustomer;
  const ways = [req.payment_method_id !== undefined, req.method_type !== undefined, bank !== undefined].filter(Boolean).length;
  if (ways > 1) {
    throw new CheckoutError(
      400,
      'validation_failed',
      'Give the payment method in one way only: payment_method_id, method_type (with nspk_code), or a bank (button_name / customer_bank).',
    );
  }
  if (req.nspk_code !== undefined && req.method_type === undefined) {
    throw new CheckoutError(400, 'validation_failed', 'nspk_code is only allowed together with method_type.');
  }

  if (req.payment_method_id !== undefined) {
    const offer = offers.find((o) => o.method.method_id === req.payment_method_id);
    if (!offer) throw unavailable('This payment method');
    return { payment_method_id: offer.method.method_id, method_type: null, nspk_code: null, bank: null, button_name: null, offer };
  }

  if (req.method_type !== undefined) {
    // Without nspk_code the provider takes the aggregate method of the type (no bank): prefer it, so the
    // view never names a bank (and the shopper's transfer a recipient bank) the provider did not choose.
    const ofType = offers.filter((o) => o.method.method_type === req.method_type);
    const offer =
      req.nspk_code === undefined
        ? (ofType.find((o) => o.method.nspk_code === null) ?? ofType[0])
        : ofType.find((o) => o.method.nspk_code === req.nspk_code);
    if (!offer) throw unavailable(req.nspk_code ? 'This payment method with this bank' : 'This payment method');
    const known = (METHOD_TYPES as readonly string[]).includes(req.method_type);
    // Way 2 (method_type) works on RUB terminals only (provider-api.md): another currency's terminal
    // takes its own method of that type by id (way 1).
    const rub = offer.method.method_currency.toUpperCase() === 'RUB';
    if (mode === 'form' || !known || !rub) {
      // The form preselects by id; an unlisted type name cannot go through way 2 of the document.
      return { payment_method_id: offer.method.method_id, method_type: null, nspk_code: null, bank: null, button_name: null, offer };
    }
    return { payment_method_id: null, method_type: req.method_type, nspk_code: req.nspk_code ?? null, bank: null, button_name: null, offer };
  }

  if (bank) {
    const ofBank = offers.filter((o) => bankByNspkCode(o.method.nspk_code) === bank);
    const offer = ofBank.find((o) => o.method.method_type === 'SBP') ?? ofBank[0];
    if (!offer) throw unavailable(`Payment with ${bank.name.en}`);
    if (mode === 'form') {
      return { payment_method_id: null, method_type: null, nspk_code: null, bank: bank.customerBank, button_name: bank.buttonName, offer };
    }
    return {
      payment_method_id: offer.method.method_id,
      method_type: null,
      nspk_code: null,
      bank: bank.customerBank,
      button_name: bank.buttonName,
      offer,
    };
  }

  if (mode === 'form') {
    return { payment_method_id: null, method_type: null, nspk_code: null, bank: null, button_name: null, offer: null };
  }
  throw new CheckoutError(400, 'no_payment_method', 'Choose a payment method.');
}

