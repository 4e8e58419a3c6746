/** Shared bits of the benchmark servers (bench/child.ts) and clients: constants, listen/close, a session. */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export const API_KEY = 'bench_terminal_key';
export const AMOUNT = '1500.00';

export async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

export async function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

/** `POST {merchant}/api/paydesk/sessions` for an order ref (SBP); returns the session token and order. */
export async function createSession(merchantUrl: string, orderRef: string): Promise<{ session: string; order: { id: string } }> {
  const res = await fetch(`${merchantUrl}/api/paydesk/sessions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-paydesk': '1' },
    body: JSON.stringify({ order_ref: orderRef, method_type: 'SBP' }),
  });
  if (res.status !== 201) throw new Error(`POST /sessions answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as { session: string; order: { id: string } };
}
