import type { OrderView, PaymentMethodView } from '../../../src/protocol/index.js';
import { METHODS, orderView } from './orders.js';

export type Route = 'methods' | 'create' | 'session' | 'events' | 'dispute' | 'other';

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
  private readonly createBodies = new Map<string, unknown>();
  /** Creates under way by idempotency key: a second request with the key waits for the first (as the server does). */
  private readonly creating = new Map<string, Promise<void>>();
  /** Receipts sent: the session, the files (name, type, size) and the comment of each upload. */
  readonly disputes: { session: string; files: { name: string; type: string; size: number }[]; comment: string | null }[] = [];
  /** Upload progress steps an upload reports before its answer (fractions of the body). */
  uploadSteps = [0.25, 0.5, 1];
  /** When set, an upload waits for it after each progress step (a test releases the steps one by one). */
  uploadGate: (() => Promise<void>) | null = null;
  readonly streams: FakeEventSourceLike[] = [];
  /** Builds the order for a new session (`n` counts sessions from 1). */
  makeOrder: (body: Record<string, unknown>, n: number) => OrderView = (_body, n) => orderView({ id: `ord-${n}` }, this.serverNow());
  /** The server's clock (ms). Default: the real clock; tests give the fake clock plus a skew. */
  serverNow: () => number = () => Date.now();
  inFlight = 0;
  maxInFlight: Partial<Record<Route, number>> = {};
  private current: Partial<Record<Route, number>> = {};
  readonly queued: Partial<Record<Route, Answer[]>> = {};
  private gates: Partial<Record<Route, Promise<void>>> = {};
  private n = 0;
  readonly EventSource: typeof EventSource;
  readonly XMLHttpRequest: typeof XMLHttpRequest;

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

    /** An XMLHttpRequest for the receipt upload: records the multipart body, reports upload progress. */
    class FakeXhr extends EventTarget {
      status = 0;
      responseText = '';
      timeout = 0;
      readonly upload = new EventTarget() as XMLHttpRequestUpload;
      onload: (() => void) | null = null;
      onerror: (() => void) | null = null;
      ontimeout: (() => void) | null = null;
      private method = 'GET';
      private url = '';
      private readonly headers = new Headers();
      private aborted = false;
      open(method: string, url: string): void {
        this.method = method;
        this.url = url;
      }
      setRequestHeader(name: string, value: string): void {
        this.headers.set(name, value);
      }
      abort(): void {
        this.aborted = true;
      }
      send(body: FormData): void {
        void (async () => {
          const files = body.getAll('files').filter((f): f is File => f instanceof File);
          const total = files.reduce((n, f) => n + f.size, 0) + 200;
          const req = server.record(this.method, this.url, this.headers, body);
          for (const step of server.uploadSteps) {
            await new Promise((r) => setTimeout(r, 0));
            if (server.uploadGate) await server.uploadGate();
            if (this.aborted) return;
            const ev = Object.assign(new Event('progress'), { lengthComputable: true, loaded: Math.round(total * step), total });
            (this.upload as unknown as { onprogress?: (e: Event) => void }).onprogress?.(ev);
          }
          const queued = server.queued.dispute?.shift();
          if (this.aborted) return;
          if (queued === 'network') return this.onerror?.();
          const res = queued ? json(queued.status, queued.body) : server.answer(req);
          this.status = res.status;
          this.responseText = await res.text();
          this.onload?.();
        })();
      }
    }
    this.XMLHttpRequest = FakeXhr as unknown as typeof XMLHttpRequest;
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

  record(method: string, url: string, headers: Headers, body: unknown): RecordedRequest {
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
              : method === 'POST' && /^\/sessions\/[^/]+\/dispute$/.test(path)
                ? 'dispute'
                : 'other';
    const req = { route, method, path, query: u.searchParams, headers, body };
    this.requests.push(req);
    return req;
  }

  private readonly fetchInner = async (input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> => {
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

  /** The element's `fetch`. A create whose idempotency key is already under way waits for that one (as the server does), then gets its session. */
  readonly fetch = async (input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> => {
    const key = (init.method ?? 'GET').toUpperCase() === 'POST' ? new Headers(init.headers).get('Idempotency-Key') : null;
    const first = key ? this.creating.get(key) : undefined;
    if (first) await first;
    const answer = this.fetchInner(input, init);
    if (key && !first) {
      const settled = answer.then(
        () => undefined,
        () => undefined,
      );
      this.creating.set(key, settled);
      void settled.then(() => this.creating.delete(key));
    }
    return answer;
  };

  answer(req: RecordedRequest): Response {
    const time = () => new Date(this.serverNow()).toISOString();
    switch (req.route) {
      case 'methods':
        return json(200, { methods: this.methods });
      case 'create': {
        if (req.headers.get('X-Paydesk') !== '1') return json(403, { error: { code: 'missing_protocol_header', message: 'X-Paydesk: 1 required', retryable: false } });
        const key = req.headers.get('Idempotency-Key');
        const known = key ? this.keys.get(key) : undefined;
        if (known) {
          if (JSON.stringify(this.createBodies.get(key!)) !== JSON.stringify(req.body)) {
            return json(409, { error: { code: 'idempotency_conflict', message: 'same key, other body', retryable: false } });
          }
          return json(201, { session: known, order: this.sessions.get(known), server_time: time() });
        }
        const session = `sess-${++this.n}`;
        const order = this.makeOrder(req.body as Record<string, unknown>, this.n);
        this.sessions.set(session, order);
        if (key) {
          this.keys.set(key, session);
          this.createBodies.set(key, req.body);
        }
        return json(201, { session, order, server_time: time() });
      }
      case 'dispute': {
        if (req.headers.get('X-Paydesk') !== '1') return json(403, { error: { code: 'missing_protocol_header', message: 'X-Paydesk: 1 required', retryable: false } });
        const session = decodeURIComponent(req.path.split('/')[2]!);
        const order = this.sessions.get(session);
        if (!order) return json(404, { error: { code: 'session_not_found', message: 'unknown session', retryable: false } });
        if (order.dispute?.status === 'open') return json(409, { error: { code: 'dispute_open', message: 'a dispute is open', retryable: false } });
        if (order.status === 'paid') return json(409, { error: { code: 'dispute_not_allowed', message: 'paid', retryable: false } });
        const form = req.body as FormData;
        const files = form.getAll('files').filter((f): f is File => f instanceof File);
        if (files.length < 1 || files.length > 5) return json(400, { error: { code: 'validation_failed', message: 'files: 1 to 5', retryable: false } });
        const comment = form.get('comment');
        this.disputes.push({ session, files: files.map((f) => ({ name: f.name, type: f.type, size: f.size })), comment: typeof comment === 'string' ? comment : null });
        const updated = this.update(session, { dispute: { id: `dsp-${this.disputes.length}`, status: 'open', created_at: time(), outcome: null } }, false);
        return json(201, { order: updated, server_time: time() });
      }
      case 'session': {
        const session = decodeURIComponent(req.path.split('/')[2]!);
        const order = this.sessions.get(session);
        if (!order) return json(404, { error: { code: 'session_not_found', message: 'unknown session', retryable: false } });
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
  /** `navigator.onLine`, as the window's own. */
  readonly navigator = { onLine: true };
  /** The browser says the network went away (`offline`) or came back (`online`). */
  network(on: boolean): void {
    this.navigator.onLine = on;
    this.dispatchEvent(new Event(on ? 'online' : 'offline'));
  }
}
