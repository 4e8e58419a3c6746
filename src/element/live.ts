/**
 * Live order status for one session: server-sent events first; when the stream fails, polling with
 * backoff. Never more than one status request in flight. Paused while the page is hidden; checked at
 * once (`?refresh=1`) when the shopper comes back (from the bank app: `visibilitychange`, `pageshow`)
 * and when the network comes back (`online`): then the event stream is opened again too, so polling
 * (whose delay grew while the network was down) does not stay in charge.
 * An ended order (expired, cancelled, a receipt being checked) is still followed, for a late payment
 * or the check's outcome: the stream the server keeps open, else slow polling (15 s, growing to 2 min).
 *
 * Loaded on demand with the pay view; {@link LiveController} ties it to the element, and
 * {@link TickController} is the element's clock while an order is paid (both need an order).
 */
import type { ReactiveController } from 'lit';
import { ApiError, parseOrderAnswer, toErrorInfo, type Api, type ErrorInfo, type OrderAnswer } from './api.js';
import { remainingMs, type Clock } from './countdown.js';
import { emit } from './events.js';
import type { LiveHost, TickHost } from './hosts.js';
import { plural } from './i18n/plural.js';
import { isOpen, isWatching, type MachineEvent, type MachineState } from './machine.js';

/** An SSE `order` payload: a bare OrderView, or `{order, server_time}`. */
export function parseOrderEvent(data: string): OrderAnswer {
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch {
    throw new ApiError('invalid_response', 'invalid answer from the token endpoint: event data is not JSON', true);
  }
  return parseOrderAnswer(value, !(value && typeof value === 'object' && 'order' in value));
}

/** The machine's event for a status answer: the answer, and the clocks' readings when it came. */
export type OrderEvent = Extract<MachineEvent, { type: 'order' }>;
const orderEvent = (answer: OrderAnswer, clock: Clock): OrderEvent => ({ type: 'order', ...answer, mono: clock.mono(), wall: clock.now() });

/** Delay until the displayed whole second changes (between 1 and 1000 ms). */
export function msToNextSecond(remaining: number): number {
  return remaining % 1000 || 1000;
}

/** Minutes at which the countdown is announced to screen readers (plus the last minute). */
export const ANNOUNCE_MINUTES = [10, 5, 1] as const;

/**
 * The threshold (in minutes) crossed when the remaining time went from `before` to `after`, or null.
 * Crossing several at once (after a sleep) reports the smallest; a first reading (`before` not finite)
 * reports nothing.
 */
export function crossedThreshold(before: number, after: number, minutes: readonly number[] = ANNOUNCE_MINUTES): number | null {
  let hit: number | null = null;
  // A first reading (`before` is Infinity) is not a crossing.
  for (const m of minutes) if (before < Infinity && before > m * 60_000 && after <= m * 60_000 && m < (hit ?? Infinity)) hit = m;
  return hit;
}

/**
 * True when the wall clock and the monotonic clock disagree by more than `toleranceMs` over the same
 * interval: the device slept (monotonic time paused) or the device clock was changed.
 */
export function clocksDiverged(wallDelta: number, monoDelta: number, toleranceMs = 2000): boolean {
  return Math.abs(wallDelta - monoDelta) > toleranceMs;
}

export interface LiveOptions {
  api: Api;
  session: string;
  clock: Clock;
  /** A status answer, as the machine's event (the element hands it to the machine as it is). */
  onOrder(event: OrderEvent): void;
  /** A status request was refused for good (e.g. the session is no longer valid). */
  onFatal(error: ErrorInfo): void;
  /** `EventSource` constructor; polling only when absent. */
  EventSource?: typeof EventSource | undefined;
  /** The page: `hidden` and `visibilitychange` (default: `document`). */
  document?: EventTarget & { readonly hidden: boolean };
  /** Receives `pageshow`, `online` and `offline` (default: `window`). */
  window?: EventTarget;
  pollMs?: number;
  maxPollMs?: number;
  /** True while the order has ended: polls slowly (see {@link SLOW_POLL_MS}), the delay growing after every poll. */
  slow?: () => boolean;
  /** The browser said `offline` (true) or `online` (false): the status shown may not be live. */
  onOffline?(offline: boolean): void;
}

