/**
 * Disputes (provider-api.md 3, provider-notes.md "dispute upload"): list them, and create one with
 * its receipts (multipart, sent once).
 */
import type { Call } from '../call.js';
import type { ClientContext } from '../context.js';
import { numberToDecimal } from '../../money/index.js';
import { encodeMultipart } from '../multipart.js';
import { check, refuseNumberAmount } from '../request-checks.js';
import { detectReceiptType } from '../../protocol/receipts.js';
import { CreateDisputeRequestSchema, CreateDisputeResponseSchema, DisputeSearchQuerySchema, DisputeSearchResponseSchema } from '../schemas.js';
import type { Dispute, DisputeSearchQuery, Page } from '../schemas.js';
import type { CreateDisputeRequest, CreateDisputeResponse, ProviderClient } from '../types.js';
import { pagedList } from './pages.js';

const PATHS = {
  disputes: '/api/v1/disputes/search',
  disputeCreate: '/api/v1/disputes/create',
} as const;

type DisputeMethods = Pick<ProviderClient, 'searchDisputes' | 'createDispute' | 'searchAllDisputes'>;

export function disputeMethods(ctx: ClientContext): DisputeMethods {
  const { create, resolve } = ctx;
  const disputes = pagedList<DisputeSearchQuery, Dispute, typeof DisputeSearchResponseSchema>(ctx, {
    path: PATHS.disputes,
    query: DisputeSearchQuerySchema,
    answer: DisputeSearchResponseSchema,
    items: (answer) => answer.data as Page<Dispute>,
    id: (d) => d.dispute_id,
  });

  const methods: DisputeMethods = {
    searchDisputes: (q, opts) => disputes.page(q, opts),

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
          // The dispute a create made for the order since `since` (a lost answer's lookup).
          lookup: (since, rr) => disputes.findCreated({ order_id: req.order_id }, (d) => d.order_id === req.order_id, since, rr),
          onFound: (dispute) => ({ order_id: dispute.order_id, dispute_id: dispute.dispute_id, dispute_files: [], recovered: true as const }),
          subject: 'the dispute',
          handle: `order_id ${req.order_id}`,
        },
        r,
      ) as Promise<CreateDisputeResponse>;
    },

    searchAllDisputes: (q, opts) => disputes.all(q, opts),
  };
  return methods;
}
