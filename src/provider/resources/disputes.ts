/**
 * Disputes (provider-api.md 3, provider-notes.md "dispute upload"): list them, and create one with
 * its receipts (multipart, sent once).
 */
import type { Call } from '../call.js';
import type { ClientContext } from '../context.js';
import { LOOKUP_SIZE } from '../create-once.js';
import { numberToDecimal } from '../../money/index.js';
import { createdSince, latestCreated } from '../matching.js';
import { encodeMultipart } from '../multipart.js';
import type { Resolved } from '../options.js';
import { check, queryOf, refuseNumberAmount } from '../request-checks.js';
import { detectReceiptType } from '../../protocol/receipts.js';
import { CreateDisputeRequestSchema, CreateDisputeResponseSchema, DisputeSearchQuerySchema, DisputeSearchResponseSchema } from '../schemas.js';
import type { Dispute, Page } from '../schemas.js';
import { eachItem, type CreateDisputeRequest, type CreateDisputeResponse, type ProviderClient } from '../types.js';

const PATHS = {
  disputes: '/api/v1/disputes/search',
  disputeCreate: '/api/v1/disputes/create',
} as const;

type DisputeMethods = Pick<ProviderClient, 'searchDisputes' | 'createDispute' | 'searchAllDisputes'>;

export function disputeMethods({ read, create, resolve }: ClientContext): DisputeMethods {
  /** The dispute a create made for the order since `sinceMs` (a lost answer's lookup). */
  async function findCreatedDispute(orderId: string, sinceMs: number, r: Resolved): Promise<Dispute | undefined> {
    const params = new URLSearchParams({ order_id: orderId, size: String(LOOKUP_SIZE) });
    const page = await read({ method: 'GET', path: PATHS.disputes, kind: 'read', query: params }, DisputeSearchResponseSchema, r);
    return latestCreated(page.data.items.filter((d) => d.order_id === orderId && createdSince(d, sinceMs)));
  }

  const methods: DisputeMethods = {
    async searchDisputes(q, opts) {
      const call: Call = { method: 'GET', path: PATHS.disputes, kind: 'read', query: queryOf(DisputeSearchQuerySchema, q, 'query') };
      return (await read(call, DisputeSearchResponseSchema, resolve(opts))).data as Page<Dispute>;
    },

    async createDispute(body, opts) {
      const r = resolve(opts);
      refuseNumberAmount((body as { amount?: unknown } | undefined)?.amount, 'amount');
      const req = check(CreateDisputeRequestSchema, body, 'body', 'not_created') as CreateDisputeRequest & { order_id: string };
      // An amount given as a JSON number, as the decimal text the multipart body carries.
      const amount = typeof req.amount === 'number' ? numberToDecimal(req.amount) : req.amount;
      const multipart = encodeMultipart([
        { name: 'order_id', value: req.order_id },
        { name: 'amount', value: amount },
        // Each part carries the type its content proved (checked above), whatever was declared.
        ...req.files.map((f) => ({ name: 'files[]', filename: f.name, contentType: detectReceiptType(f.data) ?? f.type, data: f.data })),
      ]);
      const call: Call = { method: 'POST', path: PATHS.disputeCreate, kind: 'dispute_create', raw: multipart };
      return create(
        {
          call,
          schema: CreateDisputeResponseSchema,
          key: `dispute:${req.order_id}`,
          lookup: (since, rr) => findCreatedDispute(req.order_id, since, rr),
          onFound: (dispute) => ({ order_id: dispute.order_id, dispute_id: dispute.dispute_id, dispute_files: [], recovered: true as const }),
          subject: 'the dispute',
          handle: `order_id ${req.order_id}`,
        },
        r,
      ) as Promise<CreateDisputeResponse>;
    },

    searchAllDisputes(q, opts) {
      return eachItem((page) => methods.searchDisputes({ size: 100, ...q, page }, opts), (d) => d.dispute_id);
    },
  };
  return methods;
}
