/**
 * Sessions in the store: the record behind a token, the indexes that find it from a webhook (by the
 * provider's order id, by client_order_id — several sessions may share one), the watch list the
 * reconciliation sweep reads, and atomic updates (compare-and-set) that publish every change of the
 * OrderView on the session's channel, so event streams on every instance see it.
 */
import type { IntegrationMode, OrderView, OrderViewStatus } from '../protocol/index.js';
import { randomId } from './crypto.js';
import { noteSessionChange } from './telemetry.js';
import type { ViewContext } from './order-view.js';
import type { CheckoutStore } from './store.js';

export type HookKind = 'paid' | 'closed' | 'flagged';
export const HOOK_KINDS: readonly HookKind[] = ['paid', 'closed', 'flagged'];

/** Where a hook of one session stands. */
export interface HookState {
  /** When it completed (ms), or null. */
  done_at: number | null;
  /** Failed runs so far. */
  attempts: number;
  /** After a failure: not before this time (ms), the backoff. */
  next_at: number | null;
  /** The last failure's message (for the console). */
  error: string | null;
}

/** What brought a status change: the creation, a browser read, a webhook, the sweep, or a dispute. */
export type SyncSource = 'create' | 'read' | 'webhook' | 'sweep' | 'dispute';

export interface HistoryEntry {
  at: number;
  status: OrderViewStatus;
  provider_status: string;
  via: SyncSource;
  /** e.g. "late", "dispute accepted". */
  note?: string;
}

export interface SessionPayment {
  at: number;
  late: boolean;
  /** The dispute whose acceptance proved the payment, when that is how it was recognised. */
  dispute_id: string | null;
}

export type FlagReason = 'amount_mismatch' | 'currency_mismatch' | 'dispute_unconfirmed';

export interface SessionFlag {
  reason: FlagReason;
  at: number;
  provider_amount?: string;
  provider_currency?: string;
  dispute_id?: string;
}

/** The shopper's appeal at the provider for this session's order. */
export interface SessionDispute {
  id: string;
  /** The provider's creation time (ISO), or ours when it did not say. */
  created_at: string;
  processed: boolean;
  /** When this server saw it processed (ms). */
  processed_at: number | null;
  /** `widget`: uploaded through this endpoint; `provider`: found at the provider (e.g. filed with its support). */
  via: 'widget' | 'provider';
  files: number;
  /** After processing: `paid` (the provider's record of the money was found) or `unconfirmed`. */
  outcome: 'paid' | 'unconfirmed' | null;
  /** The provider's record of the money that confirmed it (a `deposit` naming the order), once found. */
  deposit?: SessionDeposit | null;
}

/** A provider `deposit` transaction that names the order: the money of an accepted dispute. */
export interface SessionDeposit {
  id: string;
  amount: string;
  created_at: string;
}

export interface SessionRecord {
  sid: string;
  mode: IntegrationMode;
  order_ref: string;
  /** `handler.createSession`'s purchase, when it was given (else the order_ref names the purchase). */
  purchase?: string;
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
  /**
   * The time signed into the session's token (created + sessionTtlSeconds); the token works past it
   * until the late window after the order ended ({@link tokenUsableUntil}).
   */
  expires_at: number;
  /** When the record may leave the store (after the late window; later while a hook still fails). */
  retain_until: number;
  refreshed_at: number;
  /** A verified webhook arrived and its confirming provider read has not succeeded yet. */
  confirm_pending: boolean;
  /** When the session ended expired or cancelled (the late window counts from here), or null. */
  ended_at: number | null;
  /** How the payment was recognised, once it was (`late`: after the session had ended expired or cancelled). */
  payment: SessionPayment | null;
  /** The dispute the OrderView shows: the one that confirmed the money, else the newest still checked, else the newest. */
  dispute: SessionDispute | null;
  /** Every dispute of the order this server follows (until the late window closes), oldest first. */
  disputes: SessionDispute[];
  /** The flag being reported by `onOrderFlagged` (or the last one reported). */
  flagged: SessionFlag | null;
  /** Every flag raised, oldest first: one per reason, and a `dispute_unconfirmed` one per dispute. */
  flags: SessionFlag[];
  hooks: Record<HookKind, HookState>;
  /** Status changes as this server saw them, oldest first (at most {@link MAX_HISTORY}). */
  history: HistoryEntry[];
  /** With OpenTelemetry: the order's trace (its create span, `traceId-spanId-flags`; telemetry.ts). */
  trace?: string;
}

