/**
 * The console's payouts (Sell orders): the methods that pay out, the list, a payout made at most once
 * per form (see src/console/api.ts), and completing one in the sandbox. Each attempt writes one audit line.
 *
 *   GET  /payout-methods → {"methods": [PayoutMethod]}
 *   GET  /payouts?page&size&status&sort_by&sort&start_date&end_date → a page of PayoutView
 *   POST /payouts {key, method_id, amount, destination, total} → 201 | 200 (replayed) {"payout", "replayed"}
 *   POST /payouts/{id}/sandbox-complete {client_order_id} → 200 {"payout"}
 */
import type { Context, Hono } from 'hono';
import { addAmounts, compareAmounts, currencyDigits, MoneyError, parseAmount } from '../money/index.js';
import { isProviderError, orderOutcome, type DecimalAmount, type Order, type ProviderClient, type ProviderError } from '../provider/index.js';
import { createOnce, type CheckoutStore } from '../server/index.js';
import { check, CreatePayoutBody, dateOrder, defined, id, PayoutsQuery, readJson, readQuery, SandboxCompleteBody } from './checks.js';
import type { ConsoleErrorCode, CreatePayoutRequest, ListPage, PayoutResponse, PayoutView } from './contract.js';
import { ConsoleHttpError, invalid, rateLimited, readError } from './errors.js';
import {
  destinationKindOf,
  maskDestination,
  normalizeDestination,
  payoutClientOrderId,
  payoutLimits,
  payoutMethodOf,
  quotePayout,
  type DestinationProblem,
  type PayoutMethod,
} from './payout-rules.js';
import { refundOrderOf } from './refund-ids.js';

/** One line per payout attempt. */
export interface PayoutAuditEntry {
  at: string;
  /** The console login (an id given at login, never the cookie) and the client's address. */
  who: { login: string; address: string };
  action: 'create' | 'sandbox-complete';
  result: 'created' | 'replayed' | 'refused' | 'completed';
  /** The error code when refused. */
  code?: ConsoleErrorCode;
  client_order_id?: string;
  order_id?: string;
  method?: string;
  amount?: string;
  fee?: string;
  total?: string;
  currency?: string;
  /** Masked. */
  destination?: string;
  status?: string;
}

/** What the payout routes need of the console. */
export interface PayoutContext {
  client: ProviderClient;
  /** The payouts' create-once records. */
  store: CheckoutStore;
  now: () => number;
  payoutWaitMs: number;
  payoutLeaseMs: number;
  /** Who asks (for the audit line). */
  who: (c: Context) => { login: string; address: string };
  audit: (entry: PayoutAuditEntry) => void;
  logError: (message: string, err: unknown) => void;
  sandbox: { complete(orderId: string): Promise<void> } | null;
}

/** How long a payout's create-once records are kept. */
const PAYOUT_RECORD_TTL_MS = 24 * 3600 * 1000;
/** How soon a submit that found nothing says to look again (the provider may list the payout any time). */
const PAYOUT_LOOK_AGAIN_MS = 15_000;

export const DESTINATION_PROBLEMS: Record<DestinationProblem, string> = {
  empty: 'is required',
  card_format: 'must be a card number of 16 to 19 digits',
  card_checksum: 'is not a valid card number (its check digit is wrong)',
  phone_format: 'must be a phone number such as +79991234567',
  account_format: 'must be an account number of 20 digits',
};


/** A Sell order as the console shows it (destination masked). */
export function payoutView(o: Order): PayoutView {
  const kind = destinationKindOf(o.method_type, o.customer_account ?? '');
  return {
    id: o.id,
    client_order_id: o.client_order_id,
    status: o.status,
    outcome: orderOutcome(o.status),
    amount: o.amount,
    fee: o.fee,
    total: addAmounts(o.amount, o.fee, currencyDigits(o.currency)),
    currency: o.currency,
    method: { id: o.method_id, name: o.method_name, type: o.method_type },
    destination_kind: kind,
    destination: maskDestination(kind, o.customer_account),
    created_at: o.created_at,
    updated_at: o.updated_at,
    expires_at: o.expires_at,
    refund_of: refundOrderOf(o.client_order_id),
  };
}

/** What a submit of the payout form asks for, to tell a repeat of it from another payout under the same key. */
interface PayoutIntent {
  method_id: string;
  amount: string;
  /** As typed (normalised against the method's kind where it is compared). */
  destination: string;
}

