/**
 * Dispute receipts: files read from a `multipart/form-data` upload, each checked by its content
 * (magic bytes: JPEG, PNG, WebP, HEIC, PDF), never by its name or declared type, and within the
 * widget protocol's limits (DISPUTE_* of src/protocol: 1 to 5 files, 10 MB each, 20 MB in all). A
 * receipt is kept as bytes and only ever served back as the type its content proved, never run or
 * rendered as a page.
 */
import { createHash, randomUUID } from 'node:crypto';
import {
  DISPUTE_MAX_FILES,
  DISPUTE_MAX_FILE_BYTES,
  DISPUTE_MAX_TOTAL_BYTES,
  type DisputeFileType,
} from '../protocol/index.js';
import { detectReceiptType } from '../protocol/receipts.js';
import type { DisputeFileRecord } from './records.js';

export { detectReceiptType };

/** Why an upload was refused; the routes turn each kind into their own status and wording. */
export type UploadProblem =
  | 'not_multipart'
  | 'malformed'
  | 'missing_field'
  | 'invalid_field'
  | 'no_files'
  | 'too_many_files'
  | 'file_too_large'
  | 'total_too_large'
  | 'unsupported_file';

export class UploadError extends Error {
  readonly problem: UploadProblem;
  /** The form field at fault, when one is. */
  readonly field: string | undefined;
  constructor(problem: UploadProblem, message: string, field?: string) {
    super(message);
    this.name = 'UploadError';
    this.problem = problem;
    this.field = field;
  }
}

const EXTENSIONS: Record<DisputeFileType, string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
  'image/heic': 'heic',
  'application/pdf': 'pdf',
};

/**
 * A file name safe to put in `Content-Disposition`: no directories, no control or quoting
 * characters, at most 120 characters, ending in the extension of the type the content proved.
 */
export function cleanFileName(name: string, type: DisputeFileType): string {
  const base = (name.split(/[\\/]/).pop() ?? '')
    .normalize('NFC')
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f"<>:*?|;]/g, '_')
    .trim()
    .slice(0, 120);
  const ext = EXTENSIONS[type];
  const stem = base === '' || base === '.' || base === '..' ? 'receipt' : base;
  const lower = stem.toLowerCase();
  const matches = lower.endsWith(`.${ext}`) || (type === 'image/jpeg' && lower.endsWith('.jpeg'));
  return matches ? stem : `${stem}.${ext}`;
}

/** The `Content-Disposition` of a served receipt: an ASCII fallback and the UTF-8 name (RFC 6266). */
export function contentDisposition(kind: 'inline' | 'attachment', name: string): string {
  const fallback = name.replace(/[^\x20-\x7e]/g, '_').replace(/[\\"]/g, '_');
  return `${kind}; filename="${fallback}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

/** A text field of a form: absent is undefined; a file where text belongs, or two values, is refused. */
export function formText(form: FormData, field: string): string | undefined {
  const values = form.getAll(field);
  if (values.length === 0) return undefined;
  if (values.length > 1) throw new UploadError('invalid_field', `${field} must be given once`, field);
  const value = values[0]!;
  if (typeof value !== 'string') throw new UploadError('invalid_field', `${field} must be a text field, not a file`, field);
  return value;
}

/**
 * The receipts of an upload from the first of `fields` that has any (e.g. `files[]`, then `files`),
 * checked: 1 to DISPUTE_MAX_FILES files, each at most DISPUTE_MAX_FILE_BYTES, together at most
 * DISPUTE_MAX_TOTAL_BYTES, each of an allowed type by content.
 */
export async function readReceipts(form: FormData, fields: readonly string[]): Promise<DisputeFileRecord[]> {
  let entries: FormDataEntryValue[] = [];
  let field = fields[0]!;
  for (const name of fields) {
    const found = form.getAll(name);
    if (found.length > 0) {
      entries = found;
      field = name;
      break;
    }
  }
  if (entries.length === 0) throw new UploadError('no_files', `at least one receipt is required in ${fields.join(' or ')}`, field);
  if (entries.length > DISPUTE_MAX_FILES) {
    throw new UploadError('too_many_files', `at most ${DISPUTE_MAX_FILES} receipts, got ${entries.length}`, field);
  }
  const files: File[] = [];
  for (const entry of entries) {
    if (typeof entry === 'string') throw new UploadError('invalid_field', `${field} must hold files, not text`, field);
    files.push(entry);
  }
  let total = 0;
  for (const file of files) {
    if (file.size === 0) throw new UploadError('invalid_field', `${describe(file)} is empty`, field);
    if (file.size > DISPUTE_MAX_FILE_BYTES) {
      throw new UploadError('file_too_large', `${describe(file)} is ${file.size} bytes; a receipt may have at most ${DISPUTE_MAX_FILE_BYTES}`, field);
    }
    total += file.size;
  }
  if (total > DISPUTE_MAX_TOTAL_BYTES) {
    throw new UploadError('total_too_large', `the receipts have ${total} bytes together; at most ${DISPUTE_MAX_TOTAL_BYTES} are allowed`, field);
  }
  const out: DisputeFileRecord[] = [];
  for (const file of files) {
    const data = new Uint8Array(await file.arrayBuffer());
    const type = detectReceiptType(data);
    if (!type) {
      throw new UploadError(
        'unsupported_file',
        `${describe(file)} is not a JPEG, PNG, WebP, HEIC or PDF file (its content was checked, not its name)`,
        field,
      );
    }
    out.push({
      id: randomUUID(),
      name: cleanFileName(file.name, type),
      contentType: type,
      size: data.byteLength,
      sha256: createHash('sha256').update(data).digest('hex'),
      data,
      path: null,
    });
  }
  return out;
}

function describe(file: File): string {
  const name = file.name ? JSON.stringify(file.name.slice(0, 80)) : 'a file';
  return `the file ${name}`;
}
