/**
 * The body of `POST {endpoint}/sessions/S/dispute` (DESIGN.md): `multipart/form-data` with one to
 * five receipts in `files` (JPEG, PNG, WebP, HEIC or PDF — checked by content — at most 10 MB each
 * and 20 MB in all) and an optional `comment`. Everything else in the body is ignored.
 */
import {
  DISPUTE_COMMENT_FIELD,
  DISPUTE_FILES_FIELD,
  DISPUTE_MAX_COMMENT,
  DISPUTE_MAX_FILE_BYTES,
  DISPUTE_MAX_FILES,
  DISPUTE_MAX_TOTAL_BYTES,
} from '../protocol/index.js';
import { detectReceiptType, RECEIPT_EXTENSIONS } from '../protocol/receipts.js';
import type { DisputeFileInput } from '../provider/types.js';
import { CheckoutError } from './errors.js';
import { readBodyBytes } from './http.js';

export interface Receipts {
  files: DisputeFileInput[];
  comment: string | null;
}

/** Room for the multipart boundaries and headers around the files. */
const MULTIPART_OVERHEAD = 256 * 1024;
const MB = 1024 * 1024;

function invalid(message: string): CheckoutError {
  return new CheckoutError(400, 'validation_failed', message);
}

/** A file name safe to pass on: the base name, printable, at most 100 characters, with the real extension. */
function safeName(name: string, index: number, type: DisputeFileInput['type']): string {
  const ext = RECEIPT_EXTENSIONS[type as keyof typeof RECEIPT_EXTENSIONS] ?? 'bin';
  const base = (name.split(/[\\/]/).pop() ?? '')
    .replace(/\.[^.]*$/, '')
    .replace(/[^\p{L}\p{N} ._-]/gu, '_')
    .trim()
    .slice(0, 90);
  return `${base || `receipt-${index + 1}`}.${ext}`;
}

export async function readReceipts(req: Request): Promise<Receipts> {
  const contentType = req.headers.get('content-type') ?? '';
  if (!/^multipart\/form-data\s*;/i.test(contentType) || !/boundary=/i.test(contentType)) {
    throw new CheckoutError(415, 'unsupported_media_type', 'Send the receipts as multipart/form-data (a FormData body).');
  }
  const bytes = await readBodyBytes(req, DISPUTE_MAX_TOTAL_BYTES + MULTIPART_OVERHEAD);
  let form: FormData;
  try {
    form = await new Response(bytes as Uint8Array<ArrayBuffer>, { headers: { 'content-type': contentType } }).formData();
  } catch {
    throw new CheckoutError(400, 'bad_request', 'The body is not valid multipart/form-data.');
  }
  const entries = [...form.getAll(DISPUTE_FILES_FIELD), ...form.getAll(`${DISPUTE_FILES_FIELD}[]`)];
  if (entries.length === 0) throw invalid(`Attach at least one receipt in "${DISPUTE_FILES_FIELD}".`);
  if (entries.length > DISPUTE_MAX_FILES) throw invalid(`Attach at most ${DISPUTE_MAX_FILES} receipts.`);
  const files: DisputeFileInput[] = [];
  let total = 0;
  for (const [i, entry] of entries.entries()) {
    if (typeof entry === 'string') throw invalid(`"${DISPUTE_FILES_FIELD}" must hold files, not text.`);
    if (entry.size === 0) throw invalid(`Receipt ${i + 1} is empty.`);
    if (entry.size > DISPUTE_MAX_FILE_BYTES) {
      throw new CheckoutError(413, 'payload_too_large', `Receipt ${i + 1} is larger than ${DISPUTE_MAX_FILE_BYTES / MB} MB.`);
    }
    total += entry.size;
    if (total > DISPUTE_MAX_TOTAL_BYTES) {
      throw new CheckoutError(413, 'payload_too_large', `The receipts are larger than ${DISPUTE_MAX_TOTAL_BYTES / MB} MB in all.`);
    }
    const data = new Uint8Array(await entry.arrayBuffer());
    const type = detectReceiptType(data);
    if (type === null) {
      throw new CheckoutError(415, 'unsupported_file', `Receipt ${i + 1} is not a JPEG, PNG, WebP, HEIC or PDF file.`);
    }
    files.push({ name: safeName(entry.name, i, type), type, data });
  }
  const raw = form.get(DISPUTE_COMMENT_FIELD);
  let comment: string | null = null;
  if (raw !== null) {
    if (typeof raw !== 'string') throw invalid(`"${DISPUTE_COMMENT_FIELD}" must be text.`);
    const text = raw.trim();
    if (text.length > DISPUTE_MAX_COMMENT) throw invalid(`The comment is longer than ${DISPUTE_MAX_COMMENT} characters.`);
    if (/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(text)) throw invalid('The comment has control characters.');
    comment = text === '' ? null : text;
  }
  return { files, comment };
}
