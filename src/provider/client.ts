/**
 * The typed client of the provider API (provider-api.md, and provider-notes.md's order by id and
 * dispute upload): one method per endpoint, requests checked before sending, answers checked after,
 * typed errors, retries for reads, and creates that are sent once per call: a lost answer is
 * resolved by looking the record up over a bounded window, never by sending it again.
 *
 * Works with any WHATWG `fetch` (Node 20, browsers, Deno, Bun); no Node-only imports.
 *
 * Where things are: options.ts (options checked, defaults), transport.ts (send, retry, backoff),
 * answers.ts (an answer read into data or a ProviderError), create-once.ts (creates and their
 * lookups), matching.ts (is a found record a create's own), time.ts (the provider's times),
 * redaction.ts (the key kept out of errors), request-checks.ts, and one module per group of endpoints
 * in resources/ (orders, forms, disputes, finance; pages.ts the paged lists they share).
 */
import type { ClientContext } from './context.js';
import { createOnce } from './create-once.js';
import { resolveClientOptions, resolveRequest } from './options.js';
import { redactorOf } from './redaction.js';
import { disputeMethods } from './resources/disputes.js';
import { financeMethods } from './resources/finance.js';
import { formMethods } from './resources/forms.js';
import { orderMethods } from './resources/orders.js';
import { createTransport } from './transport.js';
import type { ProviderClient, ProviderClientOptions } from './types.js';

/**
 * Creates a client for one terminal (one API key).
 *
 * @example
 * const provider = createProviderClient({ baseUrl: 'http://127.0.0.1:4010', apiKey: process.env.PAYDESK_API_KEY! });
 * const order = await provider.createOrder({ client_order_id: 'A-1', order_side: 'Buy', method_type: 'SBP', amount: '1500.00' });
 */
export function createProviderClient(options: ProviderClientOptions): ProviderClient {
  // The key goes only into the transport's closure: never on an object, in a message, or in a thrown error.
  const { settings, apiKey } = resolveClientOptions(options);
  const transport = createTransport(settings, apiKey, redactorOf(apiKey));
  const context: ClientContext = {
    read: transport.read,
    create: createOnce(transport, settings.now),
    resolve: (opts) => resolveRequest(settings.defaults, opts),
    integrationType: settings.integrationType,
  };
  const forms = formMethods(context);
  const disputes = disputeMethods(context);
  const finance = financeMethods(context);
  const orders = orderMethods(context);
  // In the order of the document's endpoints (1–9), then its notes' two, then the iterators.
  const client: ProviderClient = {
    searchFormSessions: forms.searchFormSessions,
    createForm: forms.createForm,
    searchDisputes: disputes.searchDisputes,
    listTransactions: finance.listTransactions,
    listPaymentMethods: finance.listPaymentMethods,
    getBalance: finance.getBalance,
    createOrder: orders.createOrder,
    listOrders: orders.listOrders,
    searchOrdersByClientOrderId: orders.searchOrdersByClientOrderId,
    getOrder: orders.getOrder,
    createDispute: disputes.createDispute,
    listAllOrders: orders.listAllOrders,
    listAllTransactions: finance.listAllTransactions,
    searchAllDisputes: disputes.searchAllDisputes,
    searchAllFormSessions: forms.searchAllFormSessions,
  };
  return Object.freeze(client);
}
