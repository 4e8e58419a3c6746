/**
 * The CLI's commands run in-process (`main(argv, io)`) against a sandbox listening on 127.0.0.1 and a
 * paydesk handler served over node:http whose webhook route the sandbox and `webhooks test` reach.
 */
import { createServer, type Server } from 'node:http';
import { main } from '../../../src/cli/main.js';
import type { Io } from '../../../src/cli/core/io.js';
import { createSandbox, type Sandbox } from '../../../src/sandbox/index.js';
import { createCheckoutHandler, toNodeListener, type CheckoutHandler } from '../../../src/server/index.js';

export const KEY = 'sk_cli_test';
export const SESSION_SECRET = 'cli-test-session-secret-0123456789abcdef';

export interface Ran {
  code: number;
  out: string;
  err: string;
}

/** Runs `paydesk …argv` in-process with `env` as its whole environment. */
export async function paydesk(argv: string[], env: Record<string, string>, io: Partial<Io> = {}): Promise<Ran> {
  let out = '';
  let err = '';
  const code = await main(argv, {
    out: (t) => (out += t.endsWith('\n') ? t : `${t}\n`),
    err: (t) => (err += t.endsWith('\n') ? t : `${t}\n`),
    env,
    fetch: globalThis.fetch,
    now: Date.now,
    cwd: process.cwd(),
    ...io,
  });
  return { code, out, err };
}

export interface World {
  sandbox: Sandbox;
  sandboxUrl: string;
  handler: CheckoutHandler;
  webhookUrl: string;
  env: Record<string, string>;
  /** Creates an order at the sandbox (as a checkout would) and returns its id. */
  order(clientOrderId: string, amount?: string): Promise<string>;
  close(): Promise<void>;
}

export async function world(): Promise<World> {
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const webhookUrl = `http://127.0.0.1:${(server.address() as { port: number }).port}/api/paydesk/webhooks`;
  const sandbox = createSandbox({ apiKey: KEY, seed: false, sweepIntervalMs: 0, webhookUrl, webhookSecret: 'whsec_cli_test_0123456789abcdef0123' });
  const { url: sandboxUrl } = await sandbox.listen({ port: 0 });
  const handler = createCheckoutHandler({
    provider: { baseUrl: sandboxUrl, apiKey: KEY, fetch: globalThis.fetch },
    sessionSecrets: [SESSION_SECRET],
    webhookSecrets: [sandbox.webhookSecret()],
    reconcileIntervalSeconds: 0,
    resolveOrder: () => ({ amount: '1500.00' }),
  });
  server.on('request', toNodeListener(handler));
  const env = { PAYDESK_PROVIDER_URL: sandboxUrl, PAYDESK_API_KEY: KEY };
  return {
    sandbox,
    sandboxUrl,
    handler,
    webhookUrl,
    env,
    async order(clientOrderId, amount = '1500.00') {
      const res = await fetch(`${sandboxUrl}/api/v1/order/`, {
        method: 'POST',
        headers: { 'X-API-Key': KEY, 'Content-Type': 'application/json' },
        body: JSON.stringify({ client_order_id: clientOrderId, order_side: 'Buy', method_type: 'SBP', amount }),
      });
      if (res.status !== 201) throw new Error(`order ${clientOrderId}: ${res.status} ${await res.text()}`);
      return ((await res.json()) as { id: string }).id;
    },
    async close() {
      await handler.close();
      await sandbox.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** A server that is not the sandbox: every request 404 (as a real provider answers /sandbox/…). */
export async function notASandbox(): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((_req, res) => {
    res.writeHead(404, { 'Content-Type': 'application/json' });
    res.end('{"success":false,"message":"Not found"}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
