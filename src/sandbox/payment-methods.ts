/**
 * The provider's payment methods as the sandbox seeds them, one catalogue per terminal currency,
 * with fee ranges and the traders' requisites each concrete method hands out.
 *
 * Aggregate methods (nspk_code null) carry the provider's real ids, the same on every terminal
 * (provider-notes.md); bank methods keep stable ids of their own. An aggregate with routes sends an
 * order to a concrete bank method that has a free trader: the order's `method_id` is the bank method,
 * `initial_method_id` the aggregate. An aggregate without routes (TransSBP, TransBankCard,
 * BankAccount, NSPKLink) hands out requisites itself. Fees and limits are those of the method the
 * merchant asked for.
 *
 * RUB: SBP, cards, cross-border SBP and card transfers, bank account, NSPK link. Any other currency:
 * cards of its local banks and cross-border card transfers only (no SBP, no NSPK link).
 */
import { AGGREGATE_METHOD_IDS, BANKS, requisitesKindOf, type KnownMethodType, type OrderSide, type RequisitesKind } from '../provider/facts.js';
import type { PaymentMethod } from '../provider/schemas.js';
import { applyFee, fromMinor, toMinor } from '../money/index.js';
import { FOREIGN_CURRENCIES, moneyDigits, type ForeignCurrencyProfile, type TerminalCurrency } from './currencies.js';
import { localCardRequisites, russianRequisites, type Requisite, type RussianBank } from './requisites.js';
import { stableUuid } from './random.js';

export type { Requisite, RequisitesKind };

export interface FeeRangeDef {
  side: OrderSide;
  /** Bounds and fees as exact decimal strings; written to the wire as JSON numbers. */
  min: string;
  max: string;
  /** Variable fee in percent of the amount. */
  fee: string;
  /** Fixed fee in the terminal's currency, or null when zero. */
  fixed: string | null;
  /** Bounds in minor units, for quick comparisons. */
  minMinor: bigint;
  maxMinor: bigint;
}

export interface MethodDef {
  id: string;
  name: string;
  type: KnownMethodType;
  currency: TerminalCurrency;
  nspkCode: string | null;
  active: boolean;
  /** The Russian bank of a bank method (its SBP member id makes payment links), else null. */
  bank: RussianBank | null;
  /** Concrete methods an aggregate method routes to (empty for a method that hands out requisites itself). */
  routes: MethodDef[];
  ranges: FeeRangeDef[];
  requisites: Requisite[];
}

/** What kind of requisite a method type hands out (the widget protocol's `requisites.kind`). */
export function requisitesKind(type: string): RequisitesKind {
  return requisitesKindOf(type);
}

function range(currency: TerminalCurrency, side: OrderSide, min: string, max: string, fee: string, fixed: string | null = null): FeeRangeDef {
  const digits = moneyDigits(currency);
  return { side, min, max, fee, fixed, minMinor: toMinor(min, digits), maxMinor: toMinor(max, digits) };
}

type MethodShape = Omit<MethodDef, 'routes' | 'requisites'>;

function russianMethod(def: MethodShape, banks: readonly RussianBank[] = def.bank ? [def.bank] : BANKS, routes: MethodDef[] = []): MethodDef {
  return { ...def, routes, requisites: routes.length > 0 ? [] : russianRequisites(def.id, requisitesKind(def.type), banks) };
}

const SBP_FEES: Record<string, string> = { sberbank: '4', tinkoff: '4.2', vtb: '4.5', alfabank: '4.3' };

