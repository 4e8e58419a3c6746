/** Starts and stops the benchmark's server processes (bench/child.ts). */
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../', import.meta.url));

export interface Child<T> {
  info: T;
  process: ChildProcess;
  stop(): Promise<void>;
}

export async function startChild<T>(role: 'provider' | 'merchant', env: Record<string, string> = {}): Promise<Child<T>> {
  const child = spawn(process.execPath, ['--import', 'tsx', '--expose-gc', 'bench/child.ts', role], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const info = await new Promise<T>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`bench/child.ts ${role} exited (${code})`)));
    createInterface({ input: child.stdout! }).once('line', (line) => resolve(JSON.parse(line) as T));
  });
  return {
    info,
    process: child,
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

export interface ProviderInfo {
  url: string;
  apiKey: string;
  webhookSecret: string;
}
export interface MerchantInfo {
  url: string;
  bareUrl: string;
  rawUrl: string;
}

export async function startPair(merchantEnv: Record<string, string> = {}): Promise<{ provider: Child<ProviderInfo>; merchant: Child<MerchantInfo>; stop(): Promise<void> }> {
  const provider = await startChild<ProviderInfo>('provider');
  const merchant = await startChild<MerchantInfo>('merchant', {
    PAYDESK_BENCH_PROVIDER_URL: provider.info.url,
    PAYDESK_BENCH_WEBHOOK_SECRET: provider.info.webhookSecret,
    ...merchantEnv,
  });
  return {
    provider,
    merchant,
    async stop() {
      await merchant.stop();
      await provider.stop();
    },
  };
}
