/**
 * Zod schemas of the provider API (provider-api.md), shared by the typed client (request checks
 * before sending, response checks after) and the sandbox (request validation, OpenAPI document).
 *
 * Responses are lenient where the real service varies (merchants' production code shows numbers sent
 * as strings and strings as numbers, fields absent instead of null, extra fields): enums from the
 * provider are open strings (unknown values are kept, never a crash), extra fields pass through, a
 * nullable field may be absent (it reads null), counters and fees may be numbers or numeric strings.
 * They are strict where money is decided: an amount must be an exact decimal (a string, or a JSON
 * number read exactly as written), and the id, currency and status of an order must be non-empty
 * strings. Requests are strict (the sandbox reads them as the provider does: see routes/context.ts).
 */
import { z } from 'zod';
import { numberToDecimal } from '../money/index.js';
import { DISPUTE_FILE_TYPES, DISPUTE_MAX_FILES, DISPUTE_MAX_FILE_BYTES, DISPUTE_MAX_TOTAL_BYTES } from '../protocol/index.js';
import { detectReceiptType } from '../protocol/receipts.js';
import { parseIsoDateTime } from './time.js';
import type {
  FormSessionState,
  KnownMethodType,
  MethodType,
  OrderSide,
  OrderStatus,
  TransactionType,
  UnknownValue,
  WebhookType,
} from './facts.js';
import {
  BUTTON_NAMES,
  CUSTOMER_BANKS,
  METHOD_TYPES,
  ORDER_SIDES,
  ORDER_SORT_FIELDS,
  SORT_DIRECTIONS,
  TRANSACTION_TYPES,
} from './facts.js';

// ---------------------------------------------------------------------------------------------
// Building blocks

/** A decimal number as the provider writes it in strings: `"1500.00"`, `"-3.5"`. */
export const DecimalString = z.string().regex(/^-?\d+(\.\d+)?$/, 'expected a decimal string');

/** An http(s) URL of at most 512 characters (the document's rule for webhook_url). */
export const HttpUrl = z
  .string()
  .max(512, 'must be at most 512 characters')
  .refine(isHttpUrl, 'must be a valid http(s) URL');

export function isHttpUrl(value: string): boolean {
  if (!/^https?:\/\//i.test(value)) return false;
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname.length > 0;
  } catch {
    return false;
  }
}

/** An amount in a request: a positive decimal string (or a JSON number, which the provider also takes). */
export const RequestAmount = z.union([
  z
    .string()
    .regex(/^(0|[1-9]\d{0,14})(\.\d{1,2})?$/, 'must be a positive decimal with at most 2 fractional digits, e.g. "1500.00"')
    .refine((v) => /[1-9]/.test(v), 'must be greater than zero'),
  z.number().positive().finite(),
]);

// Lenient readers of answers (documented as their exact type: a preprocess is invisible in the JSON schema).

/** An amount in an answer: a decimal string, or a JSON number taken exactly as written (`1500.5` → `"1500.5"`). */
export const AnswerDecimal = z.preprocess((v) => (typeof v === 'number' && Number.isFinite(v) ? numberToDecimal(v) : v), DecimalString);
/** A count in an answer: an integer, or an integer written as a string. */
const AnswerCount = z.preprocess((v) => (typeof v === 'string' && /^\d{1,15}$/.test(v) ? Number(v) : v), z.number().int().nonnegative());
/** A number in an answer (fees, limits): a JSON number, or one written as a string. */
const AnswerNumber = z.preprocess((v) => (typeof v === 'string' && /^-?\d{1,15}(\.\d{1,12})?$/.test(v) ? Number(v) : v), z.number());
/** A flag in an answer: a boolean, or `"true"`/`"false"`/`0`/`1`. */
const AnswerBoolean = z.preprocess((v) => (v === 'true' || v === 1 ? true : v === 'false' || v === 0 ? false : v), z.boolean());
/** A nullable text: absent reads null. */
const nullableString = z.preprocess((v) => (v === undefined ? null : v), z.string().nullable());
/** A nullable number: absent reads null; a numeric string reads as its number. */
const nullableNumber = z.preprocess(
  (v) => (v === undefined ? null : typeof v === 'string' && /^-?\d{1,15}(\.\d{1,12})?$/.test(v) ? Number(v) : v),
  z.number().nullable(),
);
/** An identifier that decides what an answer is about: a non-empty string. */
const IdString = z.string().min(1, 'must be a non-empty string');

