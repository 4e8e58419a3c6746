/**
 * The provider's payment methods as the sandbox seeds them (the same for every terminal), with fee
 * ranges and the traders' requisites each concrete method hands out.
 *
 * Aggregate methods (`SBP`, `BankCard` with `nspk_code` null) route an order to a concrete bank
 * method that has a free trader: the order's `method_id` is the bank method, `initial_method_id`
 * the aggregate one. Fees and limits are those of the method the merchant asked for.
 */
import { BANKS, requisitesKindOf, type KnownMethodType, type OrderSide, type RequisitesKind } from '../provider/facts.js';
import type { PaymentMethod } from '../provider/schemas.js';
import { toMinor } from '../money/index.js';
import { createRng, digits, pick, seedFrom, stableUuid, withLuhn } from './random.js';
import { REQUISITES_PER_METHOD, TERMINAL_CURRENCY } from './constants.js';

type Bank = (typeof BANKS)[number];

export interface FeeRangeDef {
  side: OrderSide;
  /** Bounds and fees as exact decimal strings; written to the wire as JSON numbers. */
  min: string;
  max: string;
  /** Variable fee in percent of the amount. */
  fee: string;
  /** Fixed fee in roubles, or null when zero. */
  fixed: string | null;
  /** Bounds in kopecks, for quick comparisons. */
  minMinor: bigint;
  maxMinor: bigint;
}

export interface Requisite {
  /** Identity of the requisite for `unique_amount` (no two unpaid orders share an amount on it). */
  key: string;
  holderName: string;
  holderAccount: string;
  bank: Bank | null;
}

export type { RequisitesKind };

export interface MethodDef {
  id: string;
  name: string;
  type: KnownMethodType;
  currency: string;
  nspkCode: string | null;
  active: boolean;
  bank: Bank | null;
  /** Concrete methods an aggregate method routes to (empty for a concrete method). */
  routes: MethodDef[];
  ranges: FeeRangeDef[];
  requisites: Requisite[];
}

/** What kind of requisite a method type hands out (the widget protocol's `requisites.kind`). */
export function requisitesKind(type: string): RequisitesKind {
  return requisitesKindOf(type);
}

const HOLDER_NAMES = [
  'Иванов Иван Иванович',
  'Петрова Анна Сергеевна',
  'Смирнов Алексей Петрович',
  'Кузнецова Мария Андреевна',
  'Попов Дмитрий Олегович',
  'Васильева Елена Викторовна',
  'Соколов Максим Игоревич',
  'Михайлова Ольга Николаевна',
  'Новиков Артём Сергеевич',
  'Фёдорова Наталья Павловна',
  'Морозов Сергей Александрович',
  'Волкова Татьяна Юрьевна',
] as const;

/** Card BINs of the four banks (public prefixes). */
const CARD_BINS: Record<string, string> = {
  sberbank: '427638',
  tinkoff: '553691',
  vtb: '489347',
  alfabank: '415428',
};

function range(side: OrderSide, min: string, max: string, fee: string, fixed: string | null = null): FeeRangeDef {
  return { side, min, max, fee, fixed, minMinor: toMinor(min, 2), maxMinor: toMinor(max, 2) };
}

function makeRequisites(method: Omit<MethodDef, 'requisites' | 'routes'>): Requisite[] {
  const rng = createRng(seedFrom(`requisites:${method.id}`));
  const out: Requisite[] = [];
  const banks = method.bank ? [method.bank] : BANKS;
  for (let i = 0; i < REQUISITES_PER_METHOD; i++) {
    const bank = banks[i % banks.length]!;
    const holderName = pick(rng, HOLDER_NAMES);
    let holderAccount: string;
    switch (requisitesKind(method.type)) {
      case 'card':
        holderAccount = withLuhn(CARD_BINS[bank.customerBank]! + digits(rng, 9));
        break;
      case 'phone':
        holderAccount = `+79${['16', '26', '03', '15', '85', '77'][i % 6]}${digits(rng, 7)}`;
        break;
      case 'account':
        holderAccount = `40817810${digits(rng, 12)}`;
        break;
      case 'link':
        holderAccount = `QR-${digits(rng, 10)}`;
        break;
    }
    out.push({ key: `${method.id}:${i}`, holderName, holderAccount, bank });
  }
  return out;
}

