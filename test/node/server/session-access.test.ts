/**
 * Who may use a session, and for how long (issue 19, points 4, 5 and 7), with the real handler and
 * the in-process sandbox sharing one clock (`POST /sandbox/clock/advance` moves both):
 *
 * - a session token keeps working (status, event stream, receipt upload) until `lateWindowSeconds`
 *   after its order ended, then stops; a tampered one is 401 all along;
 * - `resolveOrder(orderRef, request)` gets the request on every `POST /sessions` (a first create,
 *   an Idempotency-Key replay, a concurrent duplicate, a live-session replay); null → 404 and no
 *   session is handed out;
 * - a receipt upload that cannot be taken is answered before its body is read, and one upload at a
 *   time per session reads its body.
 */
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import type { Order } from '../../../src/provider/index.js';
import type { Sandbox } from '../../../src/sandbox/index.js';
import { createMemoryStore, SessionTokens } from '../../../src/server/index.js';
import type { CheckoutHandlerOptions, ResolvedOrder } from '../../../src/server/index.js';
import type { OrderView } from '../../../src/protocol/index.js';
import { tokenUsableUntil } from '../../../src/server/sessions.js';
import type { SessionRecord } from '../../../src/server/sessions.js';
import { SseReader } from './fake-provider.js';
import { created, ENDPOINT, providerOrders, read, sessionRequest as createRequest, world as sandboxWorld, type World as SandboxWorld } from './world.js';

const SECRET = 'access-session-secret-0123456789abcdef012';
const DAY = 24 * 3600;

interface World extends SandboxWorld {
  ordersOf(coid: string): Promise<Order[]>;
}

/** No webhooks: the handler learns of a payment by reading the order. One clock for both (the sandbox's). */
function world(given: Partial<CheckoutHandlerOptions> | ((sandbox: Sandbox) => Partial<CheckoutHandlerOptions>) = {}): World {
  const w = sandboxWorld({
    key: 'access_terminal_key_0123456789abcdef',
    secret: SECRET,
    deliver: false,
    sandboxClock: true,
    handler: ({ sandbox }) => ({
      webhookSecrets: undefined,
      resolveOrder: (ref) => (ref === 'tee' ? { amount: '1500.00' } : null),
      ...(typeof given === 'function' ? given(sandbox) : given),
    }),
  });
  return Object.assign(w, { ordersOf: (coid: string) => providerOrders(w, coid) });
}

const events = (w: World, token: string) => w.handler(new Request(`${ENDPOINT}/sessions/${token}/events`));
const errorOf = async (res: Response) => ((await res.json()) as { error: { code: string } }).error.code;

/** A PNG's first bytes: enough for the receipt check by content. */
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 0, 1, 0, 0, 0, 1, 8, 6, 0, 0, 0]);

/** A real multipart body with one small receipt, and its content type. */
async function receiptForm(): Promise<{ bytes: Uint8Array; type: string }> {
  const form = new FormData();
  form.append('files', new Blob([PNG], { type: 'image/png' }), 'receipt.png');
  const res = new Response(form);
  return { bytes: new Uint8Array(await res.arrayBuffer()), type: res.headers.get('content-type')! };
}

/**
 * A request body that records how much of it was pulled. `highWaterMark: 0`: nothing is pulled
 * until someone reads. `gate`: the first pull waits for it (an upload still arriving).
 */
function trackedBody(source: Uint8Array | number, gate?: Promise<void>) {
  const CHUNK = 64 * 1024;
  const total = typeof source === 'number' ? source : source.byteLength;
  const state = { pulled: 0, started: false };
  let startedResolve!: () => void;
  const started = new Promise<void>((r) => (startedResolve = r));
  const stream = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (!state.started) {
          state.started = true;
          startedResolve();
          if (gate) await gate;
        }
        const n = Math.min(CHUNK, total - state.pulled);
        const chunk = typeof source === 'number' ? new Uint8Array(n) : source.slice(state.pulled, state.pulled + n);
        state.pulled += n;
        controller.enqueue(chunk);
        if (state.pulled >= total) controller.close();
      },
    },
    { highWaterMark: 0 },
  );
  return { stream, state, started };
}

function upload(w: World, token: string, body: ReadableStream<Uint8Array>, type: string, headers: Record<string, string> = {}): Promise<Response> {
  return w.handler(
    new Request(`${ENDPOINT}/sessions/${token}/dispute`, {
      method: 'POST',
      headers: { 'x-paydesk': '1', 'content-type': type, ...headers },
      body,
      duplex: 'half',
    } as RequestInit),
  );
}

async function uploadReceipt(w: World, token: string): Promise<Response> {
  const { bytes, type } = await receiptForm();
  return upload(w, token, trackedBody(bytes).stream, type);
}

// ---------------------------------------------------------------------------------------------

