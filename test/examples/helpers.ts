/**
 * Shared pieces of the examples suite: the packed tarball (`npm pack` of this repository), a temp copy
 * of an example with it installed the way a user installs it (`npm install <tarball>`), child processes
 * that print their URL when ready, the sandbox from the installed package's `paydesk-sandbox` bin, and
 * Chromium through playwright-core.
 *
 * The tarball is packed once per `npm test` (scripts/test.sh sets PAYDESK_TARBALL); a test file run
 * alone packs its own (needs dist/: `npm run build`). npm runs with `--prefer-offline`: every package
 * the examples use is in this repository's lockfile, so `npm ci` has put it in the npm cache.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { cp, mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { Page } from 'playwright-core';

const run = promisify(execFile);

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const EXAMPLES = join(ROOT, 'examples');
/** Generous bound for conditions on a noisy, shared 2-core machine. */
export const WAIT_MS = 30_000;
export const SANDBOX_KEY = 'sk_sandbox_examples_test';

/** The environment for an inner npm, without the settings of an outer `npm test` (npm_config_*). */
export function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k)));
  return { ...env, ...extra };
}

export async function npm(args: string[], cwd: string, timeoutMs = 300_000): Promise<string> {
  try {
    const { stdout } = await run('npm', args, { cwd, env: cleanEnv(), timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024 });
    return stdout;
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string; message: string };
    throw new Error(`npm ${args.join(' ')} failed in ${cwd}: ${e.message}\n${e.stdout ?? ''}${e.stderr ?? ''}`);
  }
}

let packing: Promise<string> | undefined;

/** The path of the packed paydesk tarball: PAYDESK_TARBALL, else `npm pack` of this repository into a temp folder. */
export function tarball(): Promise<string> {
  packing ??= (async () => {
    const given = process.env.PAYDESK_TARBALL;
    if (given) {
      if (!existsSync(given)) throw new Error(`PAYDESK_TARBALL=${given} does not exist`);
      return given;
    }
    if (!existsSync(join(ROOT, 'dist', 'index.js')) || !existsSync(join(ROOT, 'dist', 'cdn', 'paydesk.iife.js'))) {
      throw new Error('dist/ is missing: run `npm run build` first (npm test does it)');
    }
    const dir = await mkdtemp(join(tmpdir(), 'paydesk-tarball-'));
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
    const out = await npm(['pack', '--ignore-scripts', '--json', '--pack-destination', dir], ROOT, 120_000);
    const [packed] = JSON.parse(out.slice(out.indexOf('['))) as { filename: string }[];
    return join(dir, packed!.filename);
  })();
  return packing;
}

export interface InstalledExample {
  dir: string;
  remove(): Promise<void>;
}

/**
 * A temp copy of examples/<name> (without node_modules or dist) with the tarball installed:
 * `npm install <tarball>`, which also installs the example's other dependencies.
 */
export async function installExample(name: string): Promise<InstalledExample> {
  const tgz = await tarball();
  const work = await mkdtemp(join(tmpdir(), `paydesk-example-${name}-`));
  const dir = join(work, name);
  await cp(join(EXAMPLES, name), dir, {
    recursive: true,
    filter: (src) => !/[\\/](node_modules|dist)$/.test(src),
  });
  await npm(['install', tgz, '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'], dir);
  // maxRetries: a dev server that has just stopped may still be writing its cache (ENOTEMPTY).
  return { dir, remove: () => rm(work, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 }) };
}

