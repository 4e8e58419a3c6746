/**
 * Browser-facing safety of the token endpoint: routes under any mount path, the X-Paydesk header,
 * JSON only, body size, origins and CORS, rate limits, the error shape, and the secrecy of the key.
 */
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { setClientAddress } from '../../../src/server/index.js';
import { API_KEY, assertBadOptionOnFirstUse, BASE, createRequest, createSession, getSession, makeHarness, ORIGIN, SESSION_SECRET, WEBHOOK_SECRET } from './fake-provider.js';
import type { Harness } from './fake-provider.js';

const body = { order_ref: 'tee', method_type: 'SBP' };
const providerCalls = (h: Harness) => h.provider.calls.length;

async function errorOf(res: Response) {
  const json = (await res.json()) as { error: { code: string; message: string; retryable: boolean } };
  assert.deepEqual(Object.keys(json), ['error']);
  assert.deepEqual(Object.keys(json.error).sort(), ['code', 'message', 'retryable']);
  assert.equal(typeof json.error.message, 'string');
  assert.ok(json.error.message.length > 0);
  return json.error;
}

describe('routes', () => {
  test('the handler works under any mount path', async () => {
    const h = makeHarness();
    for (const prefix of ['', '/api/paydesk', '/shop/v2/checkout']) {
      const res = await h.handler(
        new Request(`https://shop.example${prefix}/sessions`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-paydesk': '1' },
          body: JSON.stringify(body),
        }),
      );
      assert.equal(res.status, 201, prefix);
      const methods = await h.handler(new Request(`https://shop.example${prefix}/methods?order_ref=tee`));
      assert.equal(methods.status, 200, prefix);
    }
  });

  test('an unknown path is a 404 in the error shape', async () => {
    const h = makeHarness();
    const res = await h.handler(new Request(`${BASE}/nothing-here`));
    assert.equal(res.status, 404);
    assert.equal((await errorOf(res)).code, 'not_found');
  });

  test('a wrong method is a 405 naming the allowed one', async () => {
    const h = makeHarness();
    const res = await h.handler(new Request(`${BASE}/sessions`));
    assert.equal(res.status, 405);
    assert.equal(res.headers.get('allow'), 'POST');
    assert.equal((await errorOf(res)).code, 'method_not_allowed');
    const wh = await h.handler(new Request(`${BASE}/webhooks`));
    assert.equal(wh.status, 405);
  });

  test('answers are JSON, never cached, never sniffed', async () => {
    const h = makeHarness();
    const res = await h.handler(new Request(`${BASE}/methods?order_ref=tee`));
    assert.equal(res.headers.get('content-type'), 'application/json; charset=utf-8');
    assert.equal(res.headers.get('cache-control'), 'no-store');
    assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
  });
});

