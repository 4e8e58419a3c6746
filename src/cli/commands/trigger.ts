/**
 * `paydesk trigger <event> [ORDER_ID]`: the sandbox's scenario controls (DESIGN.md "Sandbox
 * contract") on one order, the terminal's newest when no id is given.
 *   paid              POST /sandbox/orders/{id}/complete
 *   late              expire it (unless it has ended already), then complete {"late": true}
 *   expired|cancelled POST /sandbox/orders/{id}/expire | cancel
 *   dispute-accepted|dispute-rejected  the order's open dispute (one is opened when there is none),
 *                     decided: POST /sandbox/disputes/{id}/process {"accepted"} (as demo/sandbox-bar.ts)
 */
import { Failure, printJson, type Io } from '../core/io.js';
import { clientOf, providerTarget, requireSandbox, sandboxCaller, sandboxRefusal, viaProvider, type SandboxCall } from '../core/provider.js';
import { JSON_OPTION, PROVIDER_OPTIONS, type CommandSpec } from '../core/spec.js';

export const TRIGGER_EVENTS = ['paid', 'late', 'expired', 'cancelled', 'dispute-accepted', 'dispute-rejected'] as const;
type TriggerEvent = (typeof TRIGGER_EVENTS)[number];

/** Statuses an order ends unpaid with, from which `late` completes it directly. */
const ENDED_UNPAID = new Set(['CanceledByTimeout', 'CanceledByService']);

interface Outcome {
  event: TriggerEvent;
  order: { id: string; client_order_id: string; status: string; amount: string; currency: string };
  dispute: { id: string; opened: boolean; accepted: boolean } | null;
}

const enc = encodeURIComponent;

async function post(call: SandboxCall, path: string, what: string, payload?: unknown): Promise<Record<string, unknown>> {
  const answer = await call('POST', path, payload);
  if (answer.status < 200 || answer.status > 299) throw sandboxRefusal(what, answer);
  return answer.body ?? {};
}

/** The order's dispute still in work, opened now when there is none. */
async function openDispute(call: SandboxCall, orderId: string): Promise<{ id: string; opened: boolean }> {
  const found = await call('GET', `/api/v1/disputes/search?order_id=${enc(orderId)}&processed=false&size=1`);
  const items = ((found.body?.data as { items?: Array<{ dispute_id?: unknown }> } | undefined)?.items ?? []);
  const existing = items[0]?.dispute_id;
  if (found.status === 200 && typeof existing === 'string') return { id: existing, opened: false };
  const opened = await post(call, `/sandbox/orders/${enc(orderId)}/dispute`, `opening a dispute on ${orderId}`);
  const id = (opened.dispute as { dispute_id?: unknown } | undefined)?.dispute_id;
  if (typeof id !== 'string') throw new Failure(`the sandbox opened a dispute on ${orderId} but did not say its id`);
  return { id, opened: true };
}

async function fire(call: SandboxCall, event: TriggerEvent, orderId: string, status: string): Promise<Outcome['dispute']> {
  const path = `/sandbox/orders/${enc(orderId)}`;
  switch (event) {
    case 'paid':
      await post(call, `${path}/complete`, `completing ${orderId}`);
      return null;
    case 'late':
      if (!ENDED_UNPAID.has(status)) await post(call, `${path}/expire`, `expiring ${orderId} (before paying it late)`);
      await post(call, `${path}/complete`, `completing ${orderId} late`, { late: true });
      return null;
    case 'expired':
      await post(call, `${path}/expire`, `expiring ${orderId}`);
      return null;
    case 'cancelled':
      await post(call, `${path}/cancel`, `cancelling ${orderId}`);
      return null;
    case 'dispute-accepted':
    case 'dispute-rejected': {
      const dispute = await openDispute(call, orderId);
      const accepted = event === 'dispute-accepted';
      await post(call, `/sandbox/disputes/${enc(dispute.id)}/process`, `deciding dispute ${dispute.id}`, { accepted });
      return { ...dispute, accepted };
    }
  }
}

export const trigger: CommandSpec = {
  name: 'trigger',
  summary: "drive an order in the sandbox: paid, late, expired, cancelled, or a dispute decided",
  description: [
    'Without ORDER_ID it acts on the newest order of the terminal (by created_at).',
    '  paid              the shopper\'s money arrives (Completed)',
    '  late              the order expires, then is paid late (Completed after CanceledByTimeout)',
    '  expired           the order runs out of time (CanceledByTimeout)',
    '  cancelled         the provider cancels it (CanceledByService)',
    '  dispute-accepted  a dispute (opened when the order has none) is accepted: the money is credited',
    '  dispute-rejected  a dispute (opened when the order has none) is rejected: nothing moves',
    'Only the sandbox has these controls: against a real provider the command says so (exit 1).',
  ].join('\n'),
  args: [
    { name: 'event', help: 'what happens', required: true, choices: TRIGGER_EVENTS },
    { name: 'ORDER_ID', help: "the provider's order id (default: the newest order)" },
  ],
  options: { ...PROVIDER_OPTIONS, ...JSON_OPTION },
  examples: ['paydesk trigger paid', 'paydesk trigger dispute-accepted 5f0c…', 'paydesk trigger late --json'],
  async run(input, io: Io) {
    const target = providerTarget(input, io);
    const call = sandboxCaller(target, io);
    await requireSandbox(call, target);
    const client = clientOf(target, io);
    const event = input.args.event as TriggerEvent;
    let order;
    if (input.args.ORDER_ID) {
      order = await viaProvider(target, () => client.getOrder(input.args.ORDER_ID!));
    } else {
      const page = await viaProvider(target, () => client.listOrders({ size: 1, sort_by: 'created_at', sort: 'desc' }));
      order = page.items[0];
      if (!order) throw new Failure('the terminal has no orders yet; create one (a checkout, or POST /api/v1/order/) or give ORDER_ID');
    }
    const dispute = await fire(call, event, order.id, order.status);
    const after = await viaProvider(target, () => client.getOrder(order.id));
    const outcome: Outcome = {
      event,
      order: { id: after.id, client_order_id: after.client_order_id, status: after.status, amount: after.amount, currency: after.currency },
      dispute,
    };
    if (input.options.json) printJson(io, outcome);
    else {
      const d = dispute ? `; dispute ${dispute.id}${dispute.opened ? ' opened and' : ''} ${dispute.accepted ? 'accepted' : 'rejected'}` : '';
      io.out(`${event}: order ${after.id} (${after.client_order_id}, ${after.amount} ${after.currency}) is now ${after.status}${d}`);
    }
    return 0;
  },
};
