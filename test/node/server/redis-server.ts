/**
 * A Redis for tests: PAYDESK_TEST_REDIS_URL (CI starts one), else a redis-server started on a free
 * loopback port (stopped by `stop()`), else null when the machine has none.
 */
import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as { port: number }).port;
      srv.close(() => resolve(port));
    });
  });
}

export interface TestRedis {
  url: string;
  child: ChildProcess | null;
  stop(): Promise<void>;
}

export async function startRedis(): Promise<TestRedis | null> {
  const given = process.env.PAYDESK_TEST_REDIS_URL;
  if (given) return { url: given, child: null, stop: async () => undefined };
  if (!hasRedisServer()) return null;
  return spawnRedis(['--save', '', '--appendonly', 'no']);
}

export const hasRedisServer = (): boolean => spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).status === 0;

/** A redis-server of this test's own on a free loopback port, with `args` (e.g. its persistence settings). */
export async function spawnRedis(args: string[], port?: number): Promise<TestRedis & { port: number; child: ChildProcess }> {
  port ??= await freePort();
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // Ready when the server says so on stdout (no polling, no sleeps).
  await new Promise<void>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (/Ready to accept connections/i.test(out)) resolve();
    });
    child.once('exit', (code) => reject(new Error(`redis-server exited with ${code}: ${out}`)));
    child.once('error', reject);
  });
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    child,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGCONT');
      child.kill('SIGTERM');
      await exited;
    },
  };
}
