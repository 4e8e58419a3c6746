/**
 * Server-sent events of one session: the current state first, then every change published on the
 * session's channel by any instance, `id:` lines for Last-Event-ID resume, heartbeat comments, and
 * the end of the stream once nothing can change any more: after `paid` (once its dispute, if one is
 * shown, is decided), or after `expired` / `cancelled` only once the late window has closed (a late
 * payment or a dispute may still come).
 * The bytes are written by the protocol's one SSE writer (src/protocol/sse.ts).
 */
import { ORDER_EVENT } from '../protocol/index.js';
import { createSseWriter, formatSseEvent, sseResponse, type SseEvent } from '../protocol/sse.js';
import type { OrderView } from '../protocol/index.js';
import type { Checkout } from './checkout/index.js';
import type { SessionRecord } from './sessions.js';
import { sessionChannel } from './sessions.js';
import type { SessionEventMessage } from './sessions.js';

export interface StreamOptions {
  heartbeatMs: number;
  maxMs: number;
  /** Reconnect delay suggested to EventSource (ms). */
  retryMs?: number;
}

/** Parses Last-Event-ID (a non-negative integer); anything else → null. */
export function parseLastEventId(value: string | null): number | null {
  if (value === null || !/^\d{1,15}$/.test(value.trim())) return null;
  return Number(value.trim());
}

/** The `order` event carrying `view`, with its number as the id. */
export function orderEvent(event: number, view: OrderView): SseEvent {
  return { id: event, event: ORDER_EVENT, data: JSON.stringify(view) };
}

export function formatOrderEvent(event: number, view: OrderView): string {
  return formatSseEvent(orderEvent(event, view));
}

export class EventStreams {
  /**
   * The open streams (their `finish`), each with the request it answers, kept reachable while it is
   * open: a `Request`'s signal follows its caller's only through a weak reference (undici), so a
   * request nothing else holds could be collected mid-stream and its disconnect never heard.
   */
  private readonly open = new Map<() => void, Request>();
  constructor(
    private readonly core: Checkout,
    private readonly options: StreamOptions,
  ) {}

  get size(): number {
    return this.open.size;
  }

  /** Ends every open stream (shutdown). */
  closeAll(): void {
    for (const finish of [...this.open.keys()]) finish();
  }

  /** A `text/event-stream` response to `req` for session `sid`, resuming after `lastEventId` when given; it ends when `req` is aborted. */
  stream(req: Request, sid: string, lastEventId: number | null, headers: Record<string, string>): Response {
    const { core, options } = this;
    const open = this.open;
    let lastSent = lastEventId ?? 0;
    let unsubscribe: (() => Promise<void>) | null = null;
    let heartbeat: ReturnType<typeof setInterval> | undefined;
    let lifetime: ReturnType<typeof setTimeout> | undefined;

    const writer = createSseWriter({
      signal: req.signal,
      retryMs: options.retryMs ?? 3000,
      preamble: 'paydesk',
      onClose: () => {
        open.delete(finish);
        clearInterval(heartbeat);
        clearTimeout(lifetime);
        const u = unsubscribe;
        unsubscribe = null;
        if (u) void u().catch(() => undefined);
      },
    });
    function finish(): void {
      writer.close();
    }
    /** Nothing more can happen to the session: paid (its dispute decided), or ended with the late window closed. */
    const settled = (view: OrderView, rec?: SessionRecord | null) => {
      const status = view.status;
      if (status === 'paid') return view.dispute?.status !== 'open';
      if (status === 'pending') return false;
      const endedAt = rec?.ended_at ?? null;
      return endedAt !== null && core.cfg.now() - endedAt > core.cfg.lateWindowMs;
    };
    /** Writes a change not sent yet: a change this instance wrote, a message of the store's channel, or a read. */
    const push = (message: SessionEventMessage | string) => {
      let m = message;
      if (typeof m === 'string') {
        try {
          m = JSON.parse(m) as SessionEventMessage;
        } catch {
          return; // not ours
        }
        if (typeof m?.event !== 'number' || !m.view) return;
      }
      if (writer.closed || m.event <= lastSent) return;
      lastSent = m.event;
      writer.send(orderEvent(m.event, m.view));
      if (settled(m.view)) finish();
    };

    const run = async () => {
      try {
        // This instance's changes come straight from the write (core.repo.listen); the others' through the store.
        const unlisten = core.repo.listen(sid, push);
        let u: () => Promise<void>;
        try {
          u = await core.cfg.store.subscribe(sessionChannel(sid), push);
        } catch (err) {
          unlisten();
          throw err;
        }
        const both = () => {
          unlisten();
          return u();
        };
        if (writer.closed) {
          void both().catch(() => undefined);
          return;
        }
        unsubscribe = both;
        // Read after subscribing, so no change falls between the two.
        const rec = await core.repo.get(sid);
        if (!rec) return finish();
        if (lastEventId !== null && lastEventId > rec.event) lastSent = 0; // an id from elsewhere: start over
        if (rec.event > lastSent) push({ event: rec.event, view: rec.view });
        if (settled(rec.view, rec)) return finish();
        if (writer.closed) return;
        if (core.status.needsRefresh(rec)) void core.track(core.status.refreshIfNeeded(rec, false));
        heartbeat = setInterval(() => {
          writer.comment('heartbeat');
          void core.track(
            core.repo.get(sid).then((cur) => {
              if (!cur) return finish();
              if (cur.event > lastSent) push({ event: cur.event, view: cur.view }); // a missed message never stalls a stream
              if (!writer.closed && settled(cur.view, cur)) return finish();
              if (!writer.closed && core.status.needsRefresh(cur)) return core.status.refreshIfNeeded(cur, false).then(() => undefined);
              return undefined;
            }),
          );
        }, options.heartbeatMs);
        lifetime = setTimeout(finish, options.maxMs);
      } catch (err) {
        core.cfg.log.error('event stream failed', { session: sid, err });
        finish();
      }
    };
    if (writer.closed) return sseResponse(writer, headers);
    open.set(finish, req);
    void run();
    return sseResponse(writer, headers);
  }
}
