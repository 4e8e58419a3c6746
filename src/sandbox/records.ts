/**
 * The sandbox's records: what a terminal holds (orders, form sessions, disputes with their receipts,
 * transactions, webhook deliveries) and the entries of its due queue. Types only, so every module
 * can share them without importing another's behaviour.
 */
import type { OrderSide } from '../provider/facts.js';
import type { WebhookEnvelope } from '../provider/schemas.js';
import type { DisputeFileType } from '../protocol/index.js';
import type { MethodDef } from './payment-methods.js';

export interface OrderRecord {
  seq: number;
  /** Slot in the terminal's order columns (-1 until inserted). */
  slot: number;
  id: string;
  clientOrderId: string;
  side: OrderSide;
  /** The concrete method that got the order. */
  method: MethodDef;
  initialMethodId: string;
  amount: string;
  /** Amount in minor units as a number: a sort key only, never used for money. */
  amountKey: number;
  requestedAmount: string;
  fee: string;
  fixedFee: number | null;
  status: string;
  holderName: string;
  holderAccount: string;
  requisiteKey: string;
  customerName: string | null;
  customerAccount: string | null;
  customerBank: string | null;
  paymentLink: string | null;
  webhookUrl: string | null;
  formUrl: string | null;
  createdMs: number;
  updatedMs: number;
  expiresMs: number;
  userId: string | null;
  uniqueAmount: boolean;
  sessionId: string | null;
  /** What a Sell order holds frozen (amount + fee) while unpaid. */
  frozen: string | null;
  /**
   * The status the order had ended with before a late completion (`CanceledByTimeout` or
   * `CanceledByService` → `Completed`), else null.
   */
  endedAs: string | null;
}

export interface SessionRecord {
  seq: number;
  id: string;
  clientOrderId: string;
  side: 'Buy';
  /** The amount asked for. */
  requestedAmount: string;
  /** The amount shown on the form: the order's once requisites are found. */
  amount: string;
  paymentMethodType: string | null;
  nspkCode: string | null;
  /** Preselection given at creation: skips method selection. */
  buttonName: string | null;
  customerBank: string | null;
  paymentMethodId: string | null;
  order: OrderRecord | null;
  redirectUrl: string | null;
  supportUrl: string | null;
  returnUrl: string | null;
  searchCount: number;
  selection: boolean;
  createdMs: number;
  updatedMs: number;
  uniqueAmount: boolean;
  userId: string | null;
  state: string;
  requisitesStartMs: number | null;
  requisitesExpiresMs: number | null;
  confirmationStartMs: number | null;
  confirmationExpiresMs: number | null;
  expiresMs: number;
  ipAddress: string | null;
}

/** A receipt attached to a dispute; its type was read from its content, never from its name. */
export interface DisputeFileRecord {
  id: string;
  /** The uploader's file name, cleaned (no path, no control characters), for Content-Disposition. */
  name: string;
  contentType: DisputeFileType;
  size: number;
  /** Hex SHA-256 of the content. */
  sha256: string;
  /** The content while it is in memory; null once only on disk (`path`). */
  data: Uint8Array | null;
  /** Where the state file keeps the content, once saved; null while only in memory. */
  path: string | null;
}

/** Who opened a dispute: the seeded history, the scenario control, the provider API, or the hosted form. */
export type DisputeSource = 'seed' | 'control' | 'api' | 'form';

export interface DisputeRecord {
  seq: number;
  id: string;
  order: OrderRecord;
  processed: boolean;
  /** The operators' decision once processed: true accepted, false rejected; null while open (or unknown, seeded). */
  accepted: boolean | null;
  createdMs: number;
  processedMs: number | null;
  /** The amount the shopper claims (`amount` of `disputes/create`), when given. */
  claimedAmount: string | null;
  source: DisputeSource;
  files: DisputeFileRecord[];
  comment: string | null;
}

export interface TransactionRecord {
  seq: number;
  id: string;
  amount: string;
  type: 'deposit' | 'withdrawal';
  createdMs: number;
  description: string;
}

export type DueEntry =
  | { kind: 'expire'; order: OrderRecord }
  | { kind: 'autopay'; order: OrderRecord }
  | { kind: 'session-expire'; session: SessionRecord };

export interface WebhookAttempt {
  /** Wall-clock time of the attempt (retries run in real time, not on the sandbox clock). */
  at: string;
  status_code: number | null;
  error: string | null;
  duration_ms: number;
}

export type WebhookDeliveryStatus = 'pending' | 'delivered' | 'failed' | 'skipped' | 'cancelled';

export interface WebhookDelivery {
  request_id: string;
  order_id: string;
  client_order_id: string;
  webhook_type: string;
  /** Where it goes; null when neither the order nor the terminal has a URL (status `skipped`). */
  url: string | null;
  status: WebhookDeliveryStatus;
  attempts: WebhookAttempt[];
  /** Wall-clock time of the next retry while `pending`. */
  next_attempt_at: string | null;
  /** Sandbox time of the status change. */
  created_at: string;
  envelope: WebhookEnvelope;
}
