/** The console's disputes: `GET /disputes` (each with its order, the shop's view and its receipts) and a receipt's bytes. */
import type { Hono } from 'hono';
import { DISPUTE_MAX_FILES } from '../protocol/index.js';
import { check, dateOrder, defined, DisputesQuery, id, invalidEndpoint, param, readQuery, ReceiptQuery } from './checks.js';
import type { DisputesPage } from './contract.js';
import { ConsoleHttpError, invalid } from './errors.js';
import type { ReadContext } from './lists.js';
import { receiptResponse } from './receipts.js';
import { mapLimit, type ConsoleEndpoint } from './shop.js';

/** GET /disputes and a dispute's receipt, /disputes/{id}/files/{index}. */
export function registerDisputes(app: Hono, { client, shops, logError }: ReadContext): void {
  app.get('/disputes', async (c) => {
    const q = check(DisputesQuery, readQuery(c));
    dateOrder(q);
    const res = await client.searchDisputes(defined(q));
    const { items, total, page: pageNumber, size: pageSize, pages } = res;
    const views = await mapLimit(items, 8, (d) => shops.disputeView(shops.main, d));
    return c.json({ items: views, total, page: pageNumber, size: pageSize, pages, receipts_available: shops.receiptsAvailable } satisfies DisputesPage);
  });

  // A dispute's receipt: proxied from the sandbox, served only as what its bytes prove (console-receipts.ts).
  app.get('/disputes/:id/files/:index', async (c) => {
    const disputeId = param(id, c.req.param('id'), 'id');
    const indexText = c.req.param('index');
    if (!/^\d{1,2}$/.test(indexText) || Number(indexText) >= DISPUTE_MAX_FILES) {
      throw invalid('index', `must be a whole number from 0 to ${DISPUTE_MAX_FILES - 1}`);
    }
    const q = check(ReceiptQuery, readQuery(c));
    const endpoint = shops.endpoint(q.endpoint);
    if (!endpoint) throw invalidEndpoint(shops.endpoints);
    if (!endpoint.receipts) {
      throw new ConsoleHttpError(404, 'receipts_unavailable', 'the provider does not give dispute receipts out to merchants; the console has them only with the sandbox');
    }
    let file: Awaited<ReturnType<NonNullable<ConsoleEndpoint['receipts']>['read']>>;
    try {
      file = await endpoint.receipts.read(disputeId, Number(indexText));
    } catch (err) {
      logError('reading a dispute receipt failed', err);
      throw new ConsoleHttpError(502, 'provider_error', `the receipt could not be read: ${err instanceof Error ? err.message : String(err)}`, { retryable: true });
    }
    if (!file) throw new ConsoleHttpError(404, 'not_found', `dispute ${disputeId} has no receipt ${indexText}`);
    const res = receiptResponse(file.bytes, file.name, { download: q.download === '1' });
    if (!res) {
      logError('a dispute receipt is not a JPEG, PNG, WebP, HEIC or PDF by its content; it is not served', new Error(`dispute ${disputeId}, receipt ${indexText}`));
      throw new ConsoleHttpError(502, 'unsafe_receipt', 'this file is not a JPEG, PNG, WebP, HEIC or PDF by its content, so it is not served');
    }
    return res;
  });
}
