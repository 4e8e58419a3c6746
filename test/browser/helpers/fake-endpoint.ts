import type { OrderView, PaymentMethodView } from '../../../src/protocol/index.js';
import { METHODS, orderView } from './orders.js';

export type Route = 'methods' | 'create' | 'session' | 'events' | 'other';

export interface RecordedRequest {
  route: Route;
  method: string;
  path: string;
  query: URLSearchParams;
  headers: Headers;
  body: unknown;
}

type Answer = { status: number; body: unknown } | 'network';

/**
 * An in-page token endpoint speaking the widget protocol (DESIGN.md): a `fetch` and an
 * `EventSource` to hand to the element. It records every request, honours `Idempotency-Key`,
 * can fail or hold the next answers, and pushes order changes to the open event streams.
 */
export class FakeEndpoint {
  readonly base: string;
  methods: PaymentMethodView[] = METHODS;
  requests: RecordedRequest[] = [];
  readonly sessions = new Map<string, OrderView>();
  readonly keys = new Map<string, string>();
  readonly streams: FakeEventSourceLike[] = [];
  /** Builds the order for a new session (`n` counts sessions from 1). */
  makeOrder: (body: Record<string, unknown>, n: number) => OrderView = (_body, n) => orderView({ id: `ord-${n}` }, this.serverNow());
  /** The server's clock (ms). Default: the real clock; tests give the fake clock plus a skew. */
  serverNow: () => number = () => Date.now();
  inFlight = 0;
  maxInFlight: Partial<Record<Route, number>> = {};
  private current: Partial<Record<Route, number>> = {};
  private queued: Partial<Record<Route, Answer[]>> = {};
  private gates: Partial<Record<Route, Promise<void>>> = {};
  private n = 0;
  readonly EventSource: typeof EventSource;

  constructor(base = '/api/paydesk') {
    this.base = base;
    // eslint-disable-next-line @typescript-eslint/no-this-alias
    const server = this;
    class FakeEventSource extends EventTarget implements FakeEventSourceLike {
      static readonly CONNECTING = 0;
      static readonly OPEN = 1;
      static readonly CLOSED = 2;
      readonly url: string;
      readyState = 0;
      withCredentials = false;
      onerror: ((ev: Event) => unknown) | null = null;
      onopen: ((ev: Event) => unknown) | null = null;
      onmessage: ((ev: MessageEvent) => unknown) | null = null;
      constructor(url: string | URL) {
        super();
        this.url = String(url);
        server.streams.push(this);
        server.record('GET', this.url, new Headers(), null);
        queueMicrotask(() => {
          if (this.readyState !== 0) return;
          const session = /\/sessions\/([^/]+)\/events$/.exec(this.url)?.[1];
          if (!session || !server.sessions.has(decodeURIComponent(session))) return this.fail();
          this.readyState = 1;
          this.dispatchEvent(new Event('open'));
        });
      }
      close(): void {
        this.readyState = 2;
      }
      send(data: unknown): void {
        if (this.readyState !== 1) return;
        this.dispatchEvent(new MessageEvent('order', { data: typeof data === 'string' ? data : JSON.stringify(data) }));
      }
      fail(): void {
        if (this.readyState === 2) return;
        this.readyState = 0;
        const ev = new Event('error');
        this.onerror?.(ev);
        this.dispatchEvent(ev);
      }
      reopen(): void {
        if (this.readyState === 2) return;
        this.readyState = 1;
        this.dispatchEvent(new Event('open'));
      }
    }
    this.EventSource = FakeEventSource as unknown as typeof EventSource;
  }

  /** Streams the element has not closed. */
  get openStreams(): FakeEventSourceLike[] {
    return this.streams.filter((s) => s.readyState !== 2);
  }

  count(route: Route): number {
    return this.requests.filter((r) => r.route === route).length;
  }

  last(route: Route): RecordedRequest | undefined {
    return this.requests.filter((r) => r.route === route).at(-1);
  }

  /** The next answer of `route` is this error (or a network failure). */
  failNext(route: Route, answer: Answer): void {
    (this.queued[route] ??= []).push(answer);
  }

  /** Holds answers of `route` until the returned function is called. */
  hold(route: Route): () => void {
    let release!: () => void;
    this.gates[route] = new Promise<void>((r) => (release = r));
    return () => {
      delete this.gates[route];
      release();
    };
  }