const Page = <T extends z.ZodType>(item: T) =>
  z.looseObject({
    items: z.array(item),
    total: AnswerCount,
    page: AnswerCount,
    size: AnswerCount,
    pages: AnswerCount,
  });

/** A code the provider sends (a currency): any string. */
const openString = z.string();
/**
 * An enum the provider sends: any string is accepted at runtime (an unknown value is kept, never a
 * crash) and typed as its known literals or {@link UnknownValue}.
 */
const openEnum = <T extends string>() => z.string() as unknown as z.ZodType<T | UnknownValue, string>;

// ---------------------------------------------------------------------------------------------
// Resources (responses)

export const FormSessionSchema = z.looseObject({
  session_id: IdString,
  ip_address: nullableString,
  client_order_id: z.string(),
  terminal_id: z.string(),
  order_side: openEnum<OrderSide>(),
  amount: AnswerDecimal,
  payment_method_type: nullableString as unknown as z.ZodType<MethodType | null, unknown>,
  nspk_code: nullableString,
  order_id: nullableString,
  redirect_url: nullableString,
  support_url: nullableString,
  return_url: nullableString,
  search_count: AnswerCount,
  merchant_name: z.string(),
  currency: openString,
  selection: AnswerBoolean,
  created_at: z.string(),
  updated_at: z.string(),
  unique_amount: AnswerBoolean,
  user_id: nullableString,
  state: openEnum<Exclude<FormSessionState, UnknownValue>>(),
  requisites_request_starts_at: nullableString,
  requisites_request_expires_at: nullableString,
  payment_confirmation_starts_at: nullableString,
  payment_confirmation_expires_at: nullableString,
  expires_at: z.string(),
});

export const FormDataSchema = z.looseObject({
  session_id: IdString,
  form_url: z.string().min(1),
  order_data: z.looseObject({
    client_order_id: z.string(),
    order_side: openEnum<OrderSide>(),
    payment_method_id: nullableString,
    amount: AnswerDecimal,
    customer_bank: nullableString,
    unique_amount: AnswerBoolean,
  }),
  support_url: nullableString,
  redirect_url: nullableString,
  return_url: nullableString,
});

/** A dispute id: a string (a service that numbers its disputes may send an integer: read as its text). */
const DisputeId = z.preprocess((v) => (typeof v === 'number' && Number.isSafeInteger(v) ? String(v) : v), IdString);

export const DisputeSchema = z.looseObject({
  dispute_id: DisputeId,
  order_id: IdString,
  client_order_id: z.string(),
  /** The order's amount (a JSON number in the document; a numeric string is read too). */
  amount: AnswerNumber,
  currency: z.string(),
  processed: AnswerBoolean,
  created_at: z.string(),
});

export const TransactionSchema = z.looseObject({
  id: z.string(),
  deposit_id: z.string(),
  amount: AnswerDecimal,
  transaction_type: openEnum<TransactionType>(),
  created_at: z.string(),
  terminal: z.looseObject({ id: z.string(), currency: z.string(), name: z.string() }),
  client_description: z.string(),
  client_id: z.string(),
});

export const FeeRangeSchema = z.looseObject({
  fee_side: openEnum<OrderSide>(),
  currency: z.string(),
  min_amount: AnswerNumber,
  max_amount: AnswerNumber,
  fee: AnswerNumber,
  fixed_fee: nullableNumber,
});

export const PaymentMethodSchema = z.looseObject({
  method_id: IdString,
  method_name: z.string(),
  method_type: openEnum<KnownMethodType>(),
  method_currency: z.string(),
  nspk_code: nullableString,
  ranges: z.array(FeeRangeSchema),
  /** Not in the document's field table, but implied by the `active` filter; optional. */
  active: AnswerBoolean.optional(),
});