/** Polling of an ended order: first delay and the longest one. */
export const SLOW_POLL_MS = 15_000;
export const SLOW_MAX_POLL_MS = 120_000;

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
    // An outage that began before this started: no `offline` event will come to say it.
    if ((this.win as { navigator?: { onLine?: boolean } } | undefined)?.navigator?.onLine === false) this.offline();
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
          if (this.mode !== 'stopped') this.o.onOrder(orderEvent(answer, this.o.clock));
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
    this.win?.[method]('online', this.online);
    this.win?.[method]('offline', this.offline);
  }

  private openStream(): void {
    const ES = this.o.EventSource;
    if (!ES) return this.poll(0);
    this.mode = 'stream';
    this.opens = 0;
    this.pollDelay = this.base;
    const es = (this.es = new ES(this.o.api.eventsUrl(this.o.session)));
    es.addEventListener('order', (ev) => {
      try {
        this.o.onOrder(orderEvent(parseOrderEvent((ev as MessageEvent<string>).data), this.o.clock));
      } catch {
        // A malformed event still says the order changed; the open stream polls nothing: ask the server now.
        void this.check();
      }
    });
    // A reconnect may have missed changes and brings no server time: ask once.
    es.addEventListener('open', () => this.opens++ && void this.check());
    es.onerror = () => {
      if (this.es !== es) return;
      this.halt();
      void this.check();
      this.poll(this.o.slow?.() ? SLOW_POLL_MS : this.base);
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
        const slow = this.o.slow?.() === true;
        const base = slow ? SLOW_POLL_MS : this.base;
        const max = slow ? SLOW_MAX_POLL_MS : (this.o.maxPollMs ?? 30_000);
        // Slow: 15 s first, then doubling; otherwise doubling only after a failed poll.
        this.pollDelay = this.pollDelay < base ? base : slow || !this.lastOk ? Math.min(this.pollDelay * 2, max) : base;
        this.poll(this.pollDelay);
      });
    }, delay);
  }

  private readonly wake = (): void => {
    if (this.mode === 'stopped' || this.doc?.hidden) return;
    void this.check(true);
    if (this.mode === 'paused') this.openStream();
  };

  /** The network is back: ask now, and leave polling (its delay grown while offline) for the stream. */
  private readonly online = (): void => {
    if (this.mode === 'stopped') return;
    this.o.onOffline?.(false);
    if (this.mode === 'poll') {
      this.halt();
      this.mode = 'paused';
    }
    this.wake();
  };

  private readonly offline = (): void => void (this.mode !== 'stopped' && this.o.onOffline?.(true));

  private readonly onVisibility = (): void => {
    if (this.mode === 'stopped') return;
    if (!this.doc?.hidden) return this.wake();
    this.halt();
    this.mode = 'paused';
  };
}

/** The order has ended (or waits for a receipt's check): the live status may be slow. */
export function isEnded(s: MachineState): boolean {
  return !isOpen(s.name);
}

/** Keeps one {@link LiveStatus} open for the session while the machine watches it (`isWatching`). */
export class LiveController implements ReactiveController {
  private live: LiveStatus | null = null;
  /** The browser said `offline` (and not `online` since): the views say the status may be out of date. */
  offline = false;

  constructor(private readonly host: LiveHost) {
    host.el.addController(this);
  }

  hostConnected(): void {
    this.sync();
  }

  hostDisconnected(): void {
    this.sync();
  }

  /** Asks for the status now (joins a request in flight). */
  check(): void {
    void this.live?.check(true);
  }

