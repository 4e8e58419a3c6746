/**
 * Test doubles for the provider client: a recording fake fetch driven by a handler, and fixtures
 * shaped exactly like provider-api.md's resources.
 */
import { createProviderClient } from '../../../src/provider/index.js';
import type { ProviderClient, ProviderClientOptions } from '../../../src/provider/index.js';

export const API_KEY = 'pk_test_SECRET_9f3b2c71d4e8';
export const BASE_URL = 'http://provider.test';

export interface Recorded {
  method: string;
  url: URL;
  /** Path without the query, e.g. `/api/v1/order/`. */
  path: string;
  headers: Headers;
  /** Parsed JSON body, or undefined for none (or a binary one: see `raw`). */
  body: unknown;
  /** A binary body (multipart) as sent, else undefined. */
  raw: Uint8Array | undefined;
  signal: AbortSignal | undefined;
}

export type Handler = (req: Recorded, index: number) => Response | Promise<Response>;

export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });
}

export function providerError(status: number, message: string, headers: Record<string, string> = {}): Response {
  return json({ success: false, message }, status, headers);
}

/** A fetch that records every request and answers with `handler`. */
export function recordingFetch(handler: Handler) {
  const calls: Recorded[] = [];
  const fetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const url = new URL(String(input));
    const text = typeof init?.body === 'string' ? init.body : undefined;
    const rec: Recorded = {
      method: init?.method ?? 'GET',
      url,
      path: url.pathname,
      headers: new Headers(init?.headers),
      body: text === undefined ? undefined : JSON.parse(text),
      raw: init?.body instanceof Uint8Array ? init.body : undefined,
      signal: init?.signal ?? undefined,
    };
    calls.push(rec);
    return handler(rec, calls.length - 1);
  };
  return { fetch: fetch as typeof globalThis.fetch, calls };
}

/**
 * A fetch that never answers until its signal aborts, then rejects with the abort reason (like
 * undici). It holds a ref'd handle meanwhile, as an open socket would: `AbortSignal.timeout` timers
 * are unref'd and would not keep the process alive on their own.
 */
export function hangingFetch(handler?: Handler) {
  return recordingFetch((req, i) => {
    if (handler && i > 0) return handler(req, i);
    return new Promise<Response>((_, reject) => {
      const signal = req.signal!;
      if (signal.aborted) return reject(signal.reason);
      const socket = setInterval(() => {}, 60_000);
      signal.addEventListener(
        'abort',
        () => {
          clearInterval(socket);
          reject(signal.reason);
        },
        { once: true },
      );
    });
  });
}

/** Records the delays asked for and resolves at once. */
export function instantSleep() {
  const delays: number[] = [];
  const sleep = async (ms: number) => {
    delays.push(ms);
  };
  return { sleep, delays };
}

export function makeClient(
  handler: Handler,
  extra: Partial<ProviderClientOptions> = {},
): { client: ProviderClient; calls: Recorded[]; delays: number[] } {
  const { fetch, calls } = recordingFetch(handler);
  const { sleep, delays } = instantSleep();
  const client = createProviderClient({ baseUrl: BASE_URL, apiKey: API_KEY, fetch, sleep, random: () => 0.5, ...extra });
  return { client, calls, delays };
}

// ---------------------------------------------------------------------------------------------
// Fixtures (shapes of provider-api.md)

export function order(overrides: Record<string, unknown> = {}) {
  return {
    id: '7d7f4a52-0c0c-4b8e-9d47-3c1d7a1f0b11',
    client_order_id: 'shop-1001',
    currency: 'RUB',
    method_id: '0b8a3c1e-5d6f-4a2b-9c8d-7e6f5a4b3c2d',
    method_name: 'SBP Sber',
    method_type: 'SBP',
    initial_method_id: '0b8a3c1e-5d6f-4a2b-9c8d-7e6f5a4b3c2d',
    order_side: 'Buy',
    amount: '1500.00' as const,
    fee: '22.50',
    fixed_fee: null,
    status: 'Unpaid',
    holder_name: 'Иванов Иван Иванович',
    holder_account: '+79991234567',
    customer_name: null,
    customer_account: null,
    customer_bank: null,
    payment_link: null,
    webhook_url: null,
    created_at: '2025-01-10T12:00:00.123456Z',
    updated_at: '2025-01-10T12:00:00.123456Z',
    expires_at: '2025-01-10T12:30:00.123456Z',
    ...overrides,
  };
}

