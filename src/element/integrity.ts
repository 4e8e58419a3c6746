/**
 * Code integrity of the CDN files (DESIGN.md, "Code integrity"): every module that `dist/cdn/paydesk.js`
 * or `paydesk.iife.js` loads after itself is checked against the sha384 digest the entry carries.
 *
 * Only the CDN build uses this module: its Vite plugin (scripts/vite/integrity.ts) turns every
 * `import('./x.js')` of the element into `chunk((load) => import('./x.js'), __paydeskIntegrity)` and
 * then, once the chunks are named, into `chunk((load) => load("chunks/x-<hash>.js"), __paydeskIntegrity)`,
 * and appends to each file that loads chunks its own function `__paydeskIntegrity()`, which returns
 * the digests of the chunks it loads and of what they import (a chain: the entry carries those of
 * what it loads itself, the element's chunk those of the views, tables and the rest it loads; each
 * chunk's digest covers the digests it carries; scripts/vite/chain.ts). The loader keeps every digest
 * it was handed by checked code: the entry's as it starts, a chunk's when it loads. The npm build
 * never imports it: there the merchant's bundler loads the chunks.
 *
 * How a chunk is loaded: a `<script type="module" integrity="sha384-…">` for the chunk, inserted only
 * once each chunk it imports has run from such a script of its own; then `import()` of the chunk, which
 * finds it in the document's module map (never fetched again). Every engine refuses a module script whose
 * bytes are not its digest (measured: docs/code-integrity.md, "Per engine"); WebKit does not check a
 * `<link rel="modulepreload" integrity>` (it fires `load` and the module runs), and Chromium and WebKit,
 * after a refused module, fetch it again without the digest for the static import of a module that
 * needs it: hence one script per chunk, a chunk's own after those it imports, and nothing after a
 * refusal. No waterfall all the same: the bytes of a chunk that imports others are asked for at once
 * (`<link rel="preload" as="script" integrity>`), and its script takes them from there (Chromium,
 * WebKit; Gecko fetches them again unless they may be cached). A refused script is fetched once more
 * and its digest compared (SubtleCrypto): other bytes than the digest's are an {@link IntegrityError},
 * anything else (no connection) a plain error that a retry may mend.
 */

import { FINAL_CODES } from './machine.js';

// A changed chunk stays refused, so no retry and no new order can mend an integrity failure: it is a
// final error (machine.ts), offered as retryable at no step, whatever it interrupts (loading, a resume,
// paying). Added here, in the one build that checks chunks: the npm build's element carries no byte of it.
(FINAL_CODES as string[]).push('integrity');

/** What a file that loads chunks carries (scripts/vite/integrity.ts): the digests of the chunks it loads. */
export interface ChunkTable {
  /** Chunk name → `[sha384-…, …names of the chunks it imports statically]`. */
  files: Record<string, string[]>;
  /** The classic script and its copies: chunk name → the file it loads instead (a copy in classic/). */
  urls?: Record<string, string>;
}

/** What the CDN entry carries: its table, and where the chunks are. */
export interface ChunkManifest extends ChunkTable {
  /** The URL the chunk names are relative to (the entry's own). */
  base: string;
}

declare function __paydeskIntegrity(): ChunkManifest;

/** A chunk whose bytes are not those of its digest (carried by the entry or the chunk that loads it), or that has none. `code` is `"integrity"`. */
export class IntegrityError extends Error {
  readonly code = 'integrity';
  constructor(readonly url: string) {
    super(`paydesk: ${url} does not match its digest; it was not run`);
  }
}

// Read as the entry starts (the classic script's URL is known only then).
const manifest: ChunkManifest | null = typeof __paydeskIntegrity === 'function' ? __paydeskIntegrity() : null;
/** Every digest handed over so far, by chunk name: the entry's, then those of each chunk that loads chunks. */
const digests: Record<string, string[]> = {};
const urls: Record<string, string> = {};
/** Keeps a table's digests (checked code hands them: the entry, or a chunk that matched its own digest). */
function keep(table: ChunkTable | null): void {
  for (const [k, v] of Object.entries(table?.files ?? {})) digests[k] ??= v;
  for (const [k, v] of Object.entries(table?.urls ?? {})) urls[k] ??= v;
}
keep(manifest);
/** The script of each chunk: under way, run, or refused for good (an integrity failure). */
const preloads = new Map<string, Promise<void>>();
let listener: ((error: IntegrityError) => void) | undefined;
/** The failures so far (a listener set later hears them: the element arrives after the first paint). */
const failures: IntegrityError[] = [];
const failed = (error: IntegrityError) => {
  failures.push(error);
  listener?.(error);
};

