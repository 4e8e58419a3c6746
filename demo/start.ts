/**
 * `npm start`: the sandbox provider + the merchant server (storefront, token endpoint, webhooks,
 * console) in one process on loopback. Prints the URLs, the sandbox key and the console password;
 * stops cleanly on Ctrl-C or SIGTERM.
 *
 * Environment:
 *   PORT                      merchant server port (default 3000)
 *   SANDBOX_PORT              sandbox port (default 4010)
 *   PAYDESK_PROVIDER_URL      with PAYDESK_API_KEY: use that provider, start no sandbox
 *   PAYDESK_API_KEY
 *   PAYDESK_SANDBOX_API_KEY   the demo terminal's key (random when unset)
 *   PAYDESK_ALLOWED_ORIGINS   comma-separated origins allowed to call the token endpoint besides its own
 *   PAYDESK_CONSOLE_PASSWORD  the merchant console's password (random when unset)
 *   PAYDESK_SESSION_SECRET    signs session tokens, 32+ characters (default: drawn once, kept in the data directory)
 *   PAYDESK_DATA_DIR          what survives a restart: stores, secrets, sandbox state (default .paydesk)
 *   PAYDESK_WEBHOOK_URL       public URL of /api/paydesk/webhooks, for a real provider
 *   PAYDESK_OTEL=console      print paydesk's OpenTelemetry spans, one line each (an SDK registered here)
 */
import { PortInUseError, startDemo, type DemoOptions, type RunningDemo } from './app.js';
import { loadDemoPages } from './pages.js';

const env = process.env;

function fail(message: string): never {
  console.error(`paydesk demo: ${message}`);
  process.exit(1);
}

function port(name: 'PORT' | 'SANDBOX_PORT', fallback: number): number {
  const text = env[name];
  if (text === undefined || text === '') return fallback;
  if (!/^\d{1,5}$/.test(text) || Number(text) > 65535) fail(`${name} must be a port number from 0 to 65535, got "${text}"`);
  return Number(text);
}

function origins(): string[] {
  const list = (env.PAYDESK_ALLOWED_ORIGINS ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const o of list) {
    if (o === '*') continue;
    let u: URL;
    try {
      u = new URL(o);
    } catch {
      fail(`PAYDESK_ALLOWED_ORIGINS has an invalid origin "${o}" (expected e.g. https://shop.example)`);
    }
    if ((u.protocol !== 'http:' && u.protocol !== 'https:') || u.origin !== o.replace(/\/$/, '')) {
      fail(`PAYDESK_ALLOWED_ORIGINS has "${o}", which is not an origin (scheme://host[:port], no path)`);
    }
  }
  return list;
}

const providerUrl = env.PAYDESK_PROVIDER_URL?.trim();
const apiKey = env.PAYDESK_API_KEY?.trim();
if (Boolean(providerUrl) !== Boolean(apiKey)) {
  fail('set both PAYDESK_PROVIDER_URL and PAYDESK_API_KEY to use a real provider (or neither, for the sandbox)');
}

const options: DemoOptions = {
  port: port('PORT', 3000),
  sandboxPort: port('SANDBOX_PORT', 4010),
  provider: providerUrl && apiKey ? { url: providerUrl, apiKey } : null,
  allowedOrigins: origins(),
  ...(env.PAYDESK_SANDBOX_API_KEY ? { sandboxApiKey: env.PAYDESK_SANDBOX_API_KEY } : {}),
  ...(env.PAYDESK_CONSOLE_PASSWORD ? { consolePassword: env.PAYDESK_CONSOLE_PASSWORD } : {}),
  ...(env.PAYDESK_SESSION_SECRET ? { sessionSecret: env.PAYDESK_SESSION_SECRET } : {}),
  ...(env.PAYDESK_WEBHOOK_URL ? { webhookUrl: env.PAYDESK_WEBHOOK_URL } : {}),
  dataDir: env.PAYDESK_DATA_DIR?.trim() || '.paydesk',
};

if (env.PAYDESK_OTEL) await printSpans(env.PAYDESK_OTEL);

