/**
 * The real handler over the in-process sandbox, as the server tests build it: a sandbox, the provider
 * client talking to its `fetch` (no port), a CheckoutHandler with the usual test options (the
 * terminal's key, a session secret, the sandbox's webhook secret, every order_ref a 1500.00 order, a
 * logger that keeps its lines in `logs`, no rate limits, no sweep timer), and the sandbox's signed
 * webhooks delivered straight into the handler. Options change what a test needs changed; the worlds
 * made here are closed (handler, then sandbox) after the file's tests.
 *
 * A file whose set-up is of another kind (two instances over one store, a process that dies, a real
 * HTTP server) builds its own.
 */
import { after } from 'node:test';
import assert from 'node:assert/strict';
import { createProviderClient } from '../../../src/provider/index.js';
import type { Order, ProviderClient, ProviderClientOptions } from '../../../src/provider/index.js';
import { createSandbox } from '../../../src/sandbox/index.js';
import type { Sandbox, SandboxOptions } from '../../../src/sandbox/index.js';
import { createCheckoutHandler } from '../../../src/server/index.js';
import type { CheckoutHandler, CheckoutHandlerOptions, FlaggedOrderEvent, OrderEvent } from '../../../src/server/index.js';
import type { OrderView } from '../../../src/protocol/index.js';

export const KEY = 'merchant_integration_key_0123456789';
export const SECRET = 'integration-session-secret-0123456789abcdef';
export const PROVIDER = 'http://sandbox.test';
export const ENDPOINT = 'http://merchant.test/api/paydesk';
export const ORIGIN = new URL(ENDPOINT).origin;

/** Between the provider client and the sandbox: `forward` hands a request on, `signal` is the client's own. */
export type ToSandbox = (req: Request, forward: (req: Request) => Promise<Response>, signal: AbortSignal) => Promise<Response>;

export interface WorldOptions {
  /** The terminal's key: the sandbox's, the client's and the handler's (default KEY). */
  key?: string;
  /** The handler's session secret (default SECRET). */
  secret?: string;
  /** False: the sandbox sends no webhooks (no webhook URL); default: delivered into the handler. */
  deliver?: boolean;
  /** Changes to the sandbox's options (e.g. `currency`, or an `apiKey` other than `key`). */
  sandbox?: Partial<SandboxOptions>;
  /** Changes to the provider client's options (e.g. `timeoutMs`, `maxRetries`). */
  client?: Partial<ProviderClientOptions>;
  /** Sees (and may answer or hold) each request of the client to the sandbox; default: forwarded as it is. */
  toSandbox?: ToSandbox;
  /** True: the handler reads the sandbox's clock (`advance` moves both). */
  sandboxClock?: boolean;
  /** The merchant hooks that push their events to the world's `paid`, `closed`, `flagged` (default none). */
  record?: Array<'paid' | 'closed' | 'flagged'>;
  /** Changes to the handler's options (last, over everything above); a function gets the world. */
  handler?: Partial<CheckoutHandlerOptions> | ((w: World) => Partial<CheckoutHandlerOptions>);
}

export interface World {
  key: string;
  sandbox: Sandbox;
  client: ProviderClient;
  handler: CheckoutHandler;
  /** The events of the hooks named in `record`. */
  paid: OrderEvent[];
  closed: OrderEvent[];
  flagged: FlaggedOrderEvent[];
  /** The handler's log lines: `level message {fields}`. */
  logs: string[];
  /** POSTs a sandbox control route (JSON body when given); not ok fails the test; its JSON answer. */
  control(path: string, body?: unknown): Promise<Record<string, unknown>>;
  /** Moves the sandbox's clock (and the handler's, when it reads `sandbox.clock`). */
  advance(seconds: number): Promise<void>;
}

const worlds: World[] = [];
after(async () => {
  for (const w of worlds.splice(0)) {
    await w.handler.close();
    await w.sandbox.close();
  }
});

