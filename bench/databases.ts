/**
 * The databases of the store benchmarks: a Redis and a PostgreSQL, each the one its test variable
 * names (PAYDESK_TEST_REDIS_URL, PAYDESK_TEST_POSTGRES_URL — .ci/run starts both) or else one started
 * here on a free loopback port and stopped afterwards (redis-server on PATH; PostgreSQL from Debian's
 * /usr/lib/postgresql/<version>/bin, run as the postgres user when we are root). Null when the machine
 * has neither.
 */
import { spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, startRedis } from '../test/node/server/redis-server.js';

export interface Database {
  url: string;
  stop(): Promise<void>;
}

export async function benchRedis(): Promise<Database | null> {
  const redis = await startRedis();
  return redis && { url: redis.url, stop: () => redis.stop() };
}

export async function benchPostgres(): Promise<Database | null> {
  const given = process.env.PAYDESK_TEST_POSTGRES_URL;
  if (given) return { url: given, stop: async () => {} };
  const versions = existsSync('/usr/lib/postgresql') ? readdirSync('/usr/lib/postgresql').sort((a, b) => Number(b) - Number(a)) : [];
  const bin = versions.map((v) => `/usr/lib/postgresql/${v}/bin`).find((b) => existsSync(join(b, 'initdb')));
  if (!bin) return null;
  const dir = mkdtempSync(join(tmpdir(), 'paydesk-bench-pg-'));
  const root = process.getuid?.() === 0;
  const owner = root ? spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' }) : null;
  if (owner && owner.status === 0) chownSync(dir, Number(owner.stdout.trim()), Number(owner.stdout.trim()));
  const run = (command: string) => {
    const r = root ? spawnSync('su', ['postgres', '-s', '/bin/sh', '-c', command], { encoding: 'utf8' }) : spawnSync('sh', ['-c', command], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`PostgreSQL for the benchmarks: ${command}\n${r.stdout}${r.stderr}`);
  };
  const port = await freePort();
  run(`'${bin}/initdb' -D '${dir}/data' -U postgres --auth=trust -E UTF8 >/dev/null`);
  // Durable settings as a merchant runs them (fsync on): the figures are a production database's.
  run(`'${bin}/pg_ctl' -D '${dir}/data' -l '${dir}/postgres.log' -w -o '-p ${port} -c listen_addresses=127.0.0.1 -k ${dir}' start >/dev/null`);
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    async stop() {
      run(`'${bin}/pg_ctl' -D '${dir}/data' -m fast -w stop >/dev/null`);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