function rubCatalog(): MethodDef[] {
  const c = 'RUB' as const;
  const r = (side: OrderSide, min: string, max: string, fee: string, fixed: string | null = null) => range(c, side, min, max, fee, fixed);
  const base = { currency: c, active: true } as const;
  const sbpBanks = BANKS.map((b) =>
    russianMethod({
      ...base,
      id: stableUuid(`method:sbp:${b.customerBank}`),
      name: `СБП — ${b.name.ru}`,
      type: 'SBP',
      nspkCode: b.nspkCode,
      bank: b,
      ranges: [r('Buy', '100', '300000', SBP_FEES[b.customerBank]!), r('Sell', '500', '150000', '2', '30')],
    }),
  );
  const cardBanks = BANKS.map((b) =>
    russianMethod({
      ...base,
      id: stableUuid(`method:card:${b.customerBank}`),
      name: `Карта — ${b.name.ru}`,
      type: 'BankCard',
      nspkCode: b.nspkCode,
      bank: b,
      ranges: [r('Buy', '500', '500000', '4.5'), r('Sell', '1000', '150000', '2.5', '50')],
    }),
  );
  const aggregate = { ...base, nspkCode: null, bank: null };
  const sbp = russianMethod(
    // The aggregate SBP method works for Buy only.
    { ...aggregate, id: AGGREGATE_METHOD_IDS.SBP, name: 'СБП', type: 'SBP', ranges: [r('Buy', '100', '9999.99', '4.5'), r('Buy', '10000', '300000', '4')] },
    BANKS,
    sbpBanks,
  );
  const card = russianMethod(
    {
      ...aggregate,
      id: AGGREGATE_METHOD_IDS.BankCard,
      name: 'Банковская карта',
      type: 'BankCard',
      ranges: [r('Buy', '500', '14999.99', '5'), r('Buy', '15000', '500000', '4.5'), r('Sell', '1000', '150000', '2.5', '50')],
    },
    BANKS,
    cardBanks,
  );
  const transSbp = russianMethod({
    ...aggregate,
    id: AGGREGATE_METHOD_IDS.TransSBP,
    name: 'Трансграничный перевод по СБП',
    type: 'TransSBP',
    ranges: [r('Buy', '1000', '100000', '5')],
  });
  const transCard = russianMethod({
    ...aggregate,
    id: AGGREGATE_METHOD_IDS.TransBankCard,
    name: 'Трансграничный перевод на карту',
    type: 'TransBankCard',
    ranges: [r('Buy', '1000', '300000', '5.5'), r('Sell', '1000', '150000', '3', '50')],
  });
  const account = russianMethod({
    ...aggregate,
    id: AGGREGATE_METHOD_IDS.BankAccount,
    name: 'Банковский счёт',
    type: 'BankAccount',
    ranges: [r('Buy', '1000', '1000000', '3'), r('Sell', '10000', '1000000', '1.5', '100')],
  });
  const qr = russianMethod({
    ...aggregate,
    id: AGGREGATE_METHOD_IDS.NSPKLink,
    name: 'QR-код НСПК',
    type: 'NSPKLink',
    ranges: [r('Buy', '100', '100000', '3.5')],
  });
  const raiffeisen = russianMethod({
    ...base,
    id: stableUuid('method:sbp:raiffeisen'),
    name: 'СБП — Райффайзенбанк',
    type: 'SBP',
    nspkCode: 'bank100000000007',
    active: false,
    bank: null,
    ranges: [r('Buy', '100', '300000', '4')],
  });
  return [sbp, card, transSbp, transCard, ...sbpBanks, ...cardBanks, account, qr, raiffeisen];
}

function foreignCatalog(p: ForeignCurrencyProfile): MethodDef[] {
  const c = p.code;
  const l = p.limits;
  const digits = moneyDigits(c);
  const belowSplit = fromMinor(toMinor(l.buySplit, digits) - 1n, digits);
  const r = (side: OrderSide, min: string, max: string, fee: string, fixed: string | null = null) => range(c, side, min, max, fee, fixed);
  const concrete = (def: Omit<MethodShape, 'currency' | 'active' | 'bank' | 'nspkCode'>, banks = p.banks): MethodDef => ({
    ...def,
    currency: c,
    active: true,
    bank: null,
    nspkCode: null,
    routes: [],
    requisites: localCardRequisites(def.id, banks, p.holderNames),
  });
  const cardBanks = p.banks.map((b) =>
    concrete(
      {
        id: stableUuid(`method:${c}:card:${b.slug}`),
        name: `Карта — ${b.name}`,
        type: 'BankCard',
        ranges: [r('Buy', l.buyMin, l.buyMax, '4.5'), r('Sell', l.sellMin, l.sellMax, '2.5', l.sellFixed)],
      },
      [b],
    ),
  );
  const card: MethodDef = {
    id: AGGREGATE_METHOD_IDS.BankCard,
    name: 'Банковская карта',
    type: 'BankCard',
    currency: c,
    nspkCode: null,
    active: true,
    bank: null,
    routes: cardBanks,
    ranges: [r('Buy', l.buyMin, belowSplit, '5'), r('Buy', l.buySplit, l.buyMax, '4.5'), r('Sell', l.sellMin, l.sellMax, '2.5', l.sellFixed)],
    requisites: [],
  };
  const transCard = concrete({
    id: AGGREGATE_METHOD_IDS.TransBankCard,
    name: 'Трансграничный перевод на карту',
    type: 'TransBankCard',
    ranges: [r('Buy', l.buyMin, l.buyMax, '5.5'), r('Sell', l.sellMin, l.sellMax, '3', l.sellFixed)],
  });
  return [card, transCard, ...cardBanks];
}