export const BalanceSchema = z.looseObject({
  available: AnswerDecimal,
  frozen: AnswerDecimal,
  total: AnswerDecimal,
  id: z.string(),
  currency: IdString,
});

export const OrderSchema = z.looseObject({
  id: IdString,
  client_order_id: z.string(),
  currency: IdString,
  method_id: z.string(),
  method_name: z.string(),
  method_type: openEnum<KnownMethodType>(),
  initial_method_id: z.string(),
  order_side: openEnum<OrderSide>(),
  amount: AnswerDecimal,
  fee: AnswerDecimal,
  fixed_fee: nullableNumber,
  status: IdString as unknown as z.ZodType<OrderStatus, string>,
  holder_name: z.string(),
  holder_account: z.string(),
  customer_name: nullableString,
  customer_account: nullableString,
  customer_bank: nullableString,
  payment_link: nullableString,
  webhook_url: nullableString,
  /** Only with integration type order_with_form. */
  form_url: z.string().nullable().optional(),
  created_at: z.string(),
  updated_at: z.string(),
  expires_at: z.string(),
});

// ---------------------------------------------------------------------------------------------
// Response envelopes

export const FormSearchResponseSchema = Page(FormSessionSchema);
export const FormCreateResponseSchema = z.looseObject({
  success: AnswerBoolean,
  message: z.string().nullable().optional(),
  form_data: FormDataSchema,
});
export const DisputeSearchResponseSchema = z.looseObject({
  success: AnswerBoolean,
  message: z.string().nullable().optional(),
  data: Page(DisputeSchema),
});
export const TransactionsResponseSchema = Page(TransactionSchema);
export const PaymentMethodsResponseSchema = z.looseObject({
  success: AnswerBoolean,
  message: z.string().nullable().optional(),
  payment_methods: z.array(PaymentMethodSchema),
});
export const BalanceResponseSchema = z.looseObject({
  success: AnswerBoolean,
  message: z.string().nullable().optional(),
  deposit: BalanceSchema,
});
export const CreateOrderResponseSchema = OrderSchema;
export const OrdersResponseSchema = z.looseObject({
  success: AnswerBoolean,
  message: z.string().nullable().optional(),
  orders: Page(OrderSchema),
});
/** `GET /api/v1/order/{id}` (provider-notes.md). */
export const OrderResponseSchema = z.looseObject({
  success: AnswerBoolean,
  message: z.string().nullable().optional(),
  order: OrderSchema,
});
/**
 * An item of `dispute_files`: its shape is not shown anywhere, so any text or object is kept (the
 * sandbox answers `{index, file_id, file_name, content_type, size, sha256}`).
 */
export const DisputeFileSchema = z.union([z.string(), z.looseObject({})]);
/** `POST /api/v1/disputes/create` (provider-notes.md): `201 {order_id, dispute_id, dispute_files}`. */
export const CreateDisputeResponseSchema = z.looseObject({
  order_id: IdString,
  dispute_id: DisputeId,
  dispute_files: z.preprocess((v) => (v === undefined || v === null ? [] : v), z.array(DisputeFileSchema)),
});
export const ErrorBodySchema = z.looseObject({ success: z.literal(false), message: z.string() });

/** The webhook envelope seen in public integrations (provider-notes.md). */
export const WebhookEnvelopeSchema = z.looseObject({
  request_id: z.string(),
  webhook_type: openEnum<Exclude<WebhookType, UnknownValue>>(),
  datetime: z.string(),
  payload: OrderSchema,
});

// ---------------------------------------------------------------------------------------------
// Requests (strict: unknown enum values and wrong types are refused)

