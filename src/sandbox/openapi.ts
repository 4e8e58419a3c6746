/**
 * The OpenAPI 3.1 document of the provider API the sandbox serves, generated from the same zod
 * schemas that validate requests (`src/provider/schemas.ts`, via `z.toJSONSchema`): no second copy.
 */
import { z } from 'zod';
import * as S from '../provider/schemas.js';
import { AGGREGATE_METHOD_IDS, METHOD_TYPES, PROVIDER_MESSAGES } from '../provider/facts.js';
import { DISPUTE_FILE_TYPES, DISPUTE_MAX_FILES, DISPUTE_MAX_FILE_BYTES, DISPUTE_MAX_TOTAL_BYTES } from '../protocol/index.js';
import { API_ROUTES } from './routes/api.js';

type Json = Record<string, unknown>;

function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): Json {
  const out = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as Json;
  delete out.$schema;
  return out;
}

/** A query parameter's schema: values arrive as strings, so branches only a JS caller can send (Date) go. */
function queryParamSchema(p: Json): Json {
  const anyOf = p.anyOf as Json[] | undefined;
  if (!anyOf) return p;
  const kept = anyOf.filter((b) => Object.keys(b).length > 0);
  if (kept.length === 1) return { ...p, anyOf: undefined, ...kept[0] };
  return { ...p, anyOf: kept };
}

const PARAM_DOCS: Record<string, string> = {
  page: 'Page number, default 1',
  size: 'Page size, maximum 100',
  start_date: 'Start of the creation period (ISO 8601 date-time; UTC when no zone is given)',
  end_date: 'End of the creation period (ISO 8601 date-time)',
  method_type: 'Filter by method type; may be given several times',
  active: 'When true only active methods are returned (default false)',
};

