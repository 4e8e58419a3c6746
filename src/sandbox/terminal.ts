/**
 * One terminal = one API key and one currency, with its own orders, balance, form sessions,
 * disputes, transactions, settings and webhook log. Nothing here is shared between terminals.
 */
import { randomBytes, createHmac, randomUUID } from 'node:crypto';
import type { ButtonName } from '../provider/facts.js';
import { OrderColumns } from './columns.js';
import { moneyDigits, type TerminalCurrency } from './currencies.js';
import { MinHeap } from './heap.js';
import { catalogFor, type PaymentCatalog } from './payment-methods.js';
import type { DisputeRecord, DueEntry, OrderRecord, SessionRecord, TransactionRecord, WebhookDelivery } from './records.js';

export type IntegrationType = 'plain' | 'order_with_form';

export interface TerminalSettings {
  name: string;
  /** The terminal's money: its methods, limits, balance and transactions are in it. */
  currency: TerminalCurrency;
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
  /** order id → its disputes, oldest first. */
  disputesByOrder = new Map<string, DisputeRecord[]>();
  /** Bytes of dispute receipts the terminal holds (bounded, see constants). */
  receiptBytes = 0;
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
  /** Orders whose money has been credited after they had ended cancelled (an accepted dispute or a late completion), at most once each. */
  lateCredited = new Set<string>();

  nextSeq(): number {
    return ++this.seq;
  }
}

/** The identifiers a terminal shows in its answers (kept across restarts by the state file). */
export interface TerminalIdentity {
  id: string;
  depositId: string;
  clientId: string;
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

  constructor(apiKey: string, preset: TerminalSettings, webhookSecret: string, identity?: TerminalIdentity) {
    this.apiKey = apiKey;
    this.id = identity?.id ?? randomUUID();
    this.depositId = identity?.depositId ?? randomUUID();
    this.clientId = identity?.clientId ?? randomUUID();
    this.webhookSecret = webhookSecret;
    this.preset = Object.freeze({ ...preset, enabledButtons: [...preset.enabledButtons] });
    this.settings = { ...preset, enabledButtons: [...preset.enabledButtons] };
  }

  get currency(): TerminalCurrency {
    return this.settings.currency;
  }

  /** Fractional digits of the terminal's money. */
  get digits(): number {
    return moneyDigits(this.settings.currency);
  }

  get catalog(): PaymentCatalog {
    return catalogFor(this.settings.currency);
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
