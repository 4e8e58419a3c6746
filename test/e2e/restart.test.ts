/**
 * `npm start` restarted on its data directory (PAYDESK_DATA_DIR) loses nothing: the same secrets
 * (console password, sandbox key, session secret — so the shopper's token still verifies), the same
 * session and order on a reload, the sandbox's orders, and a payment made while it was down reaches
 * onOrderPaid once.
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startDemo } from '../../demo/app.js';
import type { OrderView } from '../../src/protocol/index.js';

const dir = mkdtempSync(join(tmpdir(), 'paydesk-data-'));
after(() => rmSync(dir, { recursive: true, force: true }));

test('a restart on the same data directory: same secrets, the reload resumes the same order, a payment made meanwhile is fulfilled once', async () => {
  const lines: string[] = [];
  const logger = { info: (m: string) => void lines.push(m), warn: () => undefined, error: (m: string) => void lines.push(m) };
  const first = await startDemo({ port: 0, sandboxPort: 0, dataDir: dir, logger });
  const res = await fetch(`${first.merchantUrl}/api/paydesk/sessions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-paydesk': '1', origin: first.merchantUrl, 'idempotency-key': 'restart-demo' },
    body: JSON.stringify({ order_ref: first.products[0]!.ref, method_type: 'SBP' }),
  });
  assert.equal(res.status, 201);
  const { session, order } = (await res.json()) as { session: string; order: OrderView };
  const password = first.consolePassword;
  const key = first.sandboxApiKey;
  await first.close();
  assert.equal(statSync(join(dir, 'secrets.json')).mode & 0o077, 0, 'the secrets file is the owner\'s only');

  const second = await startDemo({ port: 0, sandboxPort: 0, dataDir: dir, logger });
  try {
    assert.equal(second.consolePassword, password);
    assert.equal(second.sandboxApiKey, key);
    const again = await fetch(`${second.merchantUrl}/api/paydesk/sessions/${session}`);
    assert.equal(again.status, 200, 'the token signed before the restart still verifies');
    const view = ((await again.json()) as { order: OrderView }).order;
    assert.deepEqual([view.id, view.status, view.requisites?.holder_account], [order.id, 'pending', order.requisites?.holder_account]);
    // The shopper pays; the sandbox (restored) completes the same order and its webhook reaches the new process.
    const done = await second.sandbox!.fetch(
      new Request(`${second.sandboxUrl}/sandbox/orders/${order.id}/complete`, { method: 'POST', headers: { 'X-API-Key': key! } }),
    );
    assert.equal(done.status, 200, await done.clone().text());
    await second.sandbox!.webhooks.idle();
    const paid = ((await (await fetch(`${second.merchantUrl}/api/paydesk/sessions/${session}`)).json()) as { order: OrderView }).order;
    assert.equal(paid.status, 'paid');
    const deadline = Date.now() + 5000;
    while (!lines.some((l) => l.includes('paid: fulfilled')) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    assert.equal(lines.filter((l) => l.includes('paid: fulfilled')).length, 1);
  } finally {
    await second.close();
  }
});
