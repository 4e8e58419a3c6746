/**
 * Memory of the merchant server (a fresh bench/child.ts merchant, in-memory store) with 10,000
 * sessions and then 1,000 open event streams: heap and RSS after a full GC, against its idle baseline.
 */
import { Agent } from 'node:http';
import { subscribe } from './webhook.js';
import { timed } from './http.js';
import type { MerchantInfo } from './processes.js';

export interface MemoryFigures {
  sessions: number;
  streams: number;
  baseline: { heapUsed: number; rss: number };
  withSessions: { heapUsed: number; rss: number };
  withStreams: { heapUsed: number; rss: number };
  /** (withSessions − baseline) / sessions, bytes. */
  perSessionHeap: number;
  /** (withStreams − withSessions) / streams, bytes. */
  perStreamHeap: number;
  createSeconds: number;
}

async function mem(agent: Agent, merchant: MerchantInfo) {
  const r = await timed(agent, `${merchant.url}/__mem`);
  const m = JSON.parse(r.body) as { heapUsed: number; rss: number };
  return { heapUsed: m.heapUsed, rss: m.rss };
}

export async function benchMemory(merchant: MerchantInfo, opts: { sessions: number; streams: number; concurrency: number }): Promise<MemoryFigures> {
  const agent = new Agent({ keepAlive: true, maxSockets: opts.concurrency });
  const baseline = await mem(agent, merchant);
  const sessions: string[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: opts.concurrency }, async () => {
      while (next < opts.sessions) {
        const i = next++;
        const r = await timed(agent, `${merchant.url}/api/paydesk/sessions`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-paydesk': '1' },
          body: JSON.stringify({ order_ref: `bench-mem-${i}`, method_type: 'SBP' }),
        });
        if (r.status !== 201) throw new Error(`POST /sessions: ${r.status} ${r.body}`);
        sessions.push((JSON.parse(r.body) as { session: string }).session);
      }
    }),
  );
  const createSeconds = (performance.now() - started) / 1000;
  const withSessions = await mem(agent, merchant);

  const streams: ReturnType<typeof subscribe>[] = [];
  for (let i = 0; i < opts.streams; i += 50) {
    const batch = sessions.slice(i, Math.min(i + 50, opts.streams)).map((s) => {
      const stream = subscribe(false, `${merchant.url}/api/paydesk/sessions/${encodeURIComponent(s)}/events`);
      streams.push(stream);
      return stream.opened.then(() => stream.next((o) => o.status === 'pending'));
    });
    await Promise.all(batch);
  }
  const withStreams = await mem(agent, merchant);
  for (const s of streams) s.close();
  agent.destroy();
  return {
    sessions: opts.sessions,
    streams: opts.streams,
    baseline,
    withSessions,
    withStreams,
    perSessionHeap: (withSessions.heapUsed - baseline.heapUsed) / opts.sessions,
    perStreamHeap: (withStreams.heapUsed - withSessions.heapUsed) / opts.streams,
    createSeconds,
  };
}
