import { test, describe, mock } from 'node:test';
import assert from 'node:assert/strict';
import { createSseWriter, formatSseComment, formatSseEvent, formatSseRetry, sseResponse, SSE_HEADERS } from '../../../src/protocol/sse.js';

/** Reads what the stream has so far, chunk by chunk, as text. */
function reader(body: ReadableStream<Uint8Array>) {
  const r = body.getReader();
  const decoder = new TextDecoder();
  return {
    async next(): Promise<string | null> {
      const { done, value } = await r.read();
      return done ? null : decoder.decode(value);
    },
    cancel: () => r.cancel(),
  };
}

/** What a browser's EventSource would dispatch for `text` (the HTML standard's parsing, enough for these tests). */
function parseStream(text: string): { event: string; data: string; id: string }[] {
  const out: { event: string; data: string; id: string }[] = [];
  let data: string[] = [];
  let event = '';
  let id = '';
  for (const line of text.split(/\r\n|\r|\n/)) {
    if (line === '') {
      if (data.length) out.push({ event: event || 'message', data: data.join('\n'), id });
      data = [];
      event = '';
      continue;
    }
    if (line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const name = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (name === 'data') data.push(value);
    else if (name === 'event') event = value;
    else if (name === 'id') id = value;
  }
  return out;
}

describe('SSE framing', () => {
  test('an event is its fields and a blank line', () => {
    assert.equal(formatSseEvent({ event: 'order', id: 7, data: '{"a":1}' }), 'id: 7\nevent: order\ndata: {"a":1}\n\n');
    assert.equal(formatSseEvent({ data: 'x' }), 'data: x\n\n');
    assert.equal(formatSseEvent({ data: 'x', id: 'abc', retry: 2500 }), 'retry: 2500\nid: abc\ndata: x\n\n');
  });

  test('line breaks in data become one data line each, and read back as sent (\\r\\n and \\r as \\n)', () => {
    const text = formatSseEvent({ event: 'note', data: 'one\ntwo\r\nthree\rfour\n' });
    assert.equal(text, 'event: note\ndata: one\ndata: two\ndata: three\ndata: four\ndata: \n\n');
    assert.deepEqual(parseStream(text), [{ event: 'note', data: 'one\ntwo\nthree\nfour\n', id: '' }]);
    // A data line that looks like a field or a blank line cannot end the event early.
    assert.deepEqual(parseStream(formatSseEvent({ data: 'a\n\nevent: evil\nid: 9' })), [{ event: 'message', data: 'a\n\nevent: evil\nid: 9', id: '' }]);
  });

  test('an id or event name with a line break, an id with NUL, or a bad retry is refused, not written', () => {
    assert.throws(() => formatSseEvent({ data: 'x', id: '1\n2' }), TypeError);
    assert.throws(() => formatSseEvent({ data: 'x', event: 'a\rb' }), TypeError);
    assert.throws(() => formatSseEvent({ data: 'x', id: 'a\0b' }), TypeError);
    assert.throws(() => formatSseRetry(-1), TypeError);
    assert.throws(() => formatSseRetry(1.5), TypeError);
    assert.equal(formatSseRetry(3000), 'retry: 3000\n\n');
  });

  test('a comment is one comment line per line', () => {
    assert.equal(formatSseComment('heartbeat'), ': heartbeat\n\n');
    assert.equal(formatSseComment('a\nb'), ': a\n: b\n\n');
    assert.deepEqual(parseStream(formatSseComment('data: not an event\nid: 3')), []);
  });
});

describe('SSE writer', () => {
  test('writes retry and the preamble first, then events with ids; the response has the stream headers', async () => {
    const w = createSseWriter({ retryMs: 3000, preamble: 'paydesk' });
    const res = sseResponse(w, { vary: 'Origin' });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), SSE_HEADERS['content-type']);
    assert.equal(res.headers.get('cache-control'), 'no-store');
    assert.equal(res.headers.get('vary'), 'Origin');
    const r = reader(res.body!);
    assert.equal(await r.next(), 'retry: 3000\n: paydesk\n\n');
    assert.equal(w.send({ event: 'order', id: 1, data: '{}' }), true);
    assert.equal(w.send({ event: 'order', id: 2, data: '{"b":2}' }), true);
    assert.equal(await r.next(), 'id: 1\nevent: order\ndata: {}\n\n');
    assert.equal(await r.next(), 'id: 2\nevent: order\ndata: {"b":2}\n\n');
    w.close();
    assert.equal(await r.next(), null, 'close ends the stream');
    assert.equal(w.send({ data: 'late' }), false, 'nothing is written after the end');
  });

  test('a keep-alive comment goes out only after a quiet spell; every write restarts the spell', async (t) => {
    t.mock.timers.enable({ apis: ['setTimeout'] });
    const w = createSseWriter({ keepAliveMs: 15_000 });
    const r = reader(w.body);
    const first = r.next();
    t.mock.timers.tick(14_999);
    w.send({ data: 'a' });
    assert.equal(await first, 'data: a\n\n');
    const second = r.next();
    t.mock.timers.tick(14_999); // 29,998 ms since start, 14,999 since the event: still quiet
    t.mock.timers.tick(1);
    assert.equal(await second, ': keep-alive\n\n');
    const third = r.next();
    t.mock.timers.tick(15_000);
    assert.equal(await third, ': keep-alive\n\n', 'and again after the next quiet spell');
    w.close();
    t.mock.timers.tick(60_000);
    assert.equal(await r.next(), null, 'no keep-alive after the end');
  });

  test('an aborted signal ends the stream and calls onClose once', async () => {
    const abort = new AbortController();
    const onClose = mock.fn();
    const w = createSseWriter({ signal: abort.signal, onClose, keepAliveMs: 1000, keepAliveText: 'ping' });
    const r = reader(w.body);
    w.send({ data: 'x' });
    assert.equal(await r.next(), 'data: x\n\n');
    abort.abort();
    assert.equal(await r.next(), null);
    assert.equal(w.closed, true);
    w.close();
    assert.equal(onClose.mock.callCount(), 1);
  });

  test('a signal aborted before the start gives an empty, ended stream', async () => {
    const onClose = mock.fn();
    const w = createSseWriter({ signal: AbortSignal.abort(), onClose, retryMs: 1000 });
    assert.equal(await reader(w.body).next(), null);
    assert.equal(onClose.mock.callCount(), 1);
  });

  test('the reader going away (cancel) ends the writer and calls onClose', async () => {
    const onClose = mock.fn();
    const w = createSseWriter({ onClose });
    const r = reader(w.body);
    await r.cancel();
    assert.equal(w.closed, true);
    assert.equal(onClose.mock.callCount(), 1);
    assert.equal(w.comment('anyone?'), false);
  });
});