export function ordersPage(items: unknown[]) {
  return { success: true, message: 'ok', orders: { items, total: items.length, page: 1, size: 10, pages: items.length ? 1 : 0 } };
}

export function formSession(overrides: Record<string, unknown> = {}) {
  return {
    session_id: 'a1b2c3d4-session',
    ip_address: '203.0.113.7',
    client_order_id: 'shop-2001',
    terminal_id: '5e0c0a9e-3a1f-4c2b-8d7e-6f5a4b3c2d1e',
    order_side: 'Buy',
    amount: '1500.00000' as const,
    payment_method_type: 'SBP',
    nspk_code: null,
    order_id: '9f0e1d2c-order',
    redirect_url: null,
    support_url: null,
    return_url: null,
    search_count: 1,
    merchant_name: 'Demo shop',
    currency: 'RUB',
    selection: false,
    created_at: '2025-01-10T12:00:00.123456Z',
    updated_at: '2025-01-10T12:00:00.123456Z',
    unique_amount: false,
    user_id: null,
    state: 'requisites_found',
    requisites_request_starts_at: '2025-01-10T12:00:00.123456Z',
    requisites_request_expires_at: '2025-01-10T12:05:00.123456Z',
    payment_confirmation_starts_at: null,
    payment_confirmation_expires_at: null,
    expires_at: '2025-01-10T12:30:00.123456Z',
    ...overrides,
  };
}

export function formSessionsPage(items: unknown[]) {
  return { items, total: items.length, page: 1, size: 10, pages: items.length ? 1 : 0 };
}

export function formCreated(overrides: Record<string, unknown> = {}) {
  return {
    success: true,
    message: null,
    form_data: {
      session_id: 'a1b2c3d4-session',
      form_url: 'https://pay.provider.test/pay?session_id=a1b2c3d4-session',
      order_data: {
        client_order_id: 'shop-2001',
        order_side: 'Buy',
        payment_method_id: null,
        amount: '1500.00' as const,
        customer_bank: null,
        unique_amount: false,
      },
      support_url: 'https://shop.test/support',
      redirect_url: 'https://shop.test/thanks',
      return_url: 'https://shop.test/cart',
    },
    ...overrides,
  };
}

export function dispute(overrides: Record<string, unknown> = {}) {
  return {
    dispute_id: 'd-1',
    order_id: '7d7f4a52-0c0c-4b8e-9d47-3c1d7a1f0b11',
    client_order_id: 'shop-1001',
    amount: 1500,
    currency: 'RUB',
    processed: false,
    created_at: '2025-01-10T12:00:00.123Z',
    ...overrides,
  };
}

export function transaction(overrides: Record<string, unknown> = {}) {
  return {
    id: '11111111-2222-4333-8444-555555555555',
    deposit_id: '66666666-7777-4888-9999-000000000000',
    amount: '1000.00' as const,
    transaction_type: 'deposit',
    created_at: '2025-01-10T12:00:00Z',
    terminal: { id: '5e0c0a9e-3a1f-4c2b-8d7e-6f5a4b3c2d1e', currency: 'RUB', name: 'Demo' },
    client_description: 'top-up',
    client_id: 'aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee',
    ...overrides,
  };
}

export function paymentMethod(overrides: Record<string, unknown> = {}) {
  return {
    method_id: '0b8a3c1e-5d6f-4a2b-9c8d-7e6f5a4b3c2d',
    method_name: 'SBP',
    method_type: 'SBP',
    method_currency: 'RUB',
    nspk_code: null,
    ranges: [{ fee_side: 'Buy', currency: 'RUB', min_amount: 100, max_amount: 300000, fee: 1.5, fixed_fee: null }],
    ...overrides,
  };
}

export function balance() {
  return {
    success: true,
    message: 'ok',
    deposit: { available: '10000.00', frozen: '500.00', total: '10500.00', id: 'f0e1d2c3-b4a5-4968-8776-655443322110', currency: 'RUB' },
  };
}

/** A minimal valid H2H creation request. */
export function buyRequest(overrides: Record<string, unknown> = {}) {
  return { client_order_id: 'shop-1001', order_side: 'Buy' as const, method_type: 'SBP' as const, amount: '1500.00' as const, ...overrides };
}

/** A minimal valid form creation request. */
export function formRequest(orderData: Record<string, unknown> = {}, top: Record<string, unknown> = {}) {
  return {
    order_data: { client_order_id: 'shop-2001', order_side: 'Buy' as const, amount: '1500.00' as const, ...orderData },
    ...top,
  };
}
