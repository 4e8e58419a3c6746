/**
 * Session tokens (`S` of the widget protocol): opaque, unguessable and signed.
 *
 * Format: `<sid>.<exp>.<sig>` where `sid` is 16 random bytes (base64url), `exp` the expiry in unix
 * seconds (base 36) and `sig` = base64url(HMAC-SHA256(secret, "paydesk.session.v1." + sid + "." + exp)).
 * Several secrets are accepted (rotation): the first one signs, every one verifies. A token is
 * checked here before any store or provider work, so a tampered or foreign one costs one HMAC.
 * `exp` is the session's own time (sessionTtlSeconds); past it, the handler asks the stored session
 * whether the token still works (its order ended less than the late window ago: `tokenUsableUntil` in sessions.ts).
 */
import { hmacSha256, randomId, safeEqualBuffers } from './crypto.js';

const PREFIX = 'paydesk.session.v1.';
const REF_PREFIX = 'paydesk.order-ref.v1.';
/** A client order id that carries its order_ref: `pr_` + time (8, base 36) + random (8) + signature (8) + the ref. */
const REF_ID = /^pr_([0-9a-z]{8})([A-Za-z0-9_-]{8})([A-Za-z0-9_-]{8})([A-Za-z0-9._~:@-]{1,37})$/;
/** An order_ref that fits a client order id as it is (64 characters in all). */
const CARRIED_REF = /^[A-Za-z0-9._~:@-]{1,37}$/;
const TOKEN = /^([A-Za-z0-9_-]{22})\.([0-9a-z]{1,10})\.([A-Za-z0-9_-]{43})$/;
/** Minimum length of a session secret (characters). */
export const MIN_SECRET_LENGTH = 32;

/** A token whose signature is valid: the session it names and the time signed into it (ms). */
export interface SignedToken {
  ok: true;
  sid: string;
  expiresAt: number;
}

export type TokenCheck =
  | SignedToken
  | { ok: false; reason: 'malformed' | 'bad_signature' | 'expired' };

export class SessionTokens {
  private readonly secrets: readonly string[];
  constructor(secrets: readonly string[]) {
    if (!Array.isArray(secrets) || secrets.length === 0) {
      throw new TypeError('paydesk/server: sessionSecrets must list at least one secret (the newest first)');
    }
    for (const s of secrets) {
      if (typeof s !== 'string' || s.length < MIN_SECRET_LENGTH) {
        throw new TypeError(`paydesk/server: every session secret must be a string of at least ${MIN_SECRET_LENGTH} characters`);
      }
    }
    this.secrets = [...secrets];
  }

  /** A fresh session id. */
  newSessionId(): string {
    return randomId(16);
  }

  /** Signs `sid` until `expiresAt` (ms since epoch) with the newest secret. */
  sign(sid: string, expiresAt: number): string {
    const exp = Math.ceil(expiresAt / 1000).toString(36);
    return `${sid}.${exp}.${hmacSha256(this.secrets[0]!, PREFIX + sid + '.' + exp).toString('base64url')}`;
  }

  /**
   * A unique client order id that carries `orderRef`, signed (so a paid order whose session the
   * store lost can still be reported by its order_ref), or null when the ref does not fit (longer
   * than 37 characters, or characters other than letters, digits and `._~:@-`).
   */
  clientOrderIdFor(orderRef: string, now = Date.now()): string | null {
    if (!CARRIED_REF.test(orderRef)) return null;
    const time = now.toString(36).padStart(8, '0').slice(-8);
    const nonce = randomId(6);
    return `pr_${time}${nonce}${this.refTag(this.secrets[0]!, time, nonce, orderRef)}${orderRef}`;
  }

  /** The order_ref a client order id of {@link clientOrderIdFor} carries, when its signature holds (any secret); else null. */
  orderRefOf(clientOrderId: string): string | null {
    const m = REF_ID.exec(clientOrderId);
    if (!m) return null;
    const [, time, nonce, tag, ref] = m as unknown as [string, string, string, string, string];
    let valid = false;
    for (const secret of this.secrets) if (safeEqualBuffers(Buffer.from(this.refTag(secret, time, nonce, ref), 'latin1'), Buffer.from(tag, 'latin1'))) valid = true;
    return valid ? ref : null;
  }

  private refTag(secret: string, time: string, nonce: string, ref: string): string {
    return hmacSha256(secret, `${REF_PREFIX}${time}.${nonce}.${ref}`).toString('base64url').slice(0, 8);
  }

  /** Checks shape, signature (against every secret) and expiry, in that order. */
  verify(token: string, now: number): TokenCheck {
    const check = this.authenticate(token);
    if (!check.ok) return check;
    if (check.expiresAt <= now) return { ok: false, reason: 'expired' };
    return check;
  }

  /**
   * Checks shape and signature only: the session this handler signed the token for, and the time
   * signed into it. The caller decides what that time means (the handler lets a token outlive it
   * while its stored session says the order ended less than the late window ago).
   */
  authenticate(token: string): SignedToken | { ok: false; reason: 'malformed' | 'bad_signature' } {
    if (typeof token !== 'string' || token.length > 100) return { ok: false, reason: 'malformed' };
    const m = TOKEN.exec(token);
    if (!m) return { ok: false, reason: 'malformed' };
    const [, sid, exp, sig] = m as unknown as [string, string, string, string];
    let valid = false;
    const presented = Buffer.from(sig, 'latin1');
    for (const secret of this.secrets) {
      // Compare the canonical text (a non-canonical base64 spelling of the right bytes is refused),
      // against every secret with no early exit so timing does not reveal which one matched. Both
      // sides are 43 characters (the pattern above), so a constant-time comparison needs no hashing.
      const expected = Buffer.from(hmacSha256(secret, PREFIX + sid + '.' + exp).toString('base64url'), 'latin1');
      if (safeEqualBuffers(expected, presented)) valid = true;
    }
    if (!valid) return { ok: false, reason: 'bad_signature' };
    const expiresAt = parseInt(exp, 36) * 1000;
    if (!Number.isFinite(expiresAt)) return { ok: false, reason: 'malformed' };
    return { ok: true, sid, expiresAt };
  }
}