/**
 * `PAYDESK_OTEL=console`: registers an OpenTelemetry SDK (as an app would) whose exporter prints
 * every span on one line, so the spans `paydesk/server` reports can be shown as they happen.
 */
async function printSpans(value: string): Promise<void> {
  if (value !== 'console') fail(`PAYDESK_OTEL must be "console" (print the spans), got "${value}"`);
  const { context, trace } = await import('@opentelemetry/api');
  const { AsyncLocalStorageContextManager } = await import('@opentelemetry/context-async-hooks');
  const { BasicTracerProvider, SimpleSpanProcessor } = await import('@opentelemetry/sdk-trace-base');
  type Exporter = ConstructorParameters<typeof SimpleSpanProcessor>[0];
  const exporter: Exporter = {
    export(spans, done) {
      for (const s of spans) {
        const ms = s.duration[0] * 1000 + s.duration[1] / 1e6;
        const attrs = Object.entries(s.attributes).map(([k, v]) => `${k}=${String(v)}`);
        const error = s.status.code === 2 ? ` ERROR ${s.status.message ?? ''}` : '';
        console.log(`  [otel] ${s.name} ${ms.toFixed(1)} ms trace=${s.spanContext().traceId.slice(0, 8)} ${attrs.join(' ')}${error}`);
      }
      done({ code: 0 });
    },
    shutdown: async () => undefined,
  };
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }));
}

let demo: RunningDemo;
try {
  demo = await startDemo(options);
} catch (err) {
  if (err instanceof PortInUseError) fail(err.message);
  fail(err instanceof Error ? err.message : String(err));
}

const bold = (s: string) => (process.stdout.isTTY ? `\x1b[1m${s}\x1b[22m` : s);
const lines = [
  '',
  `  ${bold('paydesk demo')} is running`,
  '',
  `  Storefront        ${bold(demo.storefrontUrl)}`,
  `  Merchant console  ${demo.consoleUrl}   password: ${demo.consolePassword}`,
  `  Token endpoint    ${demo.merchantUrl}${demo.endpoint}`,
];
if (demo.sandboxUrl) {
  lines.push(
    // The root URL is what a provider client takes as baseUrl (PAYDESK_PROVIDER_URL); the client adds /api/v1/….
    `  Sandbox provider  ${demo.sandboxUrl}   (baseUrl / PAYDESK_PROVIDER_URL)`,
    `  Sandbox OpenAPI   ${demo.sandboxUrl}/openapi.json`,
    `  Sandbox key       ${demo.sandboxApiKey}`,
  );
} else {
  lines.push(`  Provider          ${providerUrl} (no sandbox)`);
}
if (env.PAYDESK_OTEL) lines.push(`  OpenTelemetry     spans printed below, one line each (PAYDESK_OTEL=${env.PAYDESK_OTEL})`);
if (demo.dataDir) lines.push(`  Data              ${demo.dataDir}   (sessions, secrets and sandbox state survive a restart)`);
// startDemo loaded the pages (cached): say so when they had to be built first.
const pages = await loadDemoPages();
if (pages.source === 'built') lines.push('', `  Demo pages built by Vite in ${pages.ms} ms (${pages.reason}); the next start reuses demo/dist.`);
lines.push('', '  Press Ctrl-C to stop.', '');
console.log(lines.join('\n'));

let stopping = false;
async function stop(signal: string) {
  if (stopping) {
    // A second Ctrl-C: leave at once.
    process.exit(130);
  }
  stopping = true;
  console.log(`\n  ${signal}: stopping…`);
  const timer = setTimeout(() => {
    console.error('  still closing after 5 s; exiting');
    process.exit(1);
  }, 5000);
  timer.unref();
  try {
    await demo.close();
    console.log('  stopped.');
    process.exit(0);
  } catch (err) {
    console.error('  error while stopping:', err);
    process.exit(1);
  }
}
process.on('SIGINT', () => void stop('SIGINT'));
process.on('SIGTERM', () => void stop('SIGTERM'));
