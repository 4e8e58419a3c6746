/**
 * The requests of the checkout and the stored session, as a reactive controller: it runs the
 * machine's request effects (methods, create, resume) one at a time (a newer one or a disconnect
 * makes an older answer stale; a request cut off by a disconnect runs again on reconnecting, with the
 * same idempotency key), keeps the session in storage, and makes the tabs of one browser share one
 * order per endpoint and order ref:
 *   - a stored session is resumed at start (a reload, or a second tab);
 *   - a create first claims the attempt in storage (claim.ts): another tab's session is followed,
 *     another tab's attempt is joined (same key and request: the server answers the same session).
 */
import type { ReactiveController } from 'lit';
import { createApi, toErrorInfo, type Api } from './api.js';
import type { SessionHost } from './hosts.js';
import type { Effect, MachineState } from './machine.js';
import type { FirstRequest } from './first.js';
import { createSession, purchaseKey, resumeSession, storedCheckout, type RequestContext } from './requests.js';
import { saveCheckout, type StoredCheckout } from './storage.js';
import { ENDED_MS, forgetCheckout, PAID_MS } from './stored.js';
import { normaliseEndpoint, safeHttpUrl } from '../protocol/url.js';

export class SessionController implements ReactiveController {
  /** Number of the request under way: answers of older ones are stale. */
  private op = 0;
  private abort?: AbortController | null;
  /** The request effect under way, run again after a reconnect. */
  private pending?: Effect | null;
  /**
   * The request the CDN entry started for this element before its code arrived (first.ts; handed over
   * by src/element/cdn-element.ts): the element's `start` is its, and the first request effect takes its answer.
   */
  first?: FirstRequest | null;

  constructor(private readonly host: SessionHost) {
    host.el.addController(this);
  }

  /** The token endpoint, normalised ('' when unusable). */
  get endpoint(): string {
    return normaliseEndpoint(this.host.el.endpoint) ?? '';
  }

  /** The purchase's storage key: its order ref, else (a session given by attribute) that session. */
  get key(): string {
    const { orderRef, session } = this.host.el;
    return purchaseKey(this.endpoint, orderRef, session);
  }

  api(): Api {
    return createApi(this.endpoint, { fetch: this.host.env$.fetch });
  }

  /**
   * The stored record of this purchase (by order ref, else by the session attribute): this tab's own first (the order it
   * showed, even when another tab has made a newer one for the same ref since), else the shared one.
   * `session`: the session the page gives (its attribute), which is shown instead of any other stored.
   */
  stored(session: string): StoredCheckout | null {
    return storedCheckout(this.host.env$, this.key, session);
  }

  hostConnected(): void {
    // A page's first Web Locks call waits tens of ms for the browser (its storage bucket): made at
    // once, it runs during the first render instead of between the create's claim and its request.
    void this.host.env$.locks?.query?.().catch(() => {});
    const fx = this.pending;
    this.pending = null;
    if (fx) this.run(fx); // a request cut off by a disconnect runs again (same idempotency key)
  }

  hostDisconnected(): void {
    const pending = this.pending;
    this.cancel();
    this.pending = pending;
  }

  /** Drops the request under way (its answer will be ignored). */
  cancel(): void {
    this.op++;
    this.abort?.abort();
    this.abort = this.pending = null;
  }

  /** Runs a request or storage effect of the machine; false for any other effect. */
  run(fx: Effect): boolean {
    const h = this.host;
    const { orderRef, bank } = h.el;
    const { clock, storage } = h.env$;
    switch (fx.type) {
      case 'fetchMethods':
        this.request(fx, (signal) =>
          this.api()
            .methods(orderRef, signal)
            .then((list) => {
              // A preselected bank limits the methods to its own, where it has any.
              const only = list.methods.filter((m) => m.bank === bank);
              h.send({ type: 'methods', ...list, methods: only.length > 0 ? only : list.methods });
            }),
        );
        return true;
      case 'create':
      case 'resume': {
        const first = this.first;
        this.first = null;
        // The entry's request for this very effect (same start, so the same create or resume): its answer.
        const c: RequestContext = { env: h.env$, api: this.api(), key: this.key, orderRef, bank, mode: h.el.mode };
        this.request(fx, (signal) =>
          (first?.fx === fx.type ? first.answer : fx.type === 'create' ? createSession(c, fx, signal) : resumeSession(c, fx.session, signal)).then(
            (e) => void (e && !signal.aborted && h.send(e)),
          ),
        );
        return true;
      }
      case 'store':
        // The tab's record and the shared one (which a second tab resumes).
        for (const s of [h.env$.tabStorage, storage]) saveCheckout(s, this.key, record(fx.session, fx.paid, h.machine, clock.now()));
        return true;
      case 'forget':
        for (const s of [h.env$.tabStorage, storage]) forgetCheckout(s, this.key, fx.mine);
        return true;
    }
    return false;
  }

  /** Runs one request of the machine; a newer one (or a disconnect) makes its answer stale. */
  private request(fx: Effect, work: (signal: AbortSignal) => Promise<void>): void {
    this.cancel();
    const op = ++this.op;
    const ctrl = (this.abort = new AbortController());
    this.pending = fx;
    work(ctrl.signal).then(
      () => {
        if (op === this.op) this.pending = null;
      },
      (e: unknown) => {
        if (op !== this.op) return;
        this.pending = null;
        const error = toErrorInfo(e);
        if (error.code !== 'aborted') this.host.send({ type: 'failed', error });
      },
    );
  }
}

/** What is stored for a session (the machine's order, and whether the shopper said it is paid): its expiry follows the order (longer once it ended, shorter once paid). */
function record(session: string, paid: boolean, { order, said }: MachineState, now: number): StoredCheckout {
  const ends = Date.parse(order?.expires_at ?? '');
  const exp = paid ? now + PAID_MS : Math.max(now, Number.isNaN(ends) ? now : ends) + ENDED_MS;
  return {
    session,
    paid,
    said,
    attempt: null,
    order: order ? { number: order.client_order_id, support: safeHttpUrl(order.support_url), back: safeHttpUrl(order.return_url) } : null,
    exp,
  };
}
