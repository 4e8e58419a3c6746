/**
 * Small crypto helpers on node:crypto (available in Node, Bun and Deno): HMAC, random ids and a
 * constant-time comparison that hashes both sides first, so inputs of any length never throw and
 * never leak their length through timing.
 */
import { createHash, createHmac, randomBytes, randomFillSync, timingSafeEqual } from 'node:crypto';

export function hmacSha256(secret: string, data: string): Buffer {
  return createHmac('sha256', secret).update(data, 'utf8').digest();
}

export function hmacSha256Hex(secret: string, data: string): string {
  return createHmac('sha256', secret).update(data, 'utf8').digest('hex');
}

export function sha256Base64url(data: string): string {
  return createHash('sha256').update(data, 'utf8').digest('base64url');
}

/**
 * Random bytes are drawn from the CSPRNG a pool at a time (as crypto.randomUUID does): one call per
 * 4 KiB instead of one per id. Every byte is handed out once.
 */
const POOL_SIZE = 4096;
const pool = Buffer.alloc(POOL_SIZE);
let poolOffset = POOL_SIZE;

/** Unguessable id: `bytes` random bytes, base64url. */
export function randomId(bytes = 16): string {
  if (!Number.isInteger(bytes) || bytes <= 0 || bytes > 256) return randomBytes(bytes).toString('base64url');
  if (poolOffset + bytes > POOL_SIZE) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  const id = pool.toString('base64url', poolOffset, poolOffset + bytes);
  pool.fill(0, poolOffset, poolOffset + bytes);
  poolOffset += bytes;
  return id;
}

/**
 * Constant-time equality of two strings of any length (including empty and odd-length ones).
 * Both sides are hashed to 32 bytes first, as Hono's timingSafeEqual does.
 */
export function safeEqual(a: string, b: string): boolean {
  const ha = createHash('sha256').update(a, 'utf8').digest();
  const hb = createHash('sha256').update(b, 'utf8').digest();
  return timingSafeEqual(ha, hb) && a === b;
}

/** Constant-time equality of a computed digest and a presented one. */
export function safeEqualBuffers(a: Buffer, b: Buffer): boolean {
  if (a.length !== b.length) {
    // Still spend the time of a comparison; never throw on a length mismatch.
    timingSafeEqual(a, a);
    return false;
  }
  return timingSafeEqual(a, b);
}
