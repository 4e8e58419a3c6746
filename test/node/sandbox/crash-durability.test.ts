/**
 * The sandbox CLI in a child process on a state file, killed with SIGKILL right after an answer:
 * what it answered 2xx (an order created, completed with its deposit, a dispute with its receipt,
 * a top-up) is there after a restart on the same file, and a webhook went out only once the state
 * file held the change it reports.
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { makePng, receiptForm } from './receipt-files.js';

const CLI = fileURLToPath(new URL('../../../src/sandbox/cli.ts', import.meta.url));
const KEY = 'crash_test_key_0123456789';
const dir = mkdtempSync(join(tmpdir(), 'paydesk-crash-'));
const file = join(dir, 'sandbox.json');
const children = new Set<ChildProcess>();
after(() => {
  for (const c of children) c.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

/** What the state file on disk says of an order's status right now (null: not in it). */
function statusOnDisk(orderId: string): string | null {
  const state = JSON.parse(readFileSync(file, 'utf8')) as { terminals: { apiKey: string; data: { orders: { id: string; status: string }[] } }[] };
  return state.terminals.find((t) => t.apiKey === KEY)?.data.orders.find((o) => o.id === orderId)?.status ?? null;
}

/** The merchant: takes every webhook, noting what the sandbox's state file held when it came. */
const received: { order_id: string; status: string; on_disk: string | null }[] = [];
let onWebhook: (() => void) | null = null;
const merchant = createServer((req, res) => {
  let body = '';
  req.on('data', (c: Buffer) => (body += c.toString()));
  req.on('end', () => {
    const { payload } = JSON.parse(body) as { payload: { id: string; status: string } };
    received.push({ order_id: payload.id, status: payload.status, on_disk: statusOnDisk(payload.id) });
    res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    onWebhook?.();
  });
});
after(() => merchant.close());

async function start(): Promise<{ child: ChildProcess; call: (method: string, path: string, body?: unknown) => Promise<{ status: number; json: any }> }> {
  const webhookUrl = `http://127.0.0.1:${(merchant.address() as AddressInfo).port}/webhooks`;
  const child = spawn(process.execPath, ['--import', 'tsx', CLI, '--port', '0', '--quiet', '--no-seed', '--state-file', file, '--api-key', KEY, '--webhook-url', webhookUrl], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  child.once('exit', () => children.delete(child));
  let out = '';
  child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (out += c.toString()));
  while (!/OpenAPI:/.test(out)) {
    const [chunk] = (await Promise.race([once(child.stdout!, 'data'), once(child, 'exit').then(() => [null])])) as [Buffer | null];
    if (chunk === null) throw new Error(`the sandbox exited: ${out}`);
  }
  const base = /listening on (\S+)/.exec(out)![1]!;
  const call = async (method: string, path: string, body?: unknown) => {
    const headers: Record<string, string> = { 'X-API-Key': KEY };
    let payload: BodyInit | undefined;
    if (body instanceof FormData) payload = body;
    else if (body !== undefined) {
      headers['Content-Type'] = 'application/json';
      payload = JSON.stringify(body);
    }
    const res = await fetch(`${base}${path}`, { method, headers, ...(payload !== undefined && { body: payload }) });
    return { status: res.status, json: await res.json() };
  };
  return { child, call };
}

/** SIGKILL, nothing else: no close, no last save. */
async function kill9(child: ChildProcess): Promise<void> {
  const exited = once(child, 'exit');
  child.kill('SIGKILL');
  await exited;
}

const buy = (coid: string) => ({ client_order_id: coid, order_side: 'Buy', method_type: 'SBP', amount: '1500.00' });

/** Until the state file holds the order (a step's setup, so each step stands on its own). */
async function onDisk(orderId: string): Promise<void> {
  while (statusOnDisk(orderId) === null) await new Promise((resolve) => setTimeout(resolve, 20));
}

