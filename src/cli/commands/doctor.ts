/**
 * `paydesk doctor [--handler module.js]`: checks a merchant's configuration the way `brew doctor`
 * does — provider reachable and the key valid for a terminal of the configured currency, the
 * webhook URL public https (against a real provider), the session secret's length, a durable store
 * (from the handler module), the clock against the provider's — and names the fix of each finding.
 * Exit 1 on any finding. The checks themselves: cli/doctor/checks.ts.
 */
import { isProviderError, type ProviderClient } from '../../provider/index.js';
import { createProviderClient } from '../../provider/index.js';
import { envValue, printJson, type Io } from '../core/io.js';
import { providerFailure, sandboxCaller } from '../core/provider.js';
import { JSON_OPTION, PROVIDER_OPTIONS, type CommandSpec } from '../core/spec.js';
import { checkClock, checkCurrency, checkSessionSecret, checkWebhookUrl, finding, ok, skipped, type Check } from '../doctor/checks.js';
import { checkStore, loadHandlerModule, type HandlerFacts } from '../doctor/handler-module.js';

interface ProviderFacts {
  checks: Check[];
  /** True: the paydesk sandbox; false: another provider; null: not reached. */
  sandbox: boolean | null;
}

/** Provider, key, currency and clock, from one balance read (its Date header gives the provider's clock). */
async function checkProvider(baseUrl: string | undefined, apiKey: string | undefined, currency: string, io: Io): Promise<ProviderFacts> {
  if (!baseUrl || !apiKey) {
    const missing = [!baseUrl && 'PAYDESK_PROVIDER_URL', !apiKey && 'PAYDESK_API_KEY'].filter(Boolean).join(' and ');
    return {
      checks: [finding('provider', `${missing} not set`, `set ${missing} (or --provider-url / --api-key); for local work start the sandbox: npx paydesk sandbox`), skipped('currency', 'no provider'), skipped('clock', 'no provider')],
      sandbox: null,
    };
  }
  let providerDate: number | null = null;
  let sentAt = 0;
  let answeredAt = 0;
  const timedFetch: typeof fetch = async (input, init) => {
    sentAt = io.now();
    const res = await io.fetch(input, init);
    answeredAt = io.now();
    const date = Date.parse(res.headers.get('date') ?? '');
    providerDate = Number.isNaN(date) ? null : date;
    return res;
  };
  let client: ProviderClient;
  try {
    client = createProviderClient({ baseUrl, apiKey, fetch: timedFetch, maxRetries: 0, timeoutMs: 10_000 });
  } catch (err) {
    return { checks: [finding('provider', `the provider settings are refused: ${(err as Error).message}`, 'fix PAYDESK_PROVIDER_URL / PAYDESK_API_KEY'), skipped('currency', 'no provider'), skipped('clock', 'no provider')], sandbox: null };
  }
  const target = { baseUrl, apiKey };
  let balance;
  try {
    balance = await client.getBalance();
  } catch (err) {
    const line = providerFailure(err, target).message;
    const fix = isProviderError(err) && err.code === 'unauthorized' ? "use the terminal's API key from the provider's cabinet (PAYDESK_API_KEY)" : 'check PAYDESK_PROVIDER_URL and that the provider answers from this machine';
    const clock = providerDate === null ? skipped('clock', 'the provider did not answer') : checkClock((answeredAt + sentAt) / 2 / 1000 - (providerDate as number) / 1000 - 0.5);
    const why = isProviderError(err) && err.code === 'unauthorized' ? 'the key was not accepted' : 'the provider did not answer';
    return { checks: [finding('provider', line, fix), skipped('currency', why), clock], sandbox: null };
  }
  const sandbox = (await sandboxCaller(target, io)('GET', '/sandbox/terminal').catch(() => null))?.status === 200;
  // The Date header has whole seconds (it truncates): the provider's time is on average half a second later.
  const skew = providerDate === null ? null : (answeredAt + sentAt) / 2 / 1000 - (providerDate as number) / 1000 - 0.5;
  return {
    checks: [ok('provider', `${baseUrl} answers and accepts the key${sandbox ? ' (the paydesk sandbox)' : ''}`), checkCurrency(balance.currency, currency), checkClock(skew)],
    sandbox,
  };
}

function print(io: Io, checks: Check[]): void {
  const mark = { ok: '✓', finding: '✗', skipped: '-' } as const;
  for (const c of checks) {
    io.out(`${mark[c.status]} ${c.id.replace('_', ' ')}: ${c.message}`);
    if (c.fix) io.out(`    fix: ${c.fix}`);
  }
  const findings = checks.filter((c) => c.status === 'finding').length;
  io.out(findings === 0 ? '\nNo findings.' : `\n${findings} finding${findings === 1 ? '' : 's'}.`);
}

export const doctor: CommandSpec = {
  name: 'doctor',
  summary: 'check a deployment: provider and key, currency, webhook URL, session secret, store, clock',
  description: [
    'Reads PAYDESK_PROVIDER_URL, PAYDESK_API_KEY, PAYDESK_CURRENCY (default RUB), PAYDESK_WEBHOOK_URL and',
    'PAYDESK_SESSION_SECRET. With --handler, the module that exports your handler (or its options) as',
    'default, "handler" or "options": its store is checked (in memory, or refusing, is a finding), and',
    'options it holds take the place of the environment. Each finding says what to do; any finding exits 1.',
  ].join('\n'),
  args: [],
  options: {
    ...PROVIDER_OPTIONS,
    handler: { type: 'string', value: 'MODULE', help: 'a .js/.mjs module exporting the handler or its options' },
    ...JSON_OPTION,
  },
  examples: ['paydesk doctor', 'paydesk doctor --handler ./paydesk.js --json'],
  async run(input, io) {
    const opt = (name: string) => (typeof input.options[name] === 'string' && input.options[name] !== '' ? (input.options[name] as string) : undefined);
    let facts: HandlerFacts | null = null;
    if (opt('handler')) facts = await loadHandlerModule(opt('handler')!, io.cwd);
    try {
      const baseUrl = opt('provider-url') ?? facts?.provider?.baseUrl ?? envValue(io, 'PAYDESK_PROVIDER_URL');
      const apiKey = opt('api-key') ?? facts?.provider?.apiKey ?? envValue(io, 'PAYDESK_API_KEY');
      const currency = (facts?.currency ?? envValue(io, 'PAYDESK_CURRENCY') ?? 'RUB').toUpperCase();
      const provider = await checkProvider(baseUrl, apiKey, currency, io);
      const webhookUrl = facts?.webhookUrl !== undefined ? (facts.webhookUrl ?? undefined) : envValue(io, 'PAYDESK_WEBHOOK_URL');
      const secretFrom = facts?.sessionSecret !== undefined ? 'sessionSecrets[0] of the handler options' : 'PAYDESK_SESSION_SECRET';
      const checks: Check[] = [
        ...provider.checks,
        checkWebhookUrl(webhookUrl, provider.sandbox, facts?.webhookUrl !== undefined ? 'webhookUrl of the handler options' : 'PAYDESK_WEBHOOK_URL'),
        checkSessionSecret(facts?.sessionSecret ?? envValue(io, 'PAYDESK_SESSION_SECRET'), secretFrom),
        facts ? await checkStore(facts) : skipped('store', 'not checked: give --handler module.js (the module exporting your handler or its options)'),
      ];
      if (input.options.json) printJson(io, { ok: checks.every((c) => c.status !== 'finding'), checks });
      else print(io, checks);
      return checks.some((c) => c.status === 'finding') ? 1 : 0;
    } finally {
      await facts?.close().catch(() => undefined);
    }
  },
};
