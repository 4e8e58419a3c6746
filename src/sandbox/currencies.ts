/**
 * Terminal currencies (provider-notes.md: "terminal = currency + region"; RUB, UZS, KZT, AZN, TJS,
 * EUR). A RUB terminal has the Russian methods (SBP, cards, account, NSPK link); any other currency
 * has card and cross-border card transfer methods only, with limits in its own money, no SBP and no
 * NSPK link. The local banks, card prefixes, holder names and limits below are the sandbox's own
 * choices (sample data, not real traders), kept here so they are easy to change.
 */
import { currencyDigits } from '../money/index.js';
import { DEFAULT_OPENING_BALANCE } from './constants.js';

export const TERMINAL_CURRENCIES = ['RUB', 'UZS', 'KZT', 'AZN', 'TJS', 'EUR'] as const;
export type TerminalCurrency = (typeof TERMINAL_CURRENCIES)[number];
export const DEFAULT_TERMINAL_CURRENCY: TerminalCurrency = 'RUB';

export function isTerminalCurrency(value: unknown): value is TerminalCurrency {
  return typeof value === 'string' && (TERMINAL_CURRENCIES as readonly string[]).includes(value);
}

/** Fractional digits of a terminal's money (src/money: the currency's minor units). */
export function moneyDigits(currency: string): number {
  return currencyDigits(currency);
}

/** A local bank of a non-RUB terminal: its card prefix (sample, 6 digits) and name. */
export interface LocalBank {
  slug: string;
  name: string;
  cardPrefix: string;
}

/** Limits of the card methods of a non-RUB terminal, in its currency (whole units). */
export interface CardLimits {
  /** Buy: min .. split − 0.01 at the higher fee, split .. max at the lower. */
  buyMin: string;
  buySplit: string;
  buyMax: string;
  sellMin: string;
  sellMax: string;
  /** Fixed fee of a payout. */
  sellFixed: string;
}

export interface ForeignCurrencyProfile {
  code: Exclude<TerminalCurrency, 'RUB'>;
  banks: readonly LocalBank[];
  holderNames: readonly string[];
  limits: CardLimits;
  /** Opening deposit of a seeded terminal, and the seeded top-ups. */
  openingBalance: string;
  topUp: string;
}

export const FOREIGN_CURRENCIES: Readonly<Record<Exclude<TerminalCurrency, 'RUB'>, ForeignCurrencyProfile>> = {
  UZS: {
    code: 'UZS',
    banks: [
      { slug: 'uzcard', name: 'Uzcard', cardPrefix: '860049' },
      { slug: 'humo', name: 'Humo', cardPrefix: '986001' },
    ],
    holderNames: ['Karimov Jasur Akmalovich', 'Rahimova Dilnoza Botirovna', 'Tursunov Aziz Olimovich', 'Yusupova Madina Rustamovna'],
    limits: { buyMin: '70000', buySplit: '2000000', buyMax: '70000000', sellMin: '140000', sellMax: '20000000', sellFixed: '7000' },
    openingBalance: '35000000.00',
    topUp: '7000000.00',
  },
  KZT: {
    code: 'KZT',
    banks: [
      { slug: 'kaspi', name: 'Kaspi Bank', cardPrefix: '440043' },
      { slug: 'halyk', name: 'Halyk Bank', cardPrefix: '440563' },
    ],
    holderNames: ['Нурланов Ержан Маратович', 'Сейтказиева Айгерим Болатовна', 'Ахметов Данияр Серикович', 'Оспанова Жанар Ерлановна'],
    limits: { buyMin: '2500', buySplit: '75000', buyMax: '2500000', sellMin: '5000', sellMax: '750000', sellFixed: '250' },
    openingBalance: '1250000.00',
    topUp: '250000.00',
  },
  AZN: {
    code: 'AZN',
    banks: [
      { slug: 'kapital', name: 'Kapital Bank', cardPrefix: '416973' },
      { slug: 'abb', name: 'ABB', cardPrefix: '409883' },
    ],
    holderNames: ['Məmmədov Elvin Rauf oğlu', 'Əliyeva Aynur Tofiq qızı', 'Hüseynov Orxan Vüqar oğlu', 'Quliyeva Leyla Famil qızı'],
    limits: { buyMin: '10', buySplit: '300', buyMax: '10000', sellMin: '20', sellMax: '3000', sellFixed: '1' },
    openingBalance: '5000.00',
    topUp: '1000.00',
  },
  TJS: {
    code: 'TJS',
    banks: [
      { slug: 'korti-milli', name: 'Корти Милли', cardPrefix: '976200' },
      { slug: 'alif', name: 'Алиф Банк', cardPrefix: '450612' },
    ],
    holderNames: ['Раҳимов Фаррух Шарифович', 'Назарова Мадина Умедовна', 'Саидов Далер Бахтиёрович', 'Каримова Нигина Фирдавсиевна'],
    limits: { buyMin: '60', buySplit: '1800', buyMax: '60000', sellMin: '120', sellMax: '18000', sellFixed: '6' },
    openingBalance: '30000.00',
    topUp: '6000.00',
  },
  EUR: {
    code: 'EUR',
    banks: [
      { slug: 'visa-eu', name: 'Visa (EU)', cardPrefix: '414720' },
      { slug: 'mastercard-eu', name: 'Mastercard (EU)', cardPrefix: '535522' },
    ],
    holderNames: ['Maria Schneider', 'Jan Kowalski', 'Lucia Romano', 'Pierre Martin'],
    limits: { buyMin: '5', buySplit: '150', buyMax: '5000', sellMin: '10', sellMax: '1500', sellFixed: '0.50' },
    openingBalance: '2500.00',
    topUp: '500.00',
  },
};

/** Opening deposit of a seeded terminal of `currency`. */
export function defaultOpeningBalance(currency: TerminalCurrency): string {
  return currency === 'RUB' ? DEFAULT_OPENING_BALANCE : FOREIGN_CURRENCIES[currency].openingBalance;
}
