/**
 * A `multipart/form-data` body (RFC 7578) as bytes, for the dispute upload: text fields and files,
 * with a random boundary that occurs nowhere in the content. No Node-only APIs (fetch, browsers, Deno).
 */

export type MultipartPart =
  | { name: string; value: string }
  | { name: string; filename: string; contentType: string; data: Uint8Array };

const encoder = new TextEncoder();

/** Quotes a name or file name as browsers do (WHATWG HTML: `"` → %22, CR → %0D, LF → %0A). */
function quoted(text: string): string {
  return `"${text.replace(/"/g, '%22').replace(/\r/g, '%0D').replace(/\n/g, '%0A')}"`;
}

function randomBoundary(): string {
  const bytes = new Uint8Array(16);
  globalThis.crypto.getRandomValues(bytes);
  return `----paydesk${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}`;
}

function contains(haystack: Uint8Array, needle: Uint8Array): boolean {
  outer: for (let i = 0; i + needle.length <= haystack.length; i++) {
    for (let j = 0; j < needle.length; j++) if (haystack[i + j] !== needle[j]) continue outer;
    return true;
  }
  return false;
}

export function encodeMultipart(parts: readonly MultipartPart[], boundary = randomBoundary()): { contentType: string; bytes: Uint8Array } {
  const marker = encoder.encode(`--${boundary}`);
  for (const part of parts) {
    const content = 'data' in part ? part.data : encoder.encode(part.value);
    // A 128-bit random boundary inside the content is practically impossible, but a test or a caller may pass one.
    if (contains(content, marker)) return encodeMultipart(parts);
  }
  const chunks: Uint8Array[] = [];
  for (const part of parts) {
    let head = `--${boundary}\r\nContent-Disposition: form-data; name=${quoted(part.name)}`;
    if ('data' in part) head += `; filename=${quoted(part.filename)}\r\nContent-Type: ${part.contentType}`;
    chunks.push(encoder.encode(`${head}\r\n\r\n`), 'data' in part ? part.data : encoder.encode(part.value), encoder.encode('\r\n'));
  }
  chunks.push(encoder.encode(`--${boundary}--\r\n`));
  const size = chunks.reduce((n, c) => n + c.byteLength, 0);
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    bytes.set(c, at);
    at += c.byteLength;
  }
  return { contentType: `multipart/form-data; boundary=${boundary}`, bytes };
}
