/** Deterministic pseudo-randomness for seeded data (so a reset gives the same catalogue and history). */
import { createHash } from 'node:crypto';

export type Rng = () => number;

/** mulberry32: a small, fast PRNG; returns floats in [0, 1). */
export function createRng(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A 32-bit seed from any text. */
export function seedFrom(text: string): number {
  return createHash('sha256').update(text).digest().readUInt32BE(0);
}

/** A stable UUID (version 4 layout) derived from a name, for seeded records that must not change. */
export function stableUuid(name: string): string {
  const h = createHash('sha256').update(`paydesk-sandbox:${name}`).digest();
  h[6] = (h[6]! & 0x0f) | 0x40;
  h[8] = (h[8]! & 0x3f) | 0x80;
  const hex = h.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export function pick<T>(rng: Rng, items: readonly T[]): T {
  const item = items[Math.floor(rng() * items.length)];
  if (item === undefined) throw new RangeError('pick from an empty list');
  return item;
}

export function intBetween(rng: Rng, min: number, max: number): number {
  return min + Math.floor(rng() * (max - min + 1));
}

export function digits(rng: Rng, count: number): string {
  let out = '';
  for (let i = 0; i < count; i++) out += Math.floor(rng() * 10).toString();
  return out;
}

/** Appends the Luhn check digit to a number of 15 digits (a valid-looking card number). */
export function withLuhn(body: string): string {
  let sum = 0;
  for (let i = 0; i < body.length; i++) {
    let d = Number(body[body.length - 1 - i]);
    if (i % 2 === 0) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return body + ((10 - (sum % 10)) % 10).toString();
}
