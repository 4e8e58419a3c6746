/**
 * The console's read routes share a context; and the provider's own lists (meta, balance, form
 * sessions, transactions, payment methods), checked and passed on. Orders: console-orders.ts;
 * disputes: console-disputes.ts; webhooks: console-webhooks.ts; payouts: console-payouts.ts; the
 * login: console-auth.ts.
 */
import type { Hono } from 'hono';
import { FORM_SESSION_STATES, METHOD_TYPES, ORDER_STATUSES, TRANSACTION_TYPES, type ProviderClient } from '../provider/index.js';
import { check, dateOrder, defined, FormSessionsQuery, MethodsQuery, readQuery, TransactionsQuery } from './checks.js';
import { WEBHOOK_OUTCOMES } from './contract.js';
import type { ShopRecords } from './shop.js';
import type { DoubleState, RefundBook } from './refunds.js';

export interface ReadContext {
  client: ProviderClient;
  shops: ShopRecords;
  /** Whether the sandbox's controls exist (the console's `meta`). */
  sandbox: boolean;
  logError: (message: string, err: unknown) => void;
  /** The refunds (refunds.ts), for the order page. */
  refunds: RefundBook;
  /** The double payments and their refunds by provider order id (refunds.ts `doubleStates`), for the shop's state of an order. */
  doubles: (shown?: ReadonlySet<string>) => Promise<Map<string, DoubleState>>;
}

/** GET /meta, /balance, /form-sessions, /transactions, /payment-methods: the provider's own lists, checked and passed on. */
export function registerProviderLists(app: Hono, { client, shops, sandbox }: ReadContext): void {
  app.get('/meta', (c) =>
    c.json({
      order_statuses: ORDER_STATUSES,
      form_session_states: FORM_SESSION_STATES,
      method_types: METHOD_TYPES,
      transaction_types: TRANSACTION_TYPES,
      webhook_outcomes: WEBHOOK_OUTCOMES,
      endpoints: shops.endpoints.map((e) => e.path),
      receipts: shops.receiptsAvailable,
      sandbox,
    }),
  );

  app.get('/balance', async (c) => {
    const res = await client.getBalance();
    return c.json({ balance: res });
  });

  app.get('/form-sessions', async (c) => {
    const q = check(FormSessionsQuery, readQuery(c));
    const res = await client.searchFormSessions(defined(q));
    return c.json({ items: res.items, total: res.total, page: res.page, size: res.size, pages: res.pages });
  });

  app.get('/transactions', async (c) => {
    const q = check(TransactionsQuery, readQuery(c));
    dateOrder(q);
    const res = await client.listTransactions(defined(q));
    return c.json({ items: res.items, total: res.total, page: res.page, size: res.size, pages: res.pages });
  });

  app.get('/payment-methods', async (c) => {
    const q = check(MethodsQuery, readQuery(c, ['method_type']));
    const res = await client.listPaymentMethods(defined(q));
    return c.json({ methods: res });
  });
}
