/**
 * The console's pages and assets as its server serves them: the build of src/console/ui/
 * (scripts/console-ui.vite.config.ts), read once into memory with the mount path written in.
 *
 * In the package the build is `dist/console/ui/` beside this module. Run from the sources (tsx: the
 * demo, the tests) there is none beside it: the sources are built with Vite (a dev dependency) into
 * `node_modules/.cache/paydesk-console-ui/<hash of the sources>/`, once per change of them.
 *
 * The build's base is a marker (`/__paydesk_console__/`); every text file gets the `basePath` in its
 * place, and the page its title and home link (HTML-escaped). The HTML is never cached; the
 * content-hashed assets are cached for good.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm } from 'node:fs/promises';
import { extname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface UiFile {
  body: Uint8Array<ArrayBuffer>;
  type: string;
  etag: string;
  immutable: boolean;
}

export interface UiFiles {
  /** The page (console.html), whatever view the address names. */
  page: UiFile;
  /** An asset by its path under the base (`assets/console-1a2b.js`), or undefined. */
  asset(path: string): UiFile | undefined;
}

const MARKER = '/__paydesk_console__';
const TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.json': 'application/json; charset=utf-8',
};
const TEXT = new Set(['.html', '.css', '.js', '.svg', '.json']);

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

/** The built files with `basePath`, `title` and `homeUrl` written in. */
export async function loadUiFiles(options: { basePath: string; title: string; homeUrl: string }): Promise<UiFiles> {
  const dir = await builtUiDir();
  const files = new Map<string, UiFile>();
  const walk = async (at: string) => {
    for (const entry of await readdir(at, { withFileTypes: true })) {
      const full = join(at, entry.name);
      if (entry.isDirectory()) {
        await walk(full);
        continue;
      }
      const ext = extname(entry.name);
      const type = TYPES[ext];
      if (!type || !entry.isFile()) continue;
      let bytes: Uint8Array = await readFile(full);
      if (TEXT.has(ext)) {
        let text = Buffer.from(bytes).toString('utf8').split(MARKER).join(options.basePath);
        if (ext === '.html') text = text.split('__PAYDESK_CONSOLE_TITLE__').join(escapeHtml(options.title)).split('__PAYDESK_CONSOLE_HOME__').join(escapeHtml(options.homeUrl));
        bytes = Buffer.from(text, 'utf8');
      }
      const body = new Uint8Array(bytes);
      const path = relative(dir, full).split(sep).join('/');
      const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 32)}"`;
      files.set(path, { body, type, etag, immutable: path.startsWith('assets/') });
    }
  };
  await walk(dir);
  const page = files.get('console.html');
  if (!page) throw new Error(`the console's build in ${dir} has no console.html; build the package again (npm run build)`);
  return { page, asset: (path) => (path.startsWith('assets/') ? files.get(path) : undefined) };
}

let building: Promise<string> | undefined;

/** The folder of the build: beside this module in the package, else built from the sources (see the file comment). */
function builtUiDir(): Promise<string> {
  const beside = fileURLToPath(new URL('./ui/', import.meta.url));
  // Beside the built module (dist/console/ui-files.js) is the build; beside the source, the sources.
  if (!import.meta.url.endsWith('.ts') && existsSync(join(beside, 'console.html'))) return Promise.resolve(beside);
  if (!building) {
    building = buildFromSources();
    building.catch(() => (building = undefined));
  }
  return building;
}

/** Every file the console's browser build may read, hashed: a change of any makes a new build. */
function sourcesHash(root: string): string {
  const hash = createHash('sha256');
  const add = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const full = join(dir, entry.name);
      if (entry.isDirectory()) add(full);
      else if (entry.isFile()) hash.update(relative(root, full)).update('\0').update(readFileSync(full)).update('\0');
    }
  };
  for (const dir of ['src/console', 'src/ui-shared', 'src/money', 'src/protocol', 'src/provider']) add(join(root, dir));
  hash.update(readFileSync(join(root, 'scripts', 'console-ui.vite.config.ts')));
  return hash.digest('hex').slice(0, 16);
}

async function buildFromSources(): Promise<string> {
  const root = fileURLToPath(new URL('../../', import.meta.url));
  const cache = join(root, 'node_modules', '.cache', 'paydesk-console-ui');
  const out = join(cache, sourcesHash(root));
  if (existsSync(join(out, 'console.html'))) return out;
  let vite: typeof import('vite');
  try {
    vite = await import('vite');
  } catch (cause) {
    throw new Error('the console pages are not built and Vite is not installed: run `npm install`, or `npm run build`', { cause });
  }
  await mkdir(cache, { recursive: true });
  const tmp = `${out}-${process.pid}-${Date.now()}`;
  try {
    await vite.build({ configFile: join(root, 'scripts', 'console-ui.vite.config.ts'), logLevel: 'warn', build: { outDir: tmp, emptyOutDir: true } });
    await rename(tmp, out).catch(async (err: NodeJS.ErrnoException) => {
      // Another process built the same sources first: theirs is the same.
      if (!existsSync(join(out, 'console.html'))) throw err;
    });
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
  return out;
}
