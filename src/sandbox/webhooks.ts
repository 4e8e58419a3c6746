/**
 * Webhook delivery: the envelope of provider-notes.md POSTed to the order's `webhook_url`, else the
 * terminal's URL, with the terminal's `X-API-Key` (as the provider does) and an
 * `X-Paydesk-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.body">` made with the terminal's
 * webhook secret. Non-2xx answers, network errors and timeouts are retried with exponential backoff,
 * a bounded number of times; every attempt is kept in the terminal's delivery log.
 */
import { signWebhookPayload, WEBHOOK_SIGNATURE_HEADER } from '../provider/webhook-signature.js';
import type { WebhookDelivery, WebhookDeliveryStatus } from './records.js';
import type { Terminal } from './terminal.js';
import { WEBHOOK_LOG_LIMIT } from './constants.js';
import type { SandboxLogger } from './logger.js';

export type { WebhookAttempt, WebhookDelivery, WebhookDeliveryStatus } from './records.js';

export const SIGNATURE_HEADER = WEBHOOK_SIGNATURE_HEADER;

/** `t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "t.body")>` (the one signer, shared with paydesk/server). */
export const signWebhook = signWebhookPayload;

export interface WebhookDispatcherOptions {
  fetch: typeof fetch;
  /** Delay before attempt 2, 3, …; its length bounds the retries. */
  retryDelaysMs: readonly number[];
  timeoutMs: number;
  /** Wall clock for signatures and attempt times (a verifier checks `t` against its own clock). */
  wallNow: () => number;
  logger: SandboxLogger;
  /** After a delivery's log entry changed (an attempt, its end). */
  changed?: () => void;
  /** Awaited before each attempt: resolves once the change the webhook reports is durable (the state file). */
  beforeSend?: () => Promise<void>;
}

interface Job {
  terminal: Terminal;
  delivery: WebhookDelivery;
  body: string;
  timer: NodeJS.Timeout | null;
}

export class WebhookDispatcher {
  private readonly options: WebhookDispatcherOptions;
  private readonly jobs = new Set<Job>();
  private waiters: (() => void)[] = [];
  private closed = false;

  constructor(options: WebhookDispatcherOptions) {
    this.options = options;
  }

  /** Records the delivery in the terminal's log and starts it (unless there is nowhere to send it). */
  dispatch(terminal: Terminal, delivery: Omit<WebhookDelivery, 'status' | 'attempts' | 'next_attempt_at'>): WebhookDelivery {
    const full: WebhookDelivery = {
      ...delivery,
      status: delivery.url ? 'pending' : 'skipped',
      attempts: [],
      next_attempt_at: null,
    };
    const log = terminal.data.webhookLog;
    log.push(full);
    if (log.length > WEBHOOK_LOG_LIMIT) log.splice(0, log.length - WEBHOOK_LOG_LIMIT);
    if (full.url && !this.closed) {
      const job: Job = { terminal, delivery: full, body: JSON.stringify(full.envelope), timer: null };
      this.jobs.add(job);
      void this.attempt(job);
    } else if (full.url) {
      full.status = 'cancelled';
    }
    return full;
  }

  /** Resolves when no delivery is in flight or waiting for a retry. */
  idle(): Promise<void> {
    if (this.jobs.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** Stops the pending deliveries of one terminal (on reset). */
  cancelTerminal(terminal: Terminal): void {
    for (const job of this.jobs) if (job.terminal === terminal) this.finish(job, 'cancelled');
  }

  close(): void {
    this.closed = true;
    for (const job of this.jobs) this.finish(job, 'cancelled');
  }

  private async attempt(job: Job): Promise<void> {
    const { delivery, terminal, body } = job;
    job.timer = null;
    delivery.next_attempt_at = null;
    if (this.options.beforeSend) {
      // Never tell the merchant about a change a crash could still undo. Asked a tick later: the
      // change that dispatched this webhook is then complete (the engine marks it after dispatching).
      await Promise.resolve();
      let unsaved: string | null = null;
      try {
        await this.options.beforeSend();
      } catch (err) {
        unsaved = `not sent: the sandbox could not save its state (${err instanceof Error ? err.message : String(err)})`;
      }
      if (!this.jobs.has(job)) return; // cancelled meanwhile
      if (unsaved !== null) return this.recordAttempt(job, this.options.wallNow(), null, unsaved);
    }
    const started = this.options.wallNow();
    const headers = {
      'Content-Type': 'application/json',
      'User-Agent': 'paydesk-sandbox',
      'X-API-Key': terminal.apiKey,
      [SIGNATURE_HEADER]: signWebhook(terminal.webhookSecret, body, Math.floor(started / 1000)),
    };
    let statusCode: number | null = null;
    let error: string | null = null;
    // A ref'd timer (unlike AbortSignal.timeout): a delivery in flight is work that keeps the process up.
    const abort = new AbortController();
    const timeout = setTimeout(() => abort.abort(new DOMException('webhook attempt timed out', 'TimeoutError')), this.options.timeoutMs);
    try {
      const response = await this.options.fetch(delivery.url!, {
        method: 'POST',
        headers,
        body,
        signal: abort.signal,
        redirect: 'manual',
      });
      statusCode = response.status;
      // Drain the body so the connection can be reused; its content does not matter.
      await response.arrayBuffer().catch(() => undefined);
      if (response.status < 200 || response.status >= 300) error = `HTTP ${response.status}`;
    } catch (err) {
      error = describe(err, this.options.timeoutMs);
    } finally {
      clearTimeout(timeout);
    }
    if (!this.jobs.has(job)) return; // cancelled meanwhile
    this.recordAttempt(job, started, statusCode, error);
  }

  /** Records an attempt (`error` null: it was delivered) and finishes the job or schedules the next. */
  private recordAttempt(job: Job, started: number, statusCode: number | null, error: string | null): void {
    const { delivery } = job;
    delivery.attempts.push({
      at: new Date(started).toISOString(),
      status_code: statusCode,
      error,
      duration_ms: Math.max(0, this.options.wallNow() - started),
    });
    this.options.changed?.();
    if (error === null) return this.finish(job, 'delivered');
    const delay = this.options.retryDelaysMs[delivery.attempts.length - 1];
    if (delay === undefined || this.closed) {
      this.options.logger.info(`webhook ${delivery.request_id} to ${delivery.url} failed after ${delivery.attempts.length} attempts: ${error}`);
      return this.finish(job, 'failed');
    }
    delivery.next_attempt_at = new Date(this.options.wallNow() + delay).toISOString();
    // Not unref()ed: a bounded retry is pending work; close() cancels it.
    job.timer = setTimeout(() => void this.attempt(job), delay);
  }

  private finish(job: Job, status: WebhookDeliveryStatus): void {
    if (job.timer) clearTimeout(job.timer);
    job.timer = null;
    job.delivery.status = status;
    job.delivery.next_attempt_at = null;
    this.jobs.delete(job);
    this.options.changed?.();
    if (this.jobs.size === 0) {
      const waiters = this.waiters;
      this.waiters = [];
      for (const w of waiters) w();
    }
  }
}

function describe(err: unknown, timeoutMs: number): string {
  if (err instanceof Error) {
    if (err.name === 'TimeoutError' || err.name === 'AbortError') return `timeout after ${timeoutMs} ms`;
    const cause = (err as Error & { cause?: unknown }).cause;
    if (cause instanceof Error && cause.message) return `${err.message}: ${cause.message}`;
    return err.message;
  }
  return String(err);
}
