/**
 * The traders' requisites each concrete payment method hands out: card numbers (a bank's prefix,
 * valid Luhn), phones, bank accounts and NSPK QR ids, with a holder name (provider-notes.md,
 * "Requisites"). Deterministic per method id, so a restart hands out the same requisites.
 * Which requisite an order gets is decided in orders.ts (round-robin, or a free amount slot for
 * `unique_amount`).
 */
import { BANKS, type RequisitesKind } from '../provider/facts.js';
import { REQUISITES_PER_METHOD } from './constants.js';
import type { LocalBank } from './currencies.js';
import { createRng, digits, pick, seedFrom, withLuhn } from './random.js';

/** One of the four Russian banks of provider-notes.md (button_name / customer_bank). */
export type RussianBank = (typeof BANKS)[number];

export interface Requisite {
  /** Identity of the requisite for `unique_amount` (no two unpaid orders share an amount on it). */
  key: string;
  holderName: string;
  holderAccount: string;
  /** The Russian bank behind it (SBP member id for payment links), or null. */
  bank: RussianBank | null;
}

const RUSSIAN_HOLDER_NAMES = [
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

/** Card BINs of the four Russian banks (public prefixes). */
const RUSSIAN_CARD_BINS: Record<string, string> = {
  sberbank: '427638',
  tinkoff: '553691',
  vtb: '489347',
  alfabank: '415428',
};

/** Requisites of a method of a RUB terminal, spread over `banks` (one bank for a bank method). */
export function russianRequisites(methodId: string, kind: RequisitesKind, banks: readonly RussianBank[]): Requisite[] {
  const rng = createRng(seedFrom(`requisites:${methodId}`));
  const out: Requisite[] = [];
  for (let i = 0; i < REQUISITES_PER_METHOD; i++) {
    const bank = banks[i % banks.length]!;
    const holderName = pick(rng, RUSSIAN_HOLDER_NAMES);
    let holderAccount: string;
    switch (kind) {
      case 'card':
        holderAccount = withLuhn(RUSSIAN_CARD_BINS[bank.customerBank]! + digits(rng, 9));
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
    out.push({ key: `${methodId}:${i}`, holderName, holderAccount, bank });
  }
  return out;
}

/** Card requisites of a method of a non-RUB terminal, spread over its local banks. */
export function localCardRequisites(methodId: string, banks: readonly LocalBank[], holderNames: readonly string[]): Requisite[] {
  const rng = createRng(seedFrom(`requisites:${methodId}`));
  const out: Requisite[] = [];
  for (let i = 0; i < REQUISITES_PER_METHOD; i++) {
    const bank = banks[i % banks.length]!;
    out.push({
      key: `${methodId}:${i}`,
      holderName: pick(rng, holderNames),
      holderAccount: withLuhn(bank.cardPrefix + digits(rng, 9)),
      bank: null,
    });
  }
  return out;
}
