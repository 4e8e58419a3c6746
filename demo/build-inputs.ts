/**
 * What a build of the demo pages read, and whether that build is still fresh. Shared by the Vite
 * config (which records the inputs after a build) and demo/pages.ts (which checks them at start);
 * free of Vite, so the check at start never loads it.
 *
 * `demo/dist/.build-inputs.json` holds the sha256 of every file the build read outside node_modules,
 * the list of files under demo/public (a new page, module or image means a rebuild) and the Vite
 * version. Every file of src/ui-shared (the pages' modules and base stylesheet, shared with the console's
 * pages) is hashed too: a stylesheet that CSS `@import`s is not among the bundler's module ids.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

export const DEMO_DIR = fileURLToPath(new URL('./', import.meta.url));
export const REPO_ROOT = join(DEMO_DIR, '..');
/** The pages' sources (Vite's root). */
export const PAGES_SRC_DIR = join(DEMO_DIR, 'public');
/** The modules and base stylesheet the pages share with the console's (src/ui-shared). */
export const SHARED_UI_DIR = join(REPO_ROOT, 'src', 'ui-shared');
/** Where the built pages go (git-ignored). */
export const PAGES_OUT_DIR = join(DEMO_DIR, 'dist');
export const VITE_CONFIG_FILE = join(DEMO_DIR, 'vite.config.ts');
/** The config's own plugin modules: a change of them is a change of the build. */
const VITE_PLUGIN_FILES = [join(DEMO_DIR, 'classic-scripts.ts')];
const INPUTS_FILE = '.build-inputs.json';
const INPUTS_VERSION = 1;

interface BuildInputs {
  version: number;
  vite: string;
  /** Repository-relative path (`/` separators) → sha256 hex. */
  files: Record<string, string>;
  /** Every file under demo/public at build time. */
  listing: string[];
}

/** Files under `dir`, repository-relative with `/` separators, sorted; dotfiles skipped. */
function listFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (at: string) => {
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      if (entry.name.startsWith('.') || entry.name === 'node_modules') continue;
      const full = join(at, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.isFile()) out.push(repoPath(full));
    }
  };
  walk(dir);
  return out.sort();
}

function repoPath(full: string): string {
  return relative(REPO_ROOT, full).split(sep).join('/');
}

function hashFile(full: string): string {
  return createHash('sha256').update(readFileSync(full)).digest('hex');
}

/**
 * Writes `outDir/.build-inputs.json` after a build: `moduleIds` are the ids the bundler loaded
 * (virtual ids and node_modules are left out; the sources under demo/public and the config are
 * always in).
 */
export function recordBuildInputs(outDir: string, moduleIds: Iterable<string>, viteVersion: string): void {
  const files: Record<string, string> = {};
  const add = (full: string) => {
    const path = repoPath(full);
    if (path.startsWith('..') || path.split('/').includes('node_modules')) return;
    try {
      files[path] = hashFile(full);
    } catch {
      // not a file on disk
    }
  };
  for (const id of moduleIds) if (!id.startsWith('\0')) add(id.split('?')[0]!);
  const listing = listFiles(PAGES_SRC_DIR);
  for (const path of [...listing, ...listFiles(SHARED_UI_DIR)]) add(join(REPO_ROOT, path));
  add(VITE_CONFIG_FILE);
  for (const file of VITE_PLUGIN_FILES) add(file);
  add(fileURLToPath(import.meta.url));
  const inputs: BuildInputs = { version: INPUTS_VERSION, vite: viteVersion, files, listing };
  writeFileSync(join(outDir, INPUTS_FILE), `${JSON.stringify(inputs, null, 1)}\n`);
}

/** Why the build in `outDir` cannot be used, or null when it is fresh. */
export function staleReason(outDir: string): string | null {
  let inputs: BuildInputs;
  try {
    inputs = JSON.parse(readFileSync(join(outDir, INPUTS_FILE), 'utf8')) as BuildInputs;
  } catch {
    return 'there is no build yet';
  }
  if (inputs.version !== INPUTS_VERSION || typeof inputs.files !== 'object' || !Array.isArray(inputs.listing)) {
    return 'the build is of an older format';
  }
  const vite = installedViteVersion();
  if (vite !== null && vite !== inputs.vite) return `Vite changed (${inputs.vite} → ${vite})`;
  if (listFiles(PAGES_SRC_DIR).join('\n') !== inputs.listing.join('\n')) return 'files were added to or removed from demo/public';
  for (const [path, hash] of Object.entries(inputs.files)) {
    let now: string;
    try {
      now = hashFile(join(REPO_ROOT, ...path.split('/')));
    } catch {
      return `${path} is gone`;
    }
    if (now !== hash) return `${path} changed`;
  }
  return null;
}

function installedViteVersion(): string | null {
  try {
    const pkg = JSON.parse(readFileSync(join(REPO_ROOT, 'node_modules', 'vite', 'package.json'), 'utf8')) as { version?: unknown };
    return typeof pkg.version === 'string' ? pkg.version : null;
  } catch {
    return null;
  }
}