export const CreateOrderRequestSchema = z.strictObject({
  client_order_id: z.string().min(1, 'must be 1 to 64 characters').max(64, 'must be 1 to 64 characters'),
  order_side: z.enum(ORDER_SIDES),
  payment_method_id: z.string().min(1).nullish(),
  method_type: z.enum(METHOD_TYPES).nullish(),
  nspk_code: z.string().min(1).max(64).nullish(),
  amount: RequestAmount,
  customer_name: z.string().max(256).nullish(),
  customer_account: z.string().min(1).max(64).nullish(),
  /**
   * The Sell destination under the name production payout modules send (provider-notes.md); the
   * service takes it when `customer_account` is absent. Not in provider-api.md.
   */
  customer_payment_account: z.string().min(1).max(64).nullish(),
  user_id: z.string().min(1).max(256).nullish(),
  webhook_url: HttpUrl.nullish(),
  unique_amount: z.boolean().nullish(),
  // Only for integration type order_with_form (and only Buy):
  redirect_url: HttpUrl.nullish(),
  support_url: HttpUrl.nullish(),
  return_url: HttpUrl.nullish(),
  customer_bank: z.enum(CUSTOMER_BANKS).nullish(),
});

export const FormCreateRequestSchema = z.strictObject({
  order_data: z.strictObject({
    client_order_id: z.string().min(1, 'must be 1 to 64 characters').max(64, 'must be 1 to 64 characters'),
    order_side: z.enum(ORDER_SIDES),
    button_name: z.enum(BUTTON_NAMES).nullish(),
    amount: RequestAmount,
    user_id: z.string().min(1).max(256).nullish(),
    unique_amount: z.boolean().nullish(),
    // Echoed in form_data.order_data by the provider; accepted here as optional preselection.
    payment_method_id: z.string().min(1).nullish(),
    customer_bank: z.enum(CUSTOMER_BANKS).nullish(),
  }),
  redirect_url: HttpUrl.nullish(),
  support_url: HttpUrl.nullish(),
  return_url: HttpUrl.nullish(),
});

/** A receipt of `createDispute`: a name, an allowed declared type, and content of an allowed type (checked by its bytes). */
export const DisputeFileInputSchema = z.strictObject({
  name: z.string().min(1, 'must be a file name of 1 to 255 characters').max(255, 'must be a file name of 1 to 255 characters'),
  type: z.enum(DISPUTE_FILE_TYPES, `must be one of ${DISPUTE_FILE_TYPES.join(', ')}`),
  data: z
    .instanceof(Uint8Array, { message: 'must be a Uint8Array (or a Buffer) with the file content' })
    .refine((d) => d.byteLength > 0, 'is empty')
    .refine((d) => d.byteLength <= DISPUTE_MAX_FILE_BYTES, `must be at most ${DISPUTE_MAX_FILE_BYTES} bytes`)
    .refine((d) => detectReceiptType(d) !== null, 'is not a JPEG, PNG, WebP, HEIC or PDF file by its content'),
});

/** `POST /api/v1/disputes/create` as a caller gives it (sent as multipart with the files in `files[]`). */
export const CreateDisputeRequestSchema = z
  .strictObject({
    order_id: z.string().trim().min(1, 'must be a non-empty string (the provider order id)').max(256, 'must be at most 256 characters'),
    amount: RequestAmount,
    files: z
      .array(DisputeFileInputSchema)
      .min(1, 'must hold at least one receipt')
      .max(DISPUTE_MAX_FILES, `must hold at most ${DISPUTE_MAX_FILES} receipts`),
  })
  .refine((r) => r.files.reduce((n, f) => n + f.data.byteLength, 0) <= DISPUTE_MAX_TOTAL_BYTES, {
    message: `the receipts must have at most ${DISPUTE_MAX_TOTAL_BYTES} bytes together`,
    path: ['files'],
  });

// Query parameters arrive as strings (sandbox) or as typed values from a caller (client); both parse.
const PageNumber = z.coerce.number<string | number>().int().min(1, 'must be at least 1');
const PageSize = z.coerce
  .number<string | number>()
  .int()
  .min(1, 'must be between 1 and 100')
  .max(100, 'must be between 1 and 100');
