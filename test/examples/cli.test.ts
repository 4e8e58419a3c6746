/**
 * `npx paydesk …` from the packed tarball, as a developer runs it: the tarball installed once into an
 * empty folder, the sandbox started there by the installed bin (`paydesk sandbox`), a merchant server
 * (paydesk/server, plain node) receiving its webhooks, then every command with plain node (no tsx):
 * its text and --json output, what it did, and bad input (exit 2 with one line).
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { cleanEnv, freePort, npm, startProcess, tarball, type Running } from './helpers.js';

const KEY = 'sk_sandbox_cli_tarball';
const WEBHOOK_SECRET = 'whsec_cli_tarball_0123456789abcdef01';
const SESSION_SECRET = 'cli-tarball-session-secret-0123456789abcdef';

let work = '';
let sandbox: Running | undefined;
let shop: Running | undefined;
let env: Record<string, string> = {};

interface Ran {
  code: number;
  out: string;
  err: string;
}

/** `npx paydesk …args` in the folder, with only `extra` as PAYDESK_* environment. */
function npx(args: string[], extra: Record<string, string> = env): Promise<Ran> {
  const base = cleanEnv({ NO_COLOR: '1' });
  for (const key of Object.keys(base)) if (/^PAYDESK_/i.test(key)) delete base[key];
  return new Promise((resolve) => {
    execFile('npx', ['--no-install', 'paydesk', ...args], { cwd: work, env: { ...base, ...extra }, timeout: 60_000 }, (err, out, errOut) => {
      const code = err ? (typeof (err as { code?: unknown }).code === 'number' ? (err as { code: number }).code : -1) : 0;
      resolve({ code, out, err: errOut });
    });
  });
}

async function createOrder(clientOrderId: string): Promise<string> {
  const res = await fetch(`${sandbox!.url}/api/v1/order/`, {
    method: 'POST',
    headers: { 'X-API-Key': KEY, 'Content-Type': 'application/json' },
    body: JSON.stringify({ client_order_id: clientOrderId, order_side: 'Buy', method_type: 'SBP', amount: '1500.00' }),
  });
  assert.equal(res.status, 201);
  return ((await res.json()) as { id: string }).id;
}

before(async () => {
  const tgz = await tarball();
  work = await mkdtemp(join(tmpdir(), 'paydesk-cli-'));
  await writeFile(join(work, 'package.json'), JSON.stringify({ name: 'cli-try', private: true, type: 'module' }));
  await npm(['install', tgz, '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'], work);
  const shopPort = await freePort();
  const webhookUrl = `http://127.0.0.1:${shopPort}/api/paydesk/webhooks`;
  sandbox = await startProcess(join(work, 'node_modules', '.bin', 'paydesk'), ['sandbox', '--port', '0', '--api-key', KEY, '--webhook-url', webhookUrl, '--webhook-secret', WEBHOOK_SECRET, '--no-seed', '--quiet'], {
    cwd: work,
    ready: /paydesk sandbox listening on (http:\/\/127\.0\.0\.1:\d+)/,
    label: 'paydesk sandbox',
  });
  // The merchant's module: its handler (doctor --handler reads it) and a server for it.
  await writeFile(
    join(work, 'paydesk.mjs'),
    `import { createCheckoutHandler, createMemoryStore } from 'paydesk/server';
export const handler = createCheckoutHandler({
  provider: { baseUrl: process.env.PAYDESK_PROVIDER_URL, apiKey: process.env.PAYDESK_API_KEY },
  sessionSecrets: [process.env.PAYDESK_SESSION_SECRET],
  webhookSecrets: [process.env.PAYDESK_WEBHOOK_SECRET],
  webhookUrl: process.env.PAYDESK_WEBHOOK_URL,
  store: createMemoryStore(),
  reconcileIntervalSeconds: 0,
  resolveOrder: () => ({ amount: '1500.00' }),
});
`,
  );
  await writeFile(
    join(work, 'server.mjs'),
    `import http from 'node:http';
import { toNodeListener } from 'paydesk/server';
import { handler } from './paydesk.mjs';
const server = http.createServer(toNodeListener(handler)).listen(Number(process.env.PORT), '127.0.0.1', () => console.log('shop: http://127.0.0.1:' + process.env.PORT + '/'));
process.on('SIGTERM', () => { server.close(); handler.close().then(() => process.exit(0)); });
`,
  );
  env = { PAYDESK_PROVIDER_URL: sandbox.url, PAYDESK_API_KEY: KEY };
  shop = await startProcess(process.execPath, ['server.mjs'], {
    cwd: work,
    env: { ...env, PORT: String(shopPort), PAYDESK_SESSION_SECRET: SESSION_SECRET, PAYDESK_WEBHOOK_SECRET: WEBHOOK_SECRET, PAYDESK_WEBHOOK_URL: webhookUrl },
    ready: /shop: (http:\/\/127\.0\.0\.1:\d+)\//,
    label: 'shop server.mjs',
  });
});

