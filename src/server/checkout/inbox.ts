/**
 * Webhooks, once authenticated by the handler: the rule is that a webhook for an order this handler
 * created is never answered 2xx unless it was recorded.
 *
 * - A known order: the session is marked (a confirmation is pending, the sweep will look at it) and
 *   then the order is read back from the provider; 200 when that read finished in time, 202 when not
 *   (recorded: the next read or sweep confirms it).
 * - A hosted-form order not bound yet: the sessions of that client order id are synced through their
 *   own form sessions, which binds the right one (never "the newest order with that id").
 * - No session: the order is read from the provider; when it is this handler's (its webhook_url is
 *   ours, or its client order id is one we generate), it is kept as an orphan. Either a create of
 *   its client order id is still out (the webhook outran the create's answer, or the process died
 *   while the create was out and the shopper's retry will adopt the order): the session that create
 *   or its retry stores takes the orphan at once ({@link Inbox.takeEarly}), and the sweep leaves it
 *   alone while that may happen ({@link createMayStillBind}). Or the store lost the session: the
 *   sweep flags it (`session_lost`) once it is paid. When nothing can be read or recorded, the answer
 *   is non-2xx and the provider retries.
 *
 * Every webhook, refused or not, lands in a capped log (newest first) for the console: the verified
 * ones in one log (1000 lines), the ones that failed verification in their own (200 lines), so
 * forged deliveries, however many, never push a verified one out.
 */
import { orderOutcome } from '../../provider/facts.js';
import type { Order } from '../../provider/schemas.js';
import { isProviderError } from '../errors.js';
import { randomId } from '../crypto.js';
import { isGeneratedClientOrderId, seenClientOrderKey, WATCH_INDEX } from '../sessions.js';
import type { SessionRecord } from '../sessions.js';
import type { CheckoutStore } from '../store.js';
import type { CheckoutCore } from './core.js';
import { readUncertain } from './create-once.js';
import type { StatusSync } from './status.js';
import type { Hooks } from './hooks.js';
import { orphanKey, reportLost, reportsLost } from './lost.js';
import type { OrphanRecord } from './lost.js';
import { noteWebhook } from '../telemetry.js';

export const WEBHOOK_LOG_INDEX = 'webhooks';
/** Deliveries that failed verification (anyone can send them): kept apart, in a smaller log. */
export const UNVERIFIED_WEBHOOK_LOG_INDEX = 'webhooks:unverified';
export const WEBHOOK_LOG_KEEP = 1000;
export const UNVERIFIED_WEBHOOK_LOG_KEEP = 200;
export { ORPHAN_PREFIX, orphanKey } from './lost.js';
export type { OrphanRecord } from './lost.js';

/**
 * True while a create of `coid` may still store a session for its order: the create is out (its
 * answer may still come) or its outcome is unknown (a retry with the same Idempotency-Key or client
 * order id looks the order up and adopts it). create.ts marks the id before it sends the create and
 * clears the mark only after the session is stored, so: read this first, then look for the session.
 */
export async function createMayStillBind(store: CheckoutStore, coid: string): Promise<boolean> {
  return (await readUncertain(store, coid)) !== null;
}

/** What became of a delivery; `test`: a verified test delivery (`paydesk webhooks test`), which touches no order. */
export type WebhookOutcome = 'confirmed' | 'recorded' | 'orphan' | 'ignored' | 'refused' | 'failed' | 'test';

/** One line of the webhook log. */
export interface WebhookLogEntry {
  id: string;
  at: number;
  /** From the (maybe unverified) payload, when it had one. */
  order_id: string | null;
  client_order_id: string | null;
  status: string | null;
  verified: boolean;
  outcome: WebhookOutcome;
  /** Why it was refused or failed, or what it did. */
  detail: string | null;
  http_status: number;
  session_id: string | null;
}


export interface ReceiveResult {
  outcome: 'confirmed' | 'recorded' | 'orphan' | 'ignored';
  sid: string | null;
}

export interface WebhookLogQuery {
  limit?: number;
  order_id?: string;
  /** true: the verified log only; false: the unverified log only; absent: both, each up to `limit`. */
  verified?: boolean;
}

export class Inbox {
  private logged = 0;
  private loggedUnverified = 0;

  constructor(
    private readonly core: CheckoutCore,
    private readonly status: StatusSync,
    private readonly hooks: Hooks,
  ) {}

