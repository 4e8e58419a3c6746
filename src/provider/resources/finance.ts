/** The terminal's money (provider-api.md 4–6): transactions, payment methods, balance. */
import type { Call } from '../call.js';
import type { ClientContext } from '../context.js';
import { queryOf } from '../request-checks.js';
import {
  BalanceResponseSchema,
  PaymentMethodsQuerySchema,
  PaymentMethodsResponseSchema,
  TransactionsQuerySchema,
  TransactionsResponseSchema,
} from '../schemas.js';
import type { Balance, Page, PaymentMethod, Transaction, TransactionsQuery } from '../schemas.js';
import type { ProviderClient } from '../types.js';
import { pagedList } from './pages.js';

const PATHS = {
  transactions: '/api/v1/finance/transactions',
  paymentMethods: '/api/v1/finance/payment_methods',
  balance: '/api/v1/finance/balance',
} as const;

type FinanceMethods = Pick<ProviderClient, 'listTransactions' | 'listPaymentMethods' | 'getBalance' | 'listAllTransactions'>;

export function financeMethods(ctx: ClientContext): FinanceMethods {
  const { read, resolve } = ctx;
  const transactions = pagedList<TransactionsQuery, Transaction, typeof TransactionsResponseSchema>(ctx, {
    path: PATHS.transactions,
    query: TransactionsQuerySchema,
    answer: TransactionsResponseSchema,
    items: (answer) => answer as Page<Transaction>,
    id: (t) => t.id,
  });

  const methods: FinanceMethods = {
    listTransactions: (q, opts) => transactions.page(q, opts),

    async listPaymentMethods(q, opts) {
      const call: Call = { method: 'GET', path: PATHS.paymentMethods, kind: 'read', query: queryOf(PaymentMethodsQuerySchema, q, 'query') };
      return (await read(call, PaymentMethodsResponseSchema, resolve(opts))).payment_methods as PaymentMethod[];
    },

    async getBalance(opts) {
      return (await read({ method: 'GET', path: PATHS.balance, kind: 'read' }, BalanceResponseSchema, resolve(opts))).deposit as Balance;
    },

    listAllTransactions: (q, opts) => transactions.all(q, opts),
  };
  return methods;
}
