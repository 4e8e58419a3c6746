/**
 * The console API's orders, disputes' receipts and webhook log without a browser: a real token
 * endpoint and the provider client both talking to the in-process sandbox, the console API called
 * through `app.request`. The merged search (the shop's sessions and the provider's list), its
 * filters on both sources, the order page's data, receipts served only as what their bytes prove,
 * and every parameter checked with a clear 400.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createConsole, type PaydeskConsole } from '../../../src/console/index.js';
import type { OrderDetailResponse, OrdersPage, WebhookView } from '../../../src/console/contract.js';
import { RECEIPT_CSP, receiptResponse, type ReceiptSource } from '../../../src/console/receipts.js';
import { amountMatchesQuery, amountQuery, hookView, minorUnits } from '../../../src/console/shop.js';
import { createProviderClient, type ProviderClient } from '../../../src/provider/index.js';
import { createSandbox, type Sandbox } from '../../../src/sandbox/index.js';
import { createCheckoutHandler, type CheckoutHandler } from '../../../src/server/index.js';
import { HTML_PAGE, makePdf, makePng } from '../sandbox/receipt-files.js';

const KEY = 'console_api_test_key_0123456789';
const PROVIDER = 'http://sandbox.test';
const ENDPOINT = 'http://merchant.test/api/paydesk';
const PASSWORD = 'console-test-password';

/** The console's API as a merchant reaches it: createConsole's fetch, under /console/api. */
interface ConsoleApi {
  request(path: string, init?: RequestInit): Promise<Response>;
}
const apiOf = (c: PaydeskConsole): ConsoleApi => ({ request: (path, init) => c.fetch(new Request(`http://merchant.test/console/api${path}`, init)) });


const JPEG = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01]);
const WEBP = new TextEncoder().encode('RIFF\u0024\u0000\u0000\u0000WEBPVP8 ');
const HEIC = new Uint8Array([0, 0, 0, 0x18, ...new TextEncoder().encode('ftypheic'), 0, 0, 0, 0, ...new TextEncoder().encode('mif1heic')]);
const SVG = new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');

describe('receipts are served only as what their bytes prove', () => {
  test('images inline, PDF and HEIC as attachments, each with nosniff, a script-free sandboxing CSP and a clean name', async () => {
    const cases = [
      { bytes: makePng(), name: 'receipt.png', type: 'image/png', disposition: /^inline; filename="receipt\.png"/ },
      { bytes: JPEG, name: 'photo.jpeg', type: 'image/jpeg', disposition: /^inline; filename="photo\.jpeg"/ },
      { bytes: WEBP, name: 'pic', type: 'image/webp', disposition: /^inline; filename="pic\.webp"/ },
      { bytes: HEIC, name: 'IMG_0001.HEIC', type: 'image/heic', disposition: /^attachment; filename="IMG_0001\.HEIC"/ },
      { bytes: makePdf(), name: '../../etc/чек".pdf', type: 'application/pdf', disposition: /^attachment; filename="____\.pdf"; filename\*=UTF-8''%D1%87%D0%B5%D0%BA_\.pdf$/ },
    ];
    for (const c of cases) {
      const res = receiptResponse(c.bytes, c.name);
      assert.ok(res, c.name);
      assert.equal(res.headers.get('content-type'), c.type, c.name);
      assert.match(res.headers.get('content-disposition') ?? '', c.disposition, c.name);
      assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
      assert.equal(res.headers.get('content-security-policy'), RECEIPT_CSP);
      assert.ok(!/script-src/.test(RECEIPT_CSP) && /default-src 'none'/.test(RECEIPT_CSP) && /\bsandbox\b/.test(RECEIPT_CSP));
      assert.deepEqual(new Uint8Array(await res.arrayBuffer()), c.bytes);
    }
    assert.match(receiptResponse(makePng(), 'r.png', { download: true })!.headers.get('content-disposition')!, /^attachment;/, 'download=1 makes an image an attachment');
  });

  test('an HTML page, an SVG with a script or nothing at all is never served, whatever its name', () => {
    for (const [bytes, name] of [
      [HTML_PAGE, 'receipt.png'],
      [HTML_PAGE, 'receipt.pdf'],
      [SVG, 'receipt.svg'],
      [new Uint8Array(), 'empty.png'],
    ] as const) {
      assert.equal(receiptResponse(bytes, name), null, name);
    }
  });
});