export const MAX_HISTORY = 30;

/** Message on a session channel. */
export interface SessionEventMessage {
  event: number;
  view: OrderView;
}

export const sessionKey = (sid: string) => `s:${sid}`;
export const sessionChannel = (sid: string) => `ev:${sid}`;
export const orderIndexKey = (providerOrderId: string) => `o:${providerOrderId}`;
export const clientOrderIndexKey = (clientOrderId: string) => `c:${clientOrderId}`;
/** Kept long after the session: a client order id this handler created orders for (orphan webhooks). */
export const seenClientOrderKey = (clientOrderId: string) => `seen:${clientOrderId}`;

/** A unique client order id: `pd_` + time (base 36) + 96 random bits; 28 characters. */
export function generateClientOrderId(): string {
  return `pd_${Date.now().toString(36)}${randomId(12)}`;
}

/** An id of `generateClientOrderId`'s shape: this handler's own (a webhook for it is ours without a `seen:` key). */
export function isGeneratedClientOrderId(coid: string): boolean {
  // pd_…: generateClientOrderId; pr_…: SessionTokens.clientOrderIdFor (carries the order_ref).
  return /^pd_[0-9a-z]+[A-Za-z0-9_-]{16}$/.test(coid) || /^pr_[0-9a-z]{8}[A-Za-z0-9_-]{16}[A-Za-z0-9._~:@-]{1,37}$/.test(coid);
}
const SEEN_MARGIN_MS = 30 * 24 * 3600 * 1000;
/** Sorted index of sessions by the time the sweep should look at them next. */
export const WATCH_INDEX = 'watch';
/** Sorted index of sessions by creation time (search, console). */
export const SESSIONS_INDEX = 'sessions';
/** Sessions kept per client_order_id (the newest). */
const MAX_SESSIONS_PER_CLIENT_ORDER = 20;

export interface UpdateResult {
  before: SessionRecord;
  after: SessionRecord;
}

export const freshHook = (): HookState => ({ done_at: null, attempts: 0, next_at: null, error: null });

/** A record as stored by any version of this server, with every field present. */
export function normaliseRecord(raw: SessionRecord): SessionRecord {
  const r = raw as SessionRecord & { hooks?: Record<string, unknown> };
  const hooks = {} as Record<HookKind, HookState>;
  for (const kind of HOOK_KINDS) {
    const h = r.hooks?.[kind];
    hooks[kind] =
      h && typeof h === 'object'
        ? { ...freshHook(), ...(h as HookState) }
        : { ...freshHook(), done_at: h === true ? r.created_at : null };
  }
  return {
    ...r,
    retain_until: r.retain_until ?? r.expires_at,
    ended_at: r.ended_at ?? null,
    payment: r.payment ?? (r.view?.status === 'paid' ? { at: r.refreshed_at, late: false, dispute_id: null } : null),
    dispute: r.dispute ?? null,
    disputes: Array.isArray(r.disputes) ? r.disputes : r.dispute ? [r.dispute] : [],
    flagged: r.flagged ?? null,
    flags: Array.isArray(r.flags) ? r.flags : r.flagged ? [r.flagged] : [],
    history: Array.isArray(r.history) ? r.history : [],
    hooks,
    view: { ...r.view, dispute: r.view.dispute ?? null, late: r.view.late ?? false },
  };
}

