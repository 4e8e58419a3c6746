/**
 * The element's attributes as values: the types they take, why a set of them cannot work, and the
 * request selection they make. Pure (no DOM): node-tested (test/node/element/config.test.ts).
 */
import type { ButtonName } from '../provider/facts.js';
import { INTEGRATION_MODES } from '../protocol/answers.js';
import { NSPK_CODES } from './claim.js';
import type { Selection } from './machine.js';
import { normaliseEndpoint, safeHttpUrl } from '../protocol/url.js';

export type Theme = 'light' | 'dark' | 'auto';
/** The languages the element ships (lower-case BCP 47), alone or with a region: `ru`, `ru-KZ`, `kk`. */
export type PaydeskLanguage = 'en' | 'ru' | 'kk' | 'uz' | 'hy' | 'az' | 'ky' | 'be' | 'uk' | 'tg';
/** The `locale` property: a shipped language, with a region or script if wanted, or '' (the page's). */
export type PaydeskLocale = '' | PaydeskLanguage | `${PaydeskLanguage}-${string}`;

/** The attributes that say what to pay and how. */
export interface Attributes {
  endpoint: string;
  orderRef: string;
  session: string;
  mode: string;
  methodType: string;
  paymentMethodId: string;
  bank: string;
  buttonName: string;
  supportUrl: string;
}

/**
 * The values `bank` and `button-name` take: provider facts (facts.ts), checked against its types so
 * they cannot drift, without carrying that module (and its bank table) in the element's own one.
 */
export const BANK_VALUES = Object.keys(NSPK_CODES);
export const BUTTON_VALUES = Object.keys({ AlfaPay: 1, SberPay: 1, TPay: 1, VTBPay: 1 } satisfies Record<ButtonName, 1>);

/** Why the attributes cannot work, or null. */
export function configProblem(a: Attributes): string | null {
  const oneOf = (name: string, value: string, allowed: readonly string[]) =>
    !value || allowed.includes(value) ? null : `${name} must be one of ${allowed.join(', ')}`;
  return !normaliseEndpoint(a.endpoint)
    ? 'endpoint must be an http(s) URL or a path such as /api/paydesk'
    : !a.orderRef && !a.session
      ? 'order-ref or session is required'
      : (oneOf('mode', a.mode, INTEGRATION_MODES) ??
        oneOf('bank', a.bank, BANK_VALUES) ??
        oneOf('button-name', a.buttonName, BUTTON_VALUES) ??
        (a.supportUrl && !safeHttpUrl(a.supportUrl) ? 'support-url must be an http(s) URL' : null) ??
        (a.methodType && a.paymentMethodId ? 'use payment-method-id or method-type, not both' : null));
}

/** The attributes as a request selection, or null when the shopper chooses. */
export function preselection(a: Attributes): Selection | null {
  const sel: Selection = {};
  if (a.paymentMethodId) sel.payment_method_id = a.paymentMethodId;
  // With `bank`, the create adds the bank's `nspk_code` (claim.ts, loaded with the first create).
  if (a.methodType) sel.method_type = a.methodType;
  if (a.buttonName) sel.button_name = a.buttonName;
  if (a.bank && (a.mode === 'order_with_form' || a.mode === 'form')) sel.customer_bank = a.bank;
  return Object.keys(sel).length > 0 || a.mode === 'form' ? sel : null;
}
