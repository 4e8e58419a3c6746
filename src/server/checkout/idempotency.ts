/**
 * `POST /sessions` with an `Idempotency-Key`: the first request claims the key in the store (with a
 * lease) and creates; a duplicate with the same parameters waits for it and answers the same session;
 * different parameters are a conflict. A claim whose creation failed ambiguously (the provider may
 * have made the order) is marked `uncertain`, and the next attempt looks the order up before creating.
 * Every request asks the merchant's `resolveOrder` with its own `Request` once, a replay included.
 *
 * The claim is held by a heartbeat: its `lease_until` is a short {@link livenessMs} ahead, renewed
 * every third of it while the request runs, so a process killed mid-create is taken over by the
 * shopper's retry within seconds (which then looks the order up by its client order id and adopts
 * it), while a live but slow create keeps its claim; `idempotencyLeaseSeconds` still bounds how long
 * one create may take.
 */
import { randomId, sha256Base64url } from '../crypto.js';
import { CheckoutError, idempotencyInProgress } from '../errors.js';
import type { CheckoutCore } from './core.js';
import { generateClientOrderId } from '../sessions.js';
import { provesNotCreated } from './create.js';
import type { CreatedSession, CreateSessionInput, Creator } from './create.js';
import type { Offers } from './offers.js';
import { resolveOrder } from './resolve.js';

interface IdempotencyRecord {
  fingerprint: string;
  state: 'pending' | 'uncertain' | 'done';
  owner: string;
  lease_until: number;
  started_at: number;
  client_order_id: string | null;
  sid: string | null;
  expires_at: number | null;
}


/** How far ahead a live claim's lease reaches (renewed every third of it): at most 10 s. */
export const livenessMs = (leaseMs: number): number => Math.min(leaseMs, 10_000);

export class IdempotentCreate {
  constructor(
    private readonly core: CheckoutCore,
    private readonly offers: Offers,
    private readonly creator: Creator,
  ) {}

