/**
 * Live order status for one session: server-sent events first; when the stream fails, polling with
 * backoff. Never more than one status request in flight. Paused while the page is hidden; checked at
 * once (`?refresh=1`) when the shopper comes back (from the bank app: `visibilitychange`, `pageshow`).
 */
import { toErrorInfo, parseOrderEvent, type Api, type ErrorInfo, type OrderAnswer } from './api.js';
import type { Clock } from './countdown.js';

export interface LiveOptions {
  api: Api;
  session: string;
  clock: Clock;
  onOrder(answer: OrderAnswer): void;
  /** A status request was refused for good (e.g. the session is no longer valid). */
  onFatal(error: ErrorInfo): void;
  /** `EventSource` constructor; polling only when absent. */
  EventSource?: typeof EventSource | undefined;
  /** The page: `hidden` and `visibilitychange` (default: `document`). */
  document?: EventTarget & { readonly hidden: boolean };
  /** Receives `pageshow` (default: `window`). */
  window?: EventTarget;
  pollMs?: number;
  maxPollMs?: number;
}

export type LiveMode = 'stream' | 'poll' | 'paused' | 'stopped';

export class LiveStatus {
  mode: LiveMode = 'paused';
  private es: EventSource | null = null;
  private opens = 0;
  private timer: unknown = null;
  /** Current polling delay (for tests and diagnostics). */
  pollDelay: number;
  private inFlight: Promise<void> | null = null;
  private again = false;
  private abort: AbortController | null = null;
  private lastOk = true;
  private readonly base: number;
  private readonly doc: LiveOptions['document'];
  private readonly win: EventTarget | undefined;

  constructor(private readonly o: LiveOptions) {
    this.pollDelay = this.base = o.pollMs ?? 3000;
    this.doc = o.document ?? (globalThis.document as LiveOptions['document']);
    this.win = o.window ?? (globalThis as { window?: EventTarget }).window;
  }

  get session(): string {
    return this.o.session;
  }

  start(): void {
    if (this.mode !== 'paused' || this.es || this.timer) return;
    this.listen('addEventListener');
    if (!this.doc?.hidden) this.openStream();
  }

  stop(): void {
    this.mode = 'stopped';
    this.halt();
    this.abort?.abort();
    this.listen('removeEventListener');
  }

  /** Asks for the status now; joins the request in flight (and asks once more after it when `refresh`). */
  check(refresh = false): Promise<void> {
    if (this.mode === 'stopped') return Promise.resolve();
    if (this.inFlight) {
      this.again ||= refresh;
      return this.inFlight;
    }
    const ctrl = (this.abort = new AbortController());
    return (this.inFlight = this.o.api
      .session(this.o.session, refresh, ctrl.signal)
      .then(
        (answer) => {
          this.lastOk = true;
          if (this.mode !== 'stopped') this.o.onOrder(answer);
        },
        (e: unknown) => {
          const info = toErrorInfo(e);
          this.lastOk = false;
          if (this.mode !== 'stopped' && info.code !== 'aborted' && !info.retryable) this.o.onFatal(info);
        },
      )
      .finally(() => {
        this.inFlight = null;
        if (this.again && this.mode !== 'stopped') {
          this.again = false;
          void this.check(true);
        }
      }));
  }

  private listen(method: 'addEventListener' | 'removeEventListener'): void {
    this.doc?.[method]('visibilitychange', this.onVisibility);
    this.win?.[method]('pageshow', this.wake);
  }

  private openStream(): void {
    const ES = this.o.EventSource;
    if (!ES) return this.poll(0);
    this.mode = 'stream';
    this.opens = 0;
    const es = (this.es = new ES(this.o.api.eventsUrl(this.o.session)));
    es.addEventListener('order', (ev) => {
      try {
        this.o.onOrder(parseOrderEvent((ev as MessageEvent<string>).data));
      } catch {
        // A malformed event is ignored; the next one, or a poll, brings the truth.
      }
    });
    // A reconnect may have missed changes and brings no server time: ask once.
    es.addEventListener('open', () => this.opens++ && void this.check());
    es.onerror = () => {
      if (this.es !== es) return;
      this.halt();
      void this.check();
      this.poll(this.base);
    };
  }

  /** Closes the stream and cancels the next poll. */
  private halt(): void {
    this.es?.close();
    this.es = null;
    this.o.clock.clearTimeout(this.timer);
    this.timer = null;
  }

  /** Polls after `delay`; the delay doubles after a failed poll (up to `maxPollMs`) and resets after a good one. */
  private poll(delay: number): void {
    this.mode = 'poll';
    this.halt();
    this.timer = this.o.clock.setTimeout(() => {
      this.timer = null;
      void this.check().then(() => {
        if (this.mode !== 'poll' || this.timer !== null) return;
        this.pollDelay = this.lastOk ? this.base : Math.min(this.pollDelay * 2, this.o.maxPollMs ?? 30_000);
        this.poll(this.pollDelay);
      });
    }, delay);
  }

  private readonly wake = (): void => {
    if (this.mode === 'stopped' || this.doc?.hidden) return;
    void this.check(true);
    if (this.mode === 'paused') this.openStream();
  };

  private readonly onVisibility = (): void => {
    if (this.mode === 'stopped') return;
    if (!this.doc?.hidden) return this.wake();
    this.halt();
    this.mode = 'paused';
  };
}
