/**
 * The console API's checks: every value the browser sends (query, path, JSON body) is validated here
 * before the provider sees it; a bad value is a 400 that names the field.
 */
import type { Context } from 'hono';
import { z } from 'zod';
import { FORM_SESSION_STATES, ORDER_STATUSES, parseIsoDateTime } from '../provider/index.js';
import { WEBHOOK_OUTCOMES } from './contract.js';
import { ConsoleHttpError, invalid } from './errors.js';
import { PAYOUT_KEY } from './payout-rules.js';

export const page = z.coerce.number().int('must be a whole number').min(1, 'must be at least 1').max(100000, 'is too large');
export const size = z.coerce.number().int('must be a whole number').min(1, 'must be between 1 and 100').max(100, 'must be between 1 and 100');
export const id = z.string().trim().min(1, 'must not be empty').max(128, 'is too long').regex(/^[\x21-\x7e]+$/, 'must be printable ASCII without spaces');
export const text = z.string().trim().min(1, 'must not be empty').max(64, 'is too long');
export const clientOrderId = z.string().trim().min(1, 'must not be empty').max(64, 'must be 1 to 64 characters');
// eslint-disable-next-line no-control-regex
export const searchText = z.string().trim().min(1, 'must not be empty').max(64, 'must be 1 to 64 characters').regex(/^[^\u0000-\u001f\u007f]+$/, 'must not contain control characters');
export const isoDate = z
  .string()
  .max(40, 'is too long')
  .refine((v) => parseIsoDateTime(v) !== null, 'must be an ISO 8601 date or date-time')
  // A time without a zone is UTC, as the provider reads it (never the merchant server's local time).
  .transform((v) => new Date(parseIsoDateTime(v)!).toISOString());
export const bool = z.enum(['true', 'false'], { message: 'must be true or false' }).transform((v) => v === 'true');
export const sortBy = z.enum(['created_at', 'amount'], { message: 'must be created_at or amount' });
export const sortDir = z.enum(['asc', 'desc'], { message: 'must be asc or desc' });
/** An order status of the provider's current API (any case), as the provider spells it. */
const currentStatus = (v: string) => ORDER_STATUSES.find((s) => s.toLowerCase() === v.trim().toLowerCase());
export const orderStatus = z
  .string()
  .max(64, 'is too long')
  .refine((v) => currentStatus(v) !== undefined, `must be an order status: ${ORDER_STATUSES.join(', ')}`)
  .transform((v) => currentStatus(v)!);
export const formSessionState = z.enum(FORM_SESSION_STATES, { message: `must be one of ${FORM_SESSION_STATES.join(', ')}` });

export const OrdersQuery = z.strictObject({
  page: page.optional(),
  size: size.optional(),
  status: orderStatus.optional(),
  order_side: z.enum(['Buy', 'Sell'], { message: 'must be Buy or Sell' }).optional(),
  payment_method_id: id.optional(),
  sort_by: sortBy.optional(),
  sort: sortDir.optional(),
  start_date: isoDate.optional(),
  end_date: isoDate.optional(),
  client_order_id: clientOrderId.optional(),
  q: searchText.optional(),
});

export const PayoutsQuery = z.strictObject({
  page: page.optional(),
  size: size.optional(),
  status: orderStatus.optional(),
  sort_by: sortBy.optional(),
  sort: sortDir.optional(),
  start_date: isoDate.optional(),
  end_date: isoDate.optional(),
});

export const FormSessionsQuery = z.strictObject({
  page: page.optional(),
  size: size.optional(),
  state: formSessionState.optional(),
  order_id: id.optional(),
  client_order_id: clientOrderId.optional(),
  session_id: id.optional(),
});

export const DisputesQuery = z.strictObject({
  page: page.optional(),
  size: size.optional(),
  processed: bool.optional(),
  order_id: id.optional(),
  dispute_id: id.optional(),
  start_date: isoDate.optional(),
  end_date: isoDate.optional(),
});

