/**
 * `paydesk/server`: the merchant's token endpoint. A Web-standard fetch handler that holds the
 * provider key, decides the price, creates orders, receives webhooks and serves status to the widget.
 */
export { createCheckoutHandler, matchRoute } from './handler.js';
export type { CheckoutHandler, CreatedSessionAnswer, CreateSessionOptions, CreateSessionRequest } from './handler.js';
export type {
  CheckoutHandlerOptions,
  FlaggedOrderEvent,
  Logger,
  LogLevel,
  OrderEvent,
  PaidOrderEvent,
  ProviderOption,
  RateLimitRule,
  RateLimits,
  ResolvedOrder,
} from './options.js';
export { CheckoutError, fromProviderError, PROVIDER_ERROR_MAP } from './errors.js';
export { createMemoryStore, MemoryStore } from './store.js';
export type { CheckoutStore, IndexEntry, IndexRangeOptions, MemoryStoreOptions, StoredValue } from './store.js';
// libsql is loaded only when createSqliteStore is called.
export { createSqliteStore, SqliteStore } from './stores/sqlite.js';
export type { SqliteStoreOptions } from './stores/sqlite.js';
// Type-only import of ioredis: this does not load ioredis unless createRedisStore is called with a client.
export { createRedisStore, RedisStore } from './stores/redis.js';
export { VolatileRedisError } from './stores/redis-durability.js';
export type { RedisClientLike, RedisStoreOptions } from './stores/redis.js';
export { SessionTokens } from './tokens.js';
export {
  DEFAULT_WEBHOOK_TOLERANCE_SECONDS,
  parseSignatureHeader,
  signWebhookPayload,
  SIGNATURE_HEADER,
  verifyWebhookRequest,
} from './webhooks.js';
export type { WebhookAuthMode, WebhookAuthOptions, WebhookAuthResult } from './webhooks.js';
export { orderToView, requisitesKind, sanitizeUrl } from './order-view.js';
export { offersFor, selectMethod } from './methods.js';
export { DEFAULT_RATE_LIMITS } from './rate-limit.js';
export { setClientAddress } from './http.js';
export {
  toExpressMiddleware,
  toHonoHandler,
  toNextRouteHandlers,
  toNodeListener,
  toWebRequest,
  writeWebResponse,
} from './adapters.js';
export type { FetchHandler, NodeAdapterOptions } from './adapters.js';
export { createNodeTransport } from './transport.js';
export type { NodeTransport, NodeTransportOptions } from './transport.js';
// For a server that serves the widget from its own origin (a strict CSP's script-src 'self'): the
// widget as one ES module, its language chunks beside it.
export { loadWidgetBundle, loadWidgetBundleInfo, loadWidgetFile, WIDGET_BUNDLE_CONTENT_TYPE } from '../bundle/widget-bundle.js';
export type { WidgetBundle } from '../bundle/widget-bundle.js';
// The create-once rule of the token endpoint, for a back office that creates provider orders of its own (payouts).
export { CREATE_IN_FLIGHT_MS, createOnce } from './checkout/create-once.js';
export type { CreateOnceOptions, CreateOnceSteps } from './checkout/create-once.js';
// What `handler.inspect` answers.
export type { SessionDetail, SessionSummary, WebhookLogEntry, WebhookLogQuery, WebhookOutcome } from './checkout/index.js';
