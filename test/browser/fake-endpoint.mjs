// A fake token endpoint served by the test runner's dev server (Koa middleware), so a browser test
// can use real fetch and a real EventSource (the CSP page allows only 'self' connections).
// Mount point: /fake-api/{namespace}; each test uses its own namespace.
//   GET  /methods?order_ref=R          → {methods}
//   POST /sessions                     → 201 {session, order, server_time} (needs X-Paydesk: 1)
//   GET  /sessions/S                   → {order, server_time}
//   GET  /sessions/S/events            → text/event-stream, event `order`
//   POST /sessions/S/dispute           → 201 {order, server_time} (multipart: files 1–5, comment; needs X-Paydesk: 1)
//   POST /__complete/S[?late=1]        → marks the order paid (late) and pushes it to the streams
//   POST /__expire/S                   → marks the order expired and pushes it (the stream stays open: a late payment may come)
//   GET  /__streams/S                  → {open: n}: event streams connected for S
//   GET  /__state                      → {sessions: n, disputes: [...]}: what the namespace holds
// A create with an Idempotency-Key already seen answers the same session (waiting for the first one).
import { PassThrough } from 'node:stream';

const spaces = new Map();

function space(ns) {
  let s = spaces.get(ns);
  if (!s) {
    s = { orders: new Map(), streams: new Map(), next: 1, keys: new Map(), disputes: [] };
    spaces.set(ns, s);
  }
  return s;
}

const METHODS = [
  { id: 'm-sbp', name: 'СБП', type: 'SBP', bank: null, fee: '22.50', fixed_fee: null, total: '1522.50' },
  { id: 'm-card', name: 'Card transfer', type: 'BankCard', bank: 'sberbank', fee: '0.00', fixed_fee: null, total: '1500.00' },
];

function newOrder(id, body) {
  const now = Date.now();
  const sbp = body.payment_method_id === 'm-sbp';
  return {
    id: `ord-${id}`,
    client_order_id: String(body.order_ref),
    status: 'pending',
    provider_status: 'Unpaid',
    amount: '1500.00',
    currency: 'RUB',
    fee: '22.50',
    method: { id: body.payment_method_id ?? 'm-sbp', name: sbp ? 'СБП' : 'Card transfer', type: sbp ? 'SBP' : 'BankCard' },
    bank: 'sberbank',
    requisites: sbp
      ? { holder_name: 'Иванов Иван Иванович', holder_account: '+79991234567', kind: 'phone' }
      : { holder_name: 'Иванов Иван Иванович', holder_account: '4627100101654724', kind: 'card' },
    payment_link: sbp ? 'https://qr.nspk.ru/AS1000670LSS7DN18SJQDNP4B05KLJL2?type=02&bank=100000000111&sum=150000&cur=RUB&crc=C08B' : null,
    form_url: null,
    created_at: new Date(now).toISOString(),
    expires_at: new Date(now + 30 * 60_000).toISOString(),
    redirect_url: 'https://shop.example/thanks',
    support_url: 'https://shop.example/support',
    return_url: 'https://shop.example/cart',
  };
}

function json(ctx, status, body) {
  ctx.status = status;
  ctx.type = 'application/json';
  ctx.body = JSON.stringify(body);
}

async function readBody(req) {
  let text = '';
  for await (const chunk of req) text += chunk;
  return text ? JSON.parse(text) : {};
}

async function readRaw(req) {
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  return Buffer.concat(chunks);
}

/** The parts of a multipart/form-data body: name, filename, type and size (enough for the tests). */
function multipart(buffer, contentType) {
  const boundary = /boundary=(?:"([^"]+)"|([^;]+))/.exec(contentType ?? '');
  if (!boundary) return null;
  const text = buffer.toString('latin1');
  return text
    .split(`--${boundary[1] ?? boundary[2]}`)
    .slice(1, -1)
    .map((part) => {
      const [head, ...rest] = part.split('\r\n\r\n');
      const body = rest.join('\r\n\r\n').replace(/\r\n$/, '');
      return {
        name: /name="([^"]*)"/.exec(head)?.[1] ?? '',
        filename: /filename="([^"]*)"/.exec(head)?.[1] ?? null,
        type: /Content-Type:\s*([^\r\n]+)/i.exec(head)?.[1] ?? null,
        size: body.length,
        value: body,
      };
    });
}

function push(s, session, order) {
  for (const stream of s.streams.get(session) ?? []) stream.write(`event: order\ndata: ${JSON.stringify(order)}\n\n`);
}