after(async () => {
  await shop?.stop();
  await sandbox?.stop();
  if (work) await rm(work, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
});

const webhookUrl = () => `${shop!.url.replace(/\/$/, '')}/api/paydesk/webhooks`;

test('npx paydesk --help lists the commands; the paydesk-sandbox alias still answers', async () => {
  const help = await npx(['--help']);
  assert.equal(help.code, 0, help.err);
  for (const c of ['sandbox', 'trigger', 'orders list', 'orders show', 'balance', 'webhooks test', 'webhooks resend', 'doctor']) assert.match(help.out, new RegExp(`^  ${c}\\b`, 'm'));
  const alias = await new Promise<Ran>((resolve) =>
    execFile(join(work, 'node_modules', '.bin', 'paydesk-sandbox'), ['--port', 'x'], { cwd: work }, (err, out, errOut) => resolve({ code: (err as { code?: number } | null)?.code ?? 0, out, err: errOut })),
  );
  assert.equal(alias.code, 2);
  assert.match(alias.err, /^sandbox: --port must be an integer/);
});

test('npx paydesk trigger paid pays the newest order; orders show and list see it; balance answers', async () => {
  await createOrder('cli-first');
  const id = await createOrder('cli-newest');
  const paid = await npx(['trigger', 'paid']);
  assert.equal(paid.code, 0, paid.err);
  assert.match(paid.out, new RegExp(`^paid: order ${id} \\(cli-newest, 1500\\.00 RUB\\) is now Completed`));
  const show = await npx(['orders', 'show', id, '--json']);
  assert.equal(show.code, 0, show.err);
  assert.equal(JSON.parse(show.out).status, 'Completed');
  const list = await npx(['orders', 'list', '--status', 'Completed', '--json']);
  assert.equal(list.code, 0, list.err);
  assert.deepEqual((JSON.parse(list.out) as { items: { id: string }[] }).items.map((o) => o.id), [id]);
  const table = await npx(['orders', 'list']);
  assert.match(table.out, /^ID\s+CLIENT ORDER\s+STATUS/m);
  const balance = await npx(['balance', '--json']);
  assert.equal(balance.code, 0, balance.err);
  assert.equal(JSON.parse(balance.out).currency, 'RUB');
});

test('npx paydesk trigger late / dispute-rejected --json, and webhooks resend', async () => {
  const id = await createOrder('cli-late');
  const late = await npx(['trigger', 'late', id, '--json']);
  assert.equal(late.code, 0, late.err);
  assert.equal(JSON.parse(late.out).order.status, 'Completed');
  const other = await createOrder('cli-dispute');
  const rejected = await npx(['trigger', 'dispute-rejected', other, '--json']);
  assert.equal(rejected.code, 0, rejected.err);
  assert.equal(JSON.parse(rejected.out).dispute.accepted, false);
  const resend = await npx(['webhooks', 'resend', id]);
  assert.equal(resend.code, 0, resend.err);
  assert.match(resend.out, new RegExp(`Webhook of order ${id} \\(Completed\\) sent to ${webhookUrl().replace(/[/.]/g, '\\$&')}`));
});

test('npx paydesk webhooks test: the merchant server verifies the signed test delivery and fulfils nothing; a wrong secret exits 1', async () => {
  const ok = await npx(['webhooks', 'test', webhookUrl(), '--json'], { PAYDESK_WEBHOOK_SECRET: WEBHOOK_SECRET });
  assert.equal(ok.code, 0, ok.err);
  const r = JSON.parse(ok.out) as { status: number; recognised: boolean; answer: unknown };
  assert.deepEqual([r.status, r.recognised, r.answer], [200, true, { received: true, test: true }]);
  const wrong = await npx(['webhooks', 'test', webhookUrl(), '--webhook-secret', 'whsec_wrong']);
  assert.equal(wrong.code, 1);
  assert.match(wrong.err, /answered 401: the delivery was not verified/);
});

test('npx paydesk doctor: a broken setup lists each finding with its fix (exit 1); --json for scripts', async () => {
  const broken = await npx(['doctor', '--handler', './paydesk.mjs'], { ...env, PAYDESK_SESSION_SECRET: 'too-short' });
  assert.equal(broken.code, 1, broken.err);
  assert.match(broken.out, /✓ provider: .* \(the paydesk sandbox\)/);
  assert.match(broken.out, /✗ webhook url: PAYDESK_WEBHOOK_URL is not set/);
  assert.match(broken.out, /✗ session secret: .* has 9 characters/);
  assert.match(broken.out, /✗ store: the handler refuses its options: .*session secret must be .* at least 32 characters/);
  assert.match(broken.out, /\n {4}fix: /);
  const memory = await npx(['doctor', '--handler', './paydesk.mjs'], { ...env, PAYDESK_SESSION_SECRET: SESSION_SECRET, PAYDESK_WEBHOOK_URL: webhookUrl() });
  assert.equal(memory.code, 1, memory.err);
  assert.match(memory.out, /✗ store: the handler keeps sessions in memory.*\n {4}fix: pass a durable store/);
  assert.match(memory.out, /\n1 finding\.\n/);
  const fixed = await npx(['doctor', '--json'], { ...env, PAYDESK_SESSION_SECRET: SESSION_SECRET, PAYDESK_WEBHOOK_URL: webhookUrl() });
  const report = JSON.parse(fixed.out) as { ok: boolean; checks: { id: string; status: string }[] };
  assert.equal(fixed.code, 0, fixed.out);
  assert.equal(report.ok, true);
  assert.equal(report.checks.find((c) => c.id === 'store')?.status, 'skipped');
});

test('bad input: exit 2 with one line that says what to do', async () => {
  for (const [args, message] of [
    [['refund'], /^paydesk: unknown command "refund"/],
    [['trigger', 'paid-twice'], /^paydesk trigger: event must be one of paid, late/],
    [['orders', 'list', '--size', '0'], /^paydesk orders list: --size must be a whole number from 1 to 100/],
    [['orders', 'show'], /^paydesk orders show: missing ID/],
  ] as const) {
    const r = await npx([...args]);
    assert.equal(r.code, 2, args.join(' '));
    assert.match(r.err, message);
    assert.equal(r.err.trimEnd().split('\n').length, 1);
  }
  const noProvider = await npx(['balance'], {});
  assert.equal(noProvider.code, 2);
  assert.match(noProvider.err, /no provider URL: set PAYDESK_PROVIDER_URL/);
});
