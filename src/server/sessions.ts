/**
 * Sessions in the store: the record behind a token, the indexes that find it from a webhook, and
 * atomic updates (compare-and-set) that publish every change of the OrderView on the session's
 * channel, so event streams on every instance see it.
 */
import type { IntegrationMode, OrderView } from '../protocol/index.js';
import type { ViewContext } from './order-view.js';
import type { CheckoutStore } from './store.js';

export interface SessionRecord {
  sid: string;
  mode: IntegrationMode;
  order_ref: string;
  client_order_id: string;
  /** True when the server generated client_order_id (unique), false when resolveOrder gave it (may repeat). */
  client_order_id_generated: boolean;
  /** The provider's order id; null for a form until the shopper picks a method. */
  provider_order_id: string | null;
  form_session_id: string | null;
  requested_amount: string;
  currency: string;
  unique_amount: boolean;
  /** The amount the provider fixed when it created the order (unique_amount may raise it by ≤ 9). */
  expected_amount: string | null;
  ctx: ViewContext;
  view: OrderView;
  /** Event number (SSE `id:`): grows by one whenever `view` changes. */
  event: number;
  /** ms since epoch */
  created_at: number;
  expires_at: number;
  refreshed_at: number;
  /** A verified webhook arrived and its confirming provider read has not succeeded yet. */
  confirm_pending: boolean;
  flagged: { reason: 'amount_mismatch' | 'currency_mismatch'; provider_amount: string; provider_currency: string; at: number } | null;
  /** Hooks that have completed for this session. */
  hooks: { paid: boolean; closed: boolean; flagged: boolean };
}

/** Message on a session channel. */
export interface SessionEventMessage {
  event: number;
  view: OrderView;
}

export const sessionKey = (sid: string) => `s:${sid}`;
export const sessionChannel = (sid: string) => `ev:${sid}`;
export const orderIndexKey = (providerOrderId: string) => `o:${providerOrderId}`;
export const clientOrderIndexKey = (clientOrderId: string) => `c:${clientOrderId}`;

export interface UpdateResult {
  before: SessionRecord;
  after: SessionRecord;
}

/** Parsed records by session, reused while the stored text is unchanged (reads are the hot path). */
const PARSE_CACHE_SIZE = 1000;

export class SessionRepository {
  private readonly parsed = new Map<string, { raw: string; rec: SessionRecord; viewJson: string }>();

  constructor(
    private readonly store: CheckoutStore,
    private readonly now: () => number,
  ) {}

  /**
   * The session and its OrderView as JSON, for reads. The record is shared: treat it as read-only
   * (updates go through {@link update}, which parses its own copy).
   */
  async read(sid: string): Promise<{ rec: SessionRecord; viewJson: string } | null> {
    const v = await this.store.get(sessionKey(sid));
    if (!v) {
      this.parsed.delete(sid);
      return null;
    }
    const hit = this.parsed.get(sid);
    if (hit && hit.raw === v.value) return hit;
    const rec = JSON.parse(v.value) as SessionRecord;
    const entry = { raw: v.value, rec, viewJson: JSON.stringify(rec.view) };
    if (this.parsed.size >= PARSE_CACHE_SIZE) this.parsed.delete(this.parsed.keys().next().value!);
    this.parsed.set(sid, entry);
    return entry;
  }

  private ttl(rec: SessionRecord): number {
    return Math.max(1000, rec.expires_at - this.now());
  }

  async get(sid: string): Promise<SessionRecord | null> {
    const v = await this.store.get(sessionKey(sid));
    return v ? (JSON.parse(v.value) as SessionRecord) : null;
  }

  async create(rec: SessionRecord): Promise<void> {
    const ttl = this.ttl(rec);
    if (!(await this.store.create(sessionKey(rec.sid), JSON.stringify(rec), ttl))) {
      throw new Error('session id collision');
    }
    await this.index(rec);
  }

  /** Points the client order id (and the provider order id, once known) at this session. */
  async index(rec: SessionRecord): Promise<void> {
    const ttl = this.ttl(rec);
    await this.store.set(clientOrderIndexKey(rec.client_order_id), rec.sid, ttl);
    if (rec.provider_order_id) await this.store.set(orderIndexKey(rec.provider_order_id), rec.sid, ttl);
  }

  /** The session a webhook's order belongs to: by provider id, else by client order id. */
  async findByOrder(providerOrderId: string, clientOrderId: string): Promise<SessionRecord | null> {
    const byId = await this.store.get(orderIndexKey(providerOrderId));
    const byClient = byId ? null : await this.store.get(clientOrderIndexKey(clientOrderId));
    const sid = byId?.value ?? byClient?.value;
    if (!sid) return null;
    const rec = await this.get(sid);
    if (!rec || rec.client_order_id !== clientOrderId) return null;
    if (rec.provider_order_id && rec.provider_order_id !== providerOrderId) return null;
    return rec;
  }

  /**
   * Atomic read-modify-write. `change` gets a copy of the current record and returns the next one, or
   * null for "no change". Retries on a concurrent write; publishes when the event number grew.
   */
  async update(sid: string, change: (current: SessionRecord) => SessionRecord | null): Promise<UpdateResult | null> {
    for (let attempt = 0; attempt < 32; attempt++) {
      const stored = await this.store.get(sessionKey(sid));
      if (!stored) return null;
      const before = JSON.parse(stored.value) as SessionRecord;
      const next = change(JSON.parse(stored.value) as SessionRecord);
      if (next === null) return { before, after: before };
      const written = await this.store.replace(sessionKey(sid), stored.version, JSON.stringify(next), this.ttl(next));
      if (written === null) continue;
      if (next.provider_order_id && next.provider_order_id !== before.provider_order_id) await this.index(next);
      if (next.event > before.event) await this.publish(next);
      return { before, after: next };
    }
    throw new Error(`session ${sid} is updated too often concurrently`);
  }

  async publish(rec: SessionRecord): Promise<void> {
    const message: SessionEventMessage = { event: rec.event, view: rec.view };
    await this.store.publish(sessionChannel(rec.sid), JSON.stringify(message));
  }
}