/** A sandbox and a handler wired to each other in process; closed after the file's tests. */
export function world(options: WorldOptions = {}): World {
  const key = options.key ?? KEY;
  const w = { key, paid: [], closed: [], flagged: [], logs: [] } as unknown as World;
  w.sandbox = createSandbox({
    apiKey: key,
    seed: false,
    sweepIntervalMs: 0,
    webhookRetryDelaysMs: [],
    ...(options.deliver !== false && { webhookUrl: `${ENDPOINT}/webhooks`, fetch: (input: RequestInfo | URL, init?: RequestInit) => w.handler(new Request(input, init)) }),
    ...options.sandbox,
  });
  const forward = (req: Request) => w.sandbox.fetch(req);
  const toSandbox = options.toSandbox;
  w.client = createProviderClient({
    baseUrl: PROVIDER,
    apiKey: key,
    maxRetries: 0,
    fetch: async (input, init) => {
      const req = new Request(input, init);
      return toSandbox ? toSandbox(req, forward, init?.signal ?? req.signal) : forward(req);
    },
    ...options.client,
  });
  const log = (level: string) => (message: string, fields?: unknown) => void w.logs.push(`${level} ${message} ${JSON.stringify(fields ?? {})}`);
  const record = new Set(options.record ?? []);
  const handler = typeof options.handler === 'function' ? options.handler(w) : options.handler;
  w.handler = createCheckoutHandler({
    provider: { client: w.client, apiKey: key },
    sessionSecrets: [options.secret ?? SECRET],
    webhookSecrets: [w.sandbox.webhookSecret(key)],
    resolveOrder: () => ({ amount: '1500.00' }),
    logger: { info: log('info'), warn: log('warn'), error: log('error') },
    rateLimits: false,
    reconcileIntervalSeconds: 0,
    ...(options.sandboxClock && { now: () => w.sandbox.clock.now() }),
    ...(record.has('paid') && { onOrderPaid: (e: OrderEvent) => void w.paid.push(e) }),
    ...(record.has('closed') && { onOrderClosed: (e: OrderEvent) => void w.closed.push(e) }),
    ...(record.has('flagged') && { onOrderFlagged: (e: FlaggedOrderEvent) => void w.flagged.push(e) }),
    ...handler,
  });
  w.control = (path, body) => control(w.sandbox, path, body, key);
  w.advance = async (seconds) => void (await w.control('/sandbox/clock/advance', { seconds }));
  worlds.push(w);
  return w;
}

/** POSTs a sandbox control route with the terminal's key (JSON body when given); not ok fails the test. */
export async function control(sandbox: Sandbox, path: string, body?: unknown, key = KEY): Promise<Record<string, unknown>> {
  const res = await sandbox.fetch(
    new Request(`${PROVIDER}${path}`, {
      method: 'POST',
      headers: { 'X-API-Key': key, ...(body !== undefined && { 'Content-Type': 'application/json' }) },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    }),
  );
  assert.ok(res.ok, `${path}: ${res.status} ${await res.clone().text()}`);
  return (await res.json()) as Record<string, unknown>;
}

/** The widget's `POST {endpoint}/sessions` (same origin; `headers` added or changed). */
export function sessionRequest(body: unknown, headers: Record<string, string> = {}): Request {
  return new Request(`${ENDPOINT}/sessions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-paydesk': '1', origin: ORIGIN, ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

/** `POST /sessions` through the handler; its answer as it is. */
export const post = (w: Pick<World, 'handler'>, body: Record<string, unknown>, headers: Record<string, string> = {}) => w.handler(sessionRequest(body, headers));

/** `POST /sessions` that must answer 201: its session and order. */
export async function created(w: Pick<World, 'handler'>, body: Record<string, unknown> = { order_ref: 'tee', method_type: 'SBP' }, headers: Record<string, string> = {}) {
  const res = await post(w, body, headers);
  const json = (await res.json()) as { session: string; order: OrderView; server_time: string };
  assert.equal(res.status, 201, JSON.stringify(json));
  return json;
}

/** `GET /sessions/{token}` through the handler; its answer as it is. */
export const read = (w: Pick<World, 'handler'>, token: string, query = '') => w.handler(new Request(`${ENDPOINT}/sessions/${token}${query}`));

/** The session's order as `GET /sessions/{token}` shows it. */
export const view = async (w: Pick<World, 'handler'>, token: string, query = '') => ((await (await read(w, token, query)).json()) as { order: OrderView }).order;

/** Completes the order at the sandbox and waits until its webhook and the handler's work are done. */
export async function complete(w: World, orderId: string): Promise<void> {
  const res = await w.sandbox.fetch(new Request(`${PROVIDER}/sandbox/orders/${orderId}/complete`, { method: 'POST', headers: { 'X-API-Key': w.key } }));
  assert.equal(res.status, 200);
  await w.sandbox.webhooks.idle();
  await w.handler.idle();
}

/** The terminal's orders at the sandbox (newest first), or those of one client_order_id. */
export async function providerOrders(w: World, clientOrderId?: string): Promise<Order[]> {
  const path = clientOrderId === undefined ? '/api/v1/order/?size=100' : `/api/v1/order/search-by-client-order-id?id=${encodeURIComponent(clientOrderId)}&size=100`;
  const res = await w.sandbox.fetch(new Request(`${PROVIDER}${path}`, { headers: { 'X-API-Key': w.key } }));
  return ((await res.json()) as { orders: { items: Order[] } }).orders.items;
}