export const TransactionsQuery = z.strictObject({
  page: page.optional(),
  size: size.optional(),
  transaction_type: z.enum(['deposit', 'withdrawal'], { message: 'must be deposit or withdrawal' }).optional(),
  start_date: isoDate.optional(),
  end_date: isoDate.optional(),
});

export const MethodsQuery = z.strictObject({
  active: bool.optional(),
  method_type: z.array(text).max(10, 'at most 10 values').optional(),
});

export const decimalText = z.string().trim().min(1, 'is required').max(32, 'is too long');
export const CreatePayoutBody = z.strictObject({
  key: z.string().regex(PAYOUT_KEY, 'must be 16 to 48 characters from A-Z, a-z, 0-9, _ and - (one per payout form)'),
  method_id: id,
  amount: decimalText,
  destination: z.string().trim().min(1, 'is required').max(64, 'is too long'),
  total: decimalText,
});

export const WebhooksQuery = z.strictObject({
  page: page.optional(),
  size: size.optional(),
  outcome: z.enum(WEBHOOK_OUTCOMES as [string, ...string[]], { message: `must be one of ${WEBHOOK_OUTCOMES.join(', ')}` }).optional(),
  verified: bool.optional(),
  order_id: id.optional(),
  endpoint: text.optional(),
});

export const ReceiptQuery = z.strictObject({
  endpoint: text.optional(),
  download: z.literal('1', { message: 'must be 1 (or left out)' }).optional(),
});

export const SandboxCompleteBody = z.strictObject({ client_order_id: clientOrderId });

/** The query as an object; empty values are dropped (an empty filter field means "any"). */
export function readQuery(c: Context, repeatable: readonly string[] = []): Record<string, unknown> {
  const url = new URL(c.req.url);
  const out: Record<string, unknown> = {};
  for (const key of new Set(url.searchParams.keys())) {
    const values = url.searchParams.getAll(key).filter((v) => v !== '');
    if (values.length === 0) continue;
    if (repeatable.includes(key)) out[key] = values;
    else if (values.length > 1) throw invalid(key, 'give it once');
    else out[key] = values[0];
  }
  return out;
}

/** A JSON object body, or a 400 that says what to send. */
export async function readJson(c: Context, example: string): Promise<unknown> {
  try {
    return await c.req.json();
  } catch {
    throw new ConsoleHttpError(400, 'bad_request', `send a JSON body ${example}`);
  }
}

export function check<T extends z.ZodType>(schema: T, value: unknown, what: 'filter' | 'field' = 'filter'): z.output<T> {
  const r = schema.safeParse(value);
  if (r.success) return r.data;
  const issue = r.error.issues[0]!;
  if (issue.code === 'unrecognized_keys') {
    throw new ConsoleHttpError(400, 'validation_failed', `unknown ${what}: ${issue.keys.join(', ')}`, { field: issue.keys[0] ?? '' });
  }
  if (issue.path.length === 0) throw new ConsoleHttpError(400, 'bad_request', `expected a JSON object: ${issue.message}`);
  throw invalid(issue.path.join('.'), issue.message);
}

/** A path parameter checked by `schema`. */
export function param<T extends z.ZodType>(schema: T, value: string, name: string): z.output<T> {
  const r = schema.safeParse(value);
  if (!r.success) throw invalid(name, r.error.issues[0]!.message);
  return r.data;
}

export function dateOrder(q: { start_date?: string; end_date?: string }): void {
  if (q.start_date && q.end_date && Date.parse(q.start_date) > Date.parse(q.end_date)) throw invalid('start_date', 'must not be after end_date');
}

/** Strips undefined values (the provider client sends only what is given). */
export function defined<T extends Record<string, unknown>>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}

/** `endpoint` names none of the shop's token endpoints. */
export const invalidEndpoint = (endpoints: readonly { path: string }[]) => invalid('endpoint', `must be one of ${endpoints.map((e) => e.path).join(', ')}`);