  /** Changes a session's order and pushes it to the open streams of that session. */
  update(session: string, patch: Partial<OrderView>, push = true): OrderView {
    const order = { ...this.sessions.get(session)!, ...patch };
    this.sessions.set(session, order);
    if (push) for (const s of this.openStreams) if (s.url.endsWith(`/sessions/${encodeURIComponent(session)}/events`)) s.send(order);
    return order;
  }

  /** The only session (most tests create one). */
  get session(): string {
    return [...this.sessions.keys()].at(-1)!;
  }

  private record(method: string, url: string, headers: Headers, body: unknown): RecordedRequest {
    const u = new URL(url, 'http://page.test');
    const path = u.pathname.startsWith(this.base) ? u.pathname.slice(this.base.length) : u.pathname;
    const route: Route =
      method === 'GET' && path === '/methods'
        ? 'methods'
        : method === 'POST' && path === '/sessions'
          ? 'create'
          : /^\/sessions\/[^/]+\/events$/.test(path)
            ? 'events'
            : method === 'GET' && /^\/sessions\/[^/]+$/.test(path)
              ? 'session'
              : 'other';
    const req = { route, method, path, query: u.searchParams, headers, body };
    this.requests.push(req);
    return req;
  }

  readonly fetch = async (input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> => {
    const method = (init.method ?? 'GET').toUpperCase();
    const headers = new Headers(init.headers);
    const body = typeof init.body === 'string' ? JSON.parse(init.body) : null;
    const req = this.record(method, String(input), headers, body);
    const signal = init.signal;
    const route = req.route;
    this.current[route] = (this.current[route] ?? 0) + 1;
    this.maxInFlight[route] = Math.max(this.maxInFlight[route] ?? 0, this.current[route]!);
    try {
      const gate = this.gates[route];
      if (gate) {
        await Promise.race([
          gate,
          new Promise((_, reject) => signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')))),
        ]);
      }
      if (signal?.aborted) throw new DOMException('aborted', 'AbortError');
      const queued = this.queued[route]?.shift();
      if (queued === 'network') throw new TypeError('Failed to fetch');
      if (queued) return json(queued.status, queued.body);
      return this.answer(req);
    } finally {
      this.current[route]!--;
    }
  };

  private answer(req: RecordedRequest): Response {
    const time = () => new Date(this.serverNow()).toISOString();
    switch (req.route) {
      case 'methods':
        return json(200, { methods: this.methods });
      case 'create': {
        if (req.headers.get('X-Paydesk') !== '1') return json(403, { error: { code: 'missing_protocol_header', message: 'X-Paydesk: 1 required', retryable: false } });
        const key = req.headers.get('Idempotency-Key');
        const known = key ? this.keys.get(key) : undefined;
        if (known) return json(201, { session: known, order: this.sessions.get(known), server_time: time() });
        const session = `sess-${++this.n}`;
        const order = this.makeOrder(req.body as Record<string, unknown>, this.n);
        this.sessions.set(session, order);
        if (key) this.keys.set(key, session);
        return json(201, { session, order, server_time: time() });
      }
      case 'session': {
        const session = decodeURIComponent(req.path.split('/')[2]!);
        const order = this.sessions.get(session);
        if (!order) return json(404, { error: { code: 'session_invalid', message: 'unknown session', retryable: false } });
        return json(200, { order, server_time: time() });
      }
      default:
        return json(404, { error: { code: 'not_found', message: 'not found', retryable: false } });
    }
  }
}

export interface FakeEventSourceLike {
  readonly url: string;
  readyState: number;
  close(): void;
  /** Sends an `order` event with this data (JSON-encoded unless a string). */
  send(data: unknown): void;
  /** The connection drops. */
  fail(): void;
  /** The connection comes back (EventSource's own reconnect). */
  reopen(): void;
}

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

/** A `sessionStorage` stand-in. */
export class MemoryStorage {
  readonly data = new Map<string, string>();
  getItem(key: string): string | null {
    return this.data.get(key) ?? null;
  }
  setItem(key: string, value: string): void {
    this.data.set(key, value);
  }
  removeItem(key: string): void {
    this.data.delete(key);
  }
}

/** A page whose visibility the test controls (`visibilitychange` and `pageshow`). */
export class FakePage extends EventTarget {
  hidden = false;
  hide(): void {
    this.hidden = true;
    this.dispatchEvent(new Event('visibilitychange'));
  }
  show(): void {
    this.hidden = false;
    this.dispatchEvent(new Event('visibilitychange'));
  }
  pageshow(): void {
    this.dispatchEvent(new Event('pageshow'));
  }
}