describe('search helpers', () => {
  test('an amount as people type it', () => {
    assert.equal(amountQuery('1500'), '1500');
    assert.equal(amountQuery('1 500,50'), '1500.50');
    assert.equal(amountQuery('7\u00a0490.5'), '7490.5');
    assert.equal(amountQuery('coffee'), null);
    assert.equal(amountQuery('15-00'), null);
    assert.ok(amountMatchesQuery('1500.00', '1500') && amountMatchesQuery('1500.99', '1500') && !amountMatchesQuery('15000.00', '1500'));
    assert.ok(amountMatchesQuery('7490.50', '7490.5') && !amountMatchesQuery('7490.55', '7490.5'));
  });

  test('money in the currency minor units, from the provider number or decimal', () => {
    assert.equal(minorUnits(1500, 'RUB'), '1500.00');
    assert.equal(minorUnits(7490.5, 'UZS'), '7490.50');
    assert.equal(minorUnits('12.345', 'RUB'), '12.35');
  });

  test('a hook: done, due, retrying, nothing to do, or not configured', () => {
    const base = { done_at: null, attempts: 0, next_at: null, error: null, configured: true };
    assert.equal(hookView(base, true).state, 'due');
    assert.equal(hookView(base, false).state, 'none');
    assert.equal(hookView({ ...base, configured: false }, true).state, 'off');
    const failing = hookView({ ...base, attempts: 2, next_at: Date.parse('2030-01-01T00:00:00Z'), error: 'ECONNRESET' }, true);
    assert.deepEqual([failing.state, failing.attempts, failing.error, failing.next_at], ['retrying', 2, 'ECONNRESET', '2030-01-01T00:00:00.000Z']);
    const done = hookView({ ...base, done_at: Date.parse('2030-01-01T00:00:05Z'), attempts: 1 }, true);
    assert.deepEqual([done.state, done.at, done.attempts], ['done', '2030-01-01T00:00:05.000Z', 1]);
  });
});

