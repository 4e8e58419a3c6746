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
import { resolve as resolvePath } from 'node:path';
import { createApp } from './app.js';
import { createClock } from './clock.js';
import { DEFAULT_WEBHOOK_RETRY_DELAYS_MS, DEFAULT_WEBHOOK_TIMEOUT_MS, PRESET_KEYS, SWEEP_INTERVAL_MS } from './constants.js';
import type { TerminalCurrency } from './currencies.js';
import { SandboxEngine } from './engine.js';
import { createListeners } from './listen.js';
import { silentLogger, type SandboxLogger } from './logger.js';
import { checkOptions, type Sandbox, type SandboxOptions } from './options.js';
import { catalogFor, type MethodDef } from './payment-methods.js';
import { seedOrders as seedOrdersInto, seedTerminal } from './seed.js';
import { createStateWriter, readState, SandboxStateError, type StateFileWriter } from './state-file.js';
import { addStartTerminals, baseSettings, terminalAdder } from './terminal-setup.js';
import { WebhookDispatcher } from './webhooks.js';

export { PRESET_KEYS, BLACKLISTED_CUSTOMER_ACCOUNTS, NO_TRADERS_FRACTION, DEFAULT_ANTI_FRAUD_PENDING_LIMIT } from './constants.js';
export { signWebhook, SIGNATURE_HEADER, type WebhookDelivery, type WebhookAttempt } from './webhooks.js';
export type { MethodDef } from './payment-methods.js';
export { TERMINAL_CURRENCIES, type TerminalCurrency } from './currencies.js';
export { cleanFileName, contentDisposition, detectReceiptType } from './receipts.js';
export { SandboxStateError } from './state-file.js';
export type { SandboxOptions, ListenOptions, ListeningSandbox, Sandbox } from './options.js';

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

/** The state file's writer, saved once at start (so a path that cannot be written is an error now, not a silent loss later). */
function startStateWriter(o: {
  stateFile: string;
  engine: SandboxEngine;
  apiKey: string;
  masterSecret: string;
  clockOffsetMs: () => number;
  delayMs: number;
  logger: SandboxLogger;
}): StateFileWriter {
  const writer = createStateWriter({
    path: o.stateFile,
    engine: o.engine,
    mainApiKey: o.apiKey,
    masterSecret: o.masterSecret,
    clockOffsetMs: o.clockOffsetMs,
    debounceMs: o.delayMs,
    onError: (err) => o.logger.error(`saving the sandbox state to ${o.stateFile} failed (it is tried again at the next change)`, err),
  });
  try {
    writer.save();
  } catch (err) {
    throw new SandboxStateError(o.stateFile, `it cannot be written (${(err as Error).message})`);
  }
  return writer;
}

export function createSandbox(options: SandboxOptions = {}): Sandbox {
  if (options.stateFile !== undefined && (typeof options.stateFile !== 'string' || options.stateFile.trim() === '')) {
    throw new RangeError('stateFile must be a file path');
  }
  const stateFile = options.stateFile === undefined ? null : resolvePath(options.stateFile);
  // An earlier run's state (null: none yet). A file that cannot be used throws SandboxStateError.
  const state = stateFile ? readState(stateFile) : null;
  const { apiKey, currency } = checkOptions(options, state?.mainApiKey);
  const logger = options.logger ?? silentLogger;
  const clock = createClock(options.now, state?.clockOffsetMs ?? 0);
  let onWebhookChange: () => void = () => undefined;
  /** With a state file: resolves once it holds every change made so far (see StateFileWriter.durable). */
  let durable: (() => Promise<void>) | undefined;
  const webhooks = new WebhookDispatcher({
    fetch: options.fetch ?? ((input, init) => globalThis.fetch(input, init)),
    retryDelaysMs: options.webhookRetryDelaysMs ?? DEFAULT_WEBHOOK_RETRY_DELAYS_MS,
    timeoutMs: options.webhookTimeoutMs ?? DEFAULT_WEBHOOK_TIMEOUT_MS,
    wallNow: options.wallNow ?? Date.now,
    logger,
    changed: () => onWebhookChange(),
    ...(stateFile && { beforeSend: () => durable?.() ?? Promise.resolve() }),
  });
  const engine = new SandboxEngine({ clock, webhooks });
  onWebhookChange = () => engine.changed();
  // Preset terminals derive their webhook secrets from this; kept in the state file so they survive a restart.
  const masterText = options.webhookSecret ?? state?.masterSecret ?? randomBytes(32).toString('hex');
  const adder = terminalAdder({ engine, logger, base: baseSettings(options, options.seed ?? true), master: Buffer.from(masterText), state, stateFile });
  addStartTerminals(adder, { apiKey, currency, webhookSecret: options.webhookSecret });

  const writer = stateFile
    ? startStateWriter({ stateFile, engine, apiKey, masterSecret: masterText, clockOffsetMs: () => clock.offsetMs, delayMs: options.stateSaveDelayMs ?? STATE_SAVE_DELAY_MS, logger })
    : null;
  if (writer) {
    engine.onChange = () => writer.changed();
    durable = () => writer.durable();
  }

  // The servers serve the app; the app names the first server's URL in form_url.
  const listeners = createListeners((request) => app.fetch(request));
  const app = createApp({
    engine,
    clock,
    logger,
    logRequests: options.logRequests ?? false,
    baseUrl: (requestUrl) => options.publicUrl ?? listeners.url ?? new URL(requestUrl).origin,
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

  return {
    app,
    fetch: async (request: Request) => app.fetch(request),
    listen: (listenOptions) => listeners.listen(listenOptions),
    async close() {
      if (sweepTimer) clearInterval(sweepTimer);
      webhooks.close();
      writer?.close();
      await listeners.closeAll();
    },
    clock,
    apiKey,
    presetKeys: PRESET_KEYS,
    get url() {
      return listeners.url;
    },
    webhookSecret: (key = apiKey) => terminalOf(key).webhookSecret,
    seedOrders: (key, count, opts) => seedOrdersInto(engine, terminalOf(key), count, opts),
    addTerminal: (key, settings = {}) => adder.add(key, settings),
    sweep: () => engine.sweep(),
    stateFile,
    saveState: () => writer?.flush(),
    webhooks: {
      idle: () => webhooks.idle(),
      log: (key = apiKey) => terminalOf(key).data.webhookLog,
    },
  };
}
