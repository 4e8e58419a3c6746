/**
 * What a receipt file really is, read from its first bytes (never from its name or declared type):
 * the check the token endpoint, the sandbox and the widget share before a file goes to a dispute.
 */
import type { DisputeFileType } from './index.js';

const HEIF_BRANDS = new Set(['heic', 'heix', 'hevc', 'hevx', 'heim', 'heis', 'mif1', 'msf1']);

function ascii(bytes: Uint8Array, from: number, to: number): string {
  let s = '';
  for (let i = from; i < to && i < bytes.length; i++) s += String.fromCharCode(bytes[i]!);
  return s;
}

/** The receipt type of a file's content (JPEG, PNG, WebP, HEIC/HEIF, PDF), or null for anything else. */
export function sniffReceiptType(bytes: Uint8Array): DisputeFileType | null {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  if (bytes.length >= 8 && ascii(bytes, 0, 8) === '\x89PNG\r\n\x1a\n') return 'image/png';
  if (bytes.length >= 12 && ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 12) === 'WEBP') return 'image/webp';
  if (bytes.length >= 12 && ascii(bytes, 4, 8) === 'ftyp' && HEIF_BRANDS.has(ascii(bytes, 8, 12))) return 'image/heic';
  if (bytes.length >= 5 && ascii(bytes, 0, 5) === '%PDF-') return 'application/pdf';
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
