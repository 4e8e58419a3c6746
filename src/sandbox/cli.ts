/**
 * `npm run sandbox -- --port 4010 --api-key KEY`: the sandbox alone on 127.0.0.1, one log line per
 * request. The key also comes from PAYDESK_SANDBOX_API_KEY; random (and printed) when absent.
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { PRESET_KEYS, SandboxStateError, TERMINAL_CURRENCIES, consoleLogger, createSandbox, type TerminalCurrency } from './index.js';

const HELP = `Usage: npm run sandbox -- [options]

  --port N                 port on 127.0.0.1 (default: SANDBOX_PORT or 4010; 0 = any free port)
  --api-key KEY            key of the main terminal (default: PAYDESK_SANDBOX_API_KEY, else random)
  --webhook-url URL        where order webhooks go (default: PAYDESK_SANDBOX_WEBHOOK_URL)
  --webhook-secret SECRET  webhook signing secret of the main terminal (default: random)
  --integration-type T     plain (default) or order_with_form, for the main terminal
  --currency CODE          currency of the main terminal: ${TERMINAL_CURRENCIES.join(', ')} (default RUB)
  --state-file PATH        keep the sandbox's data in PATH (and receipts in PATH.files/): a restart
                           loses nothing; without --api-key the main terminal keeps its key
  --public-url URL         base of form_url (default: the listening URL)
  --auto-pay SECONDS       unpaid orders complete by themselves after SECONDS (demos)
  --no-seed                start without the seeded history
  --quiet                  no per-request log lines
  --help
`;

function fail(message: string): never {
  console.error(`sandbox: ${message}\n\n${HELP}`);
  process.exit(2);
}

let values;
try {
  ({ values } = parseArgs({
    options: {
      port: { type: 'string' },
      'api-key': { type: 'string' },
      'webhook-url': { type: 'string' },
      'webhook-secret': { type: 'string' },
      'integration-type': { type: 'string' },
      currency: { type: 'string' },
      'state-file': { type: 'string' },
      'public-url': { type: 'string' },
      'auto-pay': { type: 'string' },
      'no-seed': { type: 'boolean' },
      quiet: { type: 'boolean' },
      help: { type: 'boolean' },
    },
    strict: true,
  }));
} catch (err) {
  fail((err as Error).message);
}
if (values.help) {
  console.log(HELP);
  process.exit(0);
}

const portText = values.port ?? process.env.SANDBOX_PORT ?? '4010';
const port = Number(portText);
if (!/^\d+$/.test(portText) || port > 65535) fail(`--port must be an integer 0..65535, got ${portText}`);
const integrationType = values['integration-type'] ?? 'plain';
if (integrationType !== 'plain' && integrationType !== 'order_with_form') fail('--integration-type must be plain or order_with_form');
const autoPayText = values['auto-pay'];
const autoPay = autoPayText === undefined ? null : Number(autoPayText);
if (autoPay !== null && (!Number.isInteger(autoPay) || autoPay < 1)) fail('--auto-pay must be a positive integer of seconds');
const currency = (values.currency ?? 'RUB').toUpperCase();
if (!(TERMINAL_CURRENCIES as readonly string[]).includes(currency)) fail(`--currency must be one of ${TERMINAL_CURRENCIES.join(', ')}, got ${values.currency}`);
const stateFile = values['state-file'];
if (stateFile !== undefined && stateFile.trim() === '') fail('--state-file needs a file path');
const apiKeyGiven = values['api-key'] || process.env.PAYDESK_SANDBOX_API_KEY || undefined;

/** The widget bundle, when `npm run build` has made one. */
const cdnDir = fileURLToPath(new URL('../../dist/cdn/', import.meta.url));
const widgetScript = () => readFile(`${cdnDir}paydesk.js`, 'utf8').catch(() => null);
/** Its language tables (`chunks/kk.js`); the route lets only such names through. */
const widgetFile = (path: string) => (/^chunks\/[a-z0-9][a-z0-9_-]{0,63}\.js$/.test(path) ? readFile(`${cdnDir}${path}`, 'utf8').catch(() => null) : Promise.resolve(null));

let sandbox: ReturnType<typeof createSandbox>;
try {
  sandbox = createSandbox({
    ...(apiKeyGiven ? { apiKey: apiKeyGiven } : {}),
    webhookUrl: values['webhook-url'] ?? process.env.PAYDESK_SANDBOX_WEBHOOK_URL ?? null,
    ...(values['webhook-secret'] ? { webhookSecret: values['webhook-secret'] } : {}),
    integrationType,
    currency: currency as TerminalCurrency,
    ...(stateFile !== undefined ? { stateFile } : {}),
    ...(values['public-url'] ? { publicUrl: values['public-url'] } : {}),
    autoPayAfterSeconds: autoPay,
    seed: !values['no-seed'],
    logger: consoleLogger,
    logRequests: !values.quiet,
    widgetScript,
    widgetFile,
  });
} catch (err) {
  if (err instanceof SandboxStateError) {
    // A state file that cannot be used: say which and why, and touch nothing.
    console.error(`sandbox: ${err.message}`);
    process.exit(1);
  }
  // A bad --api-key (a preset's, too long), --webhook-url or --public-url: one clear line, no stack.
  fail(err instanceof Error ? err.message : String(err));
}

try {
  const server = await sandbox.listen({ port });
  console.log(`paydesk sandbox listening on ${server.url}`);
  const keyNote = apiKeyGiven ? '' : stateFile ? '  (kept in the state file)' : '  (random; set --api-key or PAYDESK_SANDBOX_API_KEY)';
  console.log(`  API key (main terminal): ${sandbox.apiKey}${keyNote}${currency === 'RUB' ? '' : `, currency ${currency}`}`);
  if (sandbox.stateFile) console.log(`  state file:              ${sandbox.stateFile}`);
  console.log(`  webhook secret:          ${sandbox.webhookSecret()}`);
  console.log(`  preset keys:             ${Object.values(PRESET_KEYS).join(', ')}`);
  console.log(`  OpenAPI:                 ${server.url}/openapi.json`);
  const stop = async () => {
    await sandbox.close();
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
} catch (err) {
  console.error(`sandbox: cannot listen on 127.0.0.1:${port}: ${(err as Error).message}`);
  await sandbox.close();
  process.exit(1);
}
