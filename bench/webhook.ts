/**
 * Webhook → event latency: the provider's webhook for a paid order is POSTed to the merchant's
 * `/api/paydesk/webhooks` (signed as the provider signs it), and the time is taken until the `order`
 * event with status `paid` reaches a subscriber of `GET /sessions/S/events` (the widget's stream). The
 * merchant verifies the signature and confirms the status with the provider before publishing, so
 * that read is inside the figure. Client, merchant and provider are separate processes on loopback.
 */
import { request, type Agent } from 'node:http';
import { signWebhookPayload } from '../src/server/webhooks.js';
import { keepAlive, timed } from './http.js';
import { median, percentile, repeat } from './stats.js';
import type { MerchantInfo, ProviderInfo } from './processes.js';

export interface WebhookFigures {
  runs: number;
  perRun: number;
  p50: number;
  p95: number;
  max: number;
  /** p50 of the webhook request itself (until the merchant answered). */
  webhookAnswerP50: number;
}

/** Opens the event stream of a session; `next(pred)` resolves with the first matching order event. */
export function subscribe(agent: Agent | false, url: string) {
  type Waiter = { pred: (o: Record<string, unknown>) => boolean; resolve: (o: { order: Record<string, unknown>; at: number }) => void };
  const waiters: Waiter[] = [];
  const seen: Record<string, unknown>[] = [];
  let buffer = '';
  let closeRes: (() => void) | null = null;
  const opened = new Promise<void>((resolve, reject) => {
    const req = request(url, { agent, headers: { accept: 'text/event-stream' } }, (res) => {
      if (res.statusCode !== 200) return reject(new Error(`GET ${url}: ${res.statusCode}`));
      res.setEncoding('utf8');
      closeRes = () => res.destroy();
      res.on('data', (chunk: string) => {
        const at = performance.now();
        buffer += chunk;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const event = /^event: (.*)$/m.exec(block)?.[1];
          const data = block.split('\n').filter((l) => l.startsWith('data: ')).map((l) => l.slice(6)).join('\n');
          if (event !== 'order' || !data) continue;
          const order = JSON.parse(data) as Record<string, unknown>;
          seen.push(order);
          for (const w of [...waiters]) {
            if (w.pred(order)) {
              waiters.splice(waiters.indexOf(w), 1);
              w.resolve({ order, at });
            }
          }
        }
      });
      res.on('error', () => {});
      resolve();
    });
    req.on('error', reject);
    req.end();
  });
  return {
    opened,
    next(pred: Waiter['pred']): Promise<{ order: Record<string, unknown>; at: number }> {
      return new Promise((resolve) => {
        const hit = seen.find(pred);
        if (hit) return resolve({ order: hit, at: performance.now() });
        waiters.push({ pred, resolve });
      });
    },
    close() {
      closeRes?.();
    },
  };
}

export async function benchWebhook(merchant: MerchantInfo, provider: ProviderInfo, opts: { runs: number; perRun: number }): Promise<WebhookFigures> {
  const agent = keepAlive();
  const providerHeaders = { 'x-api-key': provider.apiKey, 'content-type': 'application/json' };
  let n = 0;
  const once = async () => {
    const created = await timed(agent, `${merchant.url}/api/paydesk/sessions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-paydesk': '1' },
      body: JSON.stringify({ order_ref: `bench-webhook-${n++}`, method_type: 'SBP' }),
    });
    if (created.status !== 201) throw new Error(`POST /sessions: ${created.status} ${created.body}`);
    const { session, order } = JSON.parse(created.body) as { session: string; order: { id: string } };
    const stream = subscribe(false, `${merchant.url}/api/paydesk/sessions/${encodeURIComponent(session)}/events`);
    await stream.opened;
    await stream.next((o) => o.status === 'pending');
    // The provider completes the order; its webhook (recorded, not sent: no URL) is what we deliver.
    const done = await timed(agent, `${provider.url}/sandbox/orders/${order.id}/complete`, { method: 'POST', headers: providerHeaders });
    if (done.status !== 200) throw new Error(`complete: ${done.status} ${done.body}`);
    const log = await timed(agent, `${provider.url}/sandbox/webhooks?order_id=${order.id}`, { headers: providerHeaders });
    const delivery = (JSON.parse(log.body) as { deliveries: { envelope: unknown }[] }).deliveries[0];
    if (!delivery) throw new Error(`no webhook recorded for order ${order.id}`);
    const body = JSON.stringify(delivery.envelope);
    const signature = signWebhookPayload(provider.webhookSecret, body, Math.floor(Date.now() / 1000));
    const paid = stream.next((o) => o.status === 'paid');
    const t0 = performance.now();
    const answer = await timed(agent, `${merchant.url}/api/paydesk/webhooks`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-paydesk-signature': signature },
      body,
    });
    if (answer.status >= 300) throw new Error(`webhook answered ${answer.status}: ${answer.body}`);
    const { at } = await paid;
    stream.close();
    return { latency: at - t0, answer: answer.ms };
  };
  for (let i = 0; i < 5; i++) await once(); // warm-up
  const results = await repeat(opts.runs, async () => {
    const samples = await repeat(opts.perRun, once);
    const l = samples.map((s) => s.latency);
    return { p50: percentile(l, 50), p95: percentile(l, 95), max: Math.max(...l), answer: percentile(samples.map((s) => s.answer), 50) };
  });
  agent.destroy();
  return {
    runs: opts.runs,
    perRun: opts.perRun,
    p50: median(results.map((r) => r.p50)),
    p95: median(results.map((r) => r.p95)),
    max: Math.max(...results.map((r) => r.max)),
    webhookAnswerP50: median(results.map((r) => r.answer)),
  };
}
