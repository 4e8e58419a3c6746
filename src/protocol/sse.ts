/**
 * The one server-sent-events writer of paydesk: `paydesk/server`'s event streams and the sandbox's
 * hosted form both write `text/event-stream` through it. Framework-free (Web streams, `Response`,
 * timers), so it runs wherever `Response` does.
 *
 * Framing follows the HTML standard's `text/event-stream`: an event is `field: value` lines and a
 * blank line; data with line breaks (`\n`, `\r\n` or `\r`) becomes one `data:` line per line (the
 * browser joins them back with `\n`); `id` and `event` cannot hold a line break (it would end the
 * field), and `id` cannot hold NUL (the browser ignores such an id), so those are refused with a
 * `TypeError` rather than written wrong.
 */

/** One event: `data` is the payload as text (JSON, usually); `event` its type; `id` the resume point. */
export interface SseEvent {
  data: string;
  event?: string;
  id?: string | number;
  /** Reconnect delay the browser should use from now on (ms). */
  retry?: number;
}

/** Headers of every event stream (callers add CORS and the like). */
export const SSE_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-store',
  'x-accel-buffering': 'no',
  'x-content-type-options': 'nosniff',
};

const LINE_BREAK = /\r\n|\r|\n/;

function field(name: string, value: string): string {
  if (LINE_BREAK.test(value)) throw new TypeError(`an SSE ${name} cannot contain a line break`);
  return `${name}: ${value}\n`;
}

/** The text of one event, ending with the blank line that dispatches it. */
export function formatSseEvent(e: SseEvent): string {
  let out = '';
  if (e.retry !== undefined) out += `retry: ${retryValue(e.retry)}\n`;
  if (e.id !== undefined) {
    const id = String(e.id);
    if (id.includes('\0')) throw new TypeError('an SSE id cannot contain NUL');
    out += field('id', id);
  }
  if (e.event !== undefined) out += field('event', e.event);
  for (const line of e.data.split(LINE_BREAK)) out += `data: ${line}\n`;
  return `${out}\n`;
}

/** A comment (ignored by the browser; keeps proxies from closing an idle stream). Each line is its own comment. */
export function formatSseComment(text: string): string {
  return `${commentLines(text)}\n`;
}

const commentLines = (text: string) =>
  text
    .split(LINE_BREAK)
    .map((line) => (line === '' ? ':\n' : `: ${line}\n`))
    .join('');

function retryValue(ms: number): number {
  if (!Number.isSafeInteger(ms) || ms < 0) throw new TypeError(`an SSE retry must be a whole number of milliseconds, got ${ms}`);
  return ms;
}

/** The `retry:` line alone (a block without data dispatches nothing). */
export function formatSseRetry(ms: number): string {
  return `retry: ${retryValue(ms)}\n\n`;
}

export interface SseWriterOptions {
  /** Ends the stream when it aborts (the request's signal: the client went away). */
  signal?: AbortSignal;
  /** Written first: the reconnect delay the browser should use (ms). */
  retryMs?: number;
  /** A comment written first (`: paydesk`), before any event. */
  preamble?: string;
  /**
   * A keep-alive comment after this many ms in which nothing was written (0 or absent: none). A
   * stream that writes events often never sends one.
   */
  keepAliveMs?: number;
  /** Text of the keep-alive comment (default `keep-alive`). */
  keepAliveText?: string;
  /** Called after each keep-alive comment (a moment to look for changes nobody announced). */
  onKeepAlive?: () => void;
  /** Called once when the stream ends for any reason: {@link SseWriter.close}, the signal, or the reader cancelling. */
  onClose?: () => void;
}

export interface SseWriter {
  /** The bytes to send: the body of the response. */
  readonly body: ReadableStream<Uint8Array>;
  /** True once the stream has ended (writes are then ignored). */
  readonly closed: boolean;
  /** Writes one event; false when the stream has ended. */
  send(event: SseEvent): boolean;
  /** Writes a comment; false when the stream has ended. */
  comment(text: string): boolean;
  /** Ends the stream (idempotent). */
  close(): void;
}

/** A writer of one event stream. Nothing is buffered past the stream's end; timers stop with it. */
export function createSseWriter(options: SseWriterOptions = {}): SseWriter {
  const encoder = new TextEncoder();
  const { signal, keepAliveMs = 0 } = options;
  let controller: ReadableStreamDefaultController<Uint8Array> | null = null;
  let closed = false;
  let idle: ReturnType<typeof setTimeout> | undefined;

  const armKeepAlive = () => {
    if (keepAliveMs <= 0 || closed) return;
    clearTimeout(idle);
    idle = setTimeout(() => {
      if (write(formatSseComment(options.keepAliveText ?? 'keep-alive'))) options.onKeepAlive?.();
    }, keepAliveMs);
  };
  /** Ends without closing the controller (the reader cancelled, or the controller failed). */
  const end = () => {
    if (closed) return;
    closed = true;
    clearTimeout(idle);
    signal?.removeEventListener('abort', close);
    options.onClose?.();
  };
  function close(): void {
    if (closed) return;
    end();
    try {
      controller?.close();
    } catch {
      // already closed or cancelled
    }
  }
  /** Writes an event, or text already framed (a comment, the head); false when the stream has ended. */
  function write(event: SseEvent | string): boolean {
    if (closed || !controller) return false;
    // Framed outside the try: an event that cannot be framed throws to the caller, the stream goes on.
    const text = typeof event === 'string' ? event : formatSseEvent(event);
    try {
      controller.enqueue(encoder.encode(text));
    } catch {
      end();
      return false;
    }
    armKeepAlive();
    return true;
  }

  // Checked before anything is written, so a bad option throws here, not inside the stream.
  const head =
    (options.retryMs !== undefined ? `retry: ${retryValue(options.retryMs)}\n` : '') +
    (options.preamble !== undefined ? commentLines(options.preamble) : '');
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
      if (signal?.aborted) return close();
      signal?.addEventListener('abort', close);
      if (head) write(`${head}\n`);
      else armKeepAlive();
    },
    cancel() {
      end();
    },
  });

  return {
    body,
    get closed() {
      return closed;
    },
    send: write,
    comment: (text) => write(formatSseComment(text)),
    close,
  };
}

/** The response of an event stream: status 200, {@link SSE_HEADERS} plus `headers`. */
export function sseResponse(writer: SseWriter, headers: Record<string, string> = {}): Response {
  return new Response(writer.body, { status: 200, headers: { ...SSE_HEADERS, ...headers } });
}
