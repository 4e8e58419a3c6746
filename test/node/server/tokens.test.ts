import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { SessionTokens } from '../../../src/server/tokens.js';

const A = 'a'.repeat(32) + '-secret-A';
const B = 'b'.repeat(32) + '-secret-B';
const NOW = Date.parse('2026-03-01T12:00:00Z');

describe('session tokens', () => {
  const tokens = new SessionTokens([A]);

  test('a signed token verifies and names its session', () => {
    const sid = tokens.newSessionId();
    const t = tokens.sign(sid, NOW + 3600_000);
    const r = tokens.verify(t, NOW);
    assert.deepEqual(r, { ok: true, sid, expiresAt: Math.ceil((NOW + 3600_000) / 1000) * 1000 });
  });

  test('session ids are unguessable: 128 random bits, never repeated', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 2000; i++) seen.add(tokens.newSessionId());
    assert.equal(seen.size, 2000);
    assert.match([...seen][0]!, /^[A-Za-z0-9_-]{22}$/);
  });

  test('changing any single character of a token makes it invalid', () => {
    const t = tokens.sign(tokens.newSessionId(), NOW + 3600_000);
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.';
    fc.assert(
      fc.property(fc.nat(t.length - 1), fc.constantFrom(...alphabet), (i, ch) => {
        fc.pre(t[i] !== ch);
        const tampered = t.slice(0, i) + ch + t.slice(i + 1);
        assert.equal(tokens.verify(tampered, NOW).ok, false);
      }),
      { numRuns: 500 },
    );
  });

  test('a token signed with another secret (a foreign endpoint) is refused as a bad signature', () => {
    const foreign = new SessionTokens([B]).sign(tokens.newSessionId(), NOW + 3600_000);
    assert.deepEqual(tokens.verify(foreign, NOW), { ok: false, reason: 'bad_signature' });
  });

  test('an expired token is refused as expired, even with a valid signature', () => {
    const t = tokens.sign(tokens.newSessionId(), NOW + 1000);
    assert.deepEqual(tokens.verify(t, NOW + 2000), { ok: false, reason: 'expired' });
  });

  test('a pushed-out expiry breaks the signature', () => {
    const t = tokens.sign(tokens.newSessionId(), NOW + 1000);
    const [sid, , sig] = t.split('.');
    const later = Math.ceil((NOW + 10 * 86400_000) / 1000).toString(36);
    assert.deepEqual(tokens.verify(`${sid}.${later}.${sig}`, NOW), { ok: false, reason: 'bad_signature' });
  });

  test('malformed tokens are refused without throwing', () => {
    for (const bad of ['', '.', 'abc', 'a.b.c', 'x'.repeat(5000), '../../etc/passwd', '%00', 'ü.ü.ü']) {
      assert.deepEqual(tokens.verify(bad, NOW), { ok: false, reason: 'malformed' });
    }
  });

  test('rotation: the newest secret signs, older secrets still verify', () => {
    const old = new SessionTokens([A]);
    const rotated = new SessionTokens([B, A]);
    const sid = old.newSessionId();
    const before = old.sign(sid, NOW + 3600_000);
    assert.equal(rotated.verify(before, NOW).ok, true);
    const after = rotated.sign(sid, NOW + 3600_000);
    assert.notEqual(after, before);
    assert.equal(new SessionTokens([B]).verify(after, NOW).ok, true);
    assert.equal(old.verify(after, NOW).ok, false);
  });

  test('short or missing secrets are refused when the handler is configured', () => {
    assert.throws(() => new SessionTokens([]), /at least one secret/);
    assert.throws(() => new SessionTokens(['short']), /at least 32 characters/);
  });
});
