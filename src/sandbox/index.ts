/**
 * `paydesk/sandbox`: a stateful emulator of the provider (provider-api.md) for the demo, tests and
 * merchants without an account. All nine endpoints under `/api/v1`, per-key terminals, the hosted
 * form at `/pay`, signed webhooks with retries, scenario controls under `/sandbox`, an injectable clock.
 *
 * @example
 * const sandbox = createSandbox({ apiKey: 'test_key', now: () => fakeNow });
 * const res = await sandbox.fetch(new Request('http://sandbox/api/v1/finance/balance', { headers: { 'X-API-Key': 'test_key' } }));
 * const { url, close } = await sandbox.listen({ port: 0 });
 */
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import type { Hono } from 'hono';
import { isHttpUrl } from '../provider/schemas.js';
import { createApp } from './app.js';
import { createClock, type SandboxClock } from './clock.js';
import {
  ALL_BUTTONS,
  DEFAULT_ANTI_FRAUD_PENDING_LIMIT,
  DEFAULT_OPENING_BALANCE,
  DEFAULT_WEBHOOK_RETRY_DELAYS_MS,
  DEFAULT_WEBHOOK_TIMEOUT_MS,
  PRESET_KEYS,
  RATE_LIMITED_PER_MINUTE,
  SWEEP_INTERVAL_MS,
} from './constants.js';
import { DEFAULT_TERMINAL_CURRENCY, defaultOpeningBalance, isTerminalCurrency, TERMINAL_CURRENCIES, type TerminalCurrency } from './currencies.js';
import { SandboxEngine } from './engine.js';
import { silentLogger, type SandboxLogger } from './logger.js';
import { catalogFor, type MethodDef } from './payment-methods.js';
import { seedOrders as seedOrdersInto, seedTerminal, type SeedOrdersOptions } from './seed.js';
import { Terminal, deriveWebhookSecret, type IntegrationType, type TerminalSettings } from './terminal.js';
import { WebhookDispatcher, type WebhookDelivery } from './webhooks.js';
import type { SandboxEnv } from './routes/context.js';
import { resolve as resolvePath } from 'node:path';
import { createStateWriter, filesDirOf, identityOf, mergeSettings, readState, restoreData, SandboxStateError } from './state-file.js';

export { PRESET_KEYS, BLACKLISTED_CUSTOMER_ACCOUNTS, NO_TRADERS_FRACTION, DEFAULT_ANTI_FRAUD_PENDING_LIMIT } from './constants.js';
export { signWebhook, SIGNATURE_HEADER, type WebhookDelivery, type WebhookAttempt } from './webhooks.js';
export type { MethodDef } from './payment-methods.js';
export { TERMINAL_CURRENCIES, type TerminalCurrency } from './currencies.js';
export { detectReceiptType } from './receipts.js';
export { SandboxStateError } from './state-file.js';

/** How long a state file save waits after a change by default (ms). */
const STATE_SAVE_DELAY_MS = 250;


/** The payment methods of a RUB terminal (the default), as the sandbox seeds them. */
export const PAYMENT_METHODS: readonly MethodDef[] = catalogFor('RUB').methods;

/** The payment methods of a terminal of `currency`. */
export function paymentMethodsFor(currency: TerminalCurrency): readonly MethodDef[] {
  return catalogFor(currency).methods;
}
export type { SandboxClock } from './clock.js';
export type { SandboxLogger } from './logger.js';
export { consoleLogger, silentLogger } from './logger.js';
export type { IntegrationType, TerminalSettings } from './terminal.js';
export type { SeedOrdersOptions } from './seed.js';
export { openApiDocument } from './openapi.js';

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

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);