/**
 * Until when (ms) a session's token works, given the time signed into it (`signedUntil`, the
 * session's own time): at least that long, and until `lateWindowMs` after its order ended (a late
 * payment or a receipt is still accepted then, DESIGN.md "Third release"). An order ended when it
 * reached its last state (expired or cancelled, or paid — a late payment ends it again — or its
 * receipt's outcome came); a pending order ends at its deadline at the latest as far as the shopper
 * can act on it, so its token works until the late window after that deadline (the provider's
 * "expired" follows). While a receipt is being checked (a dispute without its outcome) the token
 * works, so the shopper sees the outcome.
 */
export function tokenUsableUntil(rec: SessionRecord, signedUntil: number, lateWindowMs: number): number {
  if (rec.dispute && (!rec.dispute.processed || rec.dispute.outcome === null)) return Number.POSITIVE_INFINITY;
  let end: number;
  if (rec.view.status === 'pending') {
    const deadline = Date.parse(rec.view.expires_at);
    end = Number.isFinite(deadline) ? deadline : rec.expires_at;
  } else {
    end = Math.max(rec.ended_at ?? 0, rec.payment?.at ?? 0, rec.dispute?.processed_at ?? 0) || rec.refreshed_at;
  }
  return Math.max(signedUntil, end + lateWindowMs);
}

/** Parsed records by session, reused while the stored text is unchanged (reads are the hot path). */
const PARSE_CACHE_SIZE = 1000;

export class SessionRepository {
  private readonly parsed = new Map<string, { raw: string; rec: SessionRecord; viewJson: string }>();
  /** This instance's listeners by session (its event streams): see {@link listen}. */
  private readonly local = new Map<string, Set<(message: SessionEventMessage) => void>>();

  constructor(
    private readonly store: CheckoutStore,
    private readonly now: () => number,
  ) {}