  /** Appends to the webhook log, or the unverified one (never throws: the log must not cost a delivery). */
  async log(entry: Omit<WebhookLogEntry, 'id' | 'at'>): Promise<void> {
    const { store, now, log } = this.core.cfg;
    const line: WebhookLogEntry = { id: randomId(9), at: now(), ...entry };
    noteWebhook(entry);
    const [index, keep] = entry.verified ? [WEBHOOK_LOG_INDEX, WEBHOOK_LOG_KEEP] : [UNVERIFIED_WEBHOOK_LOG_INDEX, UNVERIFIED_WEBHOOK_LOG_KEEP];
    const n = entry.verified ? ++this.logged : ++this.loggedUnverified;
    try {
      // Lines of one millisecond keep their order (a sub-millisecond sequence in the score).
      await store.indexSet(index, JSON.stringify(line), line.at + (n % 1000) / 1000);
      if (n % 50 === 1) await store.indexTrim(index, keep);
    } catch (err) {
      log.warn('could not write the webhook log', { err });
    }
  }

  /** Newest first; without `verified`, both logs, each up to `limit` (so at most twice `limit` lines). */
  async list(options: WebhookLogQuery = {}): Promise<WebhookLogEntry[]> {
    const limit = Math.min(Math.max(options.limit ?? 100, 1), WEBHOOK_LOG_KEEP);
    const verified = options.verified === false ? [] : await this.read(WEBHOOK_LOG_INDEX, WEBHOOK_LOG_KEEP, limit, options.order_id);
    const unverified = options.verified === true ? [] : await this.read(UNVERIFIED_WEBHOOK_LOG_INDEX, UNVERIFIED_WEBHOOK_LOG_KEEP, limit, options.order_id);
    if (unverified.length === 0) return verified;
    if (verified.length === 0) return unverified;
    return [...verified, ...unverified].sort((a, b) => b.at - a.at);
  }

  private async read(index: string, keep: number, limit: number, orderId: string | undefined): Promise<WebhookLogEntry[]> {
    const entries = await this.core.cfg.store.indexRange(index, { limit: keep, reverse: true });
    const out: WebhookLogEntry[] = [];
    for (const e of entries) {
      let line: WebhookLogEntry;
      try {
        line = JSON.parse(e.member) as WebhookLogEntry;
      } catch {
        continue;
      }
      if (orderId && line.order_id !== orderId && line.client_order_id !== orderId) continue;
      out.push(line);
      if (out.length >= limit) break;
    }
    return out;
  }

  /**
   * Handles an authenticated webhook for `orderId` / `coid`. Throws when nothing could be recorded.
   * A known session is recorded first (a pending confirmation, on the sweep's list: store errors
   * throw → 5xx), then confirmed by reading the order back from the provider: `confirmed` when that
   * read finished within the confirm timeout, else `recorded` (the next read or sweep confirms it).
   */
  async receive(orderId: string, coid: string): Promise<ReceiveResult> {
    const { cfg } = this.core;
    let rec = await this.core.repo.findByOrderId(orderId);
    if (rec && rec.client_order_id !== coid) rec = null;
    if (!rec) rec = await this.bindFormSession(orderId, coid);
    if (!rec) {
      const kept = await this.orphan(orderId, coid);
      if (kept.outcome !== 'orphan') return kept;
      // The create's answer may have stored the session while the order was read: it looked for the
      // orphan before it was written, so this delivery confirms the session itself.
      const owner = await this.core.repo.findByOrderId(orderId);
      if (!owner || owner.client_order_id !== coid) return kept;
      await this.dropOrphan(orderId);
      rec = owner;
    }
    return this.confirm(rec);
  }

  /**
   * The session `rec` has just been stored for its order (a create's answer, or a retry that adopted
   * the order): a webhook for that order that came before it (an orphan) is taken now — the session
   * is marked awaiting confirmation and read from the provider, so a payment shows in the create's
   * answer (or, when that read is slow, at the next read), not at the next sweep. Never throws.
   */
  async takeEarly(rec: SessionRecord): Promise<SessionRecord> {
    const { cfg } = this.core;
    const orderId = rec.provider_order_id;
    if (!orderId) return rec;
    try {
      if (!(await cfg.store.get(orphanKey(orderId)))) return rec;
      await this.dropOrphan(orderId);
      cfg.log.info('a webhook came for this order before its session was stored; the session takes it now', { session: rec.sid, order_id: orderId });
      await this.confirm(rec);
      return (await this.core.repo.get(rec.sid)) ?? rec;
    } catch (err) {
      cfg.log.warn('taking an early webhook for a new session failed; the next read or sweep confirms it', { session: rec.sid, order_id: orderId, err });
      return rec;
    }
  }

  /** The order is its session's now: the sweep no longer follows it as an orphan. */
  private async dropOrphan(orderId: string): Promise<void> {
    await this.core.cfg.store.delete(orphanKey(orderId));
    await this.core.cfg.store.indexRemove(WATCH_INDEX, orphanKey(orderId));
  }

