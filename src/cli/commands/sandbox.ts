/**
 * `paydesk sandbox [options]` (also `paydesk-sandbox` and `npm run sandbox`): the sandbox provider
 * alone on 127.0.0.1, one log line per request, until SIGINT/SIGTERM. The key also comes from
 * PAYDESK_SANDBOX_API_KEY; random (and printed) when absent.
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { PRESET_KEYS, SandboxStateError, TERMINAL_CURRENCIES, consoleLogger, createSandbox, type TerminalCurrency } from '../../sandbox/index.js';
import { Failure, UsageError, type Io } from '../core/io.js';
import type { CommandSpec } from '../core/spec.js';

/** The widget bundle, when `npm run build` has made one. */
const cdnDir = fileURLToPath(new URL('../../../dist/cdn/', import.meta.url));
const widgetScript = () => readFile(`${cdnDir}paydesk.js`, 'utf8').catch(() => null);
/** Its language tables (`chunks/kk.js`); the route lets only such names through. */
const widgetFile = (path: string) => (/^chunks\/[a-z0-9][a-z0-9_-]{0,63}\.js$/.test(path) ? readFile(`${cdnDir}${path}`, 'utf8').catch(() => null) : Promise.resolve(null));

interface Settings {
  port: number;
  integrationType: 'plain' | 'order_with_form';
  autoPay: number | null;
  currency: TerminalCurrency;
  stateFile: string | undefined;
  apiKey: string | undefined;
}

function settingsOf(o: Record<string, string | boolean | undefined>, io: Io): Settings {
  const str = (name: string) => (typeof o[name] === 'string' ? (o[name] as string) : undefined);
  const portText = str('port') ?? io.env.SANDBOX_PORT ?? '4010';
  const port = Number(portText);
  if (!/^\d+$/.test(portText) || port > 65535) throw new UsageError(`--port must be an integer 0..65535, got ${portText}`);
  const integrationType = str('integration-type') ?? 'plain';
  if (integrationType !== 'plain' && integrationType !== 'order_with_form') throw new UsageError('--integration-type must be plain or order_with_form');
  const autoPayText = str('auto-pay');
  const autoPay = autoPayText === undefined ? null : Number(autoPayText);
  if (autoPay !== null && (!Number.isInteger(autoPay) || autoPay < 1)) throw new UsageError('--auto-pay must be a positive integer of seconds');
  const currency = (str('currency') ?? 'RUB').toUpperCase();
  if (!(TERMINAL_CURRENCIES as readonly string[]).includes(currency)) throw new UsageError(`--currency must be one of ${TERMINAL_CURRENCIES.join(', ')}, got ${str('currency')}`);
  const stateFile = str('state-file');
  if (stateFile !== undefined && stateFile.trim() === '') throw new UsageError('--state-file needs a file path');
  const apiKey = str('api-key') || io.env.PAYDESK_SANDBOX_API_KEY || undefined;
  return { port, integrationType, autoPay, currency: currency as TerminalCurrency, stateFile, apiKey };
}

export const sandbox: CommandSpec = {
  name: 'sandbox',
  summary: 'run the sandbox provider on 127.0.0.1 (same API as the provider, plus scenario controls)',
  description: 'Runs until stopped (Ctrl-C). It prints its URL, the API key of its main terminal, its webhook secret and the preset keys.',
  args: [],
  options: {
    port: { type: 'string', value: 'N', help: 'port on 127.0.0.1 (default: SANDBOX_PORT or 4010; 0 = any free port)' },
    'api-key': { type: 'string', value: 'KEY', env: 'PAYDESK_SANDBOX_API_KEY', help: 'key of the main terminal (else random)' },
    'webhook-url': { type: 'string', value: 'URL', env: 'PAYDESK_SANDBOX_WEBHOOK_URL', help: 'where order webhooks go' },
    'webhook-secret': { type: 'string', value: 'SECRET', help: 'webhook signing secret of the main terminal (default: random)' },
    'integration-type': { type: 'string', value: 'T', help: 'plain (default) or order_with_form, for the main terminal' },
    currency: { type: 'string', value: 'CODE', help: `currency of the main terminal: ${TERMINAL_CURRENCIES.join(', ')} (default RUB)` },
    'state-file': { type: 'string', value: 'PATH', help: "keep the sandbox's data in PATH (receipts in PATH.files/): a restart loses nothing; without --api-key the main terminal keeps its key" },
    'public-url': { type: 'string', value: 'URL', help: 'base of form_url (default: the listening URL)' },
    'auto-pay': { type: 'string', value: 'SECONDS', help: 'unpaid orders complete by themselves after SECONDS (demos)' },
    'no-seed': { type: 'boolean', help: 'start without the seeded history' },
    quiet: { type: 'boolean', help: 'no per-request log lines' },
  },
  examples: ['paydesk sandbox --port 4010 --api-key sk_sandbox_demo', 'paydesk sandbox --webhook-url http://127.0.0.1:3000/api/paydesk/webhooks --state-file .sandbox.json'],
  async run(input, io) {
    const o = input.options;
    const s = settingsOf(o, io);
    let instance: ReturnType<typeof createSandbox>;
    try {
      instance = createSandbox({
        ...(s.apiKey ? { apiKey: s.apiKey } : {}),
        webhookUrl: (o['webhook-url'] as string | undefined) ?? io.env.PAYDESK_SANDBOX_WEBHOOK_URL ?? null,
        ...(o['webhook-secret'] ? { webhookSecret: o['webhook-secret'] as string } : {}),
        integrationType: s.integrationType,
        currency: s.currency,
        ...(s.stateFile !== undefined ? { stateFile: s.stateFile } : {}),
        ...(o['public-url'] ? { publicUrl: o['public-url'] as string } : {}),
        autoPayAfterSeconds: s.autoPay,
        seed: !o['no-seed'],
        logger: consoleLogger,
        logRequests: !o.quiet,
        widgetScript,
        widgetFile,
      });
    } catch (err) {
      // A state file that cannot be used: say which and why, and touch nothing.
      if (err instanceof SandboxStateError) throw new Failure(err.message);
      // A bad --api-key (a preset's, too long), --webhook-url or --public-url: one clear line, no stack.
      throw new UsageError(err instanceof Error ? err.message : String(err));
    }
    let server;
    try {
      server = await instance.listen({ port: s.port });
    } catch (err) {
      await instance.close();
      throw new Failure(`cannot listen on 127.0.0.1:${s.port}: ${(err as Error).message}`);
    }
    io.out(`paydesk sandbox listening on ${server.url}`);
    const keyNote = s.apiKey ? '' : s.stateFile ? '  (kept in the state file)' : '  (random; set --api-key or PAYDESK_SANDBOX_API_KEY)';
    io.out(`  API key (main terminal): ${instance.apiKey}${keyNote}${s.currency === 'RUB' ? '' : `, currency ${s.currency}`}`);
    if (instance.stateFile) io.out(`  state file:              ${instance.stateFile}`);
    io.out(`  webhook secret:          ${instance.webhookSecret()}`);
    io.out(`  preset keys:             ${Object.values(PRESET_KEYS).join(', ')}`);
    io.out(`  OpenAPI:                 ${server.url}/openapi.json`);
    // Runs until a signal: then closes (the state file written) and resolves with exit code 0.
    await new Promise<void>((resolve) => {
      process.once('SIGINT', resolve);
      process.once('SIGTERM', resolve);
    });
    await instance.close();
    return 0;
  },
};