  private parse(raw: string): SessionRecord {
    return normaliseRecord(JSON.parse(raw) as SessionRecord);
  }

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
    const rec = this.parse(v.value);
    const entry = { raw: v.value, rec, viewJson: JSON.stringify(rec.view) };
    if (this.parsed.size >= PARSE_CACHE_SIZE) this.parsed.delete(this.parsed.keys().next().value!);
    this.parsed.set(sid, entry);
    return entry;
  }

  private ttl(rec: SessionRecord): number {
    return Math.max(1000, rec.retain_until - this.now());
  }

  async get(sid: string): Promise<SessionRecord | null> {
    const v = await this.store.get(sessionKey(sid));
    return v ? this.parse(v.value) : null;
  }

  async create(rec: SessionRecord): Promise<void> {
    if (!(await this.store.create(sessionKey(rec.sid), JSON.stringify(rec), this.ttl(rec)))) {
      throw new Error('session id collision');
    }
    // The record is stored; its index entries do not depend on each other and are written together
    // (the create answers once all are written, and fails if one fails, as before).
    await Promise.all([
      this.index(rec),
      // A merchant's own client order id is remembered, so a webhook for it after the session is gone
      // is still known as ours; a generated one is recognised by its shape.
      isGeneratedClientOrderId(rec.client_order_id)
        ? undefined
        : this.store.set(seenClientOrderKey(rec.client_order_id), '1', this.ttl(rec) + SEEN_MARGIN_MS),
      this.store.indexSet(SESSIONS_INDEX, rec.sid, rec.created_at),
      this.watch(rec.sid, rec.created_at),
    ]);
  }

  /** Points the client order id (and the provider order id, once known) at this session. */
  async index(rec: SessionRecord): Promise<void> {
    const ttl = this.ttl(rec);
    await Promise.all([
      this.addToClientOrder(rec.client_order_id, rec.sid, ttl),
      rec.provider_order_id ? this.store.set(orderIndexKey(rec.provider_order_id), rec.sid, ttl) : undefined,
    ]);
  }

  private async addToClientOrder(coid: string, sid: string, ttl: number): Promise<void> {
    const key = clientOrderIndexKey(coid);
    // A generated id is almost always new: its index is created without reading it first (an
    // existing one makes the create fail, and the loop below adds to it).
    if (isGeneratedClientOrderId(coid) && (await this.store.create(key, JSON.stringify([sid]), ttl))) return;
    for (let attempt = 0; attempt < 32; attempt++) {
      const cur = await this.store.get(key);
      const sids = cur ? parseSids(cur.value) : [];
      if (sids.includes(sid)) return;
      const next = JSON.stringify([...sids, sid].slice(-MAX_SESSIONS_PER_CLIENT_ORDER));
      const ok = cur ? (await this.store.replace(key, cur.version, next, ttl)) !== null : await this.store.create(key, next, ttl);
      if (ok) return;
    }
    throw new Error(`the index of client order ${coid} is updated too often concurrently`);
  }

  /** Sessions created for a client order id, oldest first. */
  async sessionsOfClientOrder(coid: string): Promise<string[]> {
    const cur = await this.store.get(clientOrderIndexKey(coid));
    return cur ? parseSids(cur.value) : [];
  }

  /** The session bound to a provider order id, if any. */
  async findByOrderId(providerOrderId: string): Promise<SessionRecord | null> {
    const byId = await this.store.get(orderIndexKey(providerOrderId));
    if (!byId) return null;
    const rec = await this.get(byId.value);
    return rec && rec.provider_order_id === providerOrderId ? rec : null;
  }

  /** The sweep looks at this session again at `at` (ms). */
  async watch(sid: string, at: number): Promise<void> {
    await this.store.indexSet(WATCH_INDEX, sid, at);
  }

  async unwatch(sid: string): Promise<void> {
    await this.store.indexRemove(WATCH_INDEX, sid);
  }

  /**
   * `listener` gets every change of session `sid` this instance writes, within the write's own call
   * (no trip through the store: the store's channel brings the same change again, and the changes
   * other instances write). Returns the function that stops it.
   */
  listen(sid: string, listener: (message: SessionEventMessage) => void): () => void {
    let set = this.local.get(sid);
    if (!set) this.local.set(sid, (set = new Set()));
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0 && this.local.get(sid) === set) this.local.delete(sid);
    };
  }

  /**
   * Atomic read-modify-write. `change` gets a copy of the current record and returns the next one, or
   * null for "no change". Retries on a concurrent write; when the event number grew, hands the new
   * view to this instance's listeners and publishes it on the session's channel (update and publish
   * are one step).
   */
  async update(sid: string, change: (current: SessionRecord) => SessionRecord | null): Promise<UpdateResult | null> {
    for (let attempt = 0; attempt < 32; attempt++) {
      const stored = await this.store.get(sessionKey(sid));
      if (!stored) return null;
      const before = this.parse(stored.value);
      const next = change(this.parse(stored.value));
      if (next === null) return { before, after: before };
      const written = await this.store.replace(sessionKey(sid), stored.version, JSON.stringify(next), this.ttl(next));
      if (written === null) continue;
      // A new order id, or a longer life (a dispute, a failing hook): the indexes follow the record.
      if ((next.provider_order_id && next.provider_order_id !== before.provider_order_id) || next.retain_until > before.retain_until) {
        await this.index(next);
      }
      if (next.event > before.event) {
        // Published with the write: every change a widget can see reaches its stream, on every instance.
        const message: SessionEventMessage = { event: next.event, view: next.view };
        for (const listener of [...(this.local.get(sid) ?? [])]) {
          try {
            listener(message);
          } catch {
            // A listener's failure is its own: the write stands, the others still get the change.
          }
        }
        await this.store.publish(sessionChannel(sid), JSON.stringify(message));
      }
      noteSessionChange(before, next);
      return { before, after: next };
    }
    throw new Error(`session ${sid} is updated too often concurrently`);
  }
}

function parseSids(value: string): string[] {
  // The index of an earlier version held one session id as plain text.
  if (!value.startsWith('[')) return [value];
  try {
    const v = JSON.parse(value) as unknown;
    return Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string') : [];
  } catch {
    return [];
  }
}