describe('POST /sessions from the browser', () => {
  test('without X-Paydesk: 1 it is refused with 403 and the provider is not called', async () => {
    const h = makeHarness();
    for (const value of [undefined, '0', 'true', '']) {
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (value !== undefined) headers['x-paydesk'] = value;
      const res = await h.handler(new Request(`${BASE}/sessions`, { method: 'POST', headers, body: JSON.stringify(body) }));
      assert.equal(res.status, 403, String(value));
      assert.equal((await errorOf(res)).code, 'missing_protocol_header');
    }
    assert.equal(providerCalls(h), 0);
  });

  test('a form-encoded body (what a cross-site form sends) is refused with 415', async () => {
    const h = makeHarness();
    const res = await h.handler(
      new Request(`${BASE}/sessions`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-paydesk': '1' },
        body: 'order_ref=tee&method_type=SBP',
      }),
    );
    assert.equal(res.status, 415);
    assert.equal((await errorOf(res)).code, 'unsupported_media_type');
    assert.equal(providerCalls(h), 0);
  });

  test('text/plain and a missing content type are refused with 415', async () => {
    const h = makeHarness();
    for (const ct of ['text/plain', 'multipart/form-data; boundary=x', null]) {
      const headers: Record<string, string> = { 'x-paydesk': '1' };
      const init: RequestInit = { method: 'POST', headers, body: new Blob([JSON.stringify(body)]) };
      if (ct) headers['content-type'] = ct;
      const res = await h.handler(new Request(`${BASE}/sessions`, init));
      assert.equal(res.status, 415, String(ct));
    }
    assert.equal(providerCalls(h), 0);
  });

  test('JSON with a charset parameter is accepted', async () => {
    const h = makeHarness();
    const res = await h.handler(createRequest(body, { 'content-type': 'Application/JSON; charset=utf-8' }));
    assert.equal(res.status, 201);
  });

  test('an oversized body is refused with 413, whether declared or streamed', async () => {
    const h = makeHarness({ maxBodyBytes: 1024 });
    const big = JSON.stringify({ ...body, padding: 'x'.repeat(5000) });
    const declared = await h.handler(createRequest(big));
    assert.equal(declared.status, 413);
    assert.equal((await errorOf(declared)).code, 'payload_too_large');
    const chunks = [new TextEncoder().encode(big.slice(0, 600)), new TextEncoder().encode(big.slice(600))];
    const stream = new ReadableStream<Uint8Array>({
      pull(c) {
        const next = chunks.shift();
        if (next) c.enqueue(next);
        else c.close();
      },
    });
    const streamed = await h.handler(
      new Request(`${BASE}/sessions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-paydesk': '1' },
        body: stream,
        duplex: 'half',
      } as RequestInit),
    );
    assert.equal(streamed.status, 413);
    assert.equal(providerCalls(h), 0);
  });

  test('malformed JSON, a non-object and an empty body are 400s that say what is wrong', async () => {
    const h = makeHarness();
    for (const [raw, pattern] of [
      ['{"order_ref":', /not valid JSON/],
      ['[1,2]', /JSON object/],
      ['"tee"', /JSON object/],
      ['', /empty/],
      ['\u00ff\u00fe', /not valid JSON/],
    ] as const) {
      const res = await h.handler(createRequest(raw));
      assert.equal(res.status, 400, raw);
      assert.match((await errorOf(res)).message, pattern);
    }
    assert.equal(providerCalls(h), 0);
  });

  test('fields of the wrong type or shape are 400 validation_failed naming the field', async () => {
    const h = makeHarness();
    for (const [b, field] of [
      [{}, /order_ref is required/],
      [{ order_ref: 5 }, /order_ref/],
      [{ order_ref: '' }, /order_ref/],
      [{ order_ref: 'x'.repeat(200) }, /order_ref/],
      [{ order_ref: 'tee\u0000' }, /order_ref/],
      [{ order_ref: 'tee', customer_bank: 'bank-of-mars' }, /customer_bank/],
      [{ order_ref: 'tee', button_name: 'EvilPay' }, /button_name/],
      [{ order_ref: 'tee', mode: 'magic' }, /mode/],
      [{ order_ref: 'tee', method_type: 'SBP; DROP' }, /method_type/],
      [{ order_ref: 'tee', payment_method_id: { $ne: 1 } }, /payment_method_id/],
    ] as const) {
      const res = await h.handler(createRequest(b));
      assert.equal(res.status, 400, JSON.stringify(b));
      const e = await errorOf(res);
      assert.equal(e.code, 'validation_failed');
      assert.match(e.message, field);
    }
    assert.equal(h.provider.count('createOrder'), 0);
  });
});

describe('origins and CORS', () => {
  test('a foreign origin is refused with 403 and no CORS headers, on every route, with no provider call', async () => {
    const h = makeHarness();
    const { session } = await createSession(h);
    const before = providerCalls(h);
    const evil = { origin: 'https://evil.example' };
    const requests = [
      createRequest(body, evil),
      new Request(`${BASE}/methods?order_ref=tee`, { headers: evil }),
      new Request(`${BASE}/sessions/${session}`, { headers: evil }),
      new Request(`${BASE}/sessions/${session}/events`, { headers: evil }),
    ];
    for (const req of requests) {
      const res = await h.handler(req);
      assert.equal(res.status, 403, req.url);
      assert.equal(res.headers.get('access-control-allow-origin'), null);
      assert.equal((await errorOf(res)).code, 'forbidden_origin');
    }
    assert.equal(providerCalls(h), before);
  });

  test('an allowed origin gets its own origin back, with Vary: Origin', async () => {
    const h = makeHarness();
    const res = await h.handler(createRequest(body, { origin: 'https://partner.example' }));
    assert.equal(res.status, 201);
    assert.equal(res.headers.get('access-control-allow-origin'), 'https://partner.example');
    assert.match(res.headers.get('vary') ?? '', /Origin/);
  });

  test('errors to an allowed origin carry CORS headers too (the widget can read them)', async () => {
    const h = makeHarness();
    const res = await h.handler(createRequest({ order_ref: 'nope', method_type: 'SBP' }, { origin: 'https://partner.example' }));
    assert.equal(res.status, 404);
    assert.equal(res.headers.get('access-control-allow-origin'), 'https://partner.example');
  });

  test('same-origin requests are always allowed, and need no CORS headers', async () => {
    const h = makeHarness({ allowedOrigins: [] });
    const res = await h.handler(createRequest(body, { origin: ORIGIN }));
    assert.equal(res.status, 201);
    assert.equal(res.headers.get('access-control-allow-origin'), null);
  });

  test('a browser-declared same-origin request is allowed even when a proxy changed the host', async () => {
    const h = makeHarness({ allowedOrigins: [] });
    const res = await h.handler(createRequest(body, { origin: 'https://www.shop.example', 'sec-fetch-site': 'same-origin' }));
    assert.equal(res.status, 201);
    const cross = await h.handler(createRequest(body, { origin: 'https://www.shop.example', 'sec-fetch-site': 'cross-site' }));
    assert.equal(cross.status, 403);
  });

  test('requests without an Origin (server to server, same-origin GETs) are allowed', async () => {
    const h = makeHarness({ allowedOrigins: [] });
    const res = await h.handler(new Request(`${BASE}/methods?order_ref=tee`));
    assert.equal(res.status, 200);
  });

  test('the opaque origin "null" is refused', async () => {
    const h = makeHarness({ allowedOrigins: ['https://partner.example'] });
    const res = await h.handler(createRequest(body, { origin: 'null' }));
    assert.equal(res.status, 403);
  });

  test('a preflight from an allowed origin allows the protocol headers and methods', async () => {
    const h = makeHarness();
    const res = await h.handler(
      new Request(`${BASE}/sessions`, {
        method: 'OPTIONS',
        headers: {
          origin: 'https://partner.example',
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'content-type,x-paydesk,idempotency-key',
        },
      }),
    );
    assert.equal(res.status, 204);
    assert.equal(res.headers.get('access-control-allow-origin'), 'https://partner.example');
    const allowed = (res.headers.get('access-control-allow-headers') ?? '').toLowerCase();
    for (const name of ['x-paydesk', 'idempotency-key', 'content-type', 'last-event-id']) assert.ok(allowed.includes(name), name);
    assert.match(res.headers.get('access-control-allow-methods') ?? '', /POST/);
    assert.match(res.headers.get('access-control-allow-methods') ?? '', /GET/);
    assert.equal(providerCalls(h), 0);
  });

  test('a preflight from a foreign origin gets 403 and no CORS headers', async () => {
    const h = makeHarness();
    const res = await h.handler(
      new Request(`${BASE}/sessions`, { method: 'OPTIONS', headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' } }),
    );
    assert.equal(res.status, 403);
    assert.equal(res.headers.get('access-control-allow-origin'), null);
    assert.equal(res.headers.get('access-control-allow-headers'), null);
  });

  test('origins are compared normalised (case of the host, default port)', async () => {
    const h = makeHarness({ allowedOrigins: ['https://Partner.Example:443'] });
    const res = await h.handler(createRequest(body, { origin: 'https://partner.example' }));
    assert.equal(res.status, 201);
  });

  test('an invalid allowedOrigins entry is a configuration error (on first use)', async () => {
    await assertBadOptionOnFirstUse({ allowedOrigins: ['not a url'] }, /allowedOrigins/);
  });
});

describe('rate limits', () => {
  const from = (req: Request, address: string) => {
    setClientAddress(req, address);
    return req;
  };

  test('per client address: beyond the limit a 429 with Retry-After; another address is unaffected', async () => {
    const h = makeHarness({ rateLimits: { perAddress: { limit: 3, windowSeconds: 60 } } });
    for (let i = 0; i < 3; i++) {
      assert.equal((await h.handler(from(new Request(`${BASE}/methods?order_ref=tee`), '10.0.0.1'))).status, 200);
    }
    const limited = await h.handler(from(new Request(`${BASE}/methods?order_ref=tee`), '10.0.0.1'));
    assert.equal(limited.status, 429);
    const retryAfter = Number(limited.headers.get('retry-after'));
    assert.ok(retryAfter >= 1 && retryAfter <= 60, String(retryAfter));
    const e = await errorOf(limited);
    assert.equal(e.code, 'rate_limited');
    assert.equal(e.retryable, true);
    assert.equal((await h.handler(from(new Request(`${BASE}/methods?order_ref=tee`), '10.0.0.2'))).status, 200);
  });

  test('the window resets (fake clock)', async () => {
    const h = makeHarness({ rateLimits: { perAddress: { limit: 1, windowSeconds: 60 } }, store: undefined });
    assert.equal((await h.handler(from(new Request(`${BASE}/methods?order_ref=tee`), '10.0.0.9'))).status, 200);
    assert.equal((await h.handler(from(new Request(`${BASE}/methods?order_ref=tee`), '10.0.0.9'))).status, 429);
    h.clock.now += 60_000;
    assert.equal((await h.handler(from(new Request(`${BASE}/methods?order_ref=tee`), '10.0.0.9'))).status, 200);
  });

  test('session creation has its own, tighter limit per address', async () => {
    const h = makeHarness({ rateLimits: { createPerAddress: { limit: 2, windowSeconds: 60 } } });
    for (let i = 0; i < 2; i++) assert.equal((await h.handler(from(createRequest(body), '10.0.0.3'))).status, 201);
    const res = await h.handler(from(createRequest(body), '10.0.0.3'));
    assert.equal(res.status, 429);
    assert.equal(h.provider.count('createOrder'), 2);
  });

  test('per session: reads of one session are limited, another session is not', async () => {
    const h = makeHarness({ rateLimits: { perSession: { limit: 2, windowSeconds: 60 } } });
    const a = await createSession(h);
    const b = await createSession(h);
    assert.equal((await getSession(h, a.session)).status, 200);
    assert.equal((await getSession(h, a.session)).status, 200);
    const limited = await getSession(h, a.session);
    assert.equal(limited.status, 429);
    assert.ok(limited.headers.get('retry-after'));
    assert.equal((await getSession(h, b.session)).status, 200);
  });

  test('refreshes from the provider (?refresh=1) are limited per session', async () => {
    const h = makeHarness({ rateLimits: { refreshPerSession: { limit: 1, windowSeconds: 60 } } });
    const a = await createSession(h);
    assert.equal((await getSession(h, a.session, '?refresh=1')).status, 200);
    const limited = await getSession(h, a.session, '?refresh=1');
    assert.equal(limited.status, 429);
    assert.equal((await getSession(h, a.session)).status, 200, 'plain reads still work');
  });

  test('X-Forwarded-For is ignored unless trustProxy is set', async () => {
    const rule = { perAddress: { limit: 1, windowSeconds: 60 } };
    const spoof = (ip: string) => new Request(`${BASE}/methods?order_ref=tee`, { headers: { 'x-forwarded-for': ip } });
    const trusting = makeHarness({ rateLimits: rule, trustProxy: true });
    assert.equal((await trusting.handler(spoof('1.1.1.1, 10.0.0.5'))).status, 200);
    assert.equal((await trusting.handler(spoof('2.2.2.2, 10.0.0.5'))).status, 429, 'the last hop (what the proxy saw) counts');
    assert.equal((await trusting.handler(spoof('10.0.0.6'))).status, 200);
    const plain = makeHarness({ rateLimits: rule });
    assert.equal((await plain.handler(spoof('1.1.1.1'))).status, 200);
    assert.equal((await plain.handler(spoof('1.1.1.1'))).status, 200, 'no known address: no per-address limit');
  });

  test('getClientAddress supplies the address when no adapter recorded one', async () => {
    const h = makeHarness({
      rateLimits: { perAddress: { limit: 1, windowSeconds: 60 } },
      getClientAddress: (req) => req.headers.get('x-platform-ip') ?? undefined,
    });
    const req = () => new Request(`${BASE}/methods?order_ref=tee`, { headers: { 'x-platform-ip': '9.9.9.9' } });
    assert.equal((await h.handler(req())).status, 200);
    assert.equal((await h.handler(req())).status, 429);
  });

  test('rateLimits: false turns every limit off', async () => {
    const h = makeHarness({ rateLimits: false });
    for (let i = 0; i < 50; i++) {
      assert.equal((await h.handler(from(new Request(`${BASE}/methods?order_ref=tee`), '10.0.0.7'))).status, 200);
    }
  });

  test('an invalid rule is a configuration error (on first use)', async () => {
    await assertBadOptionOnFirstUse({ rateLimits: { perAddress: { limit: 0, windowSeconds: 1 } } }, /rateLimits.perAddress/);
  });
});

describe('secrets never leave the server', () => {
  test('the provider key and secrets appear in no response and no log line, whatever fails', async () => {
    const h = makeHarness();
    const { ProviderError } = await import('../../../src/provider/errors.js');
    h.provider.failNext('createOrder', () => {
      throw new ProviderError({ code: 'unauthorized', status: 401, message: `bad key ${API_KEY}`, providerMessage: `key ${API_KEY} refused` });
    });
    h.provider.failNext('getOrder', () => {
      throw new ProviderError({ code: 'network', message: `GET ...?key=${API_KEY} failed` });
    });
    const texts: string[] = [];
    const record = async (res: Response) => {
      texts.push(JSON.stringify([...res.headers]), await res.text());
    };
    await record(await h.handler(createRequest(body)));
    const ok = await createSession(h);
    h.clock.now += 3600_000;
    await record(await getSession(h, ok.session));
    await record(await h.handler(new Request(`${BASE}/webhooks`, { method: 'POST', headers: { 'x-api-key': API_KEY }, body: '{}' })));
    await record(await h.handler(new Request(`${BASE}/sessions/${API_KEY}`)));
    await h.handler.idle();
    const everything = texts.join('\n') + JSON.stringify(h.logs);
    assert.ok(h.logs.length > 0, 'something was logged');
    for (const secret of [API_KEY, SESSION_SECRET, WEBHOOK_SECRET]) assert.ok(!everything.includes(secret), `leaked ${secret.slice(0, 8)}`);
  });
});
