// The provider client's types (issue 21.3, 21.4): closed answers, amounts as decimal strings, literal
// unions with an explicit escape hatch for values the provider adds later, one list shape.
import {
  createProviderClient,
  isKnown,
  ORDER_STATUSES,
  type Balance,
  type KnownOrderStatus,
  type Order,
  type OrderStatus,
  type Page,
  type PaymentMethod,
  type UnknownValue,
} from '../../../src/provider/index.js';

const client = createProviderClient({ baseUrl: 'http://127.0.0.1:4010', apiKey: 'k' });

export async function closedAnswers(): Promise<void> {
  const orders = await client.listOrders();
  const first = orders.items[0]!;
  // @ts-expect-error a misspelt field does not compile (no index signature on Order)
  void first.ammount;
  const balance = await client.getBalance();
  // @ts-expect-error getBalance returns the balance itself, not the provider's { success, deposit } envelope
  void balance.deposit;
  // @ts-expect-error listOrders returns a Page, not { success, message, orders }
  void orders.orders;
  const methods: PaymentMethod[] = await client.listPaymentMethods();
  const page: Page<Order> = orders;
  const b: Balance = balance;
  void [methods, page, b];
}

export async function amounts(): Promise<void> {
  await client.createOrder({ client_order_id: 'a', order_side: 'Buy', method_type: 'SBP', amount: '100.50' });
  // @ts-expect-error money is never a float: amount is a decimal string
  await client.createOrder({ client_order_id: 'a', order_side: 'Buy', method_type: 'SBP', amount: 100.5 });
  // @ts-expect-error nor in a form
  await client.createForm({ order_data: { client_order_id: 'a', order_side: 'Buy', amount: 100 } });
  // @ts-expect-error nor in a dispute
  await client.createDispute({ order_id: 'o', amount: 1500, files: [] });
  // @ts-expect-error a word is not an amount
  await client.createOrder({ client_order_id: 'a', order_side: 'Buy', method_type: 'SBP', amount: 'hundred' });
}

const LABELS: Record<KnownOrderStatus, string> = {
  Unpaid: 'waiting',
  Completed: 'paid',
  CanceledByTimeout: 'expired',
  CanceledByService: 'cancelled',
  Processing: 'waiting',
  Queued: 'waiting',
  Paid: 'paid',
  CanceledByAdmin: 'cancelled',
  CanceledByTrader: 'cancelled',
  CanceledByMerchant: 'cancelled',
  CanceledByCustomer: 'cancelled',
};

export function unions(order: Order): string {
  // @ts-expect-error statuses are literal unions: a misspelt status does not compile
  const typo: OrderStatus = 'Complete';
  // @ts-expect-error method types too
  const method: Order['method_type'] = 'SPB';
  // @ts-expect-error sides too
  const side: Order['order_side'] = 'buy';
  // @ts-expect-error a plain string is not a status (the unknown case is explicit: UnknownValue)
  const s: OrderStatus = 'Whatever' as string;
  // @ts-expect-error an unknown status has no label: the UnknownValue case must be handled first
  const label = LABELS[order.status];
  void [typo, method, side, s, label];
  // @ts-expect-error a request's method type is one of the known ones
  void client.createOrder({ client_order_id: 'a', order_side: 'Buy', method_type: 'SPB', amount: '1' });
  // An unknown status still parses: it is typed apart, as UnknownValue, and narrows away.
  if (isKnown(ORDER_STATUSES, order.status)) {
    const known: KnownOrderStatus = order.status;
    return known;
  }
  const unknown: UnknownValue | KnownOrderStatus = order.status;
  switch (order.status) {
    case 'Completed':
      return 'paid';
    default:
      return unknown;
  }
}

export async function iterate(): Promise<number> {
  let n = 0;
  for await (const order of client.listAllOrders({ status: 'Completed' })) {
    const o: Order = order;
    n += o.amount.length;
  }
  // @ts-expect-error the iterator walks the pages itself: no page in its query
  client.listAllOrders({ page: 2 });
  return n;
}

// Error codes are literal unions: the provider client's and the element's (paydesk-error).
import type { ProviderErrorCode } from '../../../src/provider/index.js';
import type { PaydeskErrorDetail } from '../../../src/element/index.js';
// @ts-expect-error a misspelt provider error code does not compile
export const providerCode: ProviderErrorCode = 'insuficient_funds';
export function elementCode(detail: PaydeskErrorDetail): void {
  // @ts-expect-error a misspelt element error code does not compile
  const code: PaydeskErrorDetail['code'] = 'netwrok';
  // @ts-expect-error a plain string is not an element error code (an unknown one is UnknownValue)
  const plain: PaydeskErrorDetail['code'] = detail.message;
  void [code, plain];
}
