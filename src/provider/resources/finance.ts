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
import type { Balance, Page, PaymentMethod, Transaction } from '../schemas.js';
import { eachItem, type ProviderClient } from '../types.js';

const PATHS = {
  transactions: '/api/v1/finance/transactions',
  paymentMethods: '/api/v1/finance/payment_methods',
  balance: '/api/v1/finance/balance',
} as const;

type FinanceMethods = Pick<ProviderClient, 'listTransactions' | 'listPaymentMethods' | 'getBalance' | 'listAllTransactions'>;

export function financeMethods({ read, resolve }: ClientContext): FinanceMethods {
  const methods: FinanceMethods = {
    async listTransactions(q, opts) {
      const call: Call = { method: 'GET', path: PATHS.transactions, kind: 'read', query: queryOf(TransactionsQuerySchema, q, 'query') };
      return (await read(call, TransactionsResponseSchema, resolve(opts))) as Page<Transaction>;
    },

    async listPaymentMethods(q, opts) {
      const call: Call = { method: 'GET', path: PATHS.paymentMethods, kind: 'read', query: queryOf(PaymentMethodsQuerySchema, q, 'query') };
      return (await read(call, PaymentMethodsResponseSchema, resolve(opts))).payment_methods as PaymentMethod[];
    },

    async getBalance(opts) {
      return (await read({ method: 'GET', path: PATHS.balance, kind: 'read' }, BalanceResponseSchema, resolve(opts))).deposit as Balance;
    },

    listAllTransactions(q, opts) {
      return eachItem((page) => methods.listTransactions({ size: 100, ...q, page }, opts), (t) => t.id);
    },
  };
  return methods;
}
