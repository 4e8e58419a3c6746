/**
 * The console's views of what the provider and the shop's server know: amounts in minor units, a
 * hook's state, the provider's order (customer account masked), a webhook of the log, a list row.
 */
import { currencyDigits, numberToDecimal, toFixedDigits } from '../money/index.js';
import { orderOutcome, type Order, type ProviderClient } from '../provider/index.js';
import type { CheckoutHandler, SessionDetail, SessionSummary, WebhookLogEntry, WebhookOutcome as ServerWebhookOutcome } from '../server/index.js';
import type { HookView, OrderRow, ProviderOrderView, ShopView, WebhookOutcome, WebhookView } from './contract.js';
import type { ReceiptSource } from './receipts.js';
import { destinationKindOf, maskDestination } from './payout-rules.js';
import { refundOrderOf } from './refund-ids.js';

/** A token endpoint of this merchant server, as the console reads it. */
export interface ConsoleEndpoint {
  /** Its mount path, e.g. `/api/paydesk`. */
  path: string;
  /** Its handler's back-office views. */
  inspect: CheckoutHandler['inspect'];
  /** The provider client of the terminal behind it. */
  client: ProviderClient;
  /** Its terminal's dispute receipts (the sandbox), or null (a real provider does not give them out). */
  receipts: ReceiptSource | null;
  /** Its handler's double payments (`handler.doublePayments`), for "To refund". */
  doublePayments?: CheckoutHandler['doublePayments'];
  /** Its handler's fetch function, for "Send test webhook" (in process, to `{path}/webhooks`). */
  deliver?: (request: Request) => Promise<Response>;
  /** What the test delivery is signed with / carries: the webhook secret the handler checks, the terminal's API key. */
  webhookTest?: WebhookTestCredentials;
}

/** What "Send test webhook" signs its delivery with: give what the endpoint's handler checks. */
export interface WebhookTestCredentials {
  /** The webhook signing secret (one of the handler's `webhookSecrets`): X-Paydesk-Signature. */
  secret?: string;
  /** The terminal's API key (a handler with `webhookAuth: 'api_key'`): X-API-Key. */
  apiKey?: string;
}

export const iso = (ms: number) => new Date(ms).toISOString();
/** A provider time (ISO 8601; one without a zone is UTC) in ms, NaN when unreadable. */
export const timeOf = (text: string) => Date.parse(/[zZ]|[+-]\d\d:?\d\d$/.test(text) ? text : `${text}Z`);

/** An amount in the currency's minor units (a JSON number from the provider, or a decimal string). */
export function minorUnits(amount: number | string, currency: string): string {
  const text = typeof amount === 'number' ? numberToDecimal(amount) : amount;
  return toFixedDigits(text, currencyDigits(currency));
}

/** A hook as `handler.inspect` gives it. */
type InspectHook = SessionSummary['hooks']['paid'];

/** Where a hook stands: `due` says whether the session's state calls for it. */
export function hookView(h: InspectHook, due: boolean): HookView {
  const base = { attempts: h.attempts, error: h.error, next_at: h.next_at === null ? null : iso(h.next_at) };
  if (!h.configured) return { state: 'off', at: null, ...base };
  if (h.done_at !== null) return { state: 'done', at: iso(h.done_at), ...base, next_at: null };
  if (h.attempts > 0) return { state: 'retrying', at: null, ...base };
  return { state: due ? 'due' : 'none', at: null, ...base };
}

export const ended = (status: string) => status === 'expired' || status === 'cancelled';

export function providerOrderView(o: Order): ProviderOrderView {
  return {
    id: o.id,
    client_order_id: o.client_order_id,
    side: o.order_side,
    status: o.status,
    outcome: orderOutcome(o.status),
    amount: o.amount,
    fee: o.fee,
    currency: o.currency,
    method: { id: o.method_id, name: o.method_name, type: o.method_type },
    holder_name: o.holder_name,
    holder_account: o.holder_account,
    customer_account: o.customer_account ? maskDestination(destinationKindOf(o.method_type, o.customer_account), o.customer_account) : null,
    customer_bank: o.customer_bank ?? null,
    payment_link: o.payment_link ?? null,
    webhook_url: o.webhook_url ?? null,
    created_at: o.created_at,
    updated_at: o.updated_at,
    expires_at: o.expires_at,
  };
}

/**
 * A line of the server's webhook log (paydesk/server's `WebhookLogEntry`) as the console shows it:
 * the time as ISO 8601 and the endpoint that received it; the session id stays on the server.
 */
export function webhookView(endpoint: string, e: WebhookLogEntry): WebhookView {
  const { session_id: _session, at, ...fields } = e;
  return { ...fields, at: iso(at), endpoint };
}

// The console's WebhookView (console-contract.ts, shared with the browser, which cannot load the
// server's types) is the server's WebhookLogEntry: these fail to compile when the two part ways.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const sameOutcomes: Same<WebhookOutcome, ServerWebhookOutcome> = true;
const sameFields: Same<Omit<WebhookView, 'at' | 'endpoint'>, Omit<WebhookLogEntry, 'at' | 'session_id'>> = true;
void sameOutcomes;
void sameFields;

/** A row of the orders list from the provider's record. */
export function providerRow(o: Order, shop: ShopView | null): OrderRow {
  return {
    id: o.id,
    client_order_id: o.client_order_id,
    key: o.id,
    side: o.order_side,
    method: { id: o.method_id, name: o.method_name, type: o.method_type },
    amount: o.amount,
    fee: o.fee,
    currency: o.currency,
    status: o.status,
    source: 'provider',
    seen_at: null,
    created_at: o.created_at,
    shop,
    refund_of: o.order_side === 'Sell' ? refundOrderOf(o.client_order_id) : null,
  };
}

/** A row from the shop's session alone (the provider's fields as the server last read them). */
export function shopRow(shop: ShopView, s: SessionSummary, detail: SessionDetail | null): OrderRow {
  const view = detail?.order;
  return {
    id: s.provider_order_id,
    client_order_id: s.client_order_id,
    key: s.provider_order_id ?? s.client_order_id,
    side: 'Buy',
    method: view?.method ? { id: view.method.id, name: view.method.name, type: view.method.type } : null,
    amount: s.amount,
    fee: view?.fee ?? null,
    currency: s.currency,
    status: s.provider_status,
    source: 'shop',
    seen_at: detail ? detail.refreshed_at : null,
    created_at: s.created_at,
    shop,
    refund_of: null,
  };
}