const BooleanQuery = z.union([z.boolean(), z.enum(['true', 'false']).transform((v) => v === 'true')]);
const DateQuery = z.union([
  z.string().refine((v) => parseIsoDateTime(v) !== null, 'must be an ISO 8601 date or date-time, e.g. 2025-01-31T23:59:59Z'),
  z.date().transform((d) => d.toISOString()),
]);

export const FormSearchQuerySchema = z.strictObject({
  page: PageNumber.optional(),
  size: PageSize.optional(),
  order_id: z.string().optional(),
  client_order_id: z.string().optional(),
  session_id: z.string().optional(),
  state: z.string().optional(),
  currency: z.string().optional(),
  terminal_id: z.string().optional(),
});

export const DisputeSearchQuerySchema = z.strictObject({
  page: PageNumber.optional(),
  size: PageSize.optional(),
  order_id: z.string().optional(),
  dispute_id: z.string().optional(),
  processed: BooleanQuery.optional(),
  start_date: DateQuery.optional(),
  end_date: DateQuery.optional(),
});

export const TransactionsQuerySchema = z.strictObject({
  page: PageNumber.optional(),
  size: PageSize.optional(),
  transaction_type: z.enum(TRANSACTION_TYPES).optional(),
  start_date: DateQuery.optional(),
  end_date: DateQuery.optional(),
});

export const PaymentMethodsQuerySchema = z.strictObject({
  active: BooleanQuery.optional(),
  method_type: z.union([z.string(), z.array(z.string())]).optional(),
});

export const OrdersQuerySchema = z.strictObject({
  page: PageNumber.optional(),
  size: PageSize.optional(),
  payment_method_id: z.string().optional(),
  order_side: z.enum(ORDER_SIDES).optional(),
  status: z.string().optional(),
  sort_by: z.enum(ORDER_SORT_FIELDS).optional(),
  sort: z.enum(SORT_DIRECTIONS).optional(),
  start_date: DateQuery.optional(),
  end_date: DateQuery.optional(),
});

export const OrderSearchQuerySchema = z.strictObject({
  id: z.string().min(1, 'is required'),
  size: PageSize.optional(),
});

// ---------------------------------------------------------------------------------------------
// Types

// Answers are named, closed interfaces: a misspelt field (`order.ammount`) does not compile. Fields
// the provider adds are still kept at runtime (the schemas pass them through) but are not typed.

/** A form session (`GET /api/v1/form/search`). */
export interface FormSession {
  session_id: string;
  ip_address: string | null;
  client_order_id: string;
  terminal_id: string;
  order_side: OrderSide | UnknownValue;
  /** Decimal string, e.g. `"1500.00"`. */
  amount: string;
  payment_method_type: MethodType | null;
  nspk_code: string | null;
  order_id: string | null;
  redirect_url: string | null;
  support_url: string | null;
  return_url: string | null;
  search_count: number;
  merchant_name: string;
  currency: string;
  selection: boolean;
  created_at: string;
  updated_at: string;
  unique_amount: boolean;
  user_id: string | null;
  state: FormSessionState;
  requisites_request_starts_at: string | null;
  requisites_request_expires_at: string | null;
  payment_confirmation_starts_at: string | null;
  payment_confirmation_expires_at: string | null;
  expires_at: string;
}

/** The order data echoed by `createForm`. */
export interface FormOrderData {
  client_order_id: string;
  order_side: OrderSide | UnknownValue;
  payment_method_id: string | null;
  /** Decimal string. */
  amount: string;
  customer_bank: string | null;
  unique_amount: boolean;
}

/** What `createForm` returns: the new form session and the page to send the shopper to. */
export interface FormData {
  session_id: string;
  form_url: string;
  order_data: FormOrderData;
  support_url: string | null;
  redirect_url: string | null;
  return_url: string | null;
}

/** A dispute (`GET /api/v1/disputes/search`). */
export interface Dispute {
  dispute_id: string;
  order_id: string;
  client_order_id: string;
  /** The order's amount (a JSON number in the document). */
  amount: number;
  currency: string;
  processed: boolean;
  created_at: string;
}

