// The published .d.ts of paydesk/server and paydesk/provider, as a Node server project without the
// DOM lib (lib ES2022 only) compiles them: the declarations must need nothing from the DOM, and the
// typing points of issue 21.3 hold in what is published, not only in the sources.
import { createCheckoutHandler, toNodeListener, toWebRequest, type PaidOrderEvent } from 'paydesk/server';
import { createProviderClient, type Order, type OrderStatus } from 'paydesk/provider';

declare function markPaid(orderRef: string, providerOrderId: string): Promise<void>;

export const onOrderPaid = async ({ order_ref, provider_order_id }: PaidOrderEvent): Promise<void> => {
  await markPaid(order_ref, provider_order_id);
};
export const mount = [createCheckoutHandler, toNodeListener, toWebRequest];

const client = createProviderClient({ baseUrl: 'http://127.0.0.1:4010', apiKey: 'k' });

export async function published(): Promise<void> {
  // @ts-expect-error money is a decimal string in requests
  await client.createOrder({ client_order_id: 'a', order_side: 'Buy', method_type: 'SBP', amount: 100.5 });
  const page = await client.listOrders();
  const order: Order | undefined = page.items[0];
  // @ts-expect-error closed answers: a misspelt field does not compile
  void order?.ammount;
  // @ts-expect-error getBalance returns the balance, not the envelope
  void (await client.getBalance()).deposit;
  // @ts-expect-error a plain string is not a status
  const s: OrderStatus = 'x' as string;
  void s;
  for await (const o of client.listAllOrders()) void o.id;
}