  async create(input: CreateSessionInput, request: Request, key: string): Promise<CreatedSession> {
    const { store, now } = this.core.cfg;
    const hash = sha256Base64url(key);
    const storeKey = `idem:${hash}`;
    const channel = `idem-ev:${hash}`;
    const fingerprint = sha256Base64url(
      JSON.stringify([
        input.order_ref,
        input.mode,
        input.payment_method_id ?? null,
        input.method_type ?? null,
        input.nspk_code ?? null,
        input.customer_bank ?? null,
        input.button_name ?? null,
      ]),
    );
    const deadline = performance.now() + this.core.cfg.idempotencyWaitMs;
    let unsubscribe: (() => Promise<void>) | null = null;
    let wake: (() => void) | null = null;
    try {
      for (;;) {
        const current = await store.get(storeKey);
        if (!current) {
          const claim: IdempotencyRecord = {
            fingerprint,
            state: 'pending',
            owner: randomId(9),
            lease_until: now() + livenessMs(this.core.cfg.idempotencyLeaseMs),
            started_at: now(),
            client_order_id: null,
            sid: null,
            expires_at: null,
          };
          if (await store.create(storeKey, JSON.stringify(claim), this.core.cfg.idempotencyTtlMs)) {
            return await this.runClaim(storeKey, channel, 1, claim, input, request);
          }
          continue;
        }
        const rec = JSON.parse(current.value) as IdempotencyRecord;
        if (rec.fingerprint !== fingerprint) {
          throw new CheckoutError(
            409,
            'idempotency_conflict',
            'This Idempotency-Key was already used with different parameters. Use a new key for a new payment.',
          );
        }
        if (rec.state === 'done' && rec.sid !== null && rec.expires_at !== null) {
          // A replay hands out the session only to whom resolveOrder still gives the order (it may check
          // that the cart belongs to whoever asks): the key alone is not a pass. null → 404, nothing out.
          await resolveOrder(this.core, input.order_ref, request);
          const record = await this.core.repo.get(rec.sid);
          if (!record) throw new CheckoutError(404, 'session_not_found', 'The session this Idempotency-Key created is no longer stored (pruned after its retention).');
          return { record, token: this.core.cfg.tokens.sign(record.sid, rec.expires_at), replayed: true };
        }
        if (rec.state === 'uncertain' || rec.lease_until <= now()) {
          // The first attempt failed without knowing whether the provider created the order, or its
          // owner vanished: take over, and look the order up before creating it again.
          const takeover: IdempotencyRecord = { ...rec, state: 'pending', owner: randomId(9), lease_until: now() + livenessMs(this.core.cfg.idempotencyLeaseMs) };
          const version = await store.replace(storeKey, current.version, JSON.stringify(takeover), this.core.cfg.idempotencyTtlMs);
          if (version !== null) return await this.runClaim(storeKey, channel, version, takeover, input, request);
          continue;
        }
        // Another request with this key is creating the session: wait for it.
        const left = deadline - performance.now();
        if (left <= 0) throw idempotencyInProgress();
        if (!unsubscribe) {
          unsubscribe = await store.subscribe(channel, () => wake?.());
          continue; // read again: the change may have landed before the subscription
        }
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, Math.min(250, left));
          wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        wake = null;
      }
    } finally {
      if (unsubscribe) await unsubscribe().catch(() => undefined);
    }
  }

  /** Runs the creation this request has claimed, keeping the idempotency record in step. */
  private async runClaim(
    storeKey: string,
    channel: string,
    version: number,
    claim: IdempotencyRecord,
    input: CreateSessionInput,
    request: Request,
  ): Promise<CreatedSession> {
    const { store, now } = this.core.cfg;
    const liveMs = livenessMs(this.core.cfg.idempotencyLeaseMs);
    let rec = claim;
    let ver = version;
    /** Writes one after another (the heartbeat's and the request's), each on the version the last left. */
    let writes: Promise<unknown> = Promise.resolve();
    const write = (change: (cur: IdempotencyRecord) => IdempotencyRecord, quiet = false): Promise<boolean> => {
      const done = writes.then(async () => {
        const next = change(rec);
        const v = await store.replace(storeKey, ver, JSON.stringify(next), this.core.cfg.idempotencyTtlMs);
        if (v === null) return false;
        ver = v;
        rec = next;
        if (!quiet) await store.publish(channel, next.state).catch(() => undefined);
        return true;
      });
      writes = done.catch(() => undefined);
      return done;
    };
    // The heartbeat: the claim stays ours while this request runs; stops when it ends or is taken over.
    const heartbeat = setInterval(() => {
      void write((cur) => ({ ...cur, lease_until: now() + liveMs }), true).then(
        (ok) => (ok ? undefined : clearInterval(heartbeat)),
        () => undefined,
      );
    }, liveMs / 3);
    (heartbeat as { unref?: () => void }).unref?.();
    const recovering = claim.client_order_id !== null;
    /** Set once the provider may have been asked: from then on only a proven refusal releases the key. */
    let creating = false;
    try {
      const order = await resolveOrder(this.core, input.order_ref, request);
      const selection = this.offers.choose(input, await this.offers.for(order));
      // Persist the client order id before the provider sees it (a retry after a lost answer looks it
      // up), and renew the lease: pricing may have outlasted it, and a request that took the key over
      // meanwhile is the one to create (this one then creates nothing).
      const coid = rec.client_order_id ?? order.client_order_id ?? this.core.cfg.tokens.clientOrderIdFor(input.order_ref) ?? generateClientOrderId();
      if (!(await write((cur) => ({ ...cur, client_order_id: coid, lease_until: now() + liveMs })))) {
        throw idempotencyInProgress();
      }
      creating = true;
      const created = await this.creator.createForClientOrder(input, this.offers.priced(order, selection), selection, coid, {
        recover: recovering,
        generated: order.client_order_id === null,
        since: claim.started_at,
      });
      if (!(await write((cur) => ({ ...cur, state: 'done', sid: created.record.sid, expires_at: created.record.expires_at })))) {
        this.core.cfg.log.warn('an idempotency claim was taken over while its order was being created', { client_order_id: coid });
      }
      return { ...created, replayed: created.replayed };
    } catch (err) {
      // Ambiguous: the provider may have created the order (lost answer, timeout, garbage, or an
      // unexpected throw): keep the client order id so the next attempt looks it up first.
      const ambiguous = rec.client_order_id !== null && (creating ? !provesNotCreated(err) : !(err instanceof CheckoutError));
      try {
        clearInterval(heartbeat);
        if (ambiguous) await write((cur) => ({ ...cur, state: 'uncertain', lease_until: 0 }));
        else if (await writes.then(() => store.delete(storeKey, ver))) await store.publish(channel, 'released').catch(() => undefined);
      } catch (storeErr) {
        this.core.cfg.log.error('could not update an idempotency record after a failed create', { err: storeErr });
      }
      throw err;
    } finally {
      clearInterval(heartbeat);
    }
  }
}