describe('console API over a token endpoint and the sandbox', () => {
  let sandbox: Sandbox;
  let handler: CheckoutHandler;
  let client: ProviderClient;
  let app: ConsoleApi;
  let cookie = '';
  /** While set, the provider answers this path prefix with a 503 (as a provider that is down). */
  let downFor: string | null = null;
  /** While set, the receipts cannot be read. */
  let receiptsDown = false;
  const receipts = new Map<string, { name: string; bytes: Uint8Array }[]>();
  const receiptSource: ReceiptSource = {
    list: async (id) => {
      if (receiptsDown) throw new Error('the sandbox did not answer');
      return receipts.get(id)?.map((f, index) => ({ index, name: f.name, content_type: 'image/png', size: f.bytes.byteLength })) ?? null;
    },
    read: async (id, index) => {
      if (receiptsDown) throw new Error('the sandbox did not answer');
      return receipts.get(id)?.[index] ?? null;
    },
  };

  before(async () => {
    sandbox = createSandbox({
      apiKey: KEY,
      sweepIntervalMs: 0,
      webhookUrl: `${ENDPOINT}/webhooks`,
      webhookRetryDelaysMs: [],
      fetch: (input, init) => handler(new Request(input, init)),
    });
    const toSandbox = async (input: RequestInfo | URL, init?: RequestInit) => {
      const req = new Request(input, init);
      if (downFor && new URL(req.url).pathname.startsWith(downFor)) return Response.json({ success: false, message: 'Service unavailable' }, { status: 503 });
      return sandbox.fetch(req);
    };
    client = createProviderClient({ baseUrl: PROVIDER, apiKey: KEY, fetch: toSandbox, maxRetries: 0 });
    handler = createCheckoutHandler({
      provider: { client, apiKey: KEY },
      resolveOrder: (ref) => ({ coffee: { amount: '1500.00' }, grinder: { amount: '7490.50' } })[ref] ?? null,
      sessionSecrets: ['console-api-test-session-secret-0123456789'],
      webhookUrl: `${ENDPOINT}/webhooks`,
      webhookSecrets: [sandbox.webhookSecret(KEY)],
      onOrderPaid: () => undefined,
      reconcileIntervalSeconds: 0,
      // A rejected dispute's outcome at the sweep that sees it processed (the dispute test below).
      disputeGraceSeconds: 0,
      logger: { warn: () => undefined, error: () => undefined },
    });
    app = apiOf(createConsole({
      client,
      password: PASSWORD,
      handler,
      receipts: receiptSource,
      products: [{ ref: 'coffee', title: 'Кофе', title_en: 'Coffee' }],
      logError: () => undefined,
    }));
    const login = await app.request('/login', { method: 'POST', headers: { 'content-type': 'application/json', 'x-paydesk': '1' }, body: JSON.stringify({ password: PASSWORD }) });
    assert.equal(login.status, 204);
    cookie = login.headers.get('set-cookie')!.split(';')[0]!;
  });

  after(async () => {
    await handler?.close();
    await sandbox?.close();
  });

  const get = (path: string, withCookie = true) => app.request(path, { headers: withCookie ? { cookie } : {} });
  const json = async <T>(path: string, status = 200): Promise<T> => {
    const res = await get(path);
    const body = (await res.json()) as T;
    assert.equal(res.status, status, `${path}: ${JSON.stringify(body)}`);
    return body;
  };
  const buy = async (ref: string) => {
    const res = await handler(
      new Request(`${ENDPOINT}/sessions`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-paydesk': '1' }, body: JSON.stringify({ order_ref: ref, method_type: 'SBP' }) }),
    );
    assert.equal(res.status, 201, await res.clone().text());
    return ((await res.json()) as { order: { id: string; client_order_id: string } }).order;
  };

  test('a search finds the shop order by a fragment of its order_ref, of its client order id and by its amount, with its shop state', async () => {
    const coffee = await buy('coffee');
    const grinder = await buy('grinder');
    for (const q of ['offe', coffee.client_order_id.slice(3, 14), coffee.id.slice(0, 8), '1 500,00']) {
      const page = await json<OrdersPage>(`/orders?q=${encodeURIComponent(q)}`);
      const row = page.items.find((r) => r.id === coffee.id);
      assert.ok(row, `"${q}" finds the coffee order`);
      assert.equal(row.source, 'provider', 'the provider list brought its fields');
      assert.deepEqual([row.shop?.order_ref, row.shop?.product, row.shop?.status], ['coffee', { ru: 'Кофе', en: 'Coffee' }, 'pending']);
      assert.ok(!page.items.some((r) => r.id === grinder.id), `"${q}" does not find the grinder`);
      assert.ok(page.search && page.search.provider_complete);
    }
    const byAmount = await json<OrdersPage>('/orders?q=7490.5');
    assert.deepEqual(
      byAmount.items.filter((r) => r.shop).map((r) => r.id),
      [grinder.id],
    );
  });

  test('the search reads the provider for orders the shop did not make, and applies the filters to both sources', async () => {
    const provider = await client.listOrders({ size: 100 });
    const seeded = provider.items.filter((o) => o.client_order_id.includes('shop-10'));
    assert.ok(seeded.length > 0, 'the seeded history has shop-10… orders within the day');
    const page = await json<OrdersPage>('/orders?q=shop-10&size=100');
    assert.deepEqual(page.items.map((r) => r.id).sort(), seeded.map((o) => o.id).sort());
    assert.ok(page.items.every((r) => r.shop === null && r.source === 'provider'));

    const sells = await json<OrdersPage>('/orders?q=offe&order_side=Sell');
    assert.deepEqual(sells.items, [], 'a payment of the shop is not a payout');
    const past = new Date(Date.now() - 3 * 24 * 3600 * 1000).toISOString();
    const before = await json<OrdersPage>(`/orders?q=offe&end_date=${encodeURIComponent(past)}`);
    assert.deepEqual(before.items, [], 'a period before the order leaves it out, from the shop sessions too');
    const paged = await json<OrdersPage>('/orders?q=shop-10&size=2&page=2');
    assert.equal(paged.page, 2);
    assert.equal(paged.total, seeded.length);
    assert.deepEqual(
      paged.items.map((r) => r.id),
      page.items.slice(2, 4).map((r) => r.id),
    );
  });

  test('the order page: by order id or client order id, paid and fulfilled with the hook time, the history and the webhook that said so', async () => {
    const order = await buy('coffee');
    const started = Date.now();
    const done = await sandbox.fetch(new Request(`${PROVIDER}/sandbox/orders/${order.id}/complete`, { method: 'POST', headers: { 'X-API-Key': KEY } }));
    assert.equal(done.status, 200);
    // The sandbox delivers its webhook to the handler on its own; wait for the handler to have it.
    let byId = await json<OrderDetailResponse>(`/orders/${order.id}`);
    for (let i = 0; i < 100 && byId.order.shop?.fulfilment.state !== 'done'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      await handler.idle();
      byId = await json<OrderDetailResponse>(`/orders/${order.id}`);
    }
    const byClientId = await json<OrderDetailResponse>(`/orders/${order.client_order_id}`);
    assert.equal(byClientId.order.id, order.id);
    const o = byId.order;
    assert.equal(o.shop?.status, 'paid');
    assert.equal(o.shop?.fulfilment.state, 'done');
    assert.ok(Date.parse(o.shop!.fulfilment.at!) >= started - 1000);
    assert.deepEqual(
      o.shop!.history.map((h) => [h.status, h.via]),
      [
        ['pending', 'create'],
        ['paid', 'webhook'],
      ],
    );
    assert.ok(o.provider && 'order' in o.provider && o.provider.order.status === 'Completed');
    assert.deepEqual(
      o.webhooks.map((w: WebhookView) => [w.verified, w.outcome, w.status]),
      [[true, 'confirmed', 'Completed']],
    );
    assert.deepEqual(o.disputes, []);
    await json(`/orders/${encodeURIComponent('no-such-order')}`, 404);
  });

  test('each dispute of an order with what it proved: "money found" with the deposit that confirmed it, "not found", or open', async () => {
    const order = await buy('grinder');
    const control = async (path: string, body?: unknown) => {
      const res = await sandbox.fetch(
        new Request(`${PROVIDER}${path}`, { method: 'POST', headers: { 'X-API-Key': KEY, 'content-type': 'application/json' }, ...(body !== undefined && { body: JSON.stringify(body) }) }),
      );
      assert.ok(res.ok, `${path}: ${res.status}`);
      return (await res.json()) as { dispute: { dispute_id: string } };
    };
    await control(`/sandbox/orders/${order.id}/expire`);
    await handler.reconcile();
    const d1 = (await control(`/sandbox/orders/${order.id}/dispute`)).dispute.dispute_id;
    const d2 = (await control(`/sandbox/orders/${order.id}/dispute`)).dispute.dispute_id;
    await handler.reconcile();
    const outcomes = async () => {
      const detail = await json<OrderDetailResponse>(`/orders/${order.id}`);
      assert.ok(Array.isArray(detail.order.disputes));
      return Object.fromEntries(detail.order.disputes.map((d) => [d.dispute_id, [d.processed, d.shop?.outcome ?? null, d.shop?.deposit?.amount ?? null]]));
    };
    assert.deepEqual(await outcomes(), { [d1]: [false, null, null], [d2]: [false, null, null] });
    await control(`/sandbox/disputes/${d2}/process`, { accepted: false });
    await handler.reconcile();
    assert.deepEqual(await outcomes(), { [d1]: [false, null, null], [d2]: [true, 'unconfirmed', null] });
    await control(`/sandbox/disputes/${d1}/process`, { accepted: true });
    await handler.reconcile();
    const after = await outcomes();
    assert.deepEqual(after[d2], [true, 'unconfirmed', null]);
    assert.deepEqual(after[d1]!.slice(0, 2), [true, 'paid']);
    assert.match(String(after[d1]![2]), /^\d+\.\d{2}$/, 'the deposit that confirmed it, with its amount');
    const list = await json<{ items: Array<{ dispute_id: string; shop: { outcome: string | null; deposit: { id: string } | null } | null }> }>(`/disputes?order_id=${order.id}`);
    assert.deepEqual(
      list.items.map((d) => [d.dispute_id, d.shop?.outcome, Boolean(d.shop?.deposit?.id)]).sort(),
      [[d1, 'paid', true], [d2, 'unconfirmed', false]].sort(),
      'the disputes list says the same',
    );
    const shop = (await json<OrderDetailResponse>(`/orders/${order.id}`)).order.shop!;
    assert.deepEqual([shop.status, shop.late, shop.dispute?.id, shop.dispute?.outcome], ['paid', true, d1, 'paid']);
  });

  test('a receipt: served when its bytes are an image, refused as unsafe_receipt when they are HTML named .png', async () => {
    receipts.set('d-ok', [{ name: 'receipt.png', bytes: makePng() }]);
    receipts.set('d-html', [{ name: 'receipt.png', bytes: HTML_PAGE }]);
    const ok = await get('/disputes/d-ok/files/0');
    assert.equal(ok.status, 200);
    assert.equal(ok.headers.get('content-type'), 'image/png');
    assert.equal(ok.headers.get('x-content-type-options'), 'nosniff');
    const html = await get('/disputes/d-html/files/0');
    assert.equal(html.status, 502);
    assert.match(html.headers.get('content-type') ?? '', /^application\/json/);
    assert.equal(((await html.json()) as { error: { code: string } }).error.code, 'unsafe_receipt');
    assert.equal((await get('/disputes/d-ok/files/1')).status, 404);
    assert.equal((await get('/disputes/unknown/files/0')).status, 404);
  });

  test('the shop knows the order while the provider is down: the page stands with the read error; receipts that cannot be read are a 502, not a 500', async () => {
    const order = await buy('grinder');
    downFor = `/api/v1/order/${order.id}`;
    try {
      const { order: o } = await json<OrderDetailResponse>(`/orders/${order.id}`);
      assert.equal(o.shop?.order_ref, 'grinder');
      assert.ok(o.provider && 'error' in o.provider, 'the provider read failed');
      assert.equal(o.provider.error.retryable, true);
    } finally {
      downFor = null;
    }
    downFor = '/api/v1/order/';
    try {
      const res = await get(`/orders/${encodeURIComponent('shop-1')}`);
      assert.ok(res.status >= 502 && res.status <= 504, `only the provider could know it: ${res.status} ${await res.clone().text()}`);
    } finally {
      downFor = null;
    }
    receiptsDown = true;
    try {
      const res = await get('/disputes?size=5');
      const body = (await res.json()) as { error: { code: string; retryable: boolean } };
      assert.deepEqual([res.status, body.error.code, body.error.retryable], [502, 'provider_error', true]);
      assert.equal((await get('/disputes/d-ok/files/0')).status, 502);
    } finally {
      receiptsDown = false;
    }
  });

  test('every parameter is checked: a clear 400, never a 500', async () => {
    const cases: Array<[string, string]> = [
      ['/orders?q=' + 'x'.repeat(65), 'q'],
      ['/orders?q=%01', 'q'],
      ['/orders?q=a&client_order_id=b', 'q'],
      ['/orders?q=a&page=0', 'page'],
      ['/orders?q=a&size=101', 'size'],
      ['/orders?q=a&sort=sideways', 'sort'],
      ['/orders?nonsense=1', 'nonsense'],
      ['/orders/with%20space', 'key'],
      ['/orders/' + 'x'.repeat(129), 'key'],
      ['/disputes/d-ok/files/5', 'index'],
      ['/disputes/d-ok/files/-1', 'index'],
      ['/disputes/d-ok/files/0?endpoint=/api/other', 'endpoint'],
      ['/disputes/d-ok/files/0?download=2', 'download'],
      ['/disputes/d-ok/files/0?extra=1', 'extra'],
      ['/webhooks?outcome=bogus', 'outcome'],
      ['/webhooks?verified=maybe', 'verified'],
      ['/webhooks?size=0', 'size'],
      ['/webhooks?endpoint=/nope', 'endpoint'],
      ['/webhooks?order_id=a%20b', 'order_id'],
      // Filters the provider would refuse (its 422 was answered as a 502 provider_error).
      ['/orders?status=Evil', 'status'],
      ['/payouts?status=x', 'status'],
      ['/form-sessions?state=x', 'state'],
    ];
    for (const [path, field] of cases) {
      const res = await get(path);
      const body = (await res.json()) as { error: { code: string; field?: string; message: string } };
      assert.equal(res.status, 400, `${path}: ${JSON.stringify(body)}`);
      assert.equal(body.error.code, 'validation_failed', path);
      assert.equal(body.error.field, field, path);
    }
    // A known status in another case is the provider's spelling.
    assert.ok(Array.isArray((await json<{ items: unknown[] }>('/orders?status=completed')).items));
    // A payout's confirmed total is money: a non-decimal is a 400 naming it (it was a 500 from the comparison).
    for (const total of ['abc', '1e3', '1,075.00']) {
      const res = await app.request('/payouts', {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/json', 'x-paydesk': '1' },
        body: JSON.stringify({ key: 'k'.repeat(24), method_id: 'm-1', amount: '1000.00', destination: '2200000000000004', total }),
      });
      const body = (await res.json()) as { error: { code: string; field?: string } };
      assert.equal(res.status, 400, `total ${total}: ${JSON.stringify(body)}`);
      assert.equal(body.error.code, 'validation_failed');
      assert.equal(body.error.field, 'total');
    }
  });

  test('the webhook log: a forged signature is refused and logged with its reason; filters; login required', async () => {
    const order = await buy('grinder');
    const forged = await handler(
      new Request(`${ENDPOINT}/webhooks`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'X-Paydesk-Signature': `t=${Math.floor(Date.now() / 1000)},v1=${'ab'.repeat(32)}` },
        body: JSON.stringify({ payload: { id: order.id, client_order_id: order.client_order_id, status: 'Completed' } }),
      }),
    );
    assert.equal(forged.status, 401);
    const refused = await json<{ items: WebhookView[] }>('/webhooks?outcome=refused');
    assert.equal(refused.items[0]?.order_id, order.id);
    assert.deepEqual([refused.items[0]?.verified, refused.items[0]?.http_status], [false, 401]);
    assert.match(refused.items[0]?.detail ?? '', /^signature does not match/);
    const verified = await json<{ items: WebhookView[] }>('/webhooks?verified=true&size=100');
    assert.ok(verified.items.length > 0 && verified.items.every((w) => w.verified));
    const times = verified.items.map((w) => w.at);
    assert.deepEqual(times, [...times].sort().reverse(), 'newest first');

    for (const path of ['/orders?q=a', `/orders/${order.id}`, '/disputes/d-ok/files/0', '/webhooks']) {
      assert.equal((await get(path, false)).status, 401, path);
    }
  });
});
