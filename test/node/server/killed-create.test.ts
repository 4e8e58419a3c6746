/**
 * A killed create's shopper gets the order within 15 s of the retry (issue 30), not after the 90 s
 * idempotency lease: the claim is held by a heartbeat, so once the process is gone (kill -9) it lapses
 * within seconds and the retry takes it over, looks the order up by its client order id and adopts it.
 * A real merchant process (fixtures/merchant-process.ts, SQLite) behind a provider proxy that lets the
 * create reach the sandbox and never returns its answer; the process is killed with the create out,
 * started again on the same file, and the shopper's widget retries with the same Idempotency-Key.
 * Also with the merchant's own client order id (resolveOrder gives one): its `creating:<id>` lease
 * is held by the same kind of heartbeat (create-once.ts), so it does not keep the retry 90 s either.
 */
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Order } from '../../../src/provider/index.js';
import { createSandbox } from '../../../src/sandbox/index.js';
import type { OrderView } from '../../../src/protocol/index.js';
import { freePort } from './redis-server.js';

const KEY = 'killed_create_key_0123456789abcdef';
const SECRET = 'killed-create-session-secret-0123456789abcdef';
const dir = mkdtempSync(join(tmpdir(), 'paydesk-killed-create-'));
const cleanups: Array<() => Promise<unknown> | unknown> = [];
after(async () => {
  for (const c of cleanups.reverse()) await c();
  rmSync(dir, { recursive: true, force: true });
});

const cases = [
  { name: 'a client order id paydesk chooses', coid: undefined, key: 'killed-create-1' },
  { name: "the merchant's own client order id", coid: 'merchant-order-7731', key: 'killed-create-2' },
];

describe('a process killed mid-create', () => {
  for (const c of cases) test(`${c.name}: the shopper's retry with the same Idempotency-Key gets the order within 15 s, one order at the provider`, { timeout: 90_000 }, async () => {
    const sandbox = createSandbox({ apiKey: KEY, seed: false, sweepIntervalMs: 0 });
    cleanups.push(() => sandbox.close());
    // The provider as the merchant process sees it: creates reach the sandbox; while `hold`, their answer never comes back.
    let hold = true;
    let made: ((o: Order) => void) | null = null;
    const madeOrder = new Promise<Order>((r) => (made = r));
    const proxy = http.createServer(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const body = Buffer.concat(chunks);
      const headers = new Headers();
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string' && k !== 'host' && k !== 'connection') headers.set(k, v);
      const answer = await sandbox.fetch(new Request(`http://sandbox.test${req.url}`, { method: req.method!, headers, ...(body.length > 0 && { body }) }));
      const text = await answer.text();
      if (req.method === 'POST' && req.url === '/api/v1/order/' && hold) {
        const json = JSON.parse(text) as { order?: Order } & Order;
        made?.(json.order ?? json);
        return; // the answer is lost with the process
      }
      res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' });
      res.end(text);
    });
    await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
    cleanups.push(() => {
      proxy.closeAllConnections();
      return new Promise((r) => proxy.close(r));
    });
    const providerUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;

    const port = await freePort();
    const merchantUrl = `http://127.0.0.1:${port}/api/paydesk`;
    const script = fileURLToPath(new URL('./fixtures/merchant-process.ts', import.meta.url));
    const start = async (): Promise<ChildProcess> => {
      const child = spawn(process.execPath, ['--import', 'tsx', script], {
        env: { ...process.env, PORT: String(port), DB: join(dir, `merchant-${c.key}.db`), ...(c.coid && { CLIENT_ORDER_ID: c.coid }), PROVIDER_URL: providerUrl, API_KEY: KEY, SESSION_SECRET: SECRET, WEBHOOK_SECRET: sandbox.webhookSecret(KEY), PAID_LOG: join(dir, 'paid.log') },
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      cleanups.push(() => child.kill('SIGKILL'));
      await new Promise<void>((resolve, reject) => {
        child.stdout!.on('data', (d: Buffer) => (String(d).includes('ready') ? resolve() : undefined));
        child.once('exit', (code) => reject(new Error(`merchant exited with ${code}`)));
      });
      return child;
    };
    const create = () =>
      fetch(`${merchantUrl}/sessions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-paydesk': '1', 'idempotency-key': c.key },
        body: JSON.stringify({ order_ref: 'tee', method_type: 'SBP' }),
      });

    const first = await start();
    void create().catch(() => undefined); // never answered: the process dies with its create out
    const order = await madeOrder;
    const exited = new Promise((r) => first.once('exit', r));
    first.kill('SIGKILL');
    await exited;
    hold = false;
    await start(); // the orchestrator starts it again on the same data

    // The widget retries with the same key; a 409 (still being prepared) is retried after its Retry-After.
    const t0 = Date.now();
    let res = await create();
    let tries = 1;
    while (res.status === 409) {
      await res.arrayBuffer();
      await new Promise((r) => setTimeout(r, 1000 * Number(res.headers.get('retry-after') ?? '1')));
      res = await create();
      tries++;
    }
    const seconds = (Date.now() - t0) / 1000;
    const json = (await res.json()) as { order: OrderView };
    console.log(`the retry got the order after ${seconds.toFixed(1)} s (${tries} request${tries > 1 ? 's' : ''})`);
    assert.equal(res.status, 201, JSON.stringify(json));
    assert.equal(json.order.id, order.id, 'the order the killed process created, adopted');
    if (c.coid) assert.equal(order.client_order_id, c.coid, "the merchant's client order id was sent");
    assert.ok(seconds <= 15, `the retry waited ${seconds.toFixed(1)} s`);
    const search = await sandbox.fetch(
      new Request(`http://sandbox.test/api/v1/order/search-by-client-order-id?id=${encodeURIComponent(order.client_order_id)}&size=100`, { headers: { 'X-API-Key': KEY } }),
    );
    assert.equal(((await search.json()) as { orders: { items: Order[] } }).orders.items.length, 1, 'one order at the provider');
  });
});
