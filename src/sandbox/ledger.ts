/**
 * A terminal's balance and its transactions: `available` and `frozen` in minor units of the
 * terminal's currency, a `deposit` or `withdrawal` transaction for every movement in or out. Money
 * held for a payout moves between available and frozen without a transaction (it has not left).
 */
import { randomUUID } from 'node:crypto';
import { MoneyError, compareAmounts, parseAmount, subtractAmounts, toMinor } from '../money/index.js';
import { fieldError } from './errors.js';
import type { TransactionRecord } from './records.js';
import type { Terminal } from './terminal.js';
import { insertByTime } from './time-index.js';

/** Records a transaction (the balance is the caller's to move). */
function record(terminal: Terminal, type: TransactionRecord['type'], amount: string, atMs: number, description: string): void {
  const tx: TransactionRecord = { seq: terminal.data.nextSeq(), id: randomUUID(), amount, type, createdMs: atMs, description };
  insertByTime(terminal.data.transactions, tx);
}

/** Money in: available + amount, a `deposit` transaction. */
export function credit(terminal: Terminal, amount: string, atMs: number, description: string): void {
  terminal.data.availableMinor += toMinor(amount, terminal.digits);
  record(terminal, 'deposit', amount, atMs, description);
}

/** Money out of the available balance (a `withdrawal` transaction); false when it is short. */
export function debit(terminal: Terminal, amount: string, atMs: number, description: string): boolean {
  const minor = toMinor(amount, terminal.digits);
  if (terminal.data.availableMinor < minor) return false;
  terminal.data.availableMinor -= minor;
  record(terminal, 'withdrawal', amount, atMs, description);
  return true;
}

export function hasAvailable(terminal: Terminal, amount: string): boolean {
  return terminal.data.availableMinor >= toMinor(amount, terminal.digits);
}

/** Holds money for a payout: available → frozen. The caller has checked {@link hasAvailable}. */
export function freeze(terminal: Terminal, amount: string): void {
  const minor = toMinor(amount, terminal.digits);
  terminal.data.availableMinor -= minor;
  terminal.data.frozenMinor += minor;
}

/** A held payout is paid out: frozen → gone, a `withdrawal` transaction. */
export function withdrawFrozen(terminal: Terminal, amount: string, atMs: number, description: string): void {
  terminal.data.frozenMinor -= toMinor(amount, terminal.digits);
  record(terminal, 'withdrawal', amount, atMs, description);
}

/** A held payout is called off: frozen → available. */
export function release(terminal: Terminal, amount: string): void {
  const minor = toMinor(amount, terminal.digits);
  terminal.data.frozenMinor -= minor;
  terminal.data.availableMinor += minor;
}

/** `POST /sandbox/balance/top-up`: a positive amount in the terminal's currency; a bad one is a 422 naming `amount`. */
export function topUp(terminal: Terminal, amountInput: unknown, atMs: number): void {
  let amount: string;
  try {
    amount = parseAmount(amountInput, { digits: terminal.digits, field: 'amount' });
  } catch (err) {
    if (err instanceof MoneyError) throw fieldError('body', 'amount', err.message);
    throw err;
  }
  credit(terminal, amount, atMs, 'Sandbox top-up');
}

/** `a − b`, never below zero (what a completed Buy credits: amount − fee). */
export function netOf(amount: string, fee: string, digits: number): string {
  const diff = subtractAmounts(amount, fee, digits);
  return compareAmounts(diff, '0') < 0 ? subtractAmounts(diff, diff, digits) : diff;
}

/** The description of a credit for an order: names its id and client_order_id (reconciliation reads them). */
export function orderCreditDescription(kind: 'payment' | 'late' | 'dispute', order: { id: string; clientOrderId: string }, disputeId?: string): string {
  const names = `order ${order.id} (client_order_id ${order.clientOrderId})`;
  if (kind === 'dispute') return `Dispute ${disputeId} accepted: ${names}`;
  if (kind === 'late') return `Late payment of ${names}`;
  return `Payment of ${names}`;
}