/** The payment methods of a terminal of one currency. */
export class PaymentCatalog {
  readonly currency: TerminalCurrency;
  readonly methods: readonly MethodDef[];
  private readonly byId: ReadonlyMap<string, MethodDef>;

  constructor(currency: TerminalCurrency, methods: MethodDef[]) {
    this.currency = currency;
    this.methods = Object.freeze(methods);
    this.byId = new Map(methods.map((m) => [m.id, m]));
  }

  method(id: string): MethodDef | undefined {
    return this.byId.get(id);
  }

  /**
   * Way 2 of H2H creation: `method_type` (+ `nspk_code`). Without a code: the aggregate method of
   * the type. With a code: the bank method of that type and code.
   */
  methodByType(type: string, nspkCode: string | null | undefined): MethodDef | undefined {
    if (nspkCode) return this.methods.find((m) => m.type === type && m.nspkCode === nspkCode);
    return this.methods.find((m) => m.type === type && m.nspkCode === null);
  }

  /** Active methods offered on a form for `amount` (Buy), limited to a bank when given. */
  formMethods(amount: string, nspkCode: string | null): MethodDef[] {
    return this.methods.filter((m) => m.active && (nspkCode === null || m.nspkCode === nspkCode) && rangeFor(m, 'Buy', amount));
  }
}

const CATALOGS = new Map<TerminalCurrency, PaymentCatalog>();

/** The catalogue of a currency (built once, the same for every terminal of that currency). */
export function catalogFor(currency: TerminalCurrency): PaymentCatalog {
  let catalog = CATALOGS.get(currency);
  if (!catalog) {
    catalog = new PaymentCatalog(currency, currency === 'RUB' ? rubCatalog() : foreignCatalog(FOREIGN_CURRENCIES[currency]));
    CATALOGS.set(currency, catalog);
  }
  return catalog;
}

/** The fee range of `method` for `side` that holds `amount`, if any. */
export function rangeFor(method: MethodDef, side: OrderSide, amount: string): FeeRangeDef | undefined {
  const minor = toMinor(amount, moneyDigits(method.currency));
  return method.ranges.find((r) => r.side === side && minor >= r.minMinor && minor <= r.maxMinor);
}

/** The fee of `amount` in a range: the percentage rounded half-up to the currency's minor units, plus the fixed part. */
export function feeFor(amount: string, range: { fee: string; fixed: string | null }, currency: string): string {
  return applyFee(amount, { percent: range.fee, fixed: range.fixed }, currency).fee;
}

/** The method as `GET /api/v1/finance/payment_methods` writes it. */
export function methodJson(m: MethodDef): PaymentMethod {
  return {
    method_id: m.id,
    method_name: m.name,
    method_type: m.type,
    method_currency: m.currency,
    nspk_code: m.nspkCode,
    active: m.active,
    ranges: m.ranges.map((r) => ({
      fee_side: r.side,
      currency: m.currency,
      min_amount: Number(r.min),
      max_amount: Number(r.max),
      fee: Number(r.fee),
      fixed_fee: r.fixed === null ? null : Number(r.fixed),
    })),
  };
}
