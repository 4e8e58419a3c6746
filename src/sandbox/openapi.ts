/**
 * The OpenAPI 3.1 document of the provider API the sandbox serves, generated from the same zod
 * schemas that validate requests (`src/provider/schemas.ts`, via `z.toJSONSchema`): no second copy.
 */
import { z } from 'zod';
import * as S from '../provider/schemas.js';
import { PROVIDER_MESSAGES } from '../provider/facts.js';
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
  '422': errorResponse('Malformed JSON, a wrong type, an unknown enum value or field, or size over 100; the message names the field'),
  '429': errorResponse(`Request limit: "${PROVIDER_MESSAGES.rate_limited}" (on H2H creation the document's text)`),
};

let cached: Json | null = null;

function buildDocument(): Json {
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
    CreateOrderRequest: jsonSchema(S.CreateOrderRequestSchema, 'input'),
    FormCreateRequest: jsonSchema(S.FormCreateRequestSchema, 'input'),
    WebhookEnvelope: jsonSchema(S.WebhookEnvelopeSchema, 'output'),
    Error: jsonSchema(S.ErrorBodySchema, 'output'),
  };

  const ops: Record<string, Json> = {
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
    'post /api/v1/order/': {
      operationId: 'createOrder',
      summary: 'Create an order (H2H)',
      tags: ['Orders'],
      requestBody: { required: true, content: jsonContent(ref('CreateOrderRequest')) },
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
    'get /api/v1/order/search-by-client-order-id': {
      operationId: 'searchOrdersByClientOrderId',
      summary: 'Find orders by client order id (one page; page is always 1)',
      tags: ['Orders'],
      parameters: queryParameters(S.OrderSearchQuerySchema, { size: 10 }),
      responses: { '200': { description: 'Same shape as the order list', content: jsonContent(ref('OrdersResponse')) }, ...COMMON_ERRORS },
    },
  };

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
        'The provider API of provider-api.md as served by the paydesk sandbox. Errors are {"success": false, "message": "…"} with the status of the document\'s tables.',
    },
    security: [{ ApiKey: [] }],
    paths,
    webhooks: {
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
    },
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
