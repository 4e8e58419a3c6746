/**
 * What each export is: the provider list it reads, the filters it takes (the console list's own,
 * checked here), and its columns. Amounts are the provider's decimal strings as given; times are
 * ISO 8601 with the zone (UTC `Z`, or the offset of `tz` when the export names one).
 */
import { currencyDigits, numberToDecimal } from '../money/index.js';
import { ORDER_STATUSES, TRANSACTION_TYPES, knownStatus, orderOutcome } from '../provider/facts.js';
import type { Dispute, Order, Transaction } from '../provider/schemas.js';
import type { ProviderClient } from '../provider/types.js';
import { bankOfOrder } from './bank.js';
import type { CsvValue } from './csv.js';
import { FieldError } from './period.js';
import { timeMs } from './times.js';
import type { WalkPage, WalkRequest } from './walk.js';
import { isoInZone } from './zone.js';

export const EXPORT_KINDS = ['orders', 'payouts', 'disputes', 'transactions'] as const;
export type ExportKind = (typeof EXPORT_KINDS)[number];

/** How a row's times are written. */
export interface RowContext {
  tz: string | null;
}

export interface ExportSpec<T> {
  /** Filter name → its check (the value as the provider takes it, or a FieldError). */
  filters: Record<string, (value: string) => string>;
  columns: readonly (readonly [string, (row: T, ctx: RowContext) => CsvValue])[];
  read(client: ProviderClient, filters: Record<string, string>, request: WalkRequest, signal: AbortSignal): Promise<WalkPage<T>>;
  createdMs(row: T): number;
  id(row: T): string;
}

const ID = /^[\x21-\x7e]{1,128}$/;
const oneOf =
  (name: string, values: readonly string[], caseless = false) =>
  (value: string): string => {
    const hit = values.find((v) => (caseless ? v.toLowerCase() === value.trim().toLowerCase() : v === value));
    if (hit === undefined) throw new FieldError(name, `must be one of ${values.join(', ')}`);
    return hit;
  };
const anId = (name: string) => (value: string): string => {
  if (!ID.test(value)) throw new FieldError(name, 'must be 1 to 128 printable characters without spaces');
  return value;
};

/** A provider time as ISO 8601 with the zone; the provider's own text when it does not read as a time. */
export function timeCell(value: string | null | undefined, ctx: RowContext): string {
  if (!value) return '';
  const ms = timeMs(value);
  if (Number.isNaN(ms)) return value;
  return ctx.tz ? isoInZone(ctx.tz, ms) : new Date(ms).toISOString();
}

/** A JSON-number amount (a dispute's, a fixed fee) as a decimal with at least the currency's digits: 1500 → `1500.00`; never rounded. */
export function numberAmount(value: number, currency: string): string {
  const text = numberToDecimal(value);
  const digits = currencyDigits(currency);
  const fraction = text.split('.')[1] ?? '';
  if (fraction.length >= digits) return text;
  return `${text}${fraction ? '' : '.'}${'0'.repeat(digits - fraction.length)}`;
}

const createdMsOf = (row: { created_at: string }) => timeMs(row.created_at);

/** The last four characters of an account (a payout's destination), never the whole. */
const lastFour = (account: string | null) => (account && account.length > 4 ? account.slice(-4) : '');