export interface TransactionTerminal {
  id: string;
  currency: string;
  name: string;
}

/** A balance movement (`GET /api/v1/finance/transactions`). */
export interface Transaction {
  id: string;
  deposit_id: string;
  /** Decimal string. */
  amount: string;
  transaction_type: TransactionType | UnknownValue;
  created_at: string;
  terminal: TransactionTerminal;
  client_description: string;
  client_id: string;
}

/** A fee range of a payment method. */
export interface FeeRange {
  fee_side: OrderSide | UnknownValue;
  currency: string;
  min_amount: number;
  max_amount: number;
  fee: number;
  fixed_fee: number | null;
}

/** A payment method (`GET /api/v1/finance/payment_methods`). */
export interface PaymentMethod {
  method_id: string;
  method_name: string;
  method_type: MethodType;
  method_currency: string;
  nspk_code: string | null;
  ranges: FeeRange[];
  active?: boolean | undefined;
}

/** The terminal's deposit (`GET /api/v1/finance/balance`). Amounts are decimal strings. */
export interface Balance {
  available: string;
  frozen: string;
  total: string;
  id: string;
  currency: string;
}

/** An order (`POST /api/v1/order/`, `GET /api/v1/order/…`, the webhook's payload). */
export interface Order {
  id: string;
  client_order_id: string;
  currency: string;
  method_id: string;
  method_name: string;
  method_type: MethodType;
  initial_method_id: string;
  order_side: OrderSide | UnknownValue;
  /** Decimal string, e.g. `"1500.00"`. */
  amount: string;
  /** Decimal string. */
  fee: string;
  fixed_fee: number | null;
  status: OrderStatus;
  holder_name: string;
  holder_account: string;
  customer_name: string | null;
  customer_account: string | null;
  customer_bank: string | null;
  payment_link: string | null;
  webhook_url: string | null;
  /** Only with integration type order_with_form. */
  form_url?: string | null | undefined;
  created_at: string;
  updated_at: string;
  expires_at: string;
}

/**
 * One page of a list, the same shape for every list of the client (orders, form sessions, disputes,
 * transactions). `pages` is the number of pages at this `size`; `total` the number of items.
 */
export interface Page<T> {
  items: T[];
  page: number;
  size: number;
  pages: number;
  total: number;
}
/** @deprecated Use {@link Page}. */
export type PageOf<T> = Page<T>;

/** An item of `dispute_files`: its shape is not documented (the sandbox's: `{index, file_id, file_name, content_type, size, sha256}`). */
export type DisputeFile = string | Readonly<Record<string, unknown>>;

/** The webhook envelope seen in public integrations (provider-notes.md). */
export interface WebhookEnvelope {
  request_id: string;
  webhook_type: WebhookType;
  datetime: string;
  payload: Order;
}

// The raw answers of the API, as the schemas read them (the client returns the resource inside).
export type FormSearchResponse = Page<FormSession>;
export type FormCreateResponse = z.infer<typeof FormCreateResponseSchema>;
export type DisputeSearchResponse = z.infer<typeof DisputeSearchResponseSchema>;
export type TransactionsResponse = Page<Transaction>;
export type PaymentMethodsResponse = z.infer<typeof PaymentMethodsResponseSchema>;
export type BalanceResponse = z.infer<typeof BalanceResponseSchema>;
export type OrdersResponse = z.infer<typeof OrdersResponseSchema>;
export type OrderResponse = z.infer<typeof OrderResponseSchema>;

// Each schema reads at least its interface (checked here, so the two cannot drift apart).
const readsAs = <T>(_schema: z.ZodType<T, unknown>): void => undefined;
readsAs<FormSession>(FormSessionSchema);
readsAs<FormData>(FormDataSchema);
readsAs<Dispute>(DisputeSchema);
readsAs<Transaction>(TransactionSchema);
readsAs<PaymentMethod>(PaymentMethodSchema);
readsAs<Balance>(BalanceSchema);
readsAs<Order>(OrderSchema);
readsAs<WebhookEnvelope>(WebhookEnvelopeSchema);
readsAs<DisputeFile>(DisputeFileSchema);

