/**
 * Code integrity of the CDN files (DESIGN.md, "Code integrity"): every module that `dist/cdn/paydesk.js`
 * or `paydesk.iife.js` loads after itself is checked against the sha384 digest the entry carries.
 *
 * Only the CDN build uses this module: its Vite config (vite.config.ts, `integrityLoads`) turns every
 * `import('./x.js')` of the element into `chunk((load) => import('./x.js'))` and then, once the chunks
 * are named, into `chunk((load) => load("chunks/x-<hash>.js"))`, and appends to the entry a function
 * `__paydeskIntegrity()` that returns the digests of every chunk and what each imports. The npm
 * build never imports it: there the merchant's bundler loads the chunks.
 *
 * How a chunk is loaded: a `<link rel="modulepreload" integrity="sha384-…">` for the chunk and every
 * chunk it imports (all at once: one round trip), then, only when every link has loaded, `import()` of
 * the chunk, which finds them in the document's module map (the browser never fetches them again). A
 * link that fails is never followed by an `import()`: Chromium would fetch the module again, without
 * the digest. A failed link is then fetched once more and its digest compared (SubtleCrypto): other
 * bytes than the digest's are an {@link IntegrityError}, anything else (no connection) a plain error
 * that a retry may mend.
 */

/** What the CDN entry appends (vite.config.ts): where the chunks are and their digests. */
export interface ChunkManifest {
  /** The URL the chunk names are relative to (the entry's own). */
  base: string;
  /** Chunk name → `[sha384-…, …names of the chunks it imports statically]`. */
  files: Record<string, string[]>;
  /** The classic script: chunk name → the file it loads instead (a copy in classic/). */
  urls?: Record<string, string>;
}

declare function __paydeskIntegrity(): ChunkManifest;

/** A chunk whose bytes are not those of its digest. `code` is `"integrity"`. */
export class IntegrityError extends Error {
  readonly code = 'integrity';
  constructor(readonly url: string) {
    super(`paydesk: ${url} does not match the digest paydesk.js carries; it was not run`);
  }
}

// Read as the entry starts (the classic script's URL is known only then).
const manifest: ChunkManifest | null = typeof __paydeskIntegrity === 'function' ? __paydeskIntegrity() : null;
/** The preload of each chunk: under way, done, or failed for good (an integrity failure). */
const preloads = new Map<string, Promise<void>>();
let failed: ((error: IntegrityError) => void) | undefined;

/** Called with each integrity failure (src/cdn.ts shows it on every checkout of the page). */
export function onIntegrityFailure(listener: (error: IntegrityError) => void): void {
  failed = listener;
}

/**
 * `f(load)`: the CDN build writes each `import('./x.js')` of the element as
 * `chunk((load) => load("chunks/x-<hash>.js"))`; `load` imports the chunk once every module it needs
 * has matched its digest.
 */
export function chunk<T>(f: (load: (name: string) => Promise<unknown>) => T): T {
  return f(load);
}

function load(key: string): Promise<unknown> {
  const m = manifest;
  if (!m?.files[key]) return Promise.reject(new IntegrityError(key));
  // The classic script's text inlined or eval'ed: no URL to load from (the element says it has no connection).
  let base: URL;
  try {
    base = new URL(m.base);
  } catch {
    return Promise.reject(new Error(`paydesk: the script's URL is unknown; cannot load ${key}`));
  }
  const url = (k: string) => new URL(m.urls?.[k] ?? k, base).href;
  const needed = new Set<string>();
  const visit = (k: string): void => {
    if (needed.has(k) || !m.files[k]) return;
    needed.add(k);
    m.files[k]!.slice(1).forEach(visit);
  };
  visit(key);
  return Promise.all(
    [...needed].map((k) => {
      let p = preloads.get(k);
      if (!p) {
        preloads.set(k, (p = preload(url(k), m.files[k]![0]!)));
        // A network failure may be tried again; an integrity failure stays, and is said once.
        p.catch((e: unknown) => (e instanceof IntegrityError ? failed?.(e) : preloads.delete(k)));
      }
      return p;
    }),
  ).then(() => import(/* @vite-ignore */ url(key)));
}

function preload(href: string, integrity: string): Promise<void> {
  const link = document.createElement('link');
  // A browser without modulepreload (Safari before 17) would never fire the link's events: there the
  // bytes are fetched and compared first, and the import() that follows most likely gets them from the
  // HTTP cache (a check, not a guarantee: README, "Code integrity").
  if (!link.relList?.supports?.('modulepreload')) {
    return verdict(href, integrity).then((e) => {
      if (e) throw e;
    });
  }
  return new Promise<void>((resolve, reject) => {
    link.rel = 'modulepreload';
    link.integrity = integrity;
    link.href = href;
    link.onload = () => resolve();
    link.onerror = () => void verdict(href, integrity).then((e) => reject(e ?? new Error(`paydesk: ${href} could not be loaded`)), reject);
    document.head.append(link);
  });
}

/**
 * The file fetched again and compared with its digest: an {@link IntegrityError} when its bytes are
 * not the digest's, an Error when it cannot be fetched, null when it matches.
 */
async function verdict(href: string, integrity: string): Promise<Error | null> {
  let bytes: ArrayBuffer;
  try {
    const response = await fetch(href, { credentials: 'same-origin' });
    if (!response.ok) return new Error(`paydesk: ${href} answered ${response.status}`);
    bytes = await response.arrayBuffer();
  } catch {
    return new Error(`paydesk: ${href} could not be fetched`);
  }
  // Without SubtleCrypto (a page that is not a secure context) the bytes cannot be compared: they are
  // taken as changed (a preload refused them, or there is no other check).
  if (!globalThis.crypto?.subtle) return new IntegrityError(href);
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-384', bytes));
  return `sha384-${btoa(String.fromCharCode(...digest))}` === integrity ? null : new IntegrityError(href);
}