const orderColumns: ExportSpec<Order>['columns'] = [
  ['id', (o) => o.id],
  ['client_order_id', (o) => o.client_order_id],
  ['status', (o) => o.status],
  ['outcome', (o) => orderOutcome(o.status)],
  ['order_side', (o) => o.order_side],
  ['amount', (o) => o.amount],
  ['fee', (o) => o.fee],
  ['fixed_fee', (o) => (o.fixed_fee === null ? '' : numberAmount(o.fixed_fee, o.currency))],
  ['currency', (o) => o.currency],
  ['method_type', (o) => o.method_type],
  ['method_name', (o) => o.method_name],
  ['method_id', (o) => o.method_id],
  ['initial_method_id', (o) => o.initial_method_id],
  ['bank', (o) => bankOfOrder(o)],
  ['customer_bank', (o) => o.customer_bank],
  ['customer_name', (o) => o.customer_name],
  ['customer_account_last4', (o) => lastFour(o.customer_account)],
  ['created_at', (o, c) => timeCell(o.created_at, c)],
  ['updated_at', (o, c) => timeCell(o.updated_at, c)],
  ['expires_at', (o, c) => timeCell(o.expires_at, c)],
  // The list has no paid or closed time: an order that ended was last updated when it ended.
  ['paid_at', (o, c) => (orderOutcome(o.status) === 'paid' ? timeCell(o.updated_at, c) : '')],
  ['closed_at', (o, c) => (knownStatus(o.status) && orderOutcome(o.status) !== 'pending' ? timeCell(o.updated_at, c) : '')],
];

const statusFilter = oneOf('status', ORDER_STATUSES, true);

function readOrders(side: 'Buy' | 'Sell' | null) {
  return async (client: ProviderClient, filters: Record<string, string>, request: WalkRequest, signal: AbortSignal) => {
    const query = { ...filters, ...(side && { order_side: side }), ...request, sort_by: 'created_at' as const, sort: 'desc' as const };
    return client.listOrders(query as Parameters<ProviderClient['listOrders']>[0], { signal });
  };
}

const orders: ExportSpec<Order> = {
  filters: {
    status: statusFilter,
    order_side: oneOf('order_side', ['Buy', 'Sell']),
    payment_method_id: anId('payment_method_id'),
  },
  columns: orderColumns,
  read: readOrders(null),
  createdMs: createdMsOf,
  id: (o) => o.id,
};

const payouts: ExportSpec<Order> = {
  filters: { status: statusFilter, payment_method_id: anId('payment_method_id') },
  columns: orderColumns,
  read: readOrders('Sell'),
  createdMs: createdMsOf,
  id: (o) => o.id,
};

const disputes: ExportSpec<Dispute> = {
  filters: {
    processed: oneOf('processed', ['true', 'false']),
    order_id: anId('order_id'),
    dispute_id: anId('dispute_id'),
  },
  columns: [
    ['dispute_id', (d) => d.dispute_id],
    ['order_id', (d) => d.order_id],
    ['client_order_id', (d) => d.client_order_id],
    ['amount', (d) => numberAmount(d.amount, d.currency)],
    ['currency', (d) => d.currency],
    ['processed', (d) => d.processed],
    ['created_at', (d, c) => timeCell(d.created_at, c)],
  ],
  read: async (client, filters, request, signal) => {
    const query = { ...filters, ...request, ...(filters.processed && { processed: filters.processed === 'true' }) };
    return client.searchDisputes(query as Parameters<ProviderClient['searchDisputes']>[0], { signal });
  },
  createdMs: createdMsOf,
  id: (d) => d.dispute_id,
};

const transactions: ExportSpec<Transaction> = {
  filters: { transaction_type: oneOf('transaction_type', TRANSACTION_TYPES) },
  columns: [
    ['id', (t) => t.id],
    ['created_at', (t, c) => timeCell(t.created_at, c)],
    ['transaction_type', (t) => t.transaction_type],
    ['amount', (t) => t.amount],
    ['currency', (t) => t.terminal.currency],
    ['deposit_id', (t) => t.deposit_id],
    ['terminal_id', (t) => t.terminal.id],
    ['terminal_name', (t) => t.terminal.name],
    ['client_id', (t) => t.client_id],
    ['client_description', (t) => t.client_description],
  ],
  read: async (client, filters, request, signal) =>
    client.listTransactions({ ...filters, ...request } as Parameters<ProviderClient['listTransactions']>[0], { signal }),
  createdMs: createdMsOf,
  id: (t) => t.id,
};

const EXPORTS = { orders, payouts, disputes, transactions } as const;

/** The spec of an export, its row type erased (each spec's columns read only its own rows). */
export function exportSpec(kind: ExportKind): ExportSpec<unknown> {
  return EXPORTS[kind] as unknown as ExportSpec<unknown>;
}