export function createSandbox(options: SandboxOptions = {}): Sandbox {
  if (options.stateFile !== undefined && (typeof options.stateFile !== 'string' || options.stateFile.trim() === '')) {
    throw new RangeError('stateFile must be a file path');
  }
  const stateFile = options.stateFile === undefined ? null : resolvePath(options.stateFile);
  // An earlier run's state (null: none yet). A file that cannot be used throws SandboxStateError.
  const state = stateFile ? readState(stateFile) : null;
  const apiKey = options.apiKey ?? state?.mainApiKey ?? `sk_sandbox_${randomBytes(12).toString('hex')}`;
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
  const logger = options.logger ?? silentLogger;
  const clock = createClock(options.now, state?.clockOffsetMs ?? 0);
  const wallNow = options.wallNow ?? Date.now;
  let onWebhookChange: () => void = () => undefined;
  /** With a state file: resolves once it holds every change made so far (see StateFileWriter.durable). */
  let durable: (() => Promise<void>) | undefined;
  const webhooks = new WebhookDispatcher({
    fetch: options.fetch ?? ((input, init) => globalThis.fetch(input, init)),
    retryDelaysMs: options.webhookRetryDelaysMs ?? DEFAULT_WEBHOOK_RETRY_DELAYS_MS,
    timeoutMs: options.webhookTimeoutMs ?? DEFAULT_WEBHOOK_TIMEOUT_MS,
    wallNow,
    logger,
    changed: () => onWebhookChange(),
    ...(stateFile && { beforeSend: () => durable?.() ?? Promise.resolve() }),
  });
  const engine = new SandboxEngine({ clock, webhooks });
  onWebhookChange = () => engine.changed();
  // Preset terminals derive their webhook secrets from this; kept in the state file so they survive a restart.
  const masterText = options.webhookSecret ?? state?.masterSecret ?? randomBytes(32).toString('hex');
  const master = Buffer.from(masterText);
  const seed = options.seed ?? true;

  const base: TerminalSettings = {
    name: options.merchantName ?? 'Paydesk Demo Shop',
    currency: 'RUB',
    integrationType: options.integrationType ?? 'plain',
    formActivated: true,
    enabledButtons: [...ALL_BUTTONS],
    webhookUrl: options.webhookUrl ?? null,
    rateLimitPerMinute: null,
    antiFraudPendingLimit: DEFAULT_ANTI_FRAUD_PENDING_LIMIT,
    autoPayAfterSeconds: options.autoPayAfterSeconds ?? null,
    openingBalance: DEFAULT_OPENING_BALANCE,
    seedHistory: seed,
    seedCompleted: true,
  };
  const presets: Record<string, Partial<TerminalSettings>> = {
    [PRESET_KEYS.withForm]: { name: 'Sandbox: order_with_form', integrationType: 'order_with_form' },
    [PRESET_KEYS.formOff]: { name: 'Sandbox: form off', formActivated: false },
    [PRESET_KEYS.sberOnly]: { name: 'Sandbox: SberPay only', enabledButtons: ['SberPay'] },
    [PRESET_KEYS.emptyBalance]: { name: 'Sandbox: empty balance', openingBalance: '0.00', seedCompleted: false },
    [PRESET_KEYS.rateLimited]: { name: 'Sandbox: rate limited', rateLimitPerMinute: RATE_LIMITED_PER_MINUTE },
    // The four button_names are Russian banks' (SberPay …): a UZS terminal has none enabled.
    [PRESET_KEYS.uzs]: { name: 'Sandbox: UZS', currency: 'UZS', openingBalance: defaultOpeningBalance('UZS'), enabledButtons: [] },
  };
  const main: Partial<TerminalSettings> =
    currency === 'RUB' ? {} : { currency, openingBalance: defaultOpeningBalance(currency), enabledButtons: [] };

  const stored = new Map((state?.terminals ?? []).map((t) => [t.apiKey, t]));
  const filesDir = stateFile ? filesDirOf(stateFile) : '';
  /** A terminal with this start's preset; its data and run-time settings come from the state file when it has them. */
  const addTerminal = (key: string, settings: Partial<TerminalSettings>, secret?: string, presetOverride?: TerminalSettings) => {
    if (!key || key.length > 256) throw new RangeError('apiKey must be 1 to 256 characters');
    const full: TerminalSettings = presetOverride ?? { ...base, ...settings, enabledButtons: [...(settings.enabledButtons ?? base.enabledButtons)] };
    const saved = stored.get(key);
    stored.delete(key);
    const terminal = new Terminal(key, full, secret ?? deriveWebhookSecret(master, key), saved ? identityOf(saved) : undefined);
    if (saved) terminal.settings = mergeSettings(full, saved);
    engine.addTerminal(terminal);
    if (saved && saved.settings.currency === terminal.currency) {
      restoreData(engine, terminal, saved, filesDir, stateFile!);
    } else {
      if (saved) logger.info(`sandbox: terminal ${key} held ${saved.settings.currency} data but is ${terminal.currency} now: it starts afresh`);
      seedTerminal(engine, terminal);
    }
  };
  addTerminal(apiKey, main, options.webhookSecret);
  for (const [key, settings] of Object.entries(presets)) addTerminal(key, settings);
  // Terminals an earlier run added (addTerminal, or an earlier main key) come back as they were.
  for (const [key, saved] of [...stored]) addTerminal(key, {}, undefined, { ...saved.preset, enabledButtons: [...saved.preset.enabledButtons] });

  const writer = stateFile
    ? createStateWriter({
        path: stateFile,
        engine,
        mainApiKey: apiKey,
        masterSecret: masterText,
        clockOffsetMs: () => clock.offsetMs,
        debounceMs: options.stateSaveDelayMs ?? STATE_SAVE_DELAY_MS,
        onError: (err) => logger.error(`saving the sandbox state to ${stateFile} failed (it is tried again at the next change)`, err),
      })
    : null;
  if (writer && stateFile) {
    // Saved once now, so a path that cannot be written is an error at start, not a silent loss later.
    try {
      writer.save();
    } catch (err) {
      throw new SandboxStateError(stateFile, `it cannot be written (${(err as Error).message})`);
    }
    engine.onChange = () => writer.changed();
    durable = () => writer.durable();
  }

  let listeningUrl: string | null = null;
  const servers = new Set<ServerType>();

  const app = createApp({
    engine,
    clock,
    logger,
    logRequests: options.logRequests ?? false,
    baseUrl: (requestUrl) => options.publicUrl ?? listeningUrl ?? new URL(requestUrl).origin,
    widgetScript: options.widgetScript,
    widgetFile: options.widgetFile,
    reseed: (terminal) => seedTerminal(engine, terminal),
    seedOrders: (terminal, count, opts) => seedOrdersInto(engine, terminal, count, opts),
    durable,
  });

  const sweepMs = options.sweepIntervalMs ?? SWEEP_INTERVAL_MS;
  const sweepTimer = sweepMs > 0 ? setInterval(() => safeSweep(), sweepMs) : null;
  sweepTimer?.unref();
  function safeSweep() {
    try {
      engine.sweep();
    } catch (err) {
      logger.error('expiry sweep failed', err);
    }
  }

  const terminalOf = (key: string) => {
    const t = engine.terminals.get(key);
    if (!t) throw new RangeError(`no terminal with API key ${key}`);
    return t;
  };

  const closeServer = (server: ServerType) =>
    new Promise<void>((resolve) => {
      servers.delete(server);
      server.close(() => resolve());
      (server as { closeAllConnections?: () => void }).closeAllConnections?.();
    });

  return {
    app,
    fetch: async (request: Request) => app.fetch(request),
    async listen(listenOptions: ListenOptions = {}) {
      const host = listenOptions.host ?? '127.0.0.1';
      if (!LOOPBACK.has(host)) throw new RangeError('the sandbox listens on loopback only (127.0.0.1, ::1 or localhost)');
      const server = await new Promise<ServerType>((resolve, reject) => {
        const s = serve({ fetch: app.fetch, port: listenOptions.port ?? 0, hostname: host }, () => resolve(s));
        s.once('error', reject);
      });
      servers.add(server);
      const port = (server.address() as AddressInfo).port;
      const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
      listeningUrl ??= url;
      return {
        port,
        url,
        close: async () => {
          if (listeningUrl === url) listeningUrl = null;
          await closeServer(server);
        },
      };
    },
    async close() {
      if (sweepTimer) clearInterval(sweepTimer);
      webhooks.close();
      writer?.close();
      await Promise.all([...servers].map(closeServer));
      listeningUrl = null;
    },
    clock,
    apiKey,
    presetKeys: PRESET_KEYS,
    get url() {
      return listeningUrl;
    },
    webhookSecret: (key = apiKey) => terminalOf(key).webhookSecret,
    seedOrders: (key, count, opts) => seedOrdersInto(engine, terminalOf(key), count, opts),
    addTerminal: (key, settings = {}) => addTerminal(key, settings),
    sweep: () => engine.sweep(),
    stateFile,
    saveState: () => writer?.flush(),
    webhooks: {
      idle: () => webhooks.idle(),
      log: (key = apiKey) => terminalOf(key).data.webhookLog,
    },
  };
}