/** Waits until a running process has printed a line matching `pattern` (its output is read as it comes). */
export async function waitForOutput(running: Running, pattern: RegExp, what: string): Promise<void> {
  const deadline = Date.now() + WAIT_MS;
  while (!pattern.test(running.output())) {
    if (Date.now() > deadline) throw new Error(`${what}: not printed within ${WAIT_MS} ms:\n${running.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * Holds back each request of `page` named by `together` (`METHOD /path`: a string for that name, a
 * pattern for names that match it) until every one has been asked for, at most 8 s. Returns what had
 * been asked for when the first was let through: a request the browser makes only after another
 * one's answer (a round trip later, a waterfall) is missing from it. Call before the page navigates.
 */
export async function holdTogether(page: Page, together: readonly (string | RegExp)[]): Promise<() => string[]> {
  const is = (p: string | RegExp, name: string) => (typeof p === 'string' ? p === name : p.test(name));
  const held: string[] = [];
  let atFirstAnswer: string[] | null = null;
  let release!: () => void;
  const all = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/*', async (route) => {
    const name = `${route.request().method()} ${new URL(route.request().url()).pathname}`;
    if (!together.some((p) => is(p, name))) return route.continue();
    if (!held.includes(name)) held.push(name);
    if (together.every((p) => held.some((h) => is(p, h)))) release();
    await Promise.race([all, new Promise((r) => setTimeout(r, 8_000))]);
    atFirstAnswer ??= [...held];
    await route.continue();
  });
  return () => atFirstAnswer ?? [];
}

/** A free TCP port on 127.0.0.1 (for servers whose own URLs, e.g. the webhook URL, must be known before they listen). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export interface Running {
  url: string;
  child: ChildProcess;
  output(): string;
  stop(): Promise<void>;
}

/** The terminal's colour codes, which some tools print even without a terminal (Vite's port in bold). */
const ANSI = /\x1b\[[0-9;]*m/g;

/**
 * Spawns a process and waits until its output matches `ready` (the first group is the URL). Colours
 * are asked off (NO_COLOR) and stripped anyway before matching. A process that is not ready in time
 * is killed before the error is thrown: a stray server would keep the test run alive.
 */
export async function startProcess(
  command: string,
  args: string[],
  options: { cwd: string; env?: Record<string, string>; ready: RegExp; label: string },
): Promise<Running> {
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: cleanEnv({ NO_COLOR: '1', FORCE_COLOR: '0', ...options.env }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${options.label}: not ready after ${WAIT_MS} ms:\n${out}`));
    }, WAIT_MS);
    const onData = (d: Buffer) => {
      out += d.toString().replace(ANSI, '');
      const m = options.ready.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${options.label} exited (${code}) before it was ready:\n${out}`));
    });
  });
  return {
    url,
    child,
    output: () => out,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** The sandbox provider from the installed package's bin, as `npm run sandbox` in an example starts it (here on a free port). */
export function startSandbox(dir: string): Promise<Running> {
  return startProcess(join(dir, 'node_modules', '.bin', 'paydesk-sandbox'), ['--port', '0', '--api-key', SANDBOX_KEY, '--no-seed', '--quiet'], {
    cwd: dir,
    ready: /paydesk sandbox listening on (http:\/\/127\.0\.0\.1:\d+)/,
    label: 'paydesk-sandbox',
  });
}

/** An example's server (`node server.js`) against the sandbox, on a free port. */
export async function startExampleServer(dir: string, sandboxUrl: string, env: Record<string, string> = {}): Promise<Running> {
  const port = await freePort();
  return startProcess(process.execPath, ['server.js'], {
    cwd: dir,
    env: { PORT: String(port), PAYDESK_PROVIDER_URL: sandboxUrl, PAYDESK_API_KEY: SANDBOX_KEY, ...env },
    ready: /shop: (http:\/\/127\.0\.0\.1:\d+)\//,
    label: `${dir} server.js`,
  });
}

export { launchBrowser } from '../chromium.js';

/** Completes an order in the sandbox (the shopper's payment arriving), as the sandbox's scenario control does. */
export async function completeInSandbox(sandboxUrl: string, orderId: string, apiKey = SANDBOX_KEY): Promise<void> {
  const res = await fetch(`${sandboxUrl}/sandbox/orders/${encodeURIComponent(orderId)}/complete`, {
    method: 'POST',
    headers: { 'X-API-Key': apiKey },
  });
  if (res.status !== 200) throw new Error(`complete ${orderId}: ${res.status} ${await res.text()}`);
}

export async function readJson<T>(path: string): Promise<T> {
  return JSON.parse(await readFile(path, 'utf8')) as T;
}