function queryParameters(schema: z.ZodObject, defaults: Record<string, unknown> = {}): Json[] {
  const js = jsonSchema(schema, 'input');
  const props = (js.properties ?? {}) as Record<string, Json>;
  const required = new Set((js.required as string[] | undefined) ?? []);
  return Object.entries(props).map(([name, p]) => {
    const paramSchema = JSON.parse(JSON.stringify(queryParamSchema(p))) as Json;
    if (name in defaults) paramSchema.default = defaults[name];
    const param: Json = { name, in: 'query', required: required.has(name), schema: paramSchema };
    if (PARAM_DOCS[name]) param.description = PARAM_DOCS[name];
    if (name === 'method_type') Object.assign(param, { style: 'form', explode: true });
    return param;
  });
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const jsonContent = (schema: Json) => ({ 'application/json': { schema } });
const errorResponse = (description: string) => ({ description, content: jsonContent(ref('Error')) });

const COMMON_ERRORS = {
  '401': errorResponse(`Missing or unknown X-API-Key: "${PROVIDER_MESSAGES.unauthorized}"`),
  '422': errorResponse('Malformed JSON, a wrong type, an unknown enum value, or size over 100; the message names the field (fields the endpoint does not know are ignored)'),
  '429': errorResponse(`Request limit: "${PROVIDER_MESSAGES.rate_limited}" (on H2H creation the document's text)`),
};

let cached: Json | null = null;

/** A request body schema as the service reads it: fields it does not list are ignored, not refused. */
function requestSchema(schema: z.ZodType): Json {
  const js = jsonSchema(schema, 'input');
  const open = (node: Json) => {
    if (node.additionalProperties === false) delete node.additionalProperties;
    for (const v of Object.values((node.properties ?? {}) as Record<string, Json>)) if (v && typeof v === 'object') open(v);
  };
  open(js);
  return { ...js, description: 'Fields not listed here are ignored (provider-notes.md: production clients send extra fields).' };
}

const AGGREGATE_IDS = Object.values(AGGREGATE_METHOD_IDS);

/** The multipart body of `POST /api/v1/disputes/create` (provider-notes.md). */
const DISPUTE_CREATE_BODY: Json = {
  type: 'object',
  required: ['order_id', 'amount', 'files[]'],
  properties: {
    order_id: { type: 'string', minLength: 1, description: "The service's order id", examples: ['7d7f4a52-0c0c-4b8e-9d47-3c1d7a1f0b11'] },
    amount: {
      type: 'string',
      pattern: '^(0|[1-9]\\d{0,14})(\\.\\d{1,2})?$',
      description: "The amount claimed: the order's amount, as a decimal",
      examples: ['1500.00'],
    },
    'files[]': {
      type: 'array',
      minItems: 1,
      maxItems: DISPUTE_MAX_FILES,
      description: `Receipts: ${DISPUTE_FILE_TYPES.join(', ')} (checked by content), at most ${DISPUTE_MAX_FILE_BYTES} bytes each and ${DISPUTE_MAX_TOTAL_BYTES} in all; the field \`files\` is read too`,
      items: { type: 'string', contentMediaType: 'application/octet-stream' },
    },
  },
};

/** The schemas of the document, with the provider's real aggregate ids as examples. */
function schemaComponents(): Json {
  const components: Json = {
    Order: jsonSchema(S.OrderSchema, 'output'),
    FormSession: jsonSchema(S.FormSessionSchema, 'output'),
    FormData: jsonSchema(S.FormDataSchema, 'output'),
    Dispute: jsonSchema(S.DisputeSchema, 'output'),
    Transaction: jsonSchema(S.TransactionSchema, 'output'),
    PaymentMethod: jsonSchema(S.PaymentMethodSchema, 'output'),
    Balance: jsonSchema(S.BalanceSchema, 'output'),
    FormSearchResponse: jsonSchema(S.FormSearchResponseSchema, 'output'),
    FormCreateResponse: jsonSchema(S.FormCreateResponseSchema, 'output'),
    DisputeSearchResponse: jsonSchema(S.DisputeSearchResponseSchema, 'output'),
    TransactionsResponse: jsonSchema(S.TransactionsResponseSchema, 'output'),
    PaymentMethodsResponse: jsonSchema(S.PaymentMethodsResponseSchema, 'output'),
    BalanceResponse: jsonSchema(S.BalanceResponseSchema, 'output'),
    OrdersResponse: jsonSchema(S.OrdersResponseSchema, 'output'),
    OrderResponse: jsonSchema(S.OrderResponseSchema, 'output'),
    CreateDisputeResponse: jsonSchema(S.CreateDisputeResponseSchema, 'output'),
    CreateDisputeRequest: DISPUTE_CREATE_BODY,
    CreateOrderRequest: requestSchema(S.CreateOrderRequestSchema),
    FormCreateRequest: requestSchema(S.FormCreateRequestSchema),
    WebhookEnvelope: jsonSchema(S.WebhookEnvelopeSchema, 'output'),
    Error: jsonSchema(S.ErrorBodySchema, 'output'),
  };

  // The provider's real aggregate ids as examples (the same on every terminal).
  const createProps = (components.CreateOrderRequest as Json).properties as Record<string, Json>;
  createProps.payment_method_id!.examples = AGGREGATE_IDS;
  createProps.payment_method_id!.description = `Way 1: a method id; the aggregate ids are the same on every terminal (${Object.entries(AGGREGATE_METHOD_IDS)
    .map(([type, id]) => `${type} ${id}`)
    .join(', ')})`;
  createProps.method_type!.description = 'Way 2 (RUB terminals only): an aggregate method type';
  const methodProps = (components.PaymentMethod as Json).properties as Record<string, Json>;
  methodProps.method_id!.examples = AGGREGATE_IDS;
  methodProps.method_type!.examples = [...METHOD_TYPES];
  const orderProps = (components.Order as Json).properties as Record<string, Json>;
  orderProps.initial_method_id!.examples = AGGREGATE_IDS;
  return components;
}

/** Operations of the form and the disputes. */
function formAndDisputeOperations(): Record<string, Json> {
  return {
    'get /api/v1/form/search': {
      operationId: 'searchFormSessions',
      summary: 'List form sessions',
      tags: ['Form'],
      parameters: queryParameters(S.FormSearchQuerySchema, { page: 1, size: 10 }),
      responses: { '200': { description: 'Pagination envelope at the top level', content: jsonContent(ref('FormSearchResponse')) }, ...COMMON_ERRORS },
    },
    'post /api/v1/form/create': {
      operationId: 'createForm',
      summary: 'Create a hosted payment form session (Buy only)',
      tags: ['Form'],
      requestBody: { required: true, content: jsonContent(ref('FormCreateRequest')) },
      responses: {
        '201': { description: 'Form created', content: jsonContent(ref('FormCreateResponse')) },
        '400': errorResponse(`order_side Sell ("${PROVIDER_MESSAGES.form_sell_not_allowed}") or button_name not enabled ("${PROVIDER_MESSAGES.button_not_enabled}")`),
        '409': errorResponse(`"${PROVIDER_MESSAGES.form_not_activated}"`),
        '500': errorResponse(`"${PROVIDER_MESSAGES.no_traders}" (preselected bank without requisites)`),
        ...COMMON_ERRORS,
        '429': errorResponse(`Request limit, or anti-fraud block by user_id: "${PROVIDER_MESSAGES.user_pending_limit}"`),
      },
    },
    'get /api/v1/disputes/search': {
      operationId: 'searchDisputes',
      summary: 'List disputes',
      tags: ['Disputes'],
      parameters: queryParameters(S.DisputeSearchQuerySchema, { page: 1, size: 10 }),
      responses: { '200': { description: 'Envelope inside data', content: jsonContent(ref('DisputeSearchResponse')) }, ...COMMON_ERRORS },
    },
    'post /api/v1/disputes/create': {
      operationId: 'createDispute',
      summary: "Open a dispute with the shopper's receipts (observed in production integrations; multipart)",
      tags: ['Disputes'],
      requestBody: {
        required: true,
        content: {
          'multipart/form-data': {
            schema: ref('CreateDisputeRequest'),
            encoding: { 'files[]': { contentType: DISPUTE_FILE_TYPES.join(', ') } },
          },
        },
      },
      responses: {
        '201': { description: 'The dispute is open (processed false); it appears in disputes/search', content: jsonContent(ref('CreateDisputeResponse')) },
        '404': errorResponse(`"${PROVIDER_MESSAGES.order_not_found}": no such order on this terminal`),
        '413': errorResponse(`A receipt over ${DISPUTE_MAX_FILE_BYTES} bytes, or over ${DISPUTE_MAX_TOTAL_BYTES} in all`),
        '415': errorResponse('A receipt that is not JPEG, PNG, WebP, HEIC or PDF by its content'),
        ...COMMON_ERRORS,
        '422': errorResponse('Not multipart/form-data, or order_id, amount or files[] missing or malformed; the message names the field'),
      },
    },
  };
}

/** Operations of the terminal's money. */
function financeOperations(): Record<string, Json> {
  return {
    'get /api/v1/finance/transactions': {
      operationId: 'listTransactions',
      summary: 'List transactions',
      tags: ['Finance'],
      parameters: queryParameters(S.TransactionsQuerySchema, { page: 1, size: 20 }),
      responses: { '200': { description: 'Pagination envelope at the top level', content: jsonContent(ref('TransactionsResponse')) }, ...COMMON_ERRORS },
    },
    'get /api/v1/finance/payment_methods': {
      operationId: 'listPaymentMethods',
      summary: 'List payment methods with fee ranges',
      tags: ['Finance'],
      parameters: queryParameters(S.PaymentMethodsQuerySchema, { active: false }),
      responses: { '200': { description: 'Payment methods', content: jsonContent(ref('PaymentMethodsResponse')) }, ...COMMON_ERRORS },
    },
    'get /api/v1/finance/balance': {
      operationId: 'getBalance',
      summary: 'Get the balance',
      tags: ['Finance'],
      responses: { '200': { description: 'Balance', content: jsonContent(ref('BalanceResponse')) }, '401': COMMON_ERRORS['401'], '429': COMMON_ERRORS['429'] },
    },
  };
}

/** Operations of H2H orders. */
function orderOperations(): Record<string, Json> {
  return {
    'post /api/v1/order/': {
      operationId: 'createOrder',
      summary: 'Create an order (H2H)',
      tags: ['Orders'],
      requestBody: {
        required: true,
        content: {
          'application/json': {
            schema: ref('CreateOrderRequest'),
            examples: {
              sbp: { summary: 'Buy by the SBP aggregate id', value: { client_order_id: 'shop-1001', order_side: 'Buy', payment_method_id: AGGREGATE_METHOD_IDS.SBP, amount: '1500.00' } },
              payout: {
                summary: 'Sell to a card, amount as a JSON number, destination as customer_payment_account',
                value: { client_order_id: 'payout-7', order_side: 'Sell', payment_method_id: AGGREGATE_METHOD_IDS.BankCard, amount: 2500, customer_payment_account: '2200123412341234' },
              },
            },
          },
        },
      },
      responses: {
        '201': { description: 'The order', content: jsonContent(ref('Order')) },
        '400': errorResponse(`"${PROVIDER_MESSAGES.no_payment_method}" or "${PROVIDER_MESSAGES.customer_account_required}"`),
        '402': errorResponse(`"${PROVIDER_MESSAGES.insufficient_funds}"`),
        '404': errorResponse(`"${PROVIDER_MESSAGES.payment_method_not_found}"`),
        '409': errorResponse(`"${PROVIDER_MESSAGES.amount_out_of_limits}" or "${PROVIDER_MESSAGES.customer_blacklisted}"`),
        '500': errorResponse(`"${PROVIDER_MESSAGES.no_traders}"`),
        ...COMMON_ERRORS,
        '429': errorResponse(`"${PROVIDER_MESSAGES.user_pending_limit}" (request limit or anti-fraud by user_id)`),
      },
    },
    'get /api/v1/order/': {
      operationId: 'listOrders',
      summary: 'List orders (default period: the last 24 hours)',
      tags: ['Orders'],
      parameters: queryParameters(S.OrdersQuerySchema, { page: 1, size: 10, sort_by: 'created_at', sort: 'desc' }),
      responses: { '200': { description: 'Envelope inside orders', content: jsonContent(ref('OrdersResponse')) }, ...COMMON_ERRORS },
    },
    'get /api/v1/order/{id}': {
      operationId: 'getOrder',
      summary: "One order by the service's id (observed in production integrations)",
      tags: ['Orders'],
      parameters: [
        { name: 'id', in: 'path', required: true, schema: { type: 'string', minLength: 1 }, description: "The service's order id", example: '7d7f4a52-0c0c-4b8e-9d47-3c1d7a1f0b11' },
      ],
      responses: {
        '200': { description: 'The order', content: jsonContent(ref('OrderResponse')) },
        '404': errorResponse(`"${PROVIDER_MESSAGES.order_not_found}"`),
        '401': COMMON_ERRORS['401'],
        '429': COMMON_ERRORS['429'],
      },
    },
    'get /api/v1/order/search-by-client-order-id': {
      operationId: 'searchOrdersByClientOrderId',
      summary: 'Find orders by client order id (one page; page is always 1)',
      tags: ['Orders'],
      parameters: queryParameters(S.OrderSearchQuerySchema, { size: 10 }),
      responses: { '200': { description: 'Same shape as the order list', content: jsonContent(ref('OrdersResponse')) }, ...COMMON_ERRORS },
    },
  };
}

const WEBHOOKS: Json = {
  orderUpdate: {
    post: {
      summary: 'Order status changed (webhook_type buy_update or sell_update)',
      parameters: [
        { name: 'X-API-Key', in: 'header', required: true, schema: { type: 'string' }, description: "The terminal's API key, as the provider sends it" },
        {
          name: 'X-Paydesk-Signature',
          in: 'header',
          required: true,
          schema: { type: 'string' },
          description: 'Sandbox extension: t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.body"> with the terminal webhook secret',
        },
      ],
      requestBody: { required: true, content: jsonContent(ref('WebhookEnvelope')) },
      responses: { '200': { description: 'Any 2xx stops the retries' } },
    },
  },
};

function buildDocument(): Json {
  const components = schemaComponents();
  const ops: Record<string, Json> = { ...formAndDisputeOperations(), ...financeOperations(), ...orderOperations() };
  const paths: Record<string, Json> = {};
  for (const { method, path } of API_ROUTES) {
    const op = ops[`${method} ${path}`];
    if (!op) throw new Error(`no OpenAPI operation for ${method} ${path}`);
    (paths[path] ??= {})[method] = op;
  }

  return {
    openapi: '3.1.0',
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    info: {
      title: 'Payment Orders and Payment Form Service API (paydesk sandbox)',
      version: '1',
      description:
        'The provider API of provider-api.md, plus what merchants\' production code relies on (provider-notes.md: GET /api/v1/order/{id}, POST /api/v1/disputes/create, the aggregate method ids), as served by the paydesk sandbox. Errors are {"success": false, "message": "…"} with the status of the document\'s tables.',
    },
    security: [{ ApiKey: [] }],
    paths,
    webhooks: WEBHOOKS,
    components: {
      schemas: components,
      securitySchemes: { ApiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' } },
    },
  };
}

/** The document, with `servers` set to where it is served from. */
export function openApiDocument(serverUrl?: string): Json {
  cached ??= buildDocument();
  return serverUrl ? { ...cached, servers: [{ url: serverUrl }] } : cached;
}
