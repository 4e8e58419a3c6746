/**
 * Disputes (the shopper's appeal: "I paid, here is my receipt"): opened by the provider API
 * (`POST /api/v1/disputes/create`, with receipts), the hosted form, the scenario control or the
 * seeded history; processed by the scenario control as the provider's operators would. An accepted
 * dispute on a Buy order means the money arrived: an Unpaid order is completed; an expired or
 * cancelled one keeps its status and its amount − fee is credited once (a `deposit` whose
 * description names the order's id and client_order_id). A rejected dispute moves no money.
 */
import { randomUUID } from 'node:crypto';
import type { SandboxClock } from './clock.js';
import { MAX_RECEIPT_BYTES_PER_TERMINAL } from './constants.js';
import { SandboxHttpError } from './errors.js';
import { credit, netOf, orderCreditDescription } from './ledger.js';
import type { Orders } from './orders.js';
import type { DisputeFileRecord, DisputeRecord, DisputeSource, OrderRecord } from './records.js';
import type { Terminal } from './terminal.js';
import { insertByTime } from './time-index.js';

export interface DisputesOptions {
  clock: SandboxClock;
  orders: Orders;
  /** After a dispute is opened or processed: the order's session hears of it. */
  changed(terminal: Terminal, order: OrderRecord): void;
}

export interface OpenDispute {
  atMs?: number;
  source: DisputeSource;
  claimedAmount?: string | null;
  files?: DisputeFileRecord[];
  comment?: string | null;
}

export class Disputes {
  constructor(private readonly options: DisputesOptions) {}

  open(terminal: Terminal, order: OrderRecord, o: OpenDispute): DisputeRecord {
    const files = o.files ?? [];
    const bytes = files.reduce((sum, f) => sum + f.size, 0);
    if (terminal.data.receiptBytes + bytes > MAX_RECEIPT_BYTES_PER_TERMINAL) {
      throw new SandboxHttpError(
        413,
        `This sandbox terminal already keeps ${MAX_RECEIPT_BYTES_PER_TERMINAL} bytes of receipts; POST /sandbox/reset clears them`,
      );
    }
    const data = terminal.data;
    const dispute: DisputeRecord = {
      seq: data.nextSeq(),
      id: randomUUID(),
      order,
      processed: false,
      accepted: null,
      createdMs: Math.max(o.atMs ?? this.options.clock.now(), order.createdMs),
      processedMs: null,
      claimedAmount: o.claimedAmount ?? null,
      source: o.source,
      files,
      comment: o.comment ?? null,
    };
    this.insert(terminal, dispute);
    this.options.changed(terminal, order);
    return dispute;
  }

  /** Adds a dispute to the terminal's lists (creation, seeded history, state file). */
  insert(terminal: Terminal, dispute: DisputeRecord): void {
    const data = terminal.data;
    insertByTime(data.disputes, dispute);
    data.disputesById.set(dispute.id, dispute);
    const ofOrder = data.disputesByOrder.get(dispute.order.id);
    if (ofOrder) insertByTime(ofOrder, dispute);
    else data.disputesByOrder.set(dispute.order.id, [dispute]);
    data.receiptBytes += dispute.files.reduce((sum, f) => sum + f.size, 0);
  }

  find(terminal: Terminal, id: string): DisputeRecord {
    const dispute = terminal.data.disputesById.get(id);
    if (!dispute) throw new SandboxHttpError(404, `Dispute ${id} not found on this terminal`);
    return dispute;
  }

  /** The order's most recent dispute, if any. */
  latestOf(terminal: Terminal, order: OrderRecord): DisputeRecord | undefined {
    const list = terminal.data.disputesByOrder.get(order.id);
    return list?.[list.length - 1];
  }

  /** Whether an accepted dispute (or a late completion) has credited a cancelled order's money. */
  creditedLate(terminal: Terminal, order: OrderRecord): boolean {
    return terminal.data.lateCredited.has(order.id);
  }

  /**
   * Closes a dispute. `accepted` for a Buy order means the shopper did pay: an Unpaid order is
   * completed (which credits it and sends its webhook); a cancelled or expired one keeps its status
   * (the provider's statuses have no way back) and its amount − fee is credited, at most once per
   * order however many disputes are accepted. A Completed order was credited already.
   */
  process(terminal: Terminal, dispute: DisputeRecord, accepted: boolean): void {
    if (dispute.processed) throw new SandboxHttpError(409, `Dispute ${dispute.id} is already processed`);
    const now = this.options.clock.now();
    dispute.processed = true;
    dispute.accepted = accepted;
    dispute.processedMs = now;
    const order = dispute.order;
    if (accepted && order.side === 'Buy' && order.status === 'Unpaid') {
      this.options.orders.transition(terminal, order, 'Completed', now);
    } else if (accepted && order.side === 'Buy' && order.status !== 'Completed' && !terminal.data.lateCredited.has(order.id)) {
      terminal.data.lateCredited.add(order.id);
      credit(terminal, netOf(order.amount, order.fee, terminal.digits), now, orderCreditDescription('dispute', order, dispute.id));
    }
    this.options.changed(terminal, order);
  }
}
