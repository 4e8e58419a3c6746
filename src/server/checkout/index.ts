/**
 * The token endpoint's core, free of HTTP, one job per module:
 *
 *   resolve.ts      the merchant's resolveOrder, checked       offers.ts      methods and fees per amount
 *   idempotency.ts  Idempotency-Key claims                     create.ts      orders and forms at the provider
 *   status.ts       following an order, forward only           hooks.ts       the merchant's hooks, once, leased
 *   inbox.ts        webhooks and their log                      disputes.ts    receipts and what a processed dispute means
 *   reconcile.ts    the sweep that catches what was missed      inspect.ts     read-only views for a back office
 *   sweep/          the sweep's parts: run (its state), sessions, disputes, orphans
 */
import { CheckoutCore } from './core.js';
import type { CheckoutConfig } from './config.js';
import { Creator } from './create.js';
import type { CreatedSession, CreateSessionInput } from './create.js';
import { Disputes } from './disputes.js';
import { Hooks } from './hooks.js';
import { IdempotentCreate } from './idempotency.js';
import { Inbox } from './inbox.js';
import { Inspector } from './inspect.js';
import { Offers } from './offers.js';
import { Reconciler } from './reconcile.js';
import { resolveOrder } from './resolve.js';
import type { CheckedOrder } from './resolve.js';
import { StatusSync } from './status.js';
import { inSessionCreate } from '../telemetry.js';

export type { CheckoutConfig } from './config.js';
export type { CheckedOrder } from './resolve.js';
export type { CreatedSession, CreateSessionInput } from './create.js';
export { generateClientOrderId } from '../sessions.js';
export type { ReconcileReport } from './reconcile.js';
export type { WebhookLogEntry, WebhookLogQuery, WebhookOutcome } from './inbox.js';
export type { SessionSummary, SessionDetail } from './inspect.js';

export class Checkout extends CheckoutCore {
  readonly offers: Offers;
  readonly hooks: Hooks;
  readonly status: StatusSync;
  readonly inbox: Inbox;
  readonly disputes: Disputes;
  readonly reconciler: Reconciler;
  readonly inspect: Inspector;
  private readonly creator: Creator;
  private readonly idempotent: IdempotentCreate;

  constructor(cfg: CheckoutConfig) {
    super(cfg);
    this.offers = new Offers(this);
    this.hooks = new Hooks(this);
    this.status = new StatusSync(this, this.hooks);
    this.inbox = new Inbox(this, this.status, this.hooks);
    this.disputes = new Disputes(this, this.status);
    this.reconciler = new Reconciler(this, this.status, this.hooks, this.disputes);
    this.inspect = new Inspector(this, this.inbox);
    this.creator = new Creator(this, this.offers, this.inbox);
    this.idempotent = new IdempotentCreate(this, this.offers, this.creator);
  }

  resolve(orderRef: string, request: Request): Promise<CheckedOrder> {
    return resolveOrder(this, orderRef, request);
  }

  createSession(input: CreateSessionInput, request: Request, idempotencyKey: string | null): Promise<CreatedSession> {
    return inSessionCreate(input.mode, () => (idempotencyKey === null ? this.creator.createPlain(input, request) : this.idempotent.create(input, request, idempotencyKey)));
  }
}