function sameIntent(order: Order, intent: PayoutIntent): boolean {
  const kind = destinationKindOf(order.method_type, order.customer_account ?? '');
  const dest = normalizeDestination(kind, intent.destination, order.method_type);
  return (
    order.order_side === 'Sell' &&
    (order.initial_method_id === intent.method_id || order.method_id === intent.method_id) &&
    compareAmounts(order.amount, intent.amount) === 0 &&
    dest.ok &&
    dest.value === order.customer_account
  );
}

export type PayoutOutcome = { order: Order; replayed: boolean; method: PayoutMethod | null };

export async function payoutMethods(client: ProviderClient): Promise<PayoutMethod[]> {
  const res = await client.listPaymentMethods({ active: true });
  return res.map(payoutMethodOf).filter((m): m is PayoutMethod => m !== null);
}

/** The form's payout, looked up and created when there is none, at most once (see src/console/api.ts). */
export function payoutMaker(ctx: Pick<PayoutContext, 'client' | 'store' | 'now' | 'logError' | 'payoutLeaseMs' | 'payoutWaitMs'>): (req: CreatePayoutRequest, amount: string, clientOrderId: string) => Promise<PayoutOutcome> {
  const { client, store, now, logError, payoutLeaseMs, payoutWaitMs } = ctx;

  /** What the form asked for when its payout was sent: a submit of the same key asking for another payout is refused. */
  const intentKey = (clientOrderId: string) => `payout-intent:${clientOrderId}`;
  const intentText = (intent: PayoutIntent) =>
    JSON.stringify([intent.method_id, intent.amount, intent.destination.replace(/[\s\-().\u00a0]/g, '')]);
  const keyReused = (detail: string) =>
    new ConsoleHttpError(409, 'idempotency_key_reused', `this payout form ${detail}; open a new form for another payout`);

  /**
   * The payout is not found and an earlier submit's create may still land: nothing is sent. Its
   * outcome stays unknown until the provider lists it (a provider that queues requests can make it
   * minutes later), so the form never sends it again; `retry_after` says when to look again.
   */
  function inProgress(retryAfterMs: number): ConsoleHttpError {
    const seconds = Math.max(1, Math.ceil(Math.min(retryAfterMs, PAYOUT_LOOK_AGAIN_MS) / 1000));
    return new ConsoleHttpError(
      409,
      'payout_in_progress',
      `an earlier submission of this payout was sent and the provider has not confirmed it: it may still be made, so this form does not send it again (this submit sent nothing); check again in ${seconds} s`,
      { retryable: true, details: { retry_after: seconds }, headers: { 'Retry-After': String(seconds) } },
    );
  }

  /** Looks the form's payout up, and creates it when there is none, at most once (see the file comment). */
  return async function createPayout(req: CreatePayoutRequest, amount: string, clientOrderId: string): Promise<PayoutOutcome> {
    const intent: PayoutIntent = { method_id: req.method_id, amount, destination: req.destination };
    /** Set once the form's figures are checked, for the provider's refusals. */
    let checked: { method: PayoutMethod; quote: { total: string; currency: string } } | null = null;
    try {
      const { value, found } = await createOnce<{ order: Order; method: PayoutMethod | null }>(
        clientOrderId,
        {
          store,
          now,
          leaseMs: payoutLeaseMs,
          waitMs: payoutWaitMs,
          ttlMs: PAYOUT_RECORD_TTL_MS,
          // A payout sent twice pays twice: one whose outcome is unknown is only looked up, never sent again.
          inFlightMs: PAYOUT_RECORD_TTL_MS,
          inProgress,
          log: (message, fields) => logError(message, fields),
        },
        {
          find: async (earlier) => {
            const items = (await client.searchOrdersByClientOrderId({ id: clientOrderId, size: 10 })).items;
            if (items.length > 0) {
              const same = items.find((o) => sameIntent(o, intent));
              if (!same) throw keyReused('already made a different payout');
              return { order: same, method: null };
            }
            if (earlier) {
              // Not found, but an earlier create may still land: it must be this very payout.
              const sent = await store.get(intentKey(clientOrderId));
              if (sent && sent.value !== intentText(intent)) throw keyReused('sent a different payout that the provider has not confirmed yet');
            }
            return undefined;
          },
          prepare: async () => {
            const method = (await payoutMethods(client)).find((m) => m.id === req.method_id);
            if (!method) {
              throw new ConsoleHttpError(409, 'method_unavailable', 'this payment method makes no payouts now (inactive, or no Sell range); pick another', {
                field: 'method_id',
              });
            }
            const destination = normalizeDestination(method.kind, req.destination, method.type);
            if (!destination.ok) throw invalid('destination', DESTINATION_PROBLEMS[destination.problem]);
            const quoted = quotePayout(method, amount);
            if (!quoted.ok) {
              throw new ConsoleHttpError(409, 'amount_out_of_limits', `amount: this method pays out from ${quoted.min} to ${quoted.max} ${method.currency}`, {
                field: 'amount',
                details: { min: quoted.min, max: quoted.max, currency: method.currency },
              });
            }
            const { quote } = quoted;
            if (compareAmounts(quote.total, req.total) !== 0) {
              throw new ConsoleHttpError(409, 'quote_changed', `the fee changed: the total is now ${quote.total} ${quote.currency}; confirm again`, {
                details: { fee: quote.fee, total: quote.total, currency: quote.currency },
              });
            }
            checked = { method, quote };
            await store.set(intentKey(clientOrderId), intentText(intent), PAYOUT_RECORD_TTL_MS);
            return async (signal) => {
              const order = await client.createOrder(
                { client_order_id: clientOrderId, order_side: 'Sell', payment_method_id: method.id, amount: amount as DecimalAmount, customer_account: destination.value },
                { signal },
              );
              return { order, method };
            };
          },
        },
      );
      return { order: value.order, replayed: found, method: value.method };
    } catch (err) {
      const sent = checked as { method: PayoutMethod; quote: { total: string; currency: string } } | null;
      if (sent && isProviderError(err, 'insufficient_funds')) {
        const balance = await client.getBalance().then(
          (b) => b,
          () => null,
        );
        throw new ConsoleHttpError(402, 'insufficient_funds', 'the balance is lower than the payout and its fee', {
          details: { needed: sent.quote.total, currency: sent.quote.currency, ...(balance && { available: balance.available, currency: balance.currency }) },
        });
      }
      if (sent && isProviderError(err, 'amount_out_of_limits')) {
        throw new ConsoleHttpError(409, 'amount_out_of_limits', `the provider refused the amount: ${err.providerMessage ?? err.message}`, {
          field: 'amount',
          details: { ...payoutLimits(sent.method), currency: sent.method.currency },
        });
      }
      if (err instanceof DOMException && err.name === 'TimeoutError') {
        // The console's own bound on one create ended it: the provider may still make the payout.
        throw unconfirmed(err.message);
      }
      throw err;
    }
  };
}