export function fakeEndpoint() {
  return async function fakeEndpointMiddleware(ctx, next) {
    const m = /^\/fake-api\/([\w-]+)(\/.*)$/.exec(ctx.path);
    if (!m) return next();
    const s = space(m[1]);
    const path = m[2];
    const serverTime = () => new Date().toISOString();
    if (ctx.method === 'GET' && path === '/methods') return json(ctx, 200, { methods: METHODS });
    if (ctx.method === 'POST' && path === '/sessions') {
      if (ctx.get('X-Paydesk') !== '1') return json(ctx, 403, { error: { code: 'missing_protocol_header', message: 'X-Paydesk: 1 required', retryable: false } });
      const key = ctx.get('Idempotency-Key');
      const body = await readBody(ctx.req);
      if (key && s.keys.has(key)) {
        const session = await s.keys.get(key);
        return json(ctx, 201, { session, order: s.orders.get(session), server_time: serverTime() });
      }
      let done;
      if (key) s.keys.set(key, new Promise((resolve) => (done = resolve)));
      // The requisites search takes a moment: long enough for a second tab's request to arrive meanwhile.
      await new Promise((resolve) => setTimeout(resolve, 150));
      const session = `s${s.next}`;
      const order = newOrder(s.next++, body);
      s.orders.set(session, order);
      done?.(session);
      return json(ctx, 201, { session, order, server_time: serverTime() });
    }
    const dm = /^\/sessions\/([\w-]+)\/dispute$/.exec(path);
    if (ctx.method === 'POST' && dm) {
      if (ctx.get('X-Paydesk') !== '1') return json(ctx, 403, { error: { code: 'missing_protocol_header', message: 'X-Paydesk: 1 required', retryable: false } });
      const order = s.orders.get(dm[1]);
      const parts = multipart(await readRaw(ctx.req), ctx.get('Content-Type'));
      if (!order) return json(ctx, 404, { error: { code: 'session_not_found', message: 'unknown session', retryable: false } });
      if (order.dispute?.status === 'open') return json(ctx, 409, { error: { code: 'dispute_open', message: 'open', retryable: false } });
      const files = (parts ?? []).filter((p) => p.name === 'files' && p.filename !== null);
      if (files.length < 1 || files.length > 5) return json(ctx, 400, { error: { code: 'validation_failed', message: 'files: 1 to 5', retryable: false } });
      s.disputes.push({ session: dm[1], files: files.map((f) => ({ name: f.filename, type: f.type, size: f.size })), comment: parts.find((p) => p.name === 'comment')?.value ?? null });
      order.dispute = { id: `dsp-${s.disputes.length}`, status: 'open', created_at: serverTime() };
      push(s, dm[1], order);
      return json(ctx, 201, { order, server_time: serverTime() });
    }
    if (ctx.method === 'GET' && path === '/__state') return json(ctx, 200, { sessions: s.orders.size, disputes: s.disputes });
    const sm = /^\/sessions\/([\w-]+)(\/events)?$/.exec(path);
    if (ctx.method === 'GET' && sm) {
      const order = s.orders.get(sm[1]);
      if (!order) return json(ctx, 404, { error: { code: 'session_not_found', message: 'unknown session', retryable: false } });
      if (!sm[2]) return json(ctx, 200, { order, server_time: serverTime() });
      const stream = new PassThrough();
      ctx.req.socket.setTimeout(0);
      ctx.status = 200;
      ctx.set('Content-Type', 'text/event-stream');
      ctx.set('Cache-Control', 'no-store');
      ctx.body = stream;
      stream.write(': open\n\n');
      const list = s.streams.get(sm[1]) ?? [];
      list.push(stream);
      s.streams.set(sm[1], list);
      ctx.req.on('close', () => s.streams.set(sm[1], (s.streams.get(sm[1]) ?? []).filter((x) => x !== stream)));
      return;
    }
    const om = /^\/__streams\/([\w-]+)$/.exec(path);
    if (ctx.method === 'GET' && om) return json(ctx, 200, { open: (s.streams.get(om[1]) ?? []).length });
    const cm = /^\/__(complete|expire)\/([\w-]+)$/.exec(path);
    if (ctx.method === 'POST' && cm) {
      const order = s.orders.get(cm[2]);
      if (!order) return json(ctx, 404, { error: { code: 'session_not_found', message: 'unknown session', retryable: false } });
      if (cm[1] === 'expire') Object.assign(order, { status: 'expired', provider_status: 'CanceledByTimeout' });
      else Object.assign(order, { status: 'paid', provider_status: 'Completed', late: ctx.query.late === '1' });
      push(s, cm[2], order);
      return json(ctx, 200, { ok: true });
    }
    return json(ctx, 404, { error: { code: 'not_found', message: 'not found', retryable: false } });
  };
}