describe('a session token through the late window (point 4)', () => {
  test('an order whose end the server learns days after its creation keeps its record, and so its token, for the late window after that end', async () => {
    // The store expires records on the same clock, so a record dropped too early is seen here.
    const w = world((sandbox) => ({ lateWindowSeconds: 7 * DAY, store: createMemoryStore({ now: () => sandbox.clock.now() }) }));
    const { session } = await created(w);
    // Nobody reads the order for three days (no sweep, the shopper away): its end is learnt on day 3.
    await w.advance(3 * DAY);
    assert.equal(((await (await read(w, session)).json()) as { order: OrderView }).order.status, 'expired');
    // Day 9: past creation + the late window + a day, within the late window after the end seen on day 3.
    await w.advance(6 * DAY);
    const day9 = await read(w, session);
    assert.equal(day9.status, 200, 'the record (and so the token) lasts the late window after the end');
    assert.equal(((await day9.json()) as { order: OrderView }).order.status, 'expired');
    // Past that window: the token stops.
    await w.advance(2 * DAY);
    assert.equal(await errorOf(await read(w, session)), 'session_expired');
  });

  test('on day 3 after expiry the token still reads the status, opens the event stream and takes a receipt; after the window it stops', async () => {
    const w = world({ lateWindowSeconds: 7 * DAY });
    const first = await created(w);
    const second = await created(w);
    // Both orders end unpaid at their deadline (30 minutes); the reads see it.
    await w.advance(31 * 60);
    assert.equal(((await (await read(w, first.session)).json()) as { order: OrderView }).order.status, 'expired');
    assert.equal(((await (await read(w, second.session)).json()) as { order: OrderView }).order.status, 'expired');

    // Day 3 of the late window: the 24 h signed into the tokens are long past.
    await w.advance(2 * DAY);
    const status = await read(w, first.session);
    assert.equal(status.status, 200, 'a status read on day 3 works');
    assert.equal(((await status.json()) as { order: OrderView }).order.status, 'expired');
    const stream = await events(w, first.session);
    assert.equal(stream.status, 200, 'the event stream on day 3 opens');
    const sse = new SseReader(stream);
    const ev = await sse.next();
    assert.equal(JSON.parse(ev!.data!).status, 'expired');
    await sse.cancel();
    const receipt = await uploadReceipt(w, first.session);
    const receiptJson = (await receipt.json()) as { order: OrderView };
    assert.equal(receipt.status, 201, `a receipt on day 3 is accepted: ${JSON.stringify(receiptJson)}`);
    assert.equal(receiptJson.order.dispute?.status, 'open');

    // A tampered token is refused all along.
    const tampered = second.session.slice(0, 3) + (second.session[3] === 'A' ? 'B' : 'A') + second.session.slice(4);
    assert.equal(await errorOf(await read(w, tampered)), 'session_invalid');

    // Past the late window after the order ended: the token stops everywhere.
    await w.advance(5 * DAY);
    for (const res of [await read(w, second.session), await events(w, second.session), await uploadReceipt(w, second.session)]) {
      assert.equal(res.status, 401);
      assert.equal(await errorOf(res), 'session_expired');
    }
    // The first one has a receipt being checked: its shopper still sees the outcome.
    assert.equal((await read(w, first.session)).status, 200, 'a session whose receipt is being checked still reads');
  });

  test('a paid order: the token works until the late window after the payment, not after', async () => {
    const w = world({ lateWindowSeconds: 3 * DAY, sessionTtlSeconds: 3600 });
    const { session, order } = await created(w);
    await w.control(`/sandbox/orders/${order.id}/complete`);
    assert.equal(((await (await read(w, session, '?refresh=1')).json()) as { order: OrderView }).order.status, 'paid');
    await w.advance(2 * DAY);
    assert.equal((await read(w, session)).status, 200, 'two days after the payment (the token\'s own hour long past)');
    await w.advance(DAY + 60);
    assert.equal(await errorOf(await read(w, session)), 'session_expired');
  });

  test('a pending order\'s token works while it can still be paid, then the late window after its deadline', async () => {
    // The sweep never runs and no webhook comes: the session stays pending in the store.
    const w = world({ lateWindowSeconds: DAY, sessionTtlSeconds: 600 });
    const { session } = await created(w);
    const tokens = new SessionTokens([SECRET]);
    await w.advance(20 * 60);
    // The token's own 10 minutes are over, the order's 30 are not.
    assert.equal((await events(w, session)).status, 200);
    await w.advance(DAY + 11 * 60);
    assert.equal(await errorOf(await events(w, session)), 'session_expired');
    // A correctly signed token past its time for a session the store does not hold: 401, not 404.
    const unknown = tokens.sign(tokens.newSessionId(), w.sandbox.clock.now() - 1000);
    assert.equal(await errorOf(await read(w, unknown)), 'session_expired');
  });
});

