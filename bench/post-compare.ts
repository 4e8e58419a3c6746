/**
 * `POST /sessions` of two builds of the merchant server in one run, interleaved:
 *
 *   tsx bench/post-compare.ts /path/to/other/checkout [runs] [requests]
 *
 * Starts one sandbox provider, a merchant process from this tree and one from the other tree (a copy
 * of an earlier commit with node_modules), then sends one request at a time, alternating: this tree,
 * the other, the provider directly. Prints per run the p50 added over the provider by each and their
 * ratio, then the medians. The machine is shared: only ratios inside one run are compared.
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { keepAlive, timed } from './http.js';
import { median, percentile } from './stats.js';
import { AMOUNT } from './stack.js';
import { startChild, type MerchantInfo, type ProviderInfo } from './processes.js';

const here = fileURLToPath(new URL('../', import.meta.url));
const other = process.argv[2];
const runs = Number(process.argv[3] ?? 5);
const requests = Number(process.argv[4] ?? 200);
if (!other) throw new Error('usage: bench/post-compare.ts OTHER_TREE [runs] [requests]');

async function merchantIn(cwd: string, provider: ProviderInfo) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/child.ts', 'merchant'], {
    cwd,
    env: { ...process.env, PAYDESK_BENCH_PROVIDER_URL: provider.url, PAYDESK_BENCH_WEBHOOK_SECRET: provider.webhookSecret },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const info = await new Promise<MerchantInfo>((resolve) => createInterface({ input: child.stdout! }).once('line', (l) => resolve(JSON.parse(l) as MerchantInfo)));
  return { info, stop: () => new Promise((r) => (child.once('exit', r), child.kill('SIGTERM'))) };
}

const provider = await startChild<ProviderInfo>('provider');
const mine = await merchantIn(here, provider.info);
const theirs = await merchantIn(other, provider.info);
const agent = keepAlive();
let n = 0;
const post = async (url: string) => {
  const r = await timed(agent, `${url}/api/paydesk/sessions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-paydesk': '1' },
    body: JSON.stringify({ order_ref: `cmp-${n++}`, method_type: 'SBP' }),
  });
  if (r.status !== 201) throw new Error(`POST /sessions: ${r.status} ${r.body}`);
  return r.ms;
};
const direct = async () => {
  const r = await timed(agent, `${provider.info.url}/api/v1/order/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': provider.info.apiKey },
    body: JSON.stringify({ client_order_id: randomUUID(), order_side: 'Buy', method_type: 'SBP', amount: AMOUNT }),
  });
  if (r.status !== 201) throw new Error(`direct: ${r.status}`);
  return r.ms;
};
try {
  for (let i = 0; i < 500; i++) (await post(mine.info.url), await post(theirs.info.url), await direct());
  const rows: { mine: number; theirs: number }[] = [];
  for (let run = 0; run < runs; run++) {
    const a: number[] = [], b: number[] = [], d: number[] = [];
    for (let i = 0; i < requests; i++) {
      a.push(await post(mine.info.url));
      b.push(await post(theirs.info.url));
      d.push(await direct());
    }
    const row = { mine: percentile(a, 50) - percentile(d, 50), theirs: percentile(b, 50) - percentile(d, 50) };
    rows.push(row);
    console.log(`run ${run + 1}: added p50 this tree ${row.mine.toFixed(2)} ms, other tree ${row.theirs.toFixed(2)} ms, provider p50 ${percentile(d, 50).toFixed(2)} ms`);
  }
  console.log(`median added p50: this tree ${median(rows.map((r) => r.mine)).toFixed(2)} ms, other ${median(rows.map((r) => r.theirs)).toFixed(2)} ms; median per-run ratio this/other ${median(rows.map((r) => r.mine / r.theirs)).toFixed(2)}`);
} finally {
  agent.destroy();
  await mine.stop();
  await theirs.stop();
  await provider.stop();
}
