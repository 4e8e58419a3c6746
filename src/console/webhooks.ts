/** The console's webhook log: `GET /webhooks`, what the token endpoints received, newest first. */
import type { Hono } from 'hono';
import { check, defined, invalidEndpoint, readQuery, WebhooksQuery } from './checks.js';
import type { ReadContext } from './lists.js';
import type { ShopRecords } from './shop.js';

/** GET /webhooks: what the token endpoints received, newest first. */
export function registerWebhooks(app: Hono, { shops }: ReadContext): void {
  app.get('/webhooks', async (c) => {
    const q = check(WebhooksQuery, readQuery(c));
    if (q.endpoint !== undefined && !shops.endpoint(q.endpoint)) throw invalidEndpoint(shops.endpoints);
    const { page: pageNumber = 1, size: pageSize = 20, ...filters } = q;
    return c.json(await shops.webhooks(defined(filters) as Parameters<ShopRecords['webhooks']>[0], pageNumber, pageSize));
  });
}