/**
 * An amount in a request: a decimal string such as `"1500.00"`, never a number (a float cannot carry
 * money exactly; the client refuses a number with `invalid_request`).
 */
export type DecimalAmount = `${number}`;

/**
 * A decimal string checked at runtime and typed as {@link DecimalAmount} (for an amount that comes
 * from a database or a form as `string`): `"1500"`, `"1500.5"`, `"1500.00"`. Throws a `TypeError`
 * naming the value otherwise (a number, `"1e3"`, `"1,5"`, more than 2 fractional digits).
 */
export function decimalAmount(value: string): DecimalAmount {
  if (typeof value !== 'string' || !/^(0|[1-9]\d{0,14})(\.\d{1,2})?$/.test(value)) {
    throw new TypeError(`not a decimal amount (a string such as "1500.00"): ${typeof value === 'string' ? JSON.stringify(value) : String(value)}`);
  }
  return value as DecimalAmount;
}

// Requests and queries as a caller writes them, written out (for readers and the API report); the
// compiler holds each to its schema's input (below), so the two cannot drift apart.

/** `POST /api/v1/order/`, as a caller writes it (exactly one of `payment_method_id` and `method_type`). */
export interface CreateOrderRequest {
  client_order_id: string;
  order_side: OrderSide;
  amount: DecimalAmount;
  payment_method_id?: string | null;
  method_type?: KnownMethodType | null;
  nspk_code?: string | null;
  customer_name?: string | null;
  /** Required for Sell: where the money goes. */
  customer_account?: string | null;
  /** The Sell destination under the name production payout modules send (provider-notes.md). */
  customer_payment_account?: string | null;
  user_id?: string | null;
  webhook_url?: string | null;
  unique_amount?: boolean | null;
  /** Integration type `order_with_form` only (Buy). */
  redirect_url?: string | null;
  /** Integration type `order_with_form` only (Buy). */
  support_url?: string | null;
  /** Integration type `order_with_form` only (Buy). */
  return_url?: string | null;
  /** Integration type `order_with_form` only (Buy). */
  customer_bank?: 'sberbank' | 'vtb' | 'tinkoff' | 'alfabank' | null;
}

/** `POST /api/v1/form/create`, as a caller writes it. */
export interface FormCreateRequest {
  order_data: {
    client_order_id: string;
    /** `Buy` only: the form does not take Sell. */
    order_side: OrderSide;
    amount: DecimalAmount;
    button_name?: 'AlfaPay' | 'SberPay' | 'TPay' | 'VTBPay' | null;
    user_id?: string | null;
    unique_amount?: boolean | null;
    payment_method_id?: string | null;
    customer_bank?: 'sberbank' | 'vtb' | 'tinkoff' | 'alfabank' | null;
  };
  redirect_url?: string | null;
  support_url?: string | null;
  return_url?: string | null;
}

/** `GET /api/v1/form/search`. */
export interface FormSearchQuery {
  page?: string | number;
  size?: string | number;
  order_id?: string;
  client_order_id?: string;
  session_id?: string;
  state?: string;
  currency?: string;
  terminal_id?: string;
}

/** `GET /api/v1/disputes/search`; dates as ISO 8601 text (no zone: UTC) or a `Date`. */
export interface DisputeSearchQuery {
  page?: string | number;
  size?: string | number;
  order_id?: string;
  dispute_id?: string;
  processed?: boolean | 'true' | 'false';
  start_date?: string | Date;
  end_date?: string | Date;
}

/** `GET /api/v1/finance/transactions`; dates as ISO 8601 text (no zone: UTC) or a `Date`. */
export interface TransactionsQuery {
  page?: string | number;
  size?: string | number;
  transaction_type?: TransactionType;
  start_date?: string | Date;
  end_date?: string | Date;
}

