import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { parseSignatureHeader, signWebhookPayload, verifyWebhookRequest } from '../../../src/server/webhooks.js';
import { hmacSha256Hex, safeEqual } from '../../../src/server/crypto.js';

const SECRET = 'whsec_' + 'k'.repeat(32);
const OLD = 'whsec_' + 'o'.repeat(32);
const NOW = Date.parse('2026-03-01T12:00:00Z');
const T = NOW / 1000;
const BODY = '{"request_id":"r1","payload":{"id":"o1","client_order_id":"c1"}}';

const headers = (h: Record<string, string>) => new Headers(h);
const signed = (body: string, t = T, secret = SECRET) => headers({ 'x-paydesk-signature': signWebhookPayload(secret, body, t) });
const verify = (h: Headers, body = BODY, extra: Partial<Parameters<typeof verifyWebhookRequest>[2]> = {}) =>
  verifyWebhookRequest(h, body, { mode: 'signature', secrets: [SECRET], now: () => NOW, ...extra });

describe('webhook signature', () => {
  test('the signature is HMAC-SHA256(secret, t + "." + body) in hex', () => {
    assert.equal(signWebhookPayload(SECRET, BODY, T), `t=${T},v1=${hmacSha256Hex(SECRET, `${T}.${BODY}`)}`);
  });

  test('a correctly signed body is accepted', () => {
    assert.deepEqual(verify(signed(BODY)), { ok: true, mode: 'signature', timestamp: T });
  });

  test('a body changed after signing is refused', () => {
    const r = verify(signed(BODY), BODY.replace('o1', 'o2'));
    assert.equal(r.ok, false);
  });

  test('a signature made with another secret is refused', () => {
    assert.equal(verify(signed(BODY, T, 'whsec_' + 'x'.repeat(32))).ok, false);
  });

  test('any of several secrets verifies (rotation)', () => {
    assert.equal(verify(signed(BODY, T, OLD), BODY, { secrets: [SECRET, OLD] }).ok, true);
  });

  test('any of several v1 values may match', () => {
    const good = signWebhookPayload(SECRET, BODY, T).split(',')[1];
    assert.equal(verify(headers({ 'x-paydesk-signature': `t=${T},v1=${'0'.repeat(64)},${good}` })).ok, true);
  });

  test('a timestamp more than 300 s old is refused (replay)', () => {
    assert.equal(verify(signed(BODY, T - 301)).ok, false);
    assert.equal(verify(signed(BODY, T - 299)).ok, true);
  });

  test('a timestamp more than 300 s in the future is refused', () => {
    assert.equal(verify(signed(BODY, T + 301)).ok, false);
    assert.equal(verify(signed(BODY, T + 299)).ok, true);
  });

  test('a missing or malformed header is refused with a reason', () => {
    assert.match((verify(headers({})) as { reason: string }).reason, /missing/);
    for (const bad of ['', 't=abc,v1=00', 'v1=00', `t=${T}`, 'garbage', `t=${T},v2=00`]) {
      const r = verify(headers({ 'x-paydesk-signature': bad }));
      assert.equal(r.ok, false, bad);
    }
  });

  test('odd-length, non-hex and huge signatures never throw', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), (sig) => {
        const r = verify(headers({ 'x-paydesk-signature': `t=${T},v1=${sig.replace(/[,\r\n]/g, '')}` }));
        assert.equal(r.ok, false);
      }),
    );
    assert.equal(verify(headers({ 'x-paydesk-signature': `t=${T},v1=${'a'.repeat(5000)}` })).ok, false);
  });

  test('parseSignatureHeader reads t and every v1', () => {
    assert.deepEqual(parseSignatureHeader('t=12, v1=AB ,v1=cd'), { timestamp: 12, signatures: ['ab', 'cd'] });
  });
});

describe('webhook API key', () => {
  const opts = { mode: 'api_key' as const, apiKey: 'the-terminal-key-123456' };
  test('the repeated X-API-Key is accepted', () => {
    assert.equal(verifyWebhookRequest(headers({ 'x-api-key': opts.apiKey }), BODY, opts).ok, true);
  });
  test('a wrong, empty, longer or missing key is refused', () => {
    for (const k of ['wrong', '', opts.apiKey + 'x', opts.apiKey.slice(0, -1)]) {
      assert.equal(verifyWebhookRequest(headers({ 'x-api-key': k }), BODY, opts).ok, false, k);
    }
    assert.equal(verifyWebhookRequest(headers({}), BODY, opts).ok, false);
  });
});

describe('constant-time compare', () => {
  test('equal strings are equal, others are not, any lengths, never throws', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (a, b) => {
        assert.equal(safeEqual(a, b), a === b);
        assert.equal(safeEqual(a, a), true);
      }),
    );
  });
});
