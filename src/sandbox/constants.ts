/**
 * The sandbox's own choices where provider-api.md and provider-notes.md say nothing. Every such
 * value lives here (and in README.md), so the behaviour is easy to find and to change.
 */
import type { ButtonName } from '../provider/facts.js';
import { BUTTON_NAMES } from '../provider/facts.js';

/** Preset terminals that exist beside the key given with `--api-key` / `createSandbox({ apiKey })`. */
export const PRESET_KEYS = {
  withForm: 'sandbox_with_form',
  formOff: 'sandbox_form_off',
  sberOnly: 'sandbox_sber_only',
  emptyBalance: 'sandbox_empty_balance',
  rateLimited: 'sandbox_rate_limited',
  uzs: 'sandbox_uzs',
} as const;

/** `customer_account` values that are always refused with 409 `Customer account is blacklisted`. */
export const BLACKLISTED_CUSTOMER_ACCOUNTS: ReadonlySet<string> = new Set(['4000000000000002', '+79990000000']);

/** An amount with this fraction finds no trader: 500 `No available traders…`. */
export const NO_TRADERS_FRACTION = '13';

/** Unpaid orders plus open form sessions one `user_id` may hold before anti-fraud answers 429. */
export const DEFAULT_ANTI_FRAUD_PENDING_LIMIT = 3;

/** Requests a minute on the rate-limited preset terminal. */
export const RATE_LIMITED_PER_MINUTE = 5;
export const RATE_WINDOW_MS = 60_000;

/** `unique_amount`: the amount may move up by whole roubles, 0..9. */
export const UNIQUE_AMOUNT_STEPS = 10;

/** Requisites each concrete payment method offers a terminal (the traders' cards, phones, accounts). */
export const REQUISITES_PER_METHOD = 6;

/** A form session without an order expires this long after creation (the order's lifetime). */
export const FORM_SESSION_LIFETIME_SECONDS = 30 * 60;
/** `requisites_request_expires_at` = start of the requisites search + this. */
export const REQUISITES_SEARCH_SECONDS = 5 * 60;
/** `payment_confirmation_expires_at` = start of payment confirmation + this. */
export const PAYMENT_CONFIRMATION_SECONDS = 20 * 60;

/** Webhook retries: delays before attempts 2, 3, … (exponential, bounded: 6 attempts in all). */
export const DEFAULT_WEBHOOK_RETRY_DELAYS_MS: readonly number[] = [1_000, 2_000, 4_000, 8_000, 16_000];
/** A webhook attempt that takes longer than this counts as failed (and is retried). */
export const DEFAULT_WEBHOOK_TIMEOUT_MS = 5_000;
/** Delivery log entries kept per terminal (oldest dropped first). */
export const WEBHOOK_LOG_LIMIT = 1_000;

/** How often the sweep looks for due expiries (real milliseconds; the timer is unref()ed). */
export const SWEEP_INTERVAL_MS = 1_000;

/** Largest request body the sandbox reads (JSON); uploads have {@link MAX_UPLOAD_BODY_BYTES}. */
export const MAX_BODY_BYTES = 64 * 1024;

/** Opening balance of a seeded terminal (besides the history it gets). */
export const DEFAULT_OPENING_BALANCE = '250000.00';

export const ALL_BUTTONS: readonly ButtonName[] = BUTTON_NAMES;

/**
 * Languages of the hosted form (`/pay`): the widget's tables. The page takes `?lang=` on `form_url`,
 * else the browser's `Accept-Language`, else Russian (the provider's language).
 */
export const HOSTED_FORM_LOCALES = ['ru', 'en', 'kk', 'uz', 'hy', 'az', 'ky', 'be', 'uk', 'tg'] as const;
export type HostedFormLocale = (typeof HOSTED_FORM_LOCALES)[number];
export const DEFAULT_HOSTED_FORM_LOCALE: HostedFormLocale = 'ru';

/** Bytes of dispute receipts one terminal keeps (a reset clears them); past it a new dispute with files is 413. */
export const MAX_RECEIPT_BYTES_PER_TERMINAL = 256 * 1024 * 1024;

/** Largest body of `POST /api/v1/disputes/create` and the hosted form's dispute upload: the receipts (20 MB) plus the multipart framing. */
export const MAX_UPLOAD_BODY_BYTES = 21 * 1024 * 1024;

/** A shopper may open a dispute on the hosted form up to this long after the order ended expired or cancelled (DESIGN.md: 7 days). */
export const DISPUTE_LATE_WINDOW_SECONDS = 7 * 24 * 3600;
