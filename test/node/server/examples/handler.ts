// handler.ts: one handler for the whole app (it holds the provider key, so server side only).
import { createCheckoutHandler } from '../../../../src/server/index.js';

const prices: Record<string, string> = { 'tee-black': '1500.00', 'mug-white': '700.00' };
export const paidOrders = new Set<string>(); // your database

export const handler = createCheckoutHandler({
  provider: { baseUrl: process.env.PAYDESK_PROVIDER_URL!, apiKey: process.env.PAYDESK_API_KEY! },
  sessionSecrets: [process.env.PAYDESK_SESSION_SECRET!],
  webhookSecrets: [process.env.PAYDESK_WEBHOOK_SECRET!],
  webhookUrl: process.env.PAYDESK_WEBHOOK_URL,
  allowedOrigins: ['https://shop.example'],
  resolveOrder: (orderRef) => {
    const amount = prices[orderRef];
    return amount ? { amount, redirect_url: 'https://shop.example/thanks' } : null;
  },
  onOrderPaid: async ({ order_ref }) => {
    paidOrders.add(order_ref); // runs exactly once per paid order
  },
});