// ---------------------------------------------------------------------------------------------

describe('resolveOrder(orderRef, request) on every POST /sessions (point 5)', () => {
  /** A merchant whose carts belong to shop sessions: cart-1 is Alice's. */
  function shop() {
    const seen: Request[] = [];
    const owner = (req: Request) => /(?:^|;\s*)shop_session=([^;]+)/.exec(req.headers.get('cookie') ?? '')?.[1] ?? null;
    const resolveOrder = (ref: string, request: Request): ResolvedOrder | null => {
      seen.push(request);
      if (ref === 'cart-1') return owner(request) === 'alice' ? { amount: '1500.00', client_order_id: 'cart-1' } : null;
      if (ref === 'tee') return { amount: '700.00' };
      return null;
    };
    return { seen, resolveOrder };
  }
  const alice = { cookie: 'shop_session=alice' };
  const mallory = { cookie: 'shop_session=mallory' };

  test('first create, Idempotency-Key replay, live-session replay: each request is asked; a stranger gets 404 and no session', async () => {
    const s = shop();
    const w = world({ resolveOrder: s.resolveOrder });
    const body = { order_ref: 'cart-1', method_type: 'SBP' };

    const firstReq = createRequest(body, { ...alice, 'idempotency-key': 'k-1' });
    const first = await w.handler(firstReq);
    assert.equal(first.status, 201);
    const { session } = (await first.json()) as { session: string };
    assert.equal(s.seen.at(-1), firstReq, 'the first create passes its request');

    const replayReq = createRequest(body, { ...alice, 'idempotency-key': 'k-1' });
    const replay = await w.handler(replayReq);
    assert.equal(replay.status, 201);
    assert.equal(replay.headers.get('idempotent-replayed'), 'true');
    assert.equal(((await replay.json()) as { session: string }).session, session);
    assert.equal(s.seen.at(-1), replayReq, 'an Idempotency-Key replay passes its own request');

    const strangerKeyReq = createRequest(body, { ...mallory, 'idempotency-key': 'k-1' });
    const strangerKey = await w.handler(strangerKeyReq);
    assert.equal(s.seen.at(-1), strangerKeyReq);
    assert.equal(strangerKey.status, 404, 'the same key from someone the merchant does not give the cart to');
    const strangerKeyJson = (await strangerKey.json()) as Record<string, unknown>;
    assert.equal((strangerKeyJson.error as { code: string }).code, 'order_not_found');
    assert.equal(strangerKeyJson.session, undefined);
    assert.equal(strangerKeyJson.order, undefined);

    const liveReq = createRequest(body, alice);
    const live = await w.handler(liveReq);
    assert.equal(live.status, 201);
    assert.equal(((await live.json()) as { session: string }).session, session, 'the live session of the cart');
    assert.equal(s.seen.at(-1), liveReq, 'a live-session replay passes its request');

    const strangerLiveReq = createRequest(body, mallory);
    const strangerLive = await w.handler(strangerLiveReq);
    assert.equal(s.seen.at(-1), strangerLiveReq);
    assert.equal(strangerLive.status, 404);
    assert.equal(((await strangerLive.json()) as Record<string, unknown>).session, undefined);

    assert.equal((await w.ordersOf('cart-1')).length, 1, 'one order for the cart');
  });

  test('a concurrent duplicate with the same Idempotency-Key is asked with its own request too', async () => {
    const s = shop();
    const w = world({ resolveOrder: s.resolveOrder });
    const a = createRequest({ order_ref: 'tee', method_type: 'SBP' }, { 'idempotency-key': 'k-2' });
    const b = createRequest({ order_ref: 'tee', method_type: 'SBP' }, { 'idempotency-key': 'k-2' });
    const [ra, rb] = await Promise.all([w.handler(a), w.handler(b)]);
    assert.deepEqual([ra.status, rb.status], [201, 201]);
    assert.equal(((await ra.json()) as { session: string }).session, ((await rb.json()) as { session: string }).session);
    assert.ok(s.seen.includes(a) && s.seen.includes(b), 'both requests reached resolveOrder');
    assert.equal(s.seen.length, 2, 'once each');
  });
});

// ---------------------------------------------------------------------------------------------

