/**
 * The demo's data directory (`PAYDESK_DATA_DIR`, default `.paydesk/` in the working directory): what
 * must survive a restart of `npm start` so that a shopper's reload resumes the same order and a
 * webhook still finds its session — the stores (one SQLite file per token endpoint, and `console.db`
 * where the console keeps the payouts it may still be making), and the
 * secrets drawn at the first start (session secret, console password, sandbox key), kept in
 * `secrets.json` readable by the owner only.
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createSqliteStore, type CheckoutStore } from '../src/server/index.js';
import { randomConsolePassword } from './console-password.js';

export interface DemoSecrets {
  session_secret: string;
  console_password: string;
  sandbox_api_key: string;
}

export interface DataDir {
  path: string;
  secrets: DemoSecrets;
  /** A durable store for one token endpoint (`name` keeps endpoints apart: each has its own watch list). */
  store(name: string): CheckoutStore;
  /** Where the sandbox keeps its state. */
  sandboxStateFile: string;
}

const SECRETS = 'secrets.json';

function isSecrets(v: unknown): v is DemoSecrets {
  const s = v as DemoSecrets;
  return (
    typeof s === 'object' &&
    s !== null &&
    typeof s.session_secret === 'string' &&
    s.session_secret.length >= 32 &&
    typeof s.console_password === 'string' &&
    s.console_password.length >= 8 &&
    typeof s.sandbox_api_key === 'string' &&
    s.sandbox_api_key.length > 0
  );
}

/** Opens (creating when missing) the data directory; a damaged secrets file is a clear error, never replaced silently. */
export function openDataDir(dir: string): DataDir {
  const path = resolve(dir);
  mkdirSync(path, { recursive: true, mode: 0o700 });
  const file = join(path, SECRETS);
  let secrets: DemoSecrets;
  if (existsSync(file)) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(readFileSync(file, 'utf8'));
    } catch {
      throw new Error(`${file} is not valid JSON: fix it or delete it (a new one is made, and the sessions it signed end)`);
    }
    if (!isSecrets(parsed)) throw new Error(`${file} lacks session_secret (32+ characters), console_password or sandbox_api_key`);
    secrets = parsed;
  } else {
    secrets = {
      session_secret: randomBytes(32).toString('base64url'),
      console_password: randomConsolePassword(),
      sandbox_api_key: `sk_sandbox_${randomBytes(18).toString('base64url')}`,
    };
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, `${JSON.stringify(secrets, null, 2)}\n`, { mode: 0o600 });
    renameSync(tmp, file);
  }
  try {
    chmodSync(file, 0o600);
  } catch {
    // not every file system has modes
  }
  return {
    path,
    secrets,
    store: (name) => createSqliteStore({ path: join(path, `${name}.db`) }),
    sandboxStateFile: join(path, 'sandbox.json'),
  };
}
