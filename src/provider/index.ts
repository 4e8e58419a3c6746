/**
 * `paydesk/provider`: the typed client of the provider API, its typed errors, the named types of
 * every answer and request, and the provider's value lists (statuses, sides, method types, …).
 *
 * Every name here is public on purpose (api/paydesk-provider.api.md is the reviewed list). The zod
 * schemas, the error classification, the matching rules and the provider facts behind them are
 * internal: code of this repository imports them from their modules.
 */

// The client: one method per endpoint; its options and the transport seam.
export { createProviderClient } from './client.js';
export type {
  AllPagesQuery,
  ProviderClient,
  ProviderClientOptions,
  ProviderHttpRequest,
  ProviderHttpResponse,
  ProviderTransport,
  RequestOptions,
} from './types.js';

// Errors: one class with a stable code; what a failed create says of its record.
export { isProviderError, ProviderError } from './errors.js';
export type { ProviderErrorDetails } from './errors.js';
export type { CreateOutcome, ProviderErrorCode } from './types.js';

// Answers: named, closed interfaces.
export type {
  Balance,
  Dispute,
  DisputeFile,
  FeeRange,
  FormData,
  FormOrderData,
  FormSession,
  Order,
  Page,
  PaymentMethod,
  Transaction,
  WebhookEnvelope,
} from './schemas.js';
export type { CreateDisputeResponse } from './types.js';

// Requests and list queries; money as decimal strings.
export type {
  CreateOrderRequest,
  DecimalAmount,
  DisputeSearchQuery,
  FormCreateRequest,
  FormSearchQuery,
  OrderSearchQuery,
  OrdersQuery,
  PaymentMethodsQuery,
  TransactionsQuery,
} from './schemas.js';
export { decimalAmount } from './schemas.js';
export { parseIsoDateTime } from './time.js';
export type { CreateDisputeRequest, DisputeFileInput } from './types.js';

// The provider's values: literal unions open to values it adds later (UnknownValue), and their lists.
export {
  AGGREGATE_METHOD_IDS,
  BUTTON_NAMES,
  FORM_SESSION_STATES,
  isKnown,
  knownStatus,
  METHOD_TYPES,
  ORDER_STATUSES,
  orderOutcome,
  requisitesKindOf,
  TRANSACTION_TYPES,
} from './facts.js';
export type {
  ButtonName,
  FormSessionState,
  KnownMethodType,
  KnownOrderStatus,
  MethodType,
  OrderOutcome,
  OrderSide,
  OrderStatus,
  TransactionType,
  UnknownValue,
  WebhookType,
} from './facts.js';
