/**
 * Read-only views of what the handler knows, for a merchant's back office (the demo console uses
 * them): sessions searched by a fragment of their order_ref, client order id or amount; one order's
 * history as the handler saw it, its hooks, its dispute and the webhooks received for it.
 */
import type { OrderView } from '../../protocol/index.js';
import { SESSIONS_INDEX } from '../sessions.js';
import type { HistoryEntry, HookKind, HookState, SessionDispute, SessionRecord } from '../sessions.js';
import type { CheckoutCore } from './core.js';
import type { Inbox, WebhookLogEntry, WebhookLogQuery } from './inbox.js';

export interface SessionSummary {
  session_id: string;
  order_ref: string;
  client_order_id: string;
  provider_order_id: string | null;
  mode: SessionRecord['mode'];
  status: OrderView['status'];
  provider_status: string;
  amount: string;
  currency: string;
  /** ISO */
  created_at: string;
  late: boolean;
  /** The dispute the order view shows (see {@link SessionRecord.dispute}). */
  dispute: SessionDispute | null;
  /** Every dispute of the order followed, oldest first, each with its outcome (and the deposit that confirmed it). */
  disputes: SessionDispute[];
  flagged: SessionRecord['flagged'];
  /** Every flag raised, oldest first (a `dispute_unconfirmed` one per dispute). */
  flags: SessionRecord['flags'];
  hooks: Record<HookKind, HookState & { configured: boolean }>;
}

export interface SessionDetail extends SessionSummary {
  order: OrderView;
  history: HistoryEntry[];
  webhooks: WebhookLogEntry[];
  /** ISO times of the last provider read, and until when the session is kept. */
  refreshed_at: string;
  retain_until: string;
}

/** Sessions scanned per search at most (newest first). */
const SEARCH_SCAN = 5000;

export class Inspector {
  constructor(
    private readonly core: CheckoutCore,
    private readonly inbox: Inbox,
  ) {}

  private summary(rec: SessionRecord): SessionSummary {
    const hooks = {} as SessionSummary['hooks'];
    for (const kind of ['paid', 'closed', 'flagged'] as const) hooks[kind] = { ...rec.hooks[kind], configured: Boolean(this.core.cfg.hooks[kind]) };
    return {
      session_id: rec.sid,
      order_ref: rec.order_ref,
      client_order_id: rec.client_order_id,
      provider_order_id: rec.provider_order_id,
      mode: rec.mode,
      status: rec.view.status,
      provider_status: rec.view.provider_status,
      amount: rec.view.amount,
      currency: rec.view.currency,
      created_at: new Date(rec.created_at).toISOString(),
      late: rec.payment?.late ?? false,
      dispute: rec.dispute,
      disputes: rec.disputes,
      flagged: rec.flagged,
      flags: rec.flags,
      hooks,
    };
  }

  /**
   * Sessions newest first. `query` matches a fragment (case-insensitive) of the order_ref, client
   * order id or provider order id, or the amount (`1500`, `1500.00`, `1 500,00`).
   */
  async sessions(options: { query?: string; limit?: number; before?: number } = {}): Promise<SessionSummary[]> {
    const limit = Math.min(Math.max(Math.floor(options.limit ?? 50), 1), 500);
    const q = (options.query ?? '').trim().toLowerCase();
    const amountQuery = q.replace(/[\s\u00a0]/g, '').replace(',', '.');
    const isAmount = /^\d+(\.\d{1,2})?$/.test(amountQuery);
    const entries = await this.core.cfg.store.indexRange(SESSIONS_INDEX, {
      limit: SEARCH_SCAN,
      reverse: true,
      ...(options.before !== undefined && { max: options.before }),
    });
    const out: SessionSummary[] = [];
    for (const { member } of entries) {
      const rec = await this.core.repo.get(member);
      if (!rec) continue;
      if (q) {
        const text = `${rec.order_ref}\n${rec.client_order_id}\n${rec.provider_order_id ?? ''}`.toLowerCase();
        const amountHit = isAmount && (rec.view.amount === amountQuery || rec.view.amount.split('.')[0] === amountQuery || rec.requested_amount === amountQuery);
        if (!text.includes(q) && !amountHit) continue;
      }
      out.push(this.summary(rec));
      if (out.length >= limit) break;
    }
    return out;
  }

  /** One session by its id, its provider order id or its client order id (the newest session then). */
  async session(id: string): Promise<SessionDetail | null> {
    let rec = await this.core.repo.get(id);
    if (!rec) rec = await this.core.repo.findByOrderId(id);
    if (!rec) {
      const sids = await this.core.repo.sessionsOfClientOrder(id);
      for (const sid of [...sids].reverse()) {
        rec = await this.core.repo.get(sid);
        if (rec) break;
      }
    }
    if (!rec) return null;
    const webhooks = await this.inbox.list({ limit: 50, order_id: rec.provider_order_id ?? rec.client_order_id });
    return {
      ...this.summary(rec),
      order: rec.view,
      history: rec.history,
      webhooks,
      refreshed_at: new Date(rec.refreshed_at).toISOString(),
      retain_until: new Date(rec.retain_until).toISOString(),
    };
  }

  /**
   * The webhook log, newest first: `verified: true` the verified deliveries only, `false` the ones
   * that failed verification (their own, smaller log), absent both (each up to `limit`).
   */
  webhooks(options: WebhookLogQuery = {}): Promise<WebhookLogEntry[]> {
    return this.inbox.list(options);
  }
}
