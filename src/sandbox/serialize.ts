/** Internal records → the provider's wire JSON (provider-api.md field tables, in the document's order). */
import type { Balance, Dispute, FormData, FormSession, Order, Transaction } from '../provider/schemas.js';
import { fromMinor, toFixedDigits } from '../money/index.js';
import type { DisputeRecord, OrderRecord, SessionRecord, TransactionRecord } from './records.js';
import type { Terminal } from './terminal.js';
import { isoMicros, isoMillis } from './format.js';

export function orderJson(o: OrderRecord): Order {
  const out: Record<string, unknown> = {
    id: o.id,
    client_order_id: o.clientOrderId,
    currency: o.method.currency,
    method_id: o.method.id,
    method_name: o.method.name,
    method_type: o.method.type,
    initial_method_id: o.initialMethodId,
    order_side: o.side,
    amount: o.amount,
    fee: o.fee,
    fixed_fee: o.fixedFee,
    status: o.status,
    holder_name: o.holderName,
    holder_account: o.holderAccount,
    customer_name: o.customerName,
    customer_account: o.customerAccount,
    customer_bank: o.customerBank,
    payment_link: o.paymentLink,
    webhook_url: o.webhookUrl,
  };
  // Only with integration type order_with_form.
  if (o.formUrl !== null) out.form_url = o.formUrl;
  out.created_at = isoMillis(o.createdMs);
  out.updated_at = isoMillis(o.updatedMs);
  out.expires_at = isoMillis(o.expiresMs);
  return out as unknown as Order;
}

const microsOrNull = (ms: number | null) => (ms === null ? null : isoMicros(ms));

export function sessionJson(t: Terminal, s: SessionRecord): FormSession {
  return {
    session_id: s.id,
    ip_address: s.ipAddress,
    client_order_id: s.clientOrderId,
    terminal_id: t.id,
    order_side: s.side,
    amount: toFixedDigits(s.amount, 5),
    payment_method_type: s.paymentMethodType as FormSession['payment_method_type'],
    nspk_code: s.nspkCode,
    order_id: s.order?.id ?? null,
    redirect_url: s.redirectUrl,
    support_url: s.supportUrl,
    return_url: s.returnUrl,
    search_count: s.searchCount,
    merchant_name: t.settings.name,
    currency: t.currency,
    selection: s.selection,
    created_at: isoMicros(s.createdMs),
    updated_at: isoMicros(s.updatedMs),
    unique_amount: s.uniqueAmount,
    user_id: s.userId,
    state: s.state as FormSession['state'],
    requisites_request_starts_at: microsOrNull(s.requisitesStartMs),
    requisites_request_expires_at: microsOrNull(s.requisitesExpiresMs),
    payment_confirmation_starts_at: microsOrNull(s.confirmationStartMs),
    payment_confirmation_expires_at: microsOrNull(s.confirmationExpiresMs),
    expires_at: isoMicros(s.expiresMs),
  };
}

export function formDataJson(s: SessionRecord, formUrl: string): FormData {
  return {
    session_id: s.id,
    form_url: formUrl,
    order_data: {
      client_order_id: s.clientOrderId,
      order_side: s.side,
      payment_method_id: s.paymentMethodId,
      amount: s.requestedAmount,
      customer_bank: s.customerBank,
      unique_amount: s.uniqueAmount,
    },
    support_url: s.supportUrl,
    redirect_url: s.redirectUrl,
    return_url: s.returnUrl,
  };
}

export function disputeJson(d: DisputeRecord): Dispute {
  return {
    dispute_id: d.id,
    order_id: d.order.id,
    client_order_id: d.order.clientOrderId,
    // The document: a number, the amount of the order (not the amount claimed).
    amount: Number(d.order.amount),
    currency: d.order.method.currency,
    processed: d.processed,
    created_at: isoMillis(d.createdMs),
  };
}

export function transactionJson(t: Terminal, x: TransactionRecord): Transaction {
  return {
    id: x.id,
    deposit_id: t.depositId,
    amount: x.amount,
    transaction_type: x.type,
    created_at: isoMillis(x.createdMs),
    terminal: { id: t.id, currency: t.currency, name: t.settings.name },
    client_description: x.description,
    client_id: t.clientId,
  };
}

export function balanceJson(t: Terminal): Balance {
  const { availableMinor, frozenMinor } = t.data;
  const digits = t.digits;
  return {
    available: fromMinor(availableMinor, digits),
    frozen: fromMinor(frozenMinor, digits),
    total: fromMinor(availableMinor + frozenMinor, digits),
    id: t.depositId,
    currency: t.currency,
  };
}

/** The receipts of a dispute as the sandbox lists them (provider answer `dispute_files`, control routes). */
export function disputeFilesJson(d: DisputeRecord): DisputeFileInfo[] {
  return d.files.map((f, index) => ({ index, file_id: f.id, file_name: f.name, content_type: f.contentType, size: f.size, sha256: f.sha256 }));
}

export interface DisputeFileInfo {
  index: number;
  file_id: string;
  file_name: string;
  content_type: string;
  size: number;
  sha256: string;
}

/**
 * A dispute with what the sandbox knows beyond the provider's list item (scenario controls and the
 * console): the decision, the claim, the comment, who opened it and its receipts (each served at
 * `GET /sandbox/disputes/{id}/files/{index}`).
 */
export function disputeDetailJson(d: DisputeRecord) {
  return {
    ...disputeJson(d),
    accepted: d.accepted,
    processed_at: d.processedMs === null ? null : isoMillis(d.processedMs),
    claimed_amount: d.claimedAmount,
    comment: d.comment,
    source: d.source,
    files: disputeFilesJson(d).map((f) => ({ ...f, url: `/sandbox/disputes/${encodeURIComponent(d.id)}/files/${f.index}` })),
  };
}
