// onOrderPaid names the provider order: README's markPaid(order_ref, provider_order_id) compiles.
import { createCheckoutHandler, type OrderEvent, type PaidOrderEvent } from '../../../src/server/index.js';

declare function markPaid(orderRef: string, providerOrderId: string): Promise<void>;

export const options: Parameters<typeof createCheckoutHandler>[0]['onOrderPaid'] = async ({ order_ref, provider_order_id }) => {
  await markPaid(order_ref, provider_order_id);
};

export function closedHasNoOrderYet(e: OrderEvent): string {
  // @ts-expect-error a closed order may have no provider order (a form never used)
  return e.provider_order_id;
}

export const paidId = (e: PaidOrderEvent): string => e.provider_order_id;