/** A decimal amount of the payout form (`amount`, `total`), normalised; else a 400 naming the field. */
function decimalField(value: string, field: 'amount' | 'total'): string {
  try {
    return parseAmount(value, { field });
  } catch (err) {
    throw invalid(field, err instanceof MoneyError ? err.message.replace(new RegExp(`^${field} `), '') : 'must be a decimal such as 1500.00');
  }
}

/** The payout routes (see the file comment). */
export function registerPayouts(app: Hono, ctx: PayoutContext): void {
  const { client, now, who, audit } = ctx;
  const createPayout = payoutMaker(ctx);
  app.get('/payout-methods', async (c) => c.json({ methods: await payoutMethods(client) }));

  app.get('/payouts', async (c) => {
    const q = check(PayoutsQuery, readQuery(c));
    dateOrder(q);
    const res = await client.listOrders(defined({ ...q, order_side: 'Sell' as const }));
    const { items, ...envelope } = res;
    return c.json({ ...envelope, items: items.map(payoutView) } satisfies ListPage<PayoutView>);
  });

  app.post('/payouts', async (c) => {
    const line: PayoutAuditEntry = { at: new Date(now()).toISOString(), who: who(c), action: 'create', result: 'refused' };
    try {
      const form = check(CreatePayoutBody, await readJson(c, '{"key", "method_id", "amount", "destination", "total"}'), 'field');
      const amount = decimalField(form.amount, 'amount');
      // The total the operator confirmed is compared with the quote as money: it must be a decimal too.
      const body = { ...form, total: decimalField(form.total, 'total') };
      const clientOrderId = payoutClientOrderId(body.key);
      Object.assign(line, { client_order_id: clientOrderId, method: body.method_id, amount, destination: maskDestination('', body.destination) });

      const outcome = await createPayout(body, amount, clientOrderId);
      const replayed = outcome.replayed;
      const payout = payoutView(outcome.order);
      Object.assign(line, {
        result: replayed ? 'replayed' : 'created',
        order_id: payout.id,
        method: `${payout.method.name} (${payout.method.type})`,
        amount: payout.amount,
        fee: payout.fee,
        total: payout.total,
        currency: payout.currency,
        destination: payout.destination,
        status: payout.status,
      } satisfies Partial<PayoutAuditEntry>);
      return c.json({ payout, replayed } satisfies PayoutResponse, replayed ? 200 : 201);
    } catch (err) {
      const mapped = err instanceof ConsoleHttpError ? err : isProviderError(err) ? createError(err) : null;
      line.code = mapped?.code ?? 'internal_error';
      if (mapped) return c.json(mapped.body(), mapped.status as 400, mapped.extra.headers);
      throw err;
    } finally {
      audit(line);
    }
  });

  app.post('/payouts/:id/sandbox-complete', async (c) => {
    const sandbox = ctx.sandbox;
    if (!sandbox) throw new ConsoleHttpError(404, 'not_found', 'completing payouts exists only when the demo runs against the sandbox');
    const param = id.safeParse(c.req.param('id'));
    if (!param.success) throw invalid('id', param.error.issues[0]!.message);
    const orderId = param.data;
    const line: PayoutAuditEntry = { at: new Date(now()).toISOString(), who: who(c), action: 'sandbox-complete', result: 'refused', order_id: orderId };
    try {
      const body = check(SandboxCompleteBody, await readJson(c, '{"client_order_id": "…"}'), 'field');
      line.client_order_id = body.client_order_id;
      const find = async () =>
        (await client.searchOrdersByClientOrderId({ id: body.client_order_id, size: 10 })).items.find((o) => o.id === orderId && o.order_side === 'Sell');
      const order = await find();
      if (!order) throw new ConsoleHttpError(404, 'not_found', 'no payout with this id and client_order_id');
      if (order.status !== 'Unpaid') throw new ConsoleHttpError(409, 'payout_not_pending', `the payout is ${order.status}, not in progress`);
      try {
        await sandbox.complete(order.id);
      } catch (err) {
        throw new ConsoleHttpError(409, 'sandbox_refused', `the sandbox refused: ${err instanceof Error ? err.message : String(err)}`);
      }
      const payout = payoutView((await find()) ?? order);
      Object.assign(line, { result: 'completed', amount: payout.amount, fee: payout.fee, total: payout.total, currency: payout.currency, destination: payout.destination, status: payout.status } satisfies Partial<PayoutAuditEntry>);
      return c.json({ payout });
    } catch (err) {
      line.code = err instanceof ConsoleHttpError ? err.code : isProviderError(err) ? readError(err).code : 'internal_error';
      throw err;
    } finally {
      audit(line);
    }
  });
}