  /** Records the webhook on its session (store errors throw) and confirms it by reading the order, within the confirm timeout. */
  private async confirm(rec: SessionRecord): Promise<ReceiveResult> {
    const { cfg } = this.core;
    const orderId = rec.provider_order_id;
    if (rec.view.status === 'paid') {
      this.status.settle(rec, null).catch((err: unknown) => cfg.log.error('settling a paid session failed', { err }));
      return { outcome: 'confirmed', sid: rec.sid };
    }
    const sid = rec.sid;
    await this.core.repo.update(sid, (cur) => (cur.confirm_pending ? null : { ...cur, confirm_pending: true }));
    await this.core.repo.watch(sid, cfg.now());
    const confirmation = this.status.sync(rec, 'webhook').then(
      () => true,
      (err: unknown) => {
        this.core.logProviderFailure('confirming a webhook with the provider failed; the next read or sweep confirms it', err, { session: sid, order_id: orderId });
        return false;
      },
    );
    const confirmed = await this.core.within(confirmation, cfg.webhookConfirmTimeoutMs, false);
    return { outcome: confirmed === true ? 'confirmed' : 'recorded', sid };
  }

  /** Syncs the unbound hosted-form sessions of `coid`; the one whose form session made `orderId` binds to it. */
  private async bindFormSession(orderId: string, coid: string): Promise<SessionRecord | null> {
    const sids = await this.core.repo.sessionsOfClientOrder(coid);
    for (const sid of sids) {
      const rec = await this.core.repo.get(sid);
      if (!rec || rec.provider_order_id || rec.mode !== 'form' || !rec.form_session_id) continue;
      // A failure here throws: nothing was recorded, so the provider must retry.
      const res = await this.status.sync(rec, 'webhook');
      if (res?.after.provider_order_id === orderId) return res.after;
    }
    return null;
  }

  /** No session: read the order; keep it when it is ours. Throws when it cannot be read (→ 5xx, retried). */
  private async orphan(orderId: string, coid: string): Promise<ReceiveResult> {
    const { cfg } = this.core;
    // Read before the order: the create may answer while the order is read (receive then finds its session).
    const creating = await createMayStillBind(cfg.store, coid);
    let order: Order;
    try {
      order = await cfg.client.getOrder(orderId);
    } catch (err) {
      if (isProviderError(err) && err.code === 'order_not_found') {
        cfg.log.info('webhook for an order the provider does not know; acknowledged and ignored', { order_id: orderId });
        return { outcome: 'ignored', sid: null };
      }
      throw err;
    }
    // Ours: our webhook URL on it, a client order id we generate, or one we created orders for (a
    // merchant's id, a hosted-form order that carries no webhook_url).
    const ours =
      order.client_order_id === coid &&
      ((cfg.webhookUrl !== null && order.webhook_url === cfg.webhookUrl) ||
        isGeneratedClientOrderId(order.client_order_id) ||
        (await cfg.store.get(seenClientOrderKey(order.client_order_id))) !== null);
    if (!ours) {
      cfg.log.info('webhook for an order this endpoint did not create; acknowledged and ignored', { order_id: orderId, client_order_id: coid });
      return { outcome: 'ignored', sid: null };
    }
    const record: OrphanRecord = { order_id: order.id, client_order_id: order.client_order_id, first_seen: cfg.now(), status: order.status };
    const ttl = cfg.lateWindowMs + 30 * 24 * 3600 * 1000;
    const paid = orderOutcome(order.status) === 'paid';
    // Logged when first kept, and again when a delivery reports it paid.
    if ((await cfg.store.create(orphanKey(order.id), JSON.stringify(record), ttl)) || paid) {
      const fields = { order_id: order.id, client_order_id: order.client_order_id, provider_status: order.status };
      if (creating) {
        // Not lost: the create's answer (or, after a crash, the shopper's retry) stores its session.
        cfg.log.warn('a webhook came for an order whose create has not been answered yet; the session that create (or its retry) stores takes it', fields);
      } else if (paid && !reportsLost(this.core, order)) {
        cfg.log.error('a webhook came for a paid order of this endpoint whose session the store no longer has, and no onOrderFlagged is configured: review it by hand', fields);
      } else {
        cfg.log.error(
          paid
            ? 'a webhook came for a paid order of this endpoint whose session the store no longer has; it is reported now (onOrderPaid by the order_ref its client order id carries, else onOrderFlagged session_lost)'
            : 'a webhook came for an order of this endpoint whose session the store no longer has; it is kept for the sweep (reported once it is paid)',
          fields,
        );
      }
    }
    await cfg.store.indexSet(WATCH_INDEX, orphanKey(order.id), cfg.now());
    // Paid, and no create will bind it: reported now, not at the next sweep (which retries a failure;
    // the hook's lease and marker make it run once).
    if (paid && !creating && reportsLost(this.core, order)) {
      const kept = await cfg.store.get(orphanKey(order.id));
      void reportLost(this.core, this.hooks, order, kept ? (JSON.parse(kept.value) as OrphanRecord) : record).catch(() => undefined);
    }
    return { outcome: 'orphan', sid: null };
  }
}
