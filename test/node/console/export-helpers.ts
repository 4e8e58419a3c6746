/** Shared pieces of the export and analytics tests: a sandbox with its provider client, and a synthetic order list of any size. */
import { createProviderClient, type Order, type ProviderClient } from '../../../src/provider/index.js';
import { createSandbox, type Sandbox } from '../../../src/sandbox/index.js';

export const START = Date.parse('2025-03-01T12:00:00.000Z');
export const DAY = 24 * 3600 * 1000;
export const KEY = 'test_console_exports';

export interface SandboxWorld {
  sandbox: Sandbox;
  client: ProviderClient;
  time: { now: number };
  /** Requests the client sent, by path (`/api/v1/order/` …). */
  requests: string[];
  /** A sandbox control (`/sandbox/…`) or API call, as JSON (tests index into it freely). */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  call(method: string, path: string, body?: unknown): Promise<{ status: number; json: any }>;
  close(): Promise<void>;
}

/** A sandbox on a fake clock (its seeded month of history ends at START), and a provider client over it. */
export function sandboxWorld(options: { seed?: boolean } = {}): SandboxWorld {
  const time = { now: START };
  const sandbox = createSandbox({ apiKey: KEY, now: () => time.now, sweepIntervalMs: 0, webhookRetryDelaysMs: [], seed: options.seed ?? true });
  const requests: string[] = [];
  const client = createProviderClient({
    baseUrl: 'http://s.test',
    apiKey: KEY,
    maxRetries: 0,
    fetch: (input, init) => {
      const request = new Request(input, init);
      requests.push(new URL(request.url).pathname);
      return sandbox.fetch(request);
    },
  });
  return {
    sandbox,
    client,
    time,
    requests,
    async call(method, path, body) {
      const res = await sandbox.fetch(
        new Request(`http://s.test${path}`, {
          method,
          headers: { 'X-API-Key': KEY, ...(body !== undefined && { 'Content-Type': 'application/json' }) },
          ...(body !== undefined && { body: JSON.stringify(body) }),
        }),
      );
      return { status: res.status, json: await res.json() };
    },
    close: () => sandbox.close(),
  };
}

/** Every record of a list, page after page by page number (the plain reading a test compares with). */
export async function everyRecord<T>(page: (n: number) => Promise<{ items: T[]; pages: number }>): Promise<T[]> {
  const out: T[] = [];
  for (let n = 1; ; n++) {
    const res = await page(n);
    out.push(...res.items);
    if (n >= res.pages || res.items.length === 0) return out;
  }
}

/** A synthetic order `i` of {@link syntheticClient}: one a second from `from`, a Buy, text that needs quoting. */
export function syntheticOrder(i: number, from: number): Order {
  const at = new Date(from + i * 1000).toISOString();
  return {
    id: `order-${String(i).padStart(7, '0')}`,
    client_order_id: `shop-${i}, "gift"`,
    currency: 'RUB',
    method_id: 'm-1',
    method_name: 'СБП — Сбербанк',
    method_type: 'SBP',
    initial_method_id: 'm-0',
    order_side: 'Buy',
    amount: '1500.00',
    fee: '60.00',
    fixed_fee: null,
    status: 'Completed',
    holder_name: 'Иван И.',
    holder_account: '+79990000000',
    customer_name: null,
    customer_account: null,
    customer_bank: null,
    payment_link: null,
    webhook_url: null,
    created_at: at,
    updated_at: at,
    expires_at: at,
  } as Order;
}

/**
 * A provider client whose order list holds `count` synthetic orders (one a second from `from`), made
 * when a page asks for them; `pagesRead` counts the pages answered. Only `listOrders` is there.
 */
export function syntheticClient(count: number, from: number): { client: ProviderClient; pagesRead: () => number } {
  let pages = 0;
  const client = {
    async listOrders(q: { start_date: string; end_date: string; page: number; size: number }) {
      pages++;
      const lo = Math.max(0, Math.ceil((Date.parse(q.start_date) - from) / 1000));
      const hi = Math.min(count - 1, Math.floor((Date.parse(q.end_date) - from) / 1000));
      const total = Math.max(0, hi - lo + 1);
      const items: Order[] = [];
      for (let i = hi - (q.page - 1) * q.size; i >= lo && items.length < q.size; i--) items.push(syntheticOrder(i, from));
      return { items, total, page: q.page, size: q.size, pages: Math.ceil(total / q.size) };
    },
  } as unknown as ProviderClient;
  return { client, pagesRead: () => pages };
}
