/**
 * Dispute receipts for the console: where they come from, and how they are served.
 *
 * The provider's API gives a merchant no way to read a dispute's files back; the sandbox does
 * (`GET /sandbox/disputes/{id}` and `…/files/{index}`, src/sandbox/README.md). So the console has
 * receipts only with the sandbox, and says so otherwise.
 *
 * A receipt is whatever a shopper uploaded: it is served only as the type its own bytes prove (JPEG,
 * PNG, WebP, HEIC or PDF, src/protocol/receipts.ts) — checked here again, whatever the source
 * claims — with `X-Content-Type-Options: nosniff`, a Content-Security-Policy that allows no script
 * and sandboxes the document, and a `Content-Disposition` (inline for the images a browser shows,
 * attachment for PDF and HEIC). Anything else is refused, never rendered as a page.
 */
import { DISPUTE_MAX_FILE_BYTES, DISPUTE_MAX_FILES, type DisputeFileType } from '../protocol/index.js';
import { cleanFileName, contentDisposition, detectReceiptType } from '../sandbox/receipts.js';

/** A receipt of a dispute, as its source lists it (its type as the source says; checked again when served). */
export interface ReceiptInfo {
  index: number;
  name: string;
  content_type: string;
  size: number;
}

/** Where a terminal's dispute receipts can be read. */
export interface ReceiptSource {
  /** The dispute's receipts, or null when the source has no such dispute. */
  list(disputeId: string): Promise<ReceiptInfo[] | null>;
  /** One receipt's bytes and name, or null when there is no such dispute or receipt. */
  read(disputeId: string, index: number): Promise<{ bytes: Uint8Array; name: string } | null>;
}

/** What a page may show inline: images every browser renders. HEIC and PDF are downloaded. */
const INLINE_TYPES: ReadonlySet<DisputeFileType> = new Set(['image/jpeg', 'image/png', 'image/webp']);

export const receiptKind = (type: string): 'image' | 'document' => (INLINE_TYPES.has(type as DisputeFileType) ? 'image' : 'document');

/** No script, no plugin, no form, a sandboxed document: a receipt opened on its own can do nothing. */
export const RECEIPT_CSP = "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; sandbox";

/**
 * The HTTP answer for a receipt's bytes, or null when they are not a receipt type (an HTML page, a
 * script, anything renamed): those are never served.
 */
export function receiptResponse(bytes: Uint8Array, name: string, options: { download?: boolean } = {}): Response | null {
  const type = detectReceiptType(bytes);
  if (type === null) return null;
  const inline = INLINE_TYPES.has(type) && options.download !== true;
  return new Response(bytes as Uint8Array<ArrayBuffer>, {
    status: 200,
    headers: {
      'Content-Type': type,
      'Content-Length': String(bytes.byteLength),
      'Content-Disposition': contentDisposition(inline ? 'inline' : 'attachment', cleanFileName(name, type)),
      'X-Content-Type-Options': 'nosniff',
      'Content-Security-Policy': RECEIPT_CSP,
      'X-Frame-Options': 'DENY',
      'Cross-Origin-Resource-Policy': 'same-origin',
      'Cache-Control': 'private, no-store',
    },
  });
}

/** The sandbox's dispute answer, as far as the console reads it. */
interface SandboxDispute {
  dispute?: { files?: Array<{ index?: unknown; file_name?: unknown; content_type?: unknown; size?: unknown }> };
}

/**
 * The receipts of one sandbox terminal, read with its key. `fetch` is the sandbox's own (in process)
 * or the global one.
 */
export function sandboxReceipts(options: { url: string; apiKey: string; fetch?: (request: Request) => Promise<Response> }): ReceiptSource {
  const send = options.fetch ?? ((request: Request) => fetch(request));
  const base = options.url.replace(/\/+$/, '');
  const get = (path: string) => send(new Request(`${base}${path}`, { headers: { 'X-API-Key': options.apiKey, Accept: '*/*' } }));

  async function list(disputeId: string): Promise<ReceiptInfo[] | null> {
    const res = await get(`/sandbox/disputes/${encodeURIComponent(disputeId)}`);
    if (res.status === 404) {
      await res.body?.cancel();
      return null;
    }
    if (!res.ok) throw new Error(`the sandbox answered HTTP ${res.status} for dispute ${disputeId}`);
    const body = (await res.json()) as SandboxDispute;
    const files = Array.isArray(body.dispute?.files) ? body.dispute.files : [];
    return files.slice(0, DISPUTE_MAX_FILES).flatMap((f, i) =>
      typeof f.file_name === 'string' && typeof f.content_type === 'string' && typeof f.size === 'number'
        ? [{ index: typeof f.index === 'number' ? f.index : i, name: f.file_name, content_type: f.content_type, size: f.size }]
        : [],
    );
  }

  return {
    list,
    async read(disputeId, index) {
      const files = await list(disputeId);
      const file = files?.find((f) => f.index === index);
      if (!file) return null;
      const res = await get(`/sandbox/disputes/${encodeURIComponent(disputeId)}/files/${index}`);
      if (res.status === 404 || res.status === 410) {
        await res.body?.cancel();
        return null;
      }
      if (!res.ok) throw new Error(`the sandbox answered HTTP ${res.status} for receipt ${index} of dispute ${disputeId}`);
      const declared = Number(res.headers.get('content-length'));
      if (Number.isFinite(declared) && declared > DISPUTE_MAX_FILE_BYTES) {
        await res.body?.cancel();
        throw new Error(`receipt ${index} of dispute ${disputeId} is larger than a receipt may be`);
      }
      const bytes = new Uint8Array(await res.arrayBuffer());
      if (bytes.byteLength > DISPUTE_MAX_FILE_BYTES) throw new Error(`receipt ${index} of dispute ${disputeId} is larger than a receipt may be`);
      return { bytes, name: file.name };
    },
  };
}
