/**
 * The sandbox's engine: the terminals and the domain modules wired together — orders and their
 * requisites (orders.ts), the ledger (ledger.ts), form sessions (form-sessions.ts), disputes
 * (disputes.ts) — plus time (expiries and auto-payments fall due lazily on every request and in a
 * sweep), the per-terminal rate limit, and the webhook an order status change sends.
 */
import { randomUUID } from 'node:crypto';
import type { WebhookEnvelope } from '../provider/schemas.js';
import type { SandboxClock } from './clock.js';
import { RATE_WINDOW_MS } from './constants.js';
import { Disputes } from './disputes.js';
import { providerError } from './errors.js';
import { isoMillis, webhookDatetime } from './format.js';
import { FormSessions } from './form-sessions.js';
import { Orders, type OrderRequest } from './orders.js';
import type { OrderRecord } from './records.js';
import { orderJson } from './serialize.js';
import { TerminalData, type Terminal } from './terminal.js';
import type { WebhookDelivery, WebhookDispatcher } from './webhooks.js';

export interface EngineOptions {
  clock: SandboxClock;
  webhooks: WebhookDispatcher;
}

export class SandboxEngine {
  readonly terminals = new Map<string, Terminal>();
  readonly clock: SandboxClock;
  readonly webhooks: WebhookDispatcher;
  readonly orders: Orders;
  readonly sessions: FormSessions;
  readonly disputes: Disputes;
  /** Bumped on every change of a terminal's data or settings (the state file saves when it moves). */
  version = 0;
  /** Called after every change (the state file's debounced save). */
  onChange: (() => void) | null = null;

  constructor(options: EngineOptions) {
    this.clock = options.clock;
    this.webhooks = options.webhooks;
    this.orders = new Orders({
      clock: this.clock,
      added: () => this.changed(),
      statusChanged: (terminal, order) => {
        this.sendWebhook(terminal, order);
        this.sessions.orderStatusChanged(terminal, order);
        this.changed();
      },
    });
    this.sessions = new FormSessions({ clock: this.clock, orders: this.orders, changed: () => this.changed() });
    this.disputes = new Disputes({
      clock: this.clock,
      orders: this.orders,
      changed: (_terminal, order) => this.sessions.notify(order.sessionId),
    });
  }

  now(): number {
    return this.clock.now();
  }

  /** Marks the sandbox's state as changed. */
  changed(): void {
    this.version++;
    this.onChange?.();
  }

  // -------------------------------------------------------------------------------------------
  // Terminals

  addTerminal(terminal: Terminal): void {
    if (this.terminals.has(terminal.apiKey)) throw new Error(`a terminal with this API key already exists`);
    this.terminals.set(terminal.apiKey, terminal);
    this.changed();
  }

  /** Throws away a terminal's data and settings (the caller seeds it again). */
  clearTerminal(terminal: Terminal): void {
    terminal.resetSettings();
    this.clearData(terminal);
  }

  /** Throws away a terminal's data but keeps its settings (a change of currency). */
  clearData(terminal: Terminal): void {
    this.webhooks.cancelTerminal(terminal);
    this.sessions.forgetTerminal(terminal);
    terminal.data = new TerminalData();
    this.changed();
  }

  // -------------------------------------------------------------------------------------------
  // Time: expiries and auto-payments fall due lazily on every request and in the sweep

  processDue(terminal: Terminal, now = this.clock.now()): void {
    const due = terminal.data.due;
    for (let key = due.peekKey(); key !== undefined && key <= now; key = due.peekKey()) {
      const { value } = due.pop()!;
      switch (value.kind) {
        case 'expire':
          if (value.order.status === 'Unpaid') this.orders.transition(terminal, value.order, 'CanceledByTimeout', key);
          break;
        case 'autopay':
          if (value.order.status === 'Unpaid') this.orders.transition(terminal, value.order, 'Completed', key);
          break;
        case 'session-expire':
          this.sessions.expireIfDue(value.session, key, now);
          break;
      }
    }
  }

  sweep(): void {
    const now = this.clock.now();
    for (const terminal of this.terminals.values()) this.processDue(terminal, now);
  }

  // -------------------------------------------------------------------------------------------
  // Rate limit (per terminal, sandbox clock, sliding minute)

  checkRateLimit(terminal: Terminal, isOrderCreation: boolean): void {
    const limit = terminal.settings.rateLimitPerMinute;
    if (limit === null) return;
    const now = this.clock.now();
    const window = terminal.data.rateWindow;
    while (window.length > 0 && window[0]! <= now - RATE_WINDOW_MS) window.shift();
    if (window.length >= limit) {
      const retryAfter = Math.max(1, Math.ceil((window[0]! + RATE_WINDOW_MS - now) / 1000));
      // H2H creation answers the document's 429 row text; other endpoints the sandbox's wording.
      throw providerError(isOrderCreation ? 'user_pending_limit' : 'rate_limited', { 'Retry-After': String(retryAfter) });
    }
    window.push(now);
  }

  // -------------------------------------------------------------------------------------------
  // H2H creation: the order, and with integration type order_with_form its form session

  createOrder(terminal: Terminal, req: OrderRequest, ctx: { baseUrl: string }): OrderRecord {
    const withForm = terminal.settings.integrationType === 'order_with_form';
    const order = this.orders.create(terminal, req, { withForm, session: null });
    if (withForm) this.sessions.openForOrder(terminal, order, req, ctx);
    return order;
  }

  /** Sends the order's webhook with its current status (after a change, or again: `POST /sandbox/orders/{id}/webhook`). */
  sendWebhook(terminal: Terminal, order: OrderRecord): WebhookDelivery {
    const envelope: WebhookEnvelope = {
      request_id: randomUUID(),
      webhook_type: order.side === 'Sell' ? 'sell_update' : 'buy_update',
      datetime: webhookDatetime(order.updatedMs),
      payload: orderJson(order),
    };
    return this.webhooks.dispatch(terminal, {
      request_id: envelope.request_id,
      order_id: order.id,
      client_order_id: order.clientOrderId,
      webhook_type: envelope.webhook_type,
      url: order.webhookUrl ?? terminal.settings.webhookUrl,
      created_at: isoMillis(order.updatedMs),
      envelope,
    });
  }
}