test('kill -9 right after a 2xx: the create, the completion with its deposit, the dispute and the top-up survive a restart; webhooks go out only once saved', async () => {
  await new Promise<void>((resolve) => merchant.listen(0, '127.0.0.1', resolve));
  /** What a restart lost; every step is checked, then all are reported at once. */
  const lost: string[] = [];

  // A create answered 201, then SIGKILL.
  let sb = await start();
  const created = await sb.call('POST', '/api/v1/order/', buy('crash-1'));
  assert.equal(created.status, 201);
  await kill9(sb.child);
  sb = await start();
  const order = await sb.call('GET', `/api/v1/order/${created.json.id}`);
  if (order.json.order?.status !== 'Unpaid') lost.push(`the created order (${order.status} ${JSON.stringify(order.json)})`);

  // "complete" answered 200, then SIGKILL: Completed, with its deposit.
  const toComplete = (await sb.call('POST', '/api/v1/order/', buy('crash-2'))).json;
  await onDisk(toComplete.id);
  const balanceBefore = (await sb.call('GET', '/api/v1/finance/balance')).json.deposit;
  assert.equal((await sb.call('POST', `/sandbox/orders/${toComplete.id}/complete`)).status, 200);
  await kill9(sb.child);
  sb = await start();
  const completed = (await sb.call('GET', `/api/v1/order/${toComplete.id}`)).json.order;
  if (completed?.status !== 'Completed') lost.push(`the completion (the order is ${completed?.status})`);
  const deposits = (await sb.call('GET', '/api/v1/finance/transactions?size=100&transaction_type=deposit')).json.items as { client_description: string }[];
  if (!deposits.some((d) => d.client_description.includes(toComplete.id))) lost.push('the deposit of the completed order');
  if (JSON.stringify((await sb.call('GET', '/api/v1/finance/balance')).json.deposit) === JSON.stringify(balanceBefore)) lost.push('the balance with that deposit');

  // A completion's webhook: when the merchant gets it, the state file already holds the change.
  const third = (await sb.call('POST', '/api/v1/order/', buy('crash-3'))).json;
  const delivered = new Promise<void>((resolve) => (onWebhook = resolve));
  assert.equal((await sb.call('POST', `/sandbox/orders/${third.id}/complete`)).status, 200);
  await delivered;
  assert.ok(received.length > 0);
  for (const w of received) if (w.on_disk !== w.status) lost.push(`the webhook for ${w.order_id} (${w.status}) came while the state file said ${w.on_disk}`);

  // A dispute created with a receipt (201), then SIGKILL.
  const disputed = (await sb.call('POST', '/api/v1/order/', buy('crash-4'))).json;
  await onDisk(disputed.id);
  const dispute = await sb.call('POST', '/api/v1/disputes/create', receiptForm({ order_id: disputed.id, amount: disputed.amount }, [{ name: 'receipt.png', type: 'image/png', data: makePng() }]));
  assert.equal(dispute.status, 201);
  await kill9(sb.child);
  sb = await start();
  const kept = await sb.call('GET', `/sandbox/disputes/${dispute.json.dispute_id}`);
  if (kept.json.dispute?.order_id !== disputed.id) lost.push(`the dispute (${kept.status})`);
  else if (readdirSync(`${file}.files`).length !== 1) lost.push('the dispute’s receipt file');

  // A top-up (a scenario control) answered 200, then SIGKILL.
  const topped = await sb.call('POST', '/sandbox/balance/top-up', { amount: '12345.67' });
  assert.equal(topped.status, 200);
  await kill9(sb.child);
  sb = await start();
  const balance = (await sb.call('GET', '/api/v1/finance/balance')).json.deposit;
  if (JSON.stringify(balance) !== JSON.stringify(topped.json.deposit)) lost.push(`the top-up (${JSON.stringify(balance)})`);
  await kill9(sb.child);

  assert.deepEqual(lost, [], 'nothing the sandbox answered 2xx is lost');
  assert.deepEqual(readdirSync(dir).filter((n) => n.endsWith('.tmp')), [], 'no temp file is left behind');
});
