// A fake token endpoint served by the test runner's dev server (Koa middleware), so a browser test
// can use real fetch and a real EventSource (the CSP page allows only 'self' connections).
// Mount point: /fake-api/{namespace}; each test uses its own namespace.
//   GET  /methods?order_ref=R          → {methods}
//   POST /sessions                     → 201 {session, order, server_time} (needs X-Paydesk: 1)
//   GET  /sessions/S                   → {order, server_time}
//   GET  /sessions/S/events            → text/event-stream, event `order`
//   POST /__complete/S                 → marks the order paid and pushes it to the streams
//   GET  /__streams/S                  → {open: n}: event streams connected for S
import { PassThrough } from 'node:stream';

const spaces = new Map();

function space(ns) {
  let s = spaces.get(ns);
  if (!s) {
    s = { orders: new Map(), streams: new Map(), next: 1 };
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
      const body = await readBody(ctx.req);
      const session = `s${s.next}`;
      const order = newOrder(s.next++, body);
      s.orders.set(session, order);
      return json(ctx, 201, { session, order, server_time: serverTime() });
    }
    const sm = /^\/sessions\/([\w-]+)(\/events)?$/.exec(path);
    if (ctx.method === 'GET' && sm) {
      const order = s.orders.get(sm[1]);
      if (!order) return json(ctx, 404, { error: { code: 'session_invalid', message: 'unknown session', retryable: false } });
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
    const cm = /^\/__complete\/([\w-]+)$/.exec(path);
    if (ctx.method === 'POST' && cm) {
      const order = s.orders.get(cm[1]);
      if (!order) return json(ctx, 404, { error: { code: 'session_invalid', message: 'unknown session', retryable: false } });
      order.status = 'paid';
      order.provider_status = 'Completed';
      for (const stream of s.streams.get(cm[1]) ?? []) stream.write(`event: order\ndata: ${JSON.stringify(order)}\n\n`);
      return json(ctx, 200, { ok: true });
    }
    return json(ctx, 404, { error: { code: 'not_found', message: 'not found', retryable: false } });
  };
}
