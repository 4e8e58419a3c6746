/**
 * One terminal = one API key with its own orders, balance, form sessions, disputes, transactions,
 * settings and webhook log. Nothing here is shared between terminals.
 */
import { randomBytes, createHmac, randomUUID } from 'node:crypto';
import type { ButtonName, OrderSide } from '../provider/facts.js';
import type { MethodDef } from './catalog.js';
import { MinHeap } from './heap.js';
import { OrderColumns } from './columns.js';
import type { WebhookDelivery } from './webhooks.js';

export type IntegrationType = 'plain' | 'order_with_form';

export interface TerminalSettings {
  name: string;
  integrationType: IntegrationType;
  formActivated: boolean;
  enabledButtons: ButtonName[];
  webhookUrl: string | null;
  /** Requests a minute on `/api/v1`, or null for no limit. */
  rateLimitPerMinute: number | null;
  antiFraudPendingLimit: number;
  /** Unpaid orders complete by themselves this long after creation (sandbox clock), or null. */
  autoPayAfterSeconds: number | null;
  /** Balance the seeded history starts from. */
  openingBalance: string;
  /** Seed a history (orders, sessions, disputes, transactions) on creation and reset. */
  seedHistory: boolean;
  /** Seeded history may contain completed orders (false keeps the balance exactly at the opening). */
  seedCompleted: boolean;
}

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
  /** Amount in kopecks as a number: a sort key only, never used for money. */
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
}

export interface SessionRecord {
  seq: number;
  id: string;
  clientOrderId: string;
  side: 'Buy';
  /** The amount asked for (2 digits). */
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

export interface DisputeRecord {
  seq: number;
  id: string;
  order: OrderRecord;
  processed: boolean;
  createdMs: number;
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

/** Records kept sorted by creation time (then by sequence), so date ranges are a binary search. */
export interface Timed {
  createdMs: number;
  seq: number;
}

export function insertByTime<T extends Timed>(list: T[], item: T): void {
  const last = list[list.length - 1];
  if (!last || last.createdMs < item.createdMs || (last.createdMs === item.createdMs && last.seq < item.seq)) {
    list.push(item);
    return;
  }
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    const m = list[mid]!;
    if (m.createdMs < item.createdMs || (m.createdMs === item.createdMs && m.seq < item.seq)) lo = mid + 1;
    else hi = mid;
  }
  list.splice(lo, 0, item);
}

export function sortByTime<T extends Timed>(list: T[]): void {
  list.sort((a, b) => a.createdMs - b.createdMs || a.seq - b.seq);
}

/** First index whose createdMs >= ms. */
export function lowerBound(list: readonly Timed[], ms: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (list[mid]!.createdMs < ms) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** First index whose createdMs > ms. */
export function upperBound(list: readonly Timed[], ms: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (list[mid]!.createdMs <= ms) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The data of a terminal: everything a reset throws away. */
export class TerminalData {
  seq = 0;
  orders: OrderRecord[] = [];
  ordersById = new Map<string, OrderRecord>();
  /** The same orders as typed columns plus an amount index, for the list endpoint. */
  columns = new OrderColumns();
  ordersByClientId = new Map<string, OrderRecord[]>();
  sessions: SessionRecord[] = [];
  sessionsById = new Map<string, SessionRecord>();
  disputes: DisputeRecord[] = [];
  disputesById = new Map<string, DisputeRecord>();
  transactions: TransactionRecord[] = [];
  availableMinor = 0n;
  frozenMinor = 0n;
  /** requisite key → amount → unpaid orders holding it. */
  unpaidAmounts = new Map<string, Map<string, number>>();
  /** user_id → its orders and sessions that may still be open (pruned when counted). */
  byUser = new Map<string, Set<OrderRecord | SessionRecord>>();
  due = new MinHeap<DueEntry>();
  /** Round-robin counter spreading orders over methods and requisites. */
  rotation = 0;
  rateWindow: number[] = [];
  webhookLog: WebhookDelivery[] = [];
  /** Orders whose amount an accepted dispute has already credited (at most once per order). */
  disputeCredited = new Set<string>();

  nextSeq(): number {
    return ++this.seq;
  }
}

export class Terminal {
  readonly apiKey: string;
  readonly id: string;
  readonly depositId: string;
  readonly clientId: string;
  readonly webhookSecret: string;
  readonly preset: Readonly<TerminalSettings>;
  settings: TerminalSettings;
  data = new TerminalData();

  constructor(apiKey: string, preset: TerminalSettings, webhookSecret: string) {
    this.apiKey = apiKey;
    this.id = randomUUID();
    this.depositId = randomUUID();
    this.clientId = randomUUID();
    this.webhookSecret = webhookSecret;
    this.preset = Object.freeze({ ...preset, enabledButtons: [...preset.enabledButtons] });
    this.settings = { ...preset, enabledButtons: [...preset.enabledButtons] };
  }

  resetSettings(): void {
    this.settings = { ...this.preset, enabledButtons: [...this.preset.enabledButtons] };
  }
}

/** A webhook secret per terminal: the given one, or derived from a per-sandbox master secret and the key. */
export function deriveWebhookSecret(master: Buffer, apiKey: string): string {
  return `whsec_${createHmac('sha256', master).update(apiKey).digest('hex').slice(0, 40)}`;
}

export function randomMasterSecret(): Buffer {
  return randomBytes(32);
}
