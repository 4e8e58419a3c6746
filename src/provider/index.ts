/**
 * `paydesk/provider`: the typed client of the provider API, its typed errors, the zod schemas and
 * types of every resource and request, and the provider facts the document leaves "not shown".
 */
export * from './facts.js';
export * from './schemas.js';
export { eachItem } from './types.js';
export type {
  AllPagesQuery,
  CreateDisputeRequest,
  CreateDisputeResponse,
  CreateOutcome,
  DisputeFileInput,
  ProviderClient,
  ProviderClientOptions,
  ProviderErrorCode,
  ProviderHttpRequest,
  ProviderHttpResponse,
  ProviderTransport,
  RequestOptions,
} from './types.js';
export { createProviderClient } from './client.js';
export { DEFAULT_LOOKUP_WINDOW_MS, DEFAULT_MAX_RETRIES, DEFAULT_TIMEOUT_MS } from './options.js';
export { BACKOFF_BASE_MS, BACKOFF_CAP_MS, MAX_RETRY_AFTER_MS } from './transport.js';
export { LOOKUP_FIRST_DELAY_MS } from './create-once.js';
export { classifyProviderError, isProviderError, ProviderError } from './errors.js';
export type { EndpointKind, ErrorClassification, ProviderErrorInit } from './errors.js';
export { amountMatches, createdSince, latestCreated, LOOKUP_CLOCK_SLACK_MS, orderMatchesRequest, sessionMatchesRequest, UNIQUE_AMOUNT_SPREAD } from './matching.js';
export { detectReceiptType } from '../protocol/receipts.js';
