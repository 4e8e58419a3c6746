/**
 * The options of `createSandbox`, what it returns, and the check of the options (a bad one is a
 * RangeError naming it, before anything starts).
 */
import { randomBytes } from 'node:crypto';
import type { Hono } from 'hono';
import { isHttpUrl } from '../provider/schemas.js';
import type { SandboxClock } from './clock.js';
import { PRESET_KEYS } from './constants.js';
import { DEFAULT_TERMINAL_CURRENCY, isTerminalCurrency, TERMINAL_CURRENCIES, type TerminalCurrency } from './currencies.js';
import type { SandboxLogger } from './logger.js';
import type { SeedOrdersOptions } from './seed.js';
import type { IntegrationType, TerminalSettings } from './terminal.js';
import type { WebhookDelivery } from './webhooks.js';
import type { SandboxEnv } from './routes/context.js';

export interface SandboxOptions {
  /** Key of the main terminal (plain H2H, form activated, all four button_names). Default: random. */
  apiKey?: string;
  /** Webhook URL of the terminals (orders may override it with their own `webhook_url`). */
  webhookUrl?: string | null;
  /** Webhook secret of the main terminal; preset terminals derive theirs from it. Default: random. */
  webhookSecret?: string;
  /** Integration type of the main terminal (default `plain`). */
  integrationType?: IntegrationType;
  /** Merchant name of the main terminal. */
  merchantName?: string;
  /**
   * Currency of the main terminal (default RUB): RUB, UZS, KZT, AZN, TJS or EUR. A non-RUB terminal
   * has card and card-transfer methods with limits in its currency, no SBP and no NSPK link.
   */
  currency?: TerminalCurrency;
  /** Injectable time source in epoch ms (default Date.now); the sandbox clock adds its offset. */
  now?: () => number;
  /** Base of `form_url` (default: the listening URL, else the request's origin). */
  publicUrl?: string;
  /** fetch used to deliver webhooks (default globalThis.fetch). */
  fetch?: typeof fetch;
  /** Delays before webhook attempts 2, 3, … (default 1, 2, 4, 8, 16 s). */
  webhookRetryDelaysMs?: readonly number[];
  /** Per-attempt webhook timeout (default 5 s). */
  webhookTimeoutMs?: number;
  /** Wall clock for webhook signatures and attempt times (default Date.now). */
  wallNow?: () => number;
  /** Unpaid orders complete by themselves this many (sandbox) seconds after creation (demos). */
  autoPayAfterSeconds?: number | null;
  /** Seed a history of orders, sessions, disputes and transactions (default true). */
  seed?: boolean;
  logger?: SandboxLogger;
  /** One log line per request (default false; the CLI turns it on). */
  logRequests?: boolean;
  /** Text of the widget's ES module served at `/pay/paydesk.js` (null or absent: 404, plain page). */
  widgetScript?: () => Promise<string | null>;
  /**
   * Files the widget script loads relative to its own URL, such as its language tables
   * (`chunks/kk.js`, served at `/pay/chunks/kk.js`): the text, or null for 404. Without it those
   * languages fall back to English on the hosted form.
   */
  widgetFile?: (path: string) => Promise<string | null>;
  /** Real milliseconds between expiry sweeps; 0 turns the timer off (default 1000). */
  sweepIntervalMs?: number;
  /**
   * Keep the sandbox's state in this file (and receipts in `<file>.files/`): loaded on start; a
   * request is answered, and a webhook sent, only once the file holds the change (the requests of one
   * moment share one write: temp file, fsync, rename), so a restart, even after `kill -9`, loses
   * nothing that was answered. Without
   * `apiKey` the main terminal keeps the key it had. A file that cannot be used throws
   * {@link SandboxStateError}. One sandbox per file.
   */
  stateFile?: string;
  /** Real milliseconds a save waits after a change no request made (expiry sweeps, webhook attempts; default 250). */
  stateSaveDelayMs?: number;
}

export interface ListenOptions {
  port?: number;
  /** Loopback only: 127.0.0.1 (default), ::1 or localhost. */
  host?: string;
}

export interface ListeningSandbox {
  port: number;
  url: string;
  close(): Promise<void>;
}

export interface Sandbox {
  /** The Hono app (`app.request('/api/v1/…', init)` in tests). */
  readonly app: Hono<SandboxEnv>;
  /** Web-standard handler. */
  fetch(request: Request): Promise<Response>;
  listen(options?: ListenOptions): Promise<ListeningSandbox>;
  /** Stops the sweep, pending webhook retries and any listening server. */
  close(): Promise<void>;
  readonly clock: SandboxClock;
  /** Key of the main terminal. */
  readonly apiKey: string;
  /** Keys of the preset terminals. */
  readonly presetKeys: typeof PRESET_KEYS;
  /** URL once listening, else null. */
  readonly url: string | null;
  /** The webhook secret of a terminal (default: the main one). */
  webhookSecret(apiKey?: string): string;
  /** Adds `count` orders to a terminal at once (benchmarks); returns the count. */
  seedOrders(apiKey: string, count: number, options?: SeedOrdersOptions): number;
  /** Adds another terminal (settings default to the main terminal's). */
  addTerminal(apiKey: string, settings?: Partial<TerminalSettings>): void;
  /** Applies due expiries and auto-payments now (the sweep does it every second anyway). */
  sweep(): void;
  /** The absolute path of the state file, or null. */
  readonly stateFile: string | null;
  /** Writes the state file now if anything changed (it is written a moment after each change and on close anyway). */
  saveState(): void;
  webhooks: {
    /** Resolves when no webhook delivery is in flight or waiting for a retry. */
    idle(): Promise<void>;
    /** The delivery log of a terminal, oldest first (default: the main one). */
    log(apiKey?: string): readonly WebhookDelivery[];
  };
}

/**
 * The main terminal's key and currency from `options` (the key an earlier run kept when none is
 * given), every other option checked; throws RangeError naming the first bad one.
 */
export function checkOptions(options: SandboxOptions, savedMainApiKey: string | undefined): { apiKey: string; currency: TerminalCurrency } {
  const apiKey = options.apiKey ?? savedMainApiKey ?? `sk_sandbox_${randomBytes(12).toString('hex')}`;
  if (!apiKey || apiKey.length > 256) throw new RangeError('apiKey must be 1 to 256 characters');
  if ((Object.values(PRESET_KEYS) as string[]).includes(apiKey)) {
    throw new RangeError(`apiKey ${apiKey} is the key of a preset terminal; choose another`);
  }
  if (options.webhookUrl != null && !(isHttpUrl(options.webhookUrl) && options.webhookUrl.length <= 512)) {
    throw new RangeError(`webhookUrl must be an http(s) URL of at most 512 characters, got ${JSON.stringify(options.webhookUrl)}`);
  }
  if (options.publicUrl !== undefined && !isHttpUrl(options.publicUrl)) {
    throw new RangeError(`publicUrl must be an http(s) URL such as http://127.0.0.1:4010, got ${JSON.stringify(options.publicUrl)}`);
  }
  if (options.webhookSecret !== undefined && (typeof options.webhookSecret !== 'string' || options.webhookSecret.length === 0)) {
    throw new RangeError('webhookSecret must be a non-empty string');
  }
  const currency = options.currency ?? DEFAULT_TERMINAL_CURRENCY;
  if (!isTerminalCurrency(currency)) {
    throw new RangeError(`currency must be one of ${TERMINAL_CURRENCIES.join(', ')}, got ${JSON.stringify(options.currency)}`);
  }
  return { apiKey, currency };
}
