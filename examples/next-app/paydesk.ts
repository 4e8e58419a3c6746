// paydesk.ts (server side only)
import { createCheckoutHandler, createSqliteStore } from 'paydesk/server';
import { findProduct, markPaid } from './shop.ts'; // your own data

export const handler = createCheckoutHandler({
  // The provider's root URL (the sandbox: http://127.0.0.1:4010, not …/api/v1) and key
  provider: { baseUrl: process.env.PAYDESK_PROVIDER_URL!, apiKey: process.env.PAYDESK_API_KEY! },
  sessionSecrets: [process.env.PAYDESK_SESSION_SECRET!], // 32+ random characters
  webhookUrl: process.env.PAYDESK_WEBHOOK_URL!, // where the provider reaches /api/paydesk/webhooks
  store: createSqliteStore({ path: 'data/paydesk.db' }), // durable on one host; createRedisStore for several
  resolveOrder: async (orderRef) => { // the browser never sends an amount
    const product = await findProduct(orderRef);
    return product ? { amount: product.price } : null; // "1500.00"
  },
  // Exactly once per paid order, retried until it succeeds; `late` when it came after expiry.
  onOrderPaid: async ({ order_ref, provider_order_id, late }) => markPaid(order_ref, provider_order_id, late),
  // Where no socket reaches the handler (Next.js on Vercel): the platform's client IP, for rate limits.
  // The Node, Express and Hono adapters record the socket address and take precedence.
  getClientAddress: (req) => req.headers.get('x-real-ip') ?? undefined,
});