/** `GET /api/v1/order/`; dates as ISO 8601 text (no zone: UTC) or a `Date`. */
export interface OrdersQuery {
  page?: string | number;
  size?: string | number;
  payment_method_id?: string;
  order_side?: OrderSide;
  status?: string;
  sort_by?: 'created_at' | 'amount';
  sort?: 'asc' | 'desc';
  start_date?: string | Date;
  end_date?: string | Date;
}

/** `GET /api/v1/order/search-by-client-order-id`: `id` is the client order id. */
export interface OrderSearchQuery {
  id: string;
  size?: string | number;
}

/** True when A and B are assignable both ways and have the same keys (an optional field is not left out). */
type Same<A, B> = [A, keyof A] extends [B, keyof B] ? ([B, keyof B] extends [A, keyof A] ? true : false) : false;
type Holds<T extends true> = T;
type WithDecimal<T> = Omit<T, 'amount'> & { amount: DecimalAmount };
type FormInput = z.input<typeof FormCreateRequestSchema>;
/** Each written-out request type is its schema's input (a compile error otherwise). */
type RequestTypesMatchSchemas = [
  Holds<Same<CreateOrderRequest, WithDecimal<z.input<typeof CreateOrderRequestSchema>>>>,
  Holds<Same<FormCreateRequest, Omit<FormInput, 'order_data'> & { order_data: WithDecimal<FormInput['order_data']> }>>,
  Holds<Same<FormSearchQuery, z.input<typeof FormSearchQuerySchema>>>,
  Holds<Same<DisputeSearchQuery, z.input<typeof DisputeSearchQuerySchema>>>,
  Holds<Same<TransactionsQuery, z.input<typeof TransactionsQuerySchema>>>,
  Holds<Same<OrdersQuery, z.input<typeof OrdersQuerySchema>>>,
  Holds<Same<OrderSearchQuery, z.input<typeof OrderSearchQuerySchema>>>,
];

/** Query of the payment method list, as a caller writes it. */
export interface PaymentMethodsQuery {
  active?: boolean;
  method_type?: string | string[];
}

// ---------------------------------------------------------------------------------------------
// Cross-field business rules of the document, shared by client (before sending) and sandbox.

export interface RuleViolation {
  field: string;
  message: string;
}

/** The document's cross-field rules for H2H creation that are not shape checks. */
export function createOrderRuleViolations(req: z.input<typeof CreateOrderRequestSchema>): RuleViolation[] {
  const out: RuleViolation[] = [];
  const hasId = req.payment_method_id != null;
  const hasType = req.method_type != null;
  if (hasId && hasType) {
    out.push({ field: 'payment_method_id', message: 'give exactly one of payment_method_id or method_type, not both' });
  }
  if (!hasId && !hasType) {
    out.push({ field: 'payment_method_id', message: 'Payment method ID or method type is required' });
  }
  if (req.nspk_code != null && !hasType) {
    out.push({ field: 'nspk_code', message: 'nspk_code is only allowed together with method_type' });
  }
  const destination = req.customer_account ?? req.customer_payment_account;
  if (req.order_side === 'Sell' && (destination == null || destination === '')) {
    out.push({ field: 'customer_account', message: 'Customer account is required' });
  }
  if (req.order_side === 'Sell' && req.method_type === 'SBP') {
    out.push({ field: 'method_type', message: 'the aggregate method SBP works for Buy only' });
  }
  if (req.order_side === 'Sell') {
    for (const field of ['redirect_url', 'support_url', 'return_url', 'customer_bank'] as const) {
      if (req[field] != null) out.push({ field, message: `${field} is only allowed for Buy orders (order_with_form)` });
    }
  }
  return out;
}

/** The document's rules for form creation that are not shape checks: the form exists for `Buy` only. */
export function formCreateRuleViolations(req: z.input<typeof FormCreateRequestSchema>): RuleViolation[] {
  const out: RuleViolation[] = [];
  if (req.order_data.order_side !== 'Buy') {
    out.push({ field: 'order_data.order_side', message: 'the payment form accepts only order_side Buy' });
  }
  return out;
}