describe('receipt uploads are refused before their body is read (point 7)', () => {
  const MiB = 1024 * 1024;
  const BIG = 19 * MiB;
  const JUNK_TYPE = 'multipart/form-data; boundary=----junk';

  test('ten concurrent uploads to one session: one reads its body, nine get 409 at once with nothing read', async () => {
    const w = world();
    const { session } = await created(w);
    const { bytes, type } = await receiptForm();
    let open!: () => void;
    const gate = new Promise<void>((r) => (open = r));
    const first = trackedBody(bytes, gate);
    const firstAnswer = upload(w, session, first.stream, type);
    await first.started; // the first upload holds the session and is reading its (slow) body
    const others = Array.from({ length: 9 }, () => trackedBody(BIG));
    const answers = await Promise.all(others.map((o) => upload(w, session, o.stream, JUNK_TYPE)));
    for (const [i, res] of answers.entries()) {
      assert.equal(res.status, 409, `upload ${i + 2}`);
      assert.equal(await errorOf(res), 'dispute_open');
    }
    assert.deepEqual(
      others.map((o) => o.state.pulled),
      Array(9).fill(0),
      'no byte of a refused upload was read',
    );
    open();
    const res = await firstAnswer;
    assert.equal(res.status, 201);
    assert.equal(((await res.json()) as { order: OrderView }).order.dispute?.status, 'open');
    // With the receipt being checked, the next upload is refused unread as well.
    const next = trackedBody(BIG);
    const again = await upload(w, session, next.stream, JUNK_TYPE);
    assert.deepEqual([again.status, await errorOf(again), next.state.pulled], [409, 'dispute_open', 0]);
  });

  test('a paid order, an unknown or tampered session, a declared size over the limit: refused with nothing read', async () => {
    const w = world();
    const paid = await created(w);
    await w.control(`/sandbox/orders/${paid.order.id}/complete`);
    assert.equal(((await (await read(w, paid.session, '?refresh=1')).json()) as { order: OrderView }).order.status, 'paid');
    const tokens = new SessionTokens([SECRET]);
    const pending = await created(w);
    const cases: Array<[string, string, Record<string, string>, number, string]> = [
      ['paid', paid.session, {}, 409, 'dispute_not_allowed'],
      ['unknown session', tokens.sign(tokens.newSessionId(), w.sandbox.clock.now() + 60_000), {}, 404, 'session_not_found'],
      ['tampered token', pending.session.slice(0, -2) + (pending.session.endsWith('AA') ? 'BB' : 'AA'), {}, 401, 'session_invalid'],
      ['declared over the limit', pending.session, { 'content-length': String(30 * MiB) }, 413, 'payload_too_large'],
    ];
    for (const [what, token, headers, status, code] of cases) {
      const body = trackedBody(BIG);
      const res = await upload(w, token, body.stream, JUNK_TYPE, headers);
      assert.deepEqual([res.status, await errorOf(res), body.state.pulled], [status, code, 0], what);
    }
  });
});

// ---------------------------------------------------------------------------------------------

describe('tokenUsableUntil: how long a token works past its own time', () => {
  const H = 3600_000;
  const WINDOW = 7 * 24 * H;
  const T0 = Date.parse('2026-11-01T10:00:00Z');
  const rec = (over: Partial<SessionRecord> & { status?: OrderView['status'] } = {}): SessionRecord => {
    const { status = 'pending', ...rest } = over;
    return {
      created_at: T0,
      expires_at: T0 + 24 * H,
      refreshed_at: T0,
      ended_at: null,
      payment: null,
      dispute: null,
      view: { status, expires_at: new Date(T0 + H / 2).toISOString() } as OrderView,
      ...rest,
    } as SessionRecord;
  };
  const signed = T0 + 24 * H;

  test('pending: the late window after the order\'s deadline', () => {
    assert.equal(tokenUsableUntil(rec(), signed, WINDOW), T0 + H / 2 + WINDOW);
  });
  test('expired or cancelled: the late window after it ended', () => {
    assert.equal(tokenUsableUntil(rec({ status: 'expired', ended_at: T0 + H }), signed, WINDOW), T0 + H + WINDOW);
  });
  test('paid late: counted from the payment, the later end', () => {
    const r = rec({ status: 'paid', ended_at: T0 + H, payment: { at: T0 + 50 * H, late: true, dispute_id: null } });
    assert.equal(tokenUsableUntil(r, signed, WINDOW), T0 + 50 * H + WINDOW);
  });
  test('a receipt being checked: no end yet; its outcome known: the window after the outcome', () => {
    const dispute = { id: 'd1', created_at: '', processed: false, processed_at: null, via: 'widget' as const, files: 1, outcome: null };
    assert.equal(tokenUsableUntil(rec({ status: 'expired', ended_at: T0 + H, dispute }), signed, WINDOW), Number.POSITIVE_INFINITY);
    const done = { ...dispute, processed: true, processed_at: T0 + 9 * 24 * H, outcome: 'unconfirmed' as const };
    assert.equal(tokenUsableUntil(rec({ status: 'expired', ended_at: T0 + H, dispute: done }), signed, WINDOW), T0 + 9 * 24 * H + WINDOW);
  });
  test('never shorter than the time signed into the token', () => {
    assert.equal(tokenUsableUntil(rec({ status: 'expired', ended_at: T0 + H }), T0 + 30 * 24 * H, WINDOW), T0 + 30 * 24 * H);
  });
});
