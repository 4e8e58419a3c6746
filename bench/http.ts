/** HTTP clients of the benchmarks: autocannon for throughput, a keep-alive sequential client for latency. */
import { Agent, request } from 'node:http';
import autocannon from 'autocannon';

export interface LoadFigures {
  /** Mean requests per second over the run. */
  rps: number;
  /** Latency percentiles (ms) as autocannon reports them (1 ms resolution). */
  p50: number;
  p99: number;
  requests: number;
}

export async function load(options: {
  url: string;
  connections: number;
  seconds: number;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
}): Promise<LoadFigures> {
  const result = await autocannon({
    url: options.url,
    connections: options.connections,
    duration: options.seconds,
    method: options.method ?? 'GET',
    headers: options.headers,
    body: options.body,
  });
  const bad = result.non2xx + result.errors + result.timeouts;
  if (bad > 0) throw new Error(`${options.method ?? 'GET'} ${options.url}: ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts`);
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, requests: result.requests.total };
}

export interface Timed {
  status: number;
  ms: number;
  body: string;
}

/** One request over a keep-alive agent, timed from just before it is written to the end of the body. */
export function timed(agent: Agent, url: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<Timed> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = request(url, { method: init.method ?? 'GET', headers: init.headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - started, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(init.body);
  });
}

export const keepAlive = () => new Agent({ keepAlive: true, maxSockets: 64 });
