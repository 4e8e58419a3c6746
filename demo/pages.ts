/**
 * The demo's built pages (demo/vite.config.ts), held in memory by the merchant server.
 *
 * `loadDemoPages()` reads `demo/dist/` when its build is fresh (demo/build-inputs.ts: every file the
 * last build read has the same hash, no file under demo/public was added or removed, same Vite), a
 * check that hashes a few dozen small files and never loads Vite. Otherwise it first builds with Vite
 * in this process, into a new folder beside `demo/dist` that is swapped in when complete, so a
 * half-written build is never served nor left behind.
 *
 * The files are read once into memory: what a running server serves cannot change under it (say,
 * another process rebuilding `demo/dist`), and every answer is a map lookup.
 */
import { createHash } from 'node:crypto';
import { mkdtemp, readdir, readFile, rename, rm } from 'node:fs/promises';
import { basename, dirname, extname, join, relative, sep } from 'node:path';
import { PAGES_OUT_DIR, staleReason, VITE_CONFIG_FILE } from './build-inputs.js';

export interface PageFile {
  body: Uint8Array<ArrayBuffer>;
  type: string;
  /** Strong ETag (quoted). */
  etag: string;
  /** True for content-hashed assets (`/assets/…`), cacheable for good. */
  immutable: boolean;
}

export interface DemoPages {
  /** The file at a URL path (`/console.html`, `/assets/console-1a2b3c.js`), or undefined. */
  get(path: string): PageFile | undefined;
  /** `fresh`: the earlier build was read; `built`: built first, because `reason`. */
  source: 'fresh' | 'built';
  reason: string | null;
  /** Milliseconds spent (check, build, read). */
  ms: number;
}

export const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
};

let loading: Promise<DemoPages> | undefined;

/** The built pages (see the file comment); loaded once per process, a failed load is not kept. */
export function loadDemoPages(): Promise<DemoPages> {
  if (!loading) {
    const attempt = load();
    loading = attempt;
    attempt.catch(() => {
      if (loading === attempt) loading = undefined;
    });
  }
  return loading;
}

async function load(): Promise<DemoPages> {
  const started = performance.now();
  const reason = staleReason(PAGES_OUT_DIR);
  const dir = reason === null ? PAGES_OUT_DIR : await build();
  const files = await readTree(dir);
  // Another process swapped its own build in first: ours was read, its folder goes.
  if (dir !== PAGES_OUT_DIR) await rm(dir, { recursive: true, force: true });
  if (!files.has('/index.html')) throw new Error(`the demo pages in ${dir} have no index.html; delete the folder and start again`);
  return { get: (path) => files.get(path), source: reason === null ? 'fresh' : 'built', reason, ms: Math.round(performance.now() - started) };
}

/**
 * Builds into a new folder beside demo/dist and swaps it in. Returns the folder to read: demo/dist
 * after the swap, or the new folder itself when another process swapped its own build in at the same
 * moment (made from the same sources).
 */
async function build(): Promise<string> {
  let vite: typeof import('vite');
  try {
    vite = await import('vite');
  } catch (cause) {
    throw new Error('the demo pages need a build and Vite is not installed: run `npm install`', { cause });
  }
  const tmp = await mkdtemp(join(dirname(PAGES_OUT_DIR), `.${basename(PAGES_OUT_DIR)}-build-`));
  try {
    await vite.build({ configFile: VITE_CONFIG_FILE, logLevel: 'warn', build: { outDir: tmp, emptyOutDir: true } });
  } catch (err) {
    await rm(tmp, { recursive: true, force: true });
    throw new Error(`building the demo pages failed: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
  }
  const old = `${tmp}-old`;
  try {
    await rename(PAGES_OUT_DIR, old).catch((err: NodeJS.ErrnoException) => {
      if (err.code !== 'ENOENT') throw err;
    });
    await rename(tmp, PAGES_OUT_DIR);
    return PAGES_OUT_DIR;
  } catch {
    return tmp; // read by load(), then removed
  } finally {
    await rm(old, { recursive: true, force: true });
  }
}

async function readTree(dir: string): Promise<Map<string, PageFile>> {
  const files = new Map<string, PageFile>();
  const walk = async (at: string) => {
    for (const entry of await readdir(at, { withFileTypes: true })) {
      if (entry.name.startsWith('.')) continue;
      const full = join(at, entry.name);
      if (entry.isDirectory()) {
        await walk(full);
        continue;
      }
      const type = CONTENT_TYPES[extname(entry.name)];
      if (!type || !entry.isFile()) continue;
      const body = new Uint8Array(await readFile(full));
      const path = `/${relative(dir, full).split(sep).join('/')}`;
      const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 32)}"`;
      files.set(path, { body, type, etag, immutable: path.startsWith('/assets/') });
    }
  };
  await walk(dir);
  return files;
}
