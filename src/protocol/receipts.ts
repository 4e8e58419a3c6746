/**
 * What a receipt file really is, read from its first bytes (never from its name or declared type):
 * one check for the widget, the provider client (before an upload), the token endpoint and the
 * sandbox (on arrival). The types are the widget protocol's DISPUTE_FILE_TYPES.
 */
import type { DisputeFileType } from './index.js';

const HEIF_BRANDS = new Set(['heic', 'heix', 'hevc', 'hevx', 'heim', 'heis', 'hevm', 'hevs']);
const ascii = (bytes: Uint8Array, from: number, length: number) => String.fromCharCode(...bytes.subarray(from, from + length));

/** The receipt type its first bytes prove (JPEG, PNG, WebP, HEIC, PDF), or null (an HTML page, a script …). */
export function detectReceiptType(bytes: Uint8Array): DisputeFileType | null {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  if (bytes.length >= 8 && [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a].every((b, i) => bytes[i] === b)) return 'image/png';
  if (bytes.length >= 12 && ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 4) === 'WEBP') return 'image/webp';
  if (bytes.length >= 5 && ascii(bytes, 0, 5) === '%PDF-') return 'application/pdf';
  // ISO BMFF: [box size][ftyp][major brand][minor version][compatible brands…]
  if (bytes.length >= 16 && ascii(bytes, 4, 4) === 'ftyp') {
    const boxSize = ((bytes[0]! << 24) | (bytes[1]! << 16) | (bytes[2]! << 8) | bytes[3]!) >>> 0;
    const end = Math.min(bytes.length, boxSize >= 16 ? boxSize : 16);
    const major = ascii(bytes, 8, 4);
    if (HEIF_BRANDS.has(major)) return 'image/heic';
    if (major === 'mif1' || major === 'msf1') {
      for (let at = 16; at + 4 <= end; at += 4) if (HEIF_BRANDS.has(ascii(bytes, at, 4))) return 'image/heic';
    }
  }
  return null;
}

/** The usual file extension of a receipt type. */
export const RECEIPT_EXTENSIONS: Readonly<Record<DisputeFileType, string>> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
  'image/heic': 'heic',
  'application/pdf': 'pdf',
};
