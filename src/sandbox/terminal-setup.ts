/**
 * The terminals a sandbox starts with: the main one (the caller's key), the preset ones of
 * PRESET_KEYS, and any an earlier run added; each with its data from the state file when it has
 * some, else seeded.
 */
import {
  ALL_BUTTONS,
  DEFAULT_ANTI_FRAUD_PENDING_LIMIT,
  DEFAULT_OPENING_BALANCE,
  PRESET_KEYS,
  RATE_LIMITED_PER_MINUTE,
} from './constants.js';
import { defaultOpeningBalance, type TerminalCurrency } from './currencies.js';
import type { SandboxEngine } from './engine.js';
import type { SandboxLogger } from './logger.js';
import type { SandboxOptions } from './options.js';
import { seedTerminal } from './seed.js';
import { filesDirOf, identityOf, mergeSettings, restoreData, type PersistedState } from './state-file.js';
import { Terminal, deriveWebhookSecret, type TerminalSettings } from './terminal.js';

/** Settings every terminal starts from (the main terminal's). */
export function baseSettings(options: SandboxOptions, seed: boolean): TerminalSettings {
  return {
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
}

/** What each preset terminal changes of the base settings. */
export const PRESETS: Readonly<Record<string, Partial<TerminalSettings>>> = {
  [PRESET_KEYS.withForm]: { name: 'Sandbox: order_with_form', integrationType: 'order_with_form' },
  [PRESET_KEYS.formOff]: { name: 'Sandbox: form off', formActivated: false },
  [PRESET_KEYS.sberOnly]: { name: 'Sandbox: SberPay only', enabledButtons: ['SberPay'] },
  [PRESET_KEYS.emptyBalance]: { name: 'Sandbox: empty balance', openingBalance: '0.00', seedCompleted: false },
  [PRESET_KEYS.rateLimited]: { name: 'Sandbox: rate limited', rateLimitPerMinute: RATE_LIMITED_PER_MINUTE },
  // The four button_names are Russian banks' (SberPay …): a UZS terminal has none enabled.
  [PRESET_KEYS.uzs]: { name: 'Sandbox: UZS', currency: 'UZS', openingBalance: defaultOpeningBalance('UZS'), enabledButtons: [] },
};

/** A terminal with this start's settings; its data and run-time settings come from the state file when it has them. */
export type AddTerminal = (key: string, settings: Partial<TerminalSettings>, secret?: string, presetOverride?: TerminalSettings) => void;

export function terminalAdder(o: {
  engine: SandboxEngine;
  logger: SandboxLogger;
  base: TerminalSettings;
  /** Preset terminals derive their webhook secrets from it. */
  master: Buffer;
  state: PersistedState | null;
  stateFile: string | null;
}): { add: AddTerminal; /** Terminals of the file not added yet. */ leftover(): PersistedState['terminals'] } {
  const { engine, logger, base } = o;
  const stored = new Map((o.state?.terminals ?? []).map((t) => [t.apiKey, t]));
  const filesDir = o.stateFile ? filesDirOf(o.stateFile) : '';
  const add: AddTerminal = (key, settings, secret, presetOverride) => {
    if (!key || key.length > 256) throw new RangeError('apiKey must be 1 to 256 characters');
    const full: TerminalSettings = presetOverride ?? { ...base, ...settings, enabledButtons: [...(settings.enabledButtons ?? base.enabledButtons)] };
    const saved = stored.get(key);
    stored.delete(key);
    const terminal = new Terminal(key, full, secret ?? deriveWebhookSecret(o.master, key), saved ? identityOf(saved) : undefined);
    if (saved) terminal.settings = mergeSettings(full, saved);
    engine.addTerminal(terminal);
    if (saved && saved.settings.currency === terminal.currency) {
      restoreData(engine, terminal, saved, filesDir, o.stateFile!);
    } else {
      if (saved) logger.info(`sandbox: terminal ${key} held ${saved.settings.currency} data but is ${terminal.currency} now: it starts afresh`);
      seedTerminal(engine, terminal);
    }
  };
  return { add, leftover: () => [...stored.values()] };
}

/** Adds the main terminal, the presets, and the terminals an earlier run added (they come back as they were). */
export function addStartTerminals(
  adder: ReturnType<typeof terminalAdder>,
  main: { apiKey: string; currency: TerminalCurrency; webhookSecret: string | undefined },
): void {
  const settings: Partial<TerminalSettings> =
    main.currency === 'RUB' ? {} : { currency: main.currency, openingBalance: defaultOpeningBalance(main.currency), enabledButtons: [] };
  adder.add(main.apiKey, settings, main.webhookSecret);
  for (const [key, preset] of Object.entries(PRESETS)) adder.add(key, preset);
  for (const saved of adder.leftover()) adder.add(saved.apiKey, {}, undefined, { ...saved.preset, enabledButtons: [...saved.preset.enabledButtons] });
}
