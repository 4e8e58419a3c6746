/**
 * The body of `POST {endpoint}/sessions/S/dispute` (DESIGN.md): `multipart/form-data` with one to
 * five receipts in `files` (JPEG, PNG, WebP, HEIC or PDF — checked by content — at most 10 MB each
 * and 20 MB in all) and an optional `comment`. Everything else in the body is ignored.
 *
 * Nothing is read before it is known that the body can be taken: {@link checkReceiptRequest} refuses a
 * wrong content type or a declared size over the limit from the headers, the handler refuses an order
 * that cannot take a receipt from its stored session, and {@link claimReceiptUpload} lets one upload
 * at a time per session read its body (a second concurrent one is refused at once, unread).
 */
import { randomId } from './crypto.js';
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
import type { CheckoutStore } from './store.js';

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

/** The largest receipt body read: the receipts' 20 MB and room for the multipart framing. */
export const RECEIPT_BODY_LIMIT = DISPUTE_MAX_TOTAL_BYTES + MULTIPART_OVERHEAD;

/**
 * What the headers alone say about a receipt upload, before anything is read: multipart/form-data
 * (else 415), and a declared Content-Length within {@link RECEIPT_BODY_LIMIT} (else 413; a body
 * without one is counted while it is read).
 */
export function checkReceiptRequest(req: Request): void {
  const contentType = req.headers.get('content-type') ?? '';
  if (!/^multipart\/form-data\s*;/i.test(contentType) || !/boundary=/i.test(contentType)) {
    throw new CheckoutError(415, 'unsupported_media_type', 'Send the receipts as multipart/form-data (a FormData body).');
  }
  const declared = req.headers.get('content-length');
  if (declared === null) return;
  if (!/^\d{1,16}$/.test(declared.trim())) throw new CheckoutError(400, 'bad_request', 'Content-Length is not a number.');
  if (Number(declared.trim()) > RECEIPT_BODY_LIMIT) {
    throw new CheckoutError(413, 'payload_too_large', `The receipts are larger than ${DISPUTE_MAX_TOTAL_BYTES / MB} MB in all.`);
  }
}

const uploadKey = (sid: string) => `receipt-upload:${sid}`;
/**
 * An upload holds its session at most this long (a crashed process's claim lapses after it). A
 * slower upload may overlap the next one; the dispute's own lock still opens one dispute at a time.
 */
export const RECEIPT_UPLOAD_CLAIM_MS = 5 * 60_000;

/**
 * Claims the session's one receipt upload before its body is read; resolves with the release. A
 * second upload to the session meanwhile (any instance) is `409 dispute_open` at once, unread.
 */
export async function claimReceiptUpload(store: CheckoutStore, sid: string): Promise<() => Promise<void>> {
  const key = uploadKey(sid);
  const owner = randomId(9);
  if (!(await store.create(key, owner, RECEIPT_UPLOAD_CLAIM_MS))) {
    throw new CheckoutError(409, 'dispute_open', 'A receipt for this order is already being sent. Wait for its answer.');
  }
  return async () => {
    try {
      // Only this upload's own claim: one that lapsed and was taken by another upload stays.
      const cur = await store.get(key);
      if (cur && cur.value === owner) await store.delete(key, cur.version);
    } catch {
      // the claim lapses by itself
    }
  };
}

export async function readReceipts(req: Request): Promise<Receipts> {
  checkReceiptRequest(req);
  const contentType = req.headers.get('content-type')!;
  const bytes = await readBodyBytes(req, RECEIPT_BODY_LIMIT);
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