  /** Opens, keeps or closes the connection for the state. */
  sync(): void {
    const h = this.host;
    const s = h.machine;
    if (h.el.isConnected && isWatching(s)) {
      if (this.live?.session === s.session) return;
      this.live?.stop();
      (this.live = new LiveStatus({
        api: h.api(),
        session: s.session!,
        clock: h.env$.clock,
        EventSource: h.env$.EventSource,
        document: h.env$.document,
        window: h.env$.window,
        slow: () => isEnded(h.machine),
        // The machine gets the event straight from the stream's listener (bound: no step between).
        onOrder: h.send.bind(h),
        onFatal: (error) => h.send({ type: 'failed', error }),
        onOffline: (offline) => {
          this.offline = offline;
          h.el.requestUpdate();
        },
      })).start();
    } else {
      this.live?.stop();
      this.live = null;
      this.offline = false;
    }
  }
}

// ---------------------------------------------------------------------------------------------
// The clock

/**
 * The element's clock, as a reactive controller: one timer, on the second boundary of the countdown,
 * while an order is being paid (countdown, the 10/5/1-minute announcements, "time is up") or has just
 * been paid (the 5-second countdown back to the shop). A device that slept or whose clock was changed
 * is noticed (wall and monotonic time disagree) and the server is asked for the time again.
 */
export const REDIRECT_MS = 5000;

export class TickController implements ReactiveController {
  /** Monotonic time of the redirect after "paid". */
  redirectAt = 0;
  private timer: unknown = null;
  /** The previous tick: clock readings and the time left (for the announcements). */
  private readonly last = { wall: 0, mono: 0, left: Infinity };

  constructor(private readonly host: TickHost) {
    host.el.addController(this);
  }

  hostConnected(): void {
    this.sync();
  }

  hostDisconnected(): void {
    this.stop();
  }

  /** A new step: the next crossing is counted from it. */
  stepChanged(): void {
    this.last.left = Infinity;
  }

  /** Starts or stops the timer for the state. */
  sync(): void {
    const h = this.host;
    const { name } = h.machine;
    this.redirectAt = name !== 'paid' ? 0 : this.redirectAt || h.env$.clock.mono() + REDIRECT_MS;
    if (h.el.isConnected && (isOpen(name) || (name === 'paid' && h.redirectUrl))) {
      if (this.timer === null) this.tick();
    } else this.stop();
  }

  /** Seconds until the redirect. */
  get redirectIn(): number {
    return Math.max(0, Math.ceil((this.redirectAt - this.host.env$.clock.mono()) / 1000));
  }

  private stop(): void {
    this.host.env$.clock.clearTimeout(this.timer);
    this.timer = null;
  }

  private readonly tick = (): void => {
    const h = this.host;
    const { clock } = h.env$;
    const { name, order, sync } = h.machine;
    const last = this.last;
    const wall = clock.now();
    const mono = clock.mono();
    this.timer = null;
    if (last.mono && clocksDiverged(wall - last.wall, mono - last.mono)) h.recheck();
    last.wall = wall;
    last.mono = mono;
    h.el.requestUpdate();
    let next = 1000;
    if (name === 'paid') {
      const left = this.redirectAt - mono;
      const url = h.redirectUrl;
      if (left <= 0 && url && order) {
        if (emit(h.el, 'paydesk-redirect', { url, order }, true)) h.env$.navigate(url);
        return;
      }
      next = msToNextSecond(left);
    } else if (order) {
      const left = remainingMs(order.expires_at, sync, mono, wall);
      const crossed = crossedThreshold(last.left, left);
      last.left = left;
      if (name === 'pay') {
        if (crossed) h.announce(crossed === 1 ? h.m.lastMinute : plural(h.language, h.m.minutesLeft, crossed));
        if (left <= 0) return h.send({ type: 'timeUp' });
      }
      if (left > 0) next = msToNextSecond(left);
    }
    this.timer = clock.setTimeout(this.tick, next);
  };
}

/** Made by the steps controller when this module arrives: the live status and the clock, on the host. */
export function attach(host: LiveHost & TickHost & { live?: LiveController; tick?: TickController }): void {
  host.live = new LiveController(host);
  host.tick = new TickController(host);
}
