/**
 * The console's reports behind its login: `GET /export/{orders|payouts|disputes|transactions}.csv`
 * (src/console/exports.ts) and `GET /analytics` (src/console/analytics.ts). Both stop reading the
 * provider when the request's client goes away.
 */
import type { Hono } from 'hono';
import { createAnalytics } from './analytics.js';
import { ConsoleHttpError } from './errors.js';
import { exportCsv } from './exports.js';
import type { ReadContext } from './lists.js';

export function registerReports(app: Hono, { client }: ReadContext): void {
  const analytics = createAnalytics(client);
  app.get('/export/:file', async (c) => {
    const kind = /^([a-z]{1,20})\.csv$/.exec(c.req.param('file'))?.[1];
    if (!kind) throw new ConsoleHttpError(404, 'not_found', 'the exports are orders.csv, payouts.csv, disputes.csv and transactions.csv');
    return exportCsv(client, kind, new URL(c.req.url).searchParams, c.req.raw.signal);
  });
  app.get('/analytics', (c) => analytics.handle(new URL(c.req.url).searchParams, c.req.raw.signal));
}
