/**
 * Test doubles for the server: an in-memory ProviderClient that validates what the server sends
 * with the real request schemas, with fault injection per method; plus request helpers and an SSE
 * reader. The integration suites run the same behaviours against the in-process sandbox.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { addAmounts } from '../../../src/money/index.js';
import { CreateOrderRequestSchema, FormCreateRequestSchema } from '../../../src/provider/schemas.js';
import type {
  CreateOrderRequest,
  Dispute,
  DisputeSearchQuery,
  FormSearchQuery,
  OrdersQuery,
  Transaction,
  TransactionsQuery,
  FormCreateRequest,
  FormData,
  FormSession,
  Order,
  Page,
  PaymentMethod,
} from '../../../src/provider/schemas.js';
import type { OrderStatus } from '../../../src/provider/facts.js';
import { eachItem, type AllPagesQuery, type CreateDisputeRequest, type CreateDisputeResponse, type ProviderClient } from '../../../src/provider/types.js';
import { ProviderError } from '../../../src/provider/errors.js';
import { createCheckoutHandler } from '../../../src/server/index.js';
import { createSandbox, type Sandbox } from '../../../src/sandbox/index.js';
import type { CheckoutHandler, CheckoutHandlerOptions, ResolvedOrder } from '../../../src/server/index.js';
import { signWebhookPayload } from '../../../src/server/webhooks.js';

export const API_KEY = 'test-provider-key-0123456789abcdef';
export const SESSION_SECRET = 'session-secret-0123456789abcdef0123456789';
export const WEBHOOK_SECRET = 'whsec_0123456789abcdef0123456789abcdef';
export const ORIGIN = 'https://shop.example';
export const BASE = 'https://shop.example/api/paydesk';

export const SBP_ID = '11111111-1111-4111-8111-111111111111';
export const CARD_ID = '22222222-2222-4222-8222-222222222222';
export const SBER_SBP_ID = '33333333-3333-4333-8333-333333333333';
export const TBANK_SBP_ID = '44444444-4444-4444-8444-444444444444';
export const BIG_ONLY_ID = '55555555-5555-4555-8555-555555555555';

const range = (min: number, max: number, fee: number, fixed: number | null = null) => ({
  fee_side: 'Buy' as const,
  currency: 'RUB',
  min_amount: min,
  max_amount: max,
  fee,
  fixed_fee: fixed,
});

export function defaultMethods(): PaymentMethod[] {
  return [
    { method_id: SBP_ID, method_name: 'СБП', method_type: 'SBP', method_currency: 'RUB', nspk_code: null, ranges: [range(100, 100000, 1.5)] },
    { method_id: CARD_ID, method_name: 'Карта', method_type: 'BankCard', method_currency: 'RUB', nspk_code: null, ranges: [range(500, 50000, 2, 10)] },
    {
      method_id: SBER_SBP_ID,
      method_name: 'СБП Сбербанк',
      method_type: 'SBP',
      method_currency: 'RUB',
      nspk_code: 'bank100000000111',
      ranges: [range(100, 100000, 1.5)],
    },
    {
      method_id: TBANK_SBP_ID,
      method_name: 'СБП Т-Банк',
      method_type: 'SBP',
      method_currency: 'RUB',
      nspk_code: 'bank100000000004',
      ranges: [range(100, 100000, 1.5)],
    },
    { method_id: BIG_ONLY_ID, method_name: 'Счёт', method_type: 'BankAccount', method_currency: 'RUB', nspk_code: null, ranges: [range(100000, 1000000, 0.5)] },
  ];
}

type Method = keyof ProviderClient;
type Fault = (args: unknown[]) => unknown;

/** A deferred promise, to hold a call until the test releases it (no sleeps). */
export function deferred<T = void>() {
  let resolve!: (value: T) => void;
  let reject!: (err: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

export class FakeProvider implements ProviderClient {
  methods: PaymentMethod[] = defaultMethods();
  readonly orders: Order[] = [];
  readonly forms: Array<FormSession & { form_url: string }> = [];
  readonly calls: Array<{ method: Method; args: unknown[] }> = [];
  private readonly faults = new Map<Method, Fault[]>();
  /** Added to the requested amount when unique_amount is asked (≤ 9). */
  uniqueBump = '3.00';
  /** Rewrites orders on every read (to simulate a provider that changes amount/currency). */
  readTransform: ((o: Order) => Order) | null = null;
  clock = () => Date.now();
  /** This many next createOrder calls create the order, then lose the answer (a timeout). */
  loseCreates = 0;
  /** Runs once an order is created, before createOrder answers (a webhook that outruns the answer). */
  beforeAnswer: ((order: Order) => Promise<void>) | null = null;

  count(method: Method): number {
    return this.calls.filter((c) => c.method === method).length;
  }

  /** The next call of `method` runs `fault` instead (throw in it, or return a promise to hold the call). */
  failNext(method: Method, fault: Fault): void {
    const list = this.faults.get(method) ?? [];
    list.push(fault);
    this.faults.set(method, list);
  }

  private async enter(method: Method, args: unknown[]): Promise<void> {
    this.calls.push({ method, args });
    const fault = this.faults.get(method)?.shift();
    if (fault) await fault(args);
  }

  setStatus(id: string, status: string): Order {
    const o = this.orders.find((x) => x.id === id);
    if (!o) throw new Error(`no order ${id}`);
    o.status = status as OrderStatus;
    o.updated_at = new Date(this.clock()).toISOString();
    return o;
  }

  async listPaymentMethods(): Promise<PaymentMethod[]> {
    await this.enter('listPaymentMethods', []);
    return structuredClone(this.methods);
  }

  async createOrder(body: CreateOrderRequest): Promise<Order> {
    const req = CreateOrderRequestSchema.parse(body); // the server must send what the document allows
    await this.enter('createOrder', [req]);
    const method =
      this.methods.find((m) => m.method_id === req.payment_method_id) ??
      // Way 2: the bank method of the code, else the aggregate method of the type (as the document says).
      this.methods.find((m) => m.method_type === req.method_type && m.nspk_code === (req.nspk_code ?? null));
    if (!method) throw new ProviderError({ code: 'payment_method_not_found', status: 404, message: 'Payment method not found' });
    const amount = req.unique_amount ? addAmounts(String(req.amount), this.uniqueBump) : String(req.amount);
    const created = this.clock();
    const account = method.method_type === 'BankCard' ? '4627100101654724' : '+79991234567';
    const order: Order = {
      id: randomUUID(),
      client_order_id: req.client_order_id,
      currency: 'RUB',
      method_id: method.method_id,
      method_name: method.method_name,
      method_type: method.method_type,
      initial_method_id: method.method_id,
      order_side: 'Buy',
      amount,
      fee: '22.50',
      fixed_fee: null,
      status: 'Unpaid',
      holder_name: 'Иванов Иван Иванович',
      holder_account: account,
      customer_name: req.customer_name ?? null,
      customer_account: null,
      customer_bank: req.customer_bank ?? null,
      payment_link: null,
      webhook_url: req.webhook_url ?? null,
      ...(req.redirect_url !== undefined || req.customer_bank !== undefined ? { form_url: `https://provider.example/pay?session_id=${randomUUID()}` } : {}),
      created_at: new Date(created).toISOString(),
      updated_at: new Date(created).toISOString(),
      expires_at: new Date(created + 30 * 60 * 1000).toISOString(),
    };
    this.orders.push(order);
    await this.beforeAnswer?.(structuredClone(order));
    if (this.loseCreates > 0) {
      this.loseCreates--;
      throw new ProviderError({ code: 'timeout', message: 'POST /api/v1/order/: no answer within 15000 ms', retryable: true });
    }
    return structuredClone(order);
  }

  async createForm(body: FormCreateRequest): Promise<FormData> {
    const req = FormCreateRequestSchema.parse(body);
    await this.enter('createForm', [req]);
    const sessionId = randomUUID();
    const now = new Date(this.clock()).toISOString();
    const form_url = `https://provider.example/pay?session_id=${sessionId}`;
    this.forms.push({
      session_id: sessionId,
      ip_address: null,
      client_order_id: req.order_data.client_order_id,
      terminal_id: 'terminal',
      order_side: 'Buy',
      amount: `${req.order_data.amount}000`,
      payment_method_type: null,
      nspk_code: null,
      order_id: null,
      redirect_url: req.redirect_url ?? null,
      support_url: req.support_url ?? null,
      return_url: req.return_url ?? null,
      search_count: 0,
      merchant_name: 'Shop',
      currency: 'RUB',
      selection: false,
      created_at: now,
      updated_at: now,
      unique_amount: req.order_data.unique_amount ?? false,
      user_id: req.order_data.user_id ?? null,
      state: 'method_selection',
      requisites_request_starts_at: null,
      requisites_request_expires_at: null,
      payment_confirmation_starts_at: null,
      payment_confirmation_expires_at: null,
      expires_at: new Date(this.clock() + 30 * 60 * 1000).toISOString(),
      form_url,
    });
    return {
        session_id: sessionId,
        form_url,
        order_data: {
          client_order_id: req.order_data.client_order_id,
          order_side: 'Buy',
          payment_method_id: req.order_data.payment_method_id ?? null,
          amount: String(req.order_data.amount),
          customer_bank: req.order_data.customer_bank ?? null,
          unique_amount: req.order_data.unique_amount ?? false,
        },
        support_url: req.support_url ?? null,
        redirect_url: req.redirect_url ?? null,
        return_url: req.return_url ?? null,
    };
  }

  /** The shopper picks a method on a form: the provider creates the order for the form's client order id. */
  async payFormWith(sessionId: string, methodId = SBP_ID): Promise<Order> {
    const form = this.forms.find((f) => f.session_id === sessionId);
    if (!form) throw new Error(`no form ${sessionId}`);
    const saved = this.calls.length;
    const order = await this.createOrder({
      client_order_id: form.client_order_id,
      order_side: 'Buy',
      payment_method_id: methodId,
      amount: Number(form.amount).toFixed(2) as `${number}`,
    });
    this.calls.length = saved; // not a server call
    form.order_id = order.id;
    form.state = 'requisites_found';
    return order;
  }

  async searchOrdersByClientOrderId(query: { id: string; size?: number | string }): Promise<Page<Order>> {
    await this.enter('searchOrdersByClientOrderId', [query]);
    const items = this.orders.filter((o) => o.client_order_id === query.id).map((o) => structuredClone(this.readTransform ? this.readTransform(o) : o));
    return { items, total: items.length, page: 1, size: 100, pages: 1 };
  }

  async searchFormSessions(query?: FormSearchQuery): Promise<Page<FormSession>> {
    await this.enter('searchFormSessions', [query]);
    const items = this.forms
      .filter((f) => (!query?.session_id || f.session_id === query.session_id) && (!query?.client_order_id || f.client_order_id === query.client_order_id))
      .map(({ form_url: _omit, ...rest }) => structuredClone(rest));
    return { items, total: items.length, page: 1, size: 10, pages: 1 };
  }

  async getOrder(id: string): Promise<Order> {
    await this.enter('getOrder', [id]);
    const o = this.orders.find((x) => x.id === id);
    if (!o) throw new ProviderError({ code: 'order_not_found', status: 404, message: `GET /api/v1/order/${id}: 404 order_not_found` });
    return structuredClone(this.readTransform ? this.readTransform(o) : o);
  }

  /** Orders as the provider lists them: filters by status and period, sorted, paged (size ≤ 100). */
  async listOrders(query: OrdersQuery = {}): Promise<Page<Order>> {
    await this.enter('listOrders', [query]);
    const size = Number(query.size ?? 10);
    const page = Number(query.page ?? 1);
    const from = query.start_date ? Date.parse(String(query.start_date)) : this.clock() - 24 * 3600 * 1000;
    const to = query.end_date ? Date.parse(String(query.end_date)) : this.clock();
    const all = this.orders
      .filter((o) => (!query.status || o.status === query.status) && (!query.order_side || o.order_side === query.order_side))
      .filter((o) => Date.parse(o.created_at) >= from && Date.parse(o.created_at) <= to)
      .sort((a, b) => (query.sort === 'asc' ? 1 : -1) * (Date.parse(a.created_at) - Date.parse(b.created_at)));
    const items = all.slice((page - 1) * size, page * size).map((o) => structuredClone(this.readTransform ? this.readTransform(o) : o));
    return { items, total: all.length, page, size, pages: Math.max(1, Math.ceil(all.length / size)) };
  }

  readonly disputes: Dispute[] = [];
  readonly transactions: Transaction[] = [];
  /** The order of disputes/search pages is not documented: oldest first here by default; the sandbox lists newest first. */
  disputesNewestFirst = false;

  async createDispute(body: CreateDisputeRequest): Promise<CreateDisputeResponse> {
    await this.enter('createDispute', [body]);
    const order = this.orders.find((o) => o.id === body.order_id);
    if (!order) throw new ProviderError({ code: 'order_not_found', status: 404, message: 'order not found' });
    const dispute = this.openDispute(order.id);
    return { order_id: order.id, dispute_id: dispute.dispute_id, dispute_files: body.files.map((f) => f.name) };
  }

  /** A dispute the provider has for an order (as a shopper's appeal through any channel makes one). */
  openDispute(orderId: string): Dispute {
    const order = this.orders.find((o) => o.id === orderId)!;
    const dispute: Dispute = {
      dispute_id: randomUUID(),
      order_id: order.id,
      client_order_id: order.client_order_id,
      amount: Number(order.amount),
      currency: order.currency,
      processed: false,
      created_at: new Date(this.clock()).toISOString(),
    };
    this.disputes.push(dispute);
    return dispute;
  }

  /** The provider's operators decide: accepted credits the order (a deposit naming it); rejected moves nothing. */
  processDispute(disputeId: string, accepted: boolean): void {
    const d = this.disputes.find((x) => x.dispute_id === disputeId)!;
    d.processed = true;
    if (!accepted) return;
    const order = this.orders.find((o) => o.id === d.order_id)!;
    if (order.status === 'Unpaid') {
      this.setStatus(order.id, 'Completed');
      return;
    }
    this.transactions.push({
      id: randomUUID(),
      deposit_id: randomUUID(),
      amount: order.amount,
      transaction_type: 'deposit',
      created_at: new Date(this.clock()).toISOString(),
      terminal: { id: 'terminal', currency: 'RUB', name: 'Shop' },
      client_description: `Dispute accepted for order ${order.id} (${order.client_order_id})`,
      client_id: 'client',
    });
  }

  async searchDisputes(query: DisputeSearchQuery = {}): Promise<Page<Dispute>> {
    await this.enter('searchDisputes', [query]);
    const from = query.start_date ? Date.parse(String(query.start_date)) : -Infinity;
    const to = query.end_date ? Date.parse(String(query.end_date)) : Infinity;
    const processed = query.processed === undefined ? undefined : String(query.processed) === 'true';
    const all = this.disputes.filter((d) => {
      if ((query.order_id && d.order_id !== query.order_id) || (query.dispute_id && d.dispute_id !== query.dispute_id)) return false;
      const at = Date.parse(d.created_at);
      return (processed === undefined || d.processed === processed) && at >= from && at <= to;
    });
    if (this.disputesNewestFirst) all.reverse();
    const size = Number(query.size ?? 10);
    const page = Number(query.page ?? 1);
    const items = all.slice((page - 1) * size, page * size).map((d) => structuredClone(d));
    return { items, total: all.length, page, size, pages: Math.max(1, Math.ceil(all.length / size)) };
  }

  async listTransactions(query: TransactionsQuery = {}): Promise<Page<Transaction>> {
    await this.enter('listTransactions', [query]);
    const from = query.start_date ? Date.parse(String(query.start_date)) : -Infinity;
    const all = this.transactions.filter((t) => (!query.transaction_type || t.transaction_type === query.transaction_type) && Date.parse(t.created_at) >= from);
    const size = Number(query.size ?? 20);
    const page = Number(query.page ?? 1);
    const items = all.slice((page - 1) * size, page * size).map((t) => structuredClone(t));
    return { items, total: all.length, page, size, pages: Math.max(1, Math.ceil(all.length / size)) };
  }

  async getBalance(): Promise<never> {
    throw new Error('not used by the server');
  }

  listAllOrders(q?: AllPagesQuery<OrdersQuery>) {
    return eachItem((page) => this.listOrders({ size: 100, ...q, page }), (o) => o.id);
  }
  listAllTransactions(q?: AllPagesQuery<TransactionsQuery>) {
    return eachItem((page) => this.listTransactions({ size: 100, ...q, page }), (t) => t.id);
  }
  searchAllDisputes(q?: AllPagesQuery<DisputeSearchQuery>) {
    return eachItem((page) => this.searchDisputes({ size: 100, ...q, page }), (d) => d.dispute_id);
  }
  searchAllFormSessions(q?: AllPagesQuery<FormSearchQuery>) {
    return eachItem((page) => this.searchFormSessions({ size: 100, ...q, page }), (f) => f.session_id);
  }
}

export const CATALOG: Record<string, ResolvedOrder> = {
  tee: { amount: '1500.00', redirect_url: 'https://shop.example/thanks', support_url: 'https://shop.example/help', return_url: 'https://shop.example/cart' },
  mug: { amount: '700.50' },
  unique: { amount: '1000.00', unique_amount: true },
  tiny: { amount: '10.00' },
};

export interface Harness {
  handler: CheckoutHandler;
  provider: FakeProvider;
  logs: Array<{ level: string; message: string; fields?: Record<string, unknown> }>;
  paid: Array<unknown>;
  closed: Array<unknown>;
  flagged: Array<unknown>;
  clock: { now: number };
}

/** A handler over a FakeProvider, with captured logs and hooks and a fake clock. */
export function makeHarness(overrides: Partial<CheckoutHandlerOptions> = {}, provider = new FakeProvider()): Harness {
  const clock = { now: Date.parse('2026-03-01T12:00:00.000Z') };
  provider.clock = () => clock.now;
  const logs: Harness['logs'] = [];
  const push = (level: string) => (message: string, fields?: Record<string, unknown>) => logs.push({ level, message, ...(fields && { fields }) });
  const paid: unknown[] = [];
  const closed: unknown[] = [];
  const flagged: unknown[] = [];
  const handler = createCheckoutHandler({
    provider: { client: provider, apiKey: API_KEY },
    sessionSecrets: [SESSION_SECRET],
    webhookSecrets: [WEBHOOK_SECRET],
    allowedOrigins: ['https://partner.example'],
    resolveOrder: (ref) => CATALOG[ref] ?? null,
    logger: { debug: push('debug'), info: push('info'), warn: push('warn'), error: push('error') },
    onOrderPaid: (e) => void paid.push(e),
    onOrderClosed: (e) => void closed.push(e),
    onOrderFlagged: (e) => void flagged.push(e),
    now: () => clock.now,
    // Tests sweep by calling handler.reconcile() (a background sweep would add provider calls at random).
    reconcileIntervalSeconds: 0,
    ...overrides,
  });
  return { handler, provider, logs, paid, closed, flagged, clock };
}

/**
 * A bad option is reported on the handler's first use, not at its creation: creating the handler
 * does not throw; a method call rejects with the option's error; a request is answered 500 and the
 * error is logged. Resolves with the handler's error.
 */
export async function assertBadOptionOnFirstUse(overrides: Partial<CheckoutHandlerOptions>, pattern: RegExp): Promise<void> {
  let h: Harness | undefined;
  assert.doesNotThrow(() => (h = makeHarness(overrides)), 'creating the handler checks nothing');
  await assert.rejects(h!.handler.reconcile(), (err: Error) => err instanceof TypeError && pattern.test(err.message));
  const res = await h!.handler(createRequest({ order_ref: 'tee', method_type: 'SBP' }));
  assert.equal(res.status, 500);
  assert.equal(((await res.json()) as { error: { code: string } }).error.code, 'internal_error');
  assert.ok(h!.logs.some((l) => l.level === 'error' && pattern.test(l.message)), 'the option\'s error is logged');
  await h!.handler.close();
}

/** POST {BASE}/sessions as the widget sends it. */
export function createRequest(body: unknown, headers: Record<string, string> = {}): Request {
  return new Request(`${BASE}/sessions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-paydesk': '1', origin: ORIGIN, ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

export async function createSession(h: Harness, body: Record<string, unknown> = { order_ref: 'tee', method_type: 'SBP' }, headers: Record<string, string> = {}) {
  const res = await h.handler(createRequest(body, headers));
  const json = (await res.json()) as { session: string; order: import('../../../src/protocol/index.js').OrderView; server_time: string };
  if (res.status !== 201) throw new Error(`create failed: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

export function getSession(h: Harness, token: string, query = '', headers: Record<string, string> = {}) {
  return h.handler(new Request(`${BASE}/sessions/${token}${query}`, { headers }));
}

/** A signed webhook request for `order` (the envelope seen in provider-notes.md). */
export function webhookRequest(
  order: Order,
  opts: { secret?: string; timestamp?: number; headers?: Record<string, string>; body?: string } = {},
): Request {
  const body =
    opts.body ??
    JSON.stringify({ request_id: randomUUID(), webhook_type: 'buy_update', datetime: new Date().toISOString(), payload: order });
  const t = opts.timestamp ?? Math.floor(Date.parse('2026-03-01T12:00:00.000Z') / 1000);
  return new Request(`${BASE}/webhooks`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-paydesk-signature': signWebhookPayload(opts.secret ?? WEBHOOK_SECRET, body, t),
      ...opts.headers,
    },
    body,
  });
}

/** Reads server-sent events from a response body, one parsed event at a time (no timers). */
export class SseReader {
  private readonly reader: ReadableStreamDefaultReader<Uint8Array>;
  private buffer = '';
  private readonly decoder = new TextDecoder();
  comments: string[] = [];
  constructor(res: Response) {
    if (!res.body) throw new Error('no body');
    this.reader = res.body.getReader();
  }

  /** The next event (id, event, data), or null when the stream ended. Comments are collected on the side. */
  async next(): Promise<{ id?: string; event?: string; data?: string } | null> {
    for (;;) {
      const at = this.buffer.indexOf('\n\n');
      if (at >= 0) {
        const block = this.buffer.slice(0, at);
        this.buffer = this.buffer.slice(at + 2);
        const out: { id?: string; event?: string; data?: string } = {};
        let any = false;
        for (const line of block.split('\n')) {
          if (line.startsWith(':')) {
            this.comments.push(line.slice(1).trim());
            continue;
          }
          const i = line.indexOf(':');
          const key = line.slice(0, i);
          const value = line.slice(i + 1).replace(/^ /, '');
          if (key === 'id' || key === 'event' || key === 'data') {
            out[key] = value;
            any = true;
          }
        }
        if (any && out.event) return out;
        continue;
      }
      const { done, value } = await this.reader.read();
      if (done) return null;
      this.buffer += this.decoder.decode(value, { stream: true });
    }
  }

  /** Waits until a comment with this text arrives (e.g. a heartbeat). */
  async comment(text: string): Promise<void> {
    while (!this.comments.includes(text)) {
      const at = this.buffer.indexOf('\n\n');
      if (at >= 0) {
        const block = this.buffer.slice(0, at);
        this.buffer = this.buffer.slice(at + 2);
        for (const line of block.split('\n')) if (line.startsWith(':')) this.comments.push(line.slice(1).trim());
        continue;
      }
      const { done, value } = await this.reader.read();
      if (done) throw new Error('stream ended');
      this.buffer += this.decoder.decode(value, { stream: true });
    }
  }

  async cancel(): Promise<void> {
    await this.reader.cancel();
  }
}

/**
 * A sandbox in this process whose webhooks go straight into the handler `handler()` returns (made
 * after the sandbox, as a test's world makes them): no seed, no own sweep, one delivery attempt.
 */
export function sandboxDeliveringTo(apiKey: string, endpoint: string, handler: () => CheckoutHandler): Sandbox {
  return createSandbox({
    apiKey,
    seed: false,
    sweepIntervalMs: 0,
    webhookUrl: `${endpoint}/webhooks`,
    webhookRetryDelaysMs: [],
    fetch: (input, init) => handler()(new Request(input, init)),
  });
}