/** A provider error while creating a payout, as the console answers it. */
export function createError(err: ProviderError): ConsoleHttpError {
  const said = err.providerMessage ?? err.message;
  switch (err.code) {
    case 'customer_blacklisted':
      return new ConsoleHttpError(409, 'customer_blacklisted', `the provider refused the destination: ${said}`, { field: 'destination' });
    case 'payment_method_not_found':
      return new ConsoleHttpError(409, 'method_unavailable', `the provider does not know this method: ${said}`, { field: 'method_id' });
    case 'no_traders':
      return new ConsoleHttpError(503, 'no_traders', `the provider has no trader for this payout now: ${said}`, { retryable: true });
    case 'rate_limited':
      return rateLimited(err);
    case 'customer_account_required':
    case 'no_payment_method':
    case 'invalid_request':
      return new ConsoleHttpError(400, 'validation_failed', `the provider refused the payout: ${said}`, { ...(err.field && { field: err.field }) });
    case 'network':
    case 'timeout':
    case 'invalid_response':
      // The answer was lost and the client's lookup could not tell whether the order exists.
      return unconfirmed(err.message);
    default:
      if (err.status !== null && err.status >= 400 && err.status < 500 && err.status !== 401 && err.status !== 403) {
        return new ConsoleHttpError(400, 'validation_failed', `the provider refused the payout: ${said}`);
      }
      return readError(err);
  }
}

/** The provider did not say whether the payout was made: the same form, submitted again, finds it or is told to wait. */
function unconfirmed(why: string): ConsoleHttpError {
  return new ConsoleHttpError(
    502,
    'payout_unconfirmed',
    `the provider did not confirm the payout (${why}); it may exist or still land: submit the same form again, which finds it, ` +
      `or answers payout_in_progress and sends nothing while it has not appeared, instead of paying twice`,
    { retryable: true },
  );
}