function concrete(slug: string, def: Omit<MethodDef, 'id' | 'routes' | 'requisites' | 'currency'>): MethodDef {
  const base = { ...def, id: stableUuid(`method:${slug}`), currency: TERMINAL_CURRENCY };
  return { ...base, routes: [], requisites: makeRequisites(base) };
}

function bank(customerBank: string): Bank {
  const b = BANKS.find((x) => x.customerBank === customerBank);
  if (!b) throw new Error(`unknown bank ${customerBank}`);
  return b;
}

const SBP_FEES: Record<string, string> = { sberbank: '4', tinkoff: '4.2', vtb: '4.5', alfabank: '4.3' };

function buildCatalog(): MethodDef[] {
  const sbpBanks = BANKS.map((b) =>
    concrete(`sbp:${b.customerBank}`, {
      name: `СБП — ${b.name.ru}`,
      type: 'SBP',
      nspkCode: b.nspkCode,
      active: true,
      bank: b,
      ranges: [range('Buy', '100', '300000', SBP_FEES[b.customerBank]!), range('Sell', '500', '150000', '2', '30')],
    }),
  );
  const cardBanks = BANKS.map((b) =>
    concrete(`card:${b.customerBank}`, {
      name: `Карта — ${b.name.ru}`,
      type: 'BankCard',
      nspkCode: b.nspkCode,
      active: true,
      bank: b,
      ranges: [range('Buy', '500', '500000', '4.5'), range('Sell', '1000', '150000', '2.5', '50')],
    }),
  );
  const sbpAggregate: MethodDef = {
    id: stableUuid('method:sbp'),
    name: 'СБП',
    type: 'SBP',
    currency: TERMINAL_CURRENCY,
    nspkCode: null,
    active: true,
    bank: null,
    routes: sbpBanks,
    // The aggregate SBP method works for Buy only.
    ranges: [range('Buy', '100', '9999.99', '4.5'), range('Buy', '10000', '300000', '4')],
    requisites: [],
  };
  const cardAggregate: MethodDef = {
    id: stableUuid('method:card'),
    name: 'Банковская карта',
    type: 'BankCard',
    currency: TERMINAL_CURRENCY,
    nspkCode: null,
    active: true,
    bank: null,
    routes: cardBanks,
    ranges: [
      range('Buy', '500', '14999.99', '5'),
      range('Buy', '15000', '500000', '4.5'),
      range('Sell', '1000', '150000', '2.5', '50'),
    ],
    requisites: [],
  };
  const account = concrete('account', {
    name: 'Банковский счёт',
    type: 'BankAccount',
    nspkCode: null,
    active: true,
    bank: null,
    ranges: [range('Buy', '1000', '1000000', '3'), range('Sell', '10000', '1000000', '1.5', '100')],
  });
  const qr = concrete('nspk-link', {
    name: 'QR-код НСПК',
    type: 'NSPKLink',
    nspkCode: null,
    active: true,
    bank: null,
    ranges: [range('Buy', '100', '100000', '3.5')],
  });
  const raiffeisen = concrete('sbp:raiffeisen', {
    name: 'СБП — Райффайзенбанк',
    type: 'SBP',
    nspkCode: 'bank100000000007',
    active: false,
    bank: null,
    ranges: [range('Buy', '100', '300000', '4')],
  });
  return [sbpAggregate, cardAggregate, ...sbpBanks, ...cardBanks, account, qr, raiffeisen];
}

export const CATALOG: readonly MethodDef[] = buildCatalog();
const BY_ID = new Map(CATALOG.map((m) => [m.id, m]));

export function methodById(id: string): MethodDef | undefined {
  return BY_ID.get(id);
}

/**
 * Way 2 of H2H creation: `method_type` (+ `nspk_code`). Without a code: the aggregate method of the
 * type (or the only method of the type). With a code: the bank method of that type and code.
 */
export function methodByType(type: string, nspkCode: string | null | undefined): MethodDef | undefined {
  if (nspkCode) return CATALOG.find((m) => m.type === type && m.nspkCode === nspkCode);
  return CATALOG.find((m) => m.type === type && m.nspkCode === null);
}

/** The fee range of `method` for `side` that holds `amount`, if any. */
export function rangeFor(method: MethodDef, side: OrderSide, amount: string): FeeRangeDef | undefined {
  const minor = toMinor(amount, 2);
  return method.ranges.find((r) => r.side === side && minor >= r.minMinor && minor <= r.maxMinor);
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
