/** Shared helpers of the sandbox tests: a sandbox on a fake clock and a small JSON request helper. */
import { PAYMENT_METHODS, createSandbox, type Sandbox, type SandboxOptions } from '../../../src/sandbox/index.js';

/** Method ids of the seeded catalogue, by a short name. */
export function methodId(name: 'sbp' | 'card' | 'sbp:sber' | 'sbp:tbank' | 'card:sber' | 'account' | 'qr' | 'inactive'): string {
  const find = (f: (m: (typeof PAYMENT_METHODS)[number]) => boolean) => {
    const m = PAYMENT_METHODS.find(f);
    if (!m) throw new Error(`no method ${name}`);
    return m.id;
  };
  switch (name) {
    case 'sbp':
      return find((m) => m.type === 'SBP' && m.nspkCode === null);
    case 'card':
      return find((m) => m.type === 'BankCard' && m.nspkCode === null);
    case 'sbp:sber':
      return find((m) => m.type === 'SBP' && m.nspkCode === 'bank100000000111');
    case 'sbp:tbank':
      return find((m) => m.type === 'SBP' && m.nspkCode === 'bank100000000004');
    case 'card:sber':
      return find((m) => m.type === 'BankCard' && m.nspkCode === 'bank100000000111');
    case 'account':
      return find((m) => m.type === 'BankAccount');
    case 'qr':
      return find((m) => m.type === 'NSPKLink');
    case 'inactive':
      return find((m) => !m.active);
  }
}

export const START = Date.parse('2025-03-01T12:00:00.000Z');
export const KEY = 'test_key';

export interface TestSandbox {
  sandbox: Sandbox;
  /** The fake base time; tests move it with `sandbox.clock.advance` (or set it directly). */
  time: { now: number };
  call(method: string, path: string, body?: unknown, options?: { key?: string | null; headers?: Record<string, string>; raw?: string }): Promise<Reply>;
  get(path: string, key?: string | null): Promise<Reply>;
  post(path: string, body?: unknown, key?: string | null): Promise<Reply>;
  close(): Promise<void>;
}

export interface Reply {
  status: number;
  headers: Headers;
  // Parsed JSON body (tests index into it freely).
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  json: any;
  text: string;
}

/** A response read as a {@link Reply}: its status, headers, text, and JSON when it is JSON (else null). */
export async function replyOf(res: Response): Promise<Reply> {
  const text = await res.text();
  let json: unknown = null;
  try {
    json = JSON.parse(text);
  } catch {
    json = null;
  }
  return { status: res.status, headers: res.headers, json, text };
}

export function makeSandbox(options: SandboxOptions = {}): TestSandbox {
  const time = { now: START };
  const sandbox = createSandbox({ apiKey: KEY, now: () => time.now, sweepIntervalMs: 0, webhookRetryDelaysMs: [], ...options });
  const call: TestSandbox['call'] = async (method, path, body, o = {}) => {
    const headers: Record<string, string> = { ...(o.headers ?? {}) };
    const key = o.key === undefined ? KEY : o.key;
    if (key !== null) headers['X-API-Key'] = key;
    let payload: string | undefined = o.raw;
    if (body !== undefined) {
      headers['Content-Type'] = 'application/json';
      payload = JSON.stringify(body);
    }
    const res = await sandbox.app.request(path, { method, headers, ...(payload !== undefined ? { body: payload } : {}) });
    return replyOf(res);
  };
  return {
    sandbox,
    time,
    call,
    get: (path, key) => call('GET', path, undefined, { key }),
    post: (path, body, key) => call('POST', path, body ?? {}, { key }),
    close: () => sandbox.close(),
  };
}

let counter = 0;
/** A Buy order body by method type (SBP aggregate unless told otherwise). */
export function buyOrder(extra: Record<string, unknown> = {}): Record<string, unknown> {
  counter++;
  return { client_order_id: `order-${counter}`, order_side: 'Buy', method_type: 'SBP', amount: '1500.00', ...extra };
}

/** A Sell order body on a bank SBP method. */
export function sellOrder(extra: Record<string, unknown> = {}): Record<string, unknown> {
  counter++;
  return {
    client_order_id: `payout-${counter}`,
    order_side: 'Sell',
    payment_method_id: methodId('sbp:sber'),
    amount: '2000.00',
    customer_account: '+79161234567',
    ...extra,
  };
}