/** Called with each integrity failure, those before it included (src/element/cdn-element.ts shows them on every checkout of the page). */
export function onIntegrityFailure(f: (error: IntegrityError) => void): void {
  listener = f;
  failures.forEach(f);
}

/**
 * `f(load)`: the CDN build writes each `import('./x.js')` of the element as
 * `chunk((load) => load("chunks/x-<hash>.js"), __paydeskIntegrity)`; `load` imports the chunk once it
 * and every module it needs have matched their digests, which `table` (the calling file's) carries
 * unless the entry or the chunks loaded before did.
 */
export function chunk<T>(f: (load: (name: string) => Promise<unknown>) => T, table?: () => ChunkTable): T {
  keep(table?.() ?? null);
  return f(load);
}

function load(key: string): Promise<unknown> {
  const m = manifest;
  if (!m) return Promise.reject(new IntegrityError(key));
  // The classic script's text inlined or eval'ed: no URL to load from (the element says it has no connection).
  let base: URL;
  try {
    base = new URL(m.base);
  } catch {
    return Promise.reject(new Error(`paydesk: the script's URL is unknown; cannot load ${key}`));
  }
  const url = (k: string) => new URL(urls[k] ?? k, base).href;
  const ensure = (k: string): Promise<void> => {
    let p = preloads.get(k);
    // A chunk without a digest (none of the checked files handed one over) is never run.
    if (!p && !digests[k]) {
      const e = new IntegrityError(k);
      failed(e);
      preloads.set(k, (p = Promise.reject(e)));
      p.catch(() => {});
    }
    if (!p) {
      const [integrity, ...deps] = digests[k]!;
      const href = url(k);
      if (deps.length > 0) hint(href, integrity!);
      // The build has no cycle among chunks (scripts/vite/integrity.ts): every chunk's imports are run before it.
      p = Promise.all(deps.map(ensure)).then(() =>
        run(href, integrity!).catch((e: unknown) => {
          // Said once, by the chunk that failed (not again by each chunk that imports it).
          if (e instanceof IntegrityError) failed(e);
          throw e;
        }),
      );
      preloads.set(k, p);
      // A network failure may be tried again; an integrity failure stays.
      p.catch((e: unknown) => e instanceof IntegrityError || preloads.delete(k));
    }
    return p;
  };
  return ensure(key).then(() => import(/* @vite-ignore */ url(key)));
}

/** The bytes of a chunk fetched ahead of its script, which takes them from there. */
function hint(href: string, integrity: string): void {
  const link = document.createElement('link');
  link.rel = 'preload';
  link.as = 'script';
  // A module script's request (CORS, same-origin credentials): the preload is used for it.
  link.crossOrigin = 'anonymous';
  link.integrity = integrity;
  link.href = href;
  document.head.append(link);
}

type Policy = { createScriptURL(url: string): string; createHTML(html: string): string };
let policy: Policy | null | undefined;

/**
 * The page's Trusted Types policy of paydesk, where the browser has them: a page that enforces them
 * (`require-trusted-types-for 'script'`) takes no plain string as a script's URL or as HTML. Its rules
 * pass the string on as it is: a chunk's URL is checked against its digest all the same, and the first
 * paint's HTML is the element's own templates with every value escaped (html-string.ts). Null where
 * there are none, or where the page's `trusted-types` directive does not allow the name `paydesk` (then
 * the plain string, which such a page refuses: the chunk does not load, nothing is painted first).
 */
function trusted(): Policy | null {
  if (policy === undefined) {
    try {
      const tt = (globalThis as { trustedTypes?: { createPolicy(name: string, rules: Policy): Policy } }).trustedTypes;
      policy = tt ? tt.createPolicy('paydesk', { createScriptURL: (u) => u, createHTML: (h) => h }) : null;
    } catch {
      policy = null;
    }
  }
  return policy;
}

/** The chunk's URL as a script's `src` takes it (see {@link trusted}). */
const scriptUrl = (href: string): string => trusted()?.createScriptURL(href) ?? href;

/** The first paint's HTML as `innerHTML` takes it (see {@link trusted}). */
export const trustedHtml = (html: string): string => trusted()?.createHTML(html) ?? html;

/** A module script of the chunk: resolved once it has run, rejected if the browser refused it. */
function run(href: string, integrity: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const script = document.createElement('script');
    script.type = 'module';
    script.integrity = integrity;
    script.onload = () => resolve();
    script.onerror = () => void verdict(href, integrity).then((e) => reject(e ?? new Error(`paydesk: ${href} could not be loaded`)), reject);
    script.src = scriptUrl(href);
    document.head.append(script);
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
