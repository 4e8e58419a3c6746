/**
 * `paydesk orders list [filters]` and `paydesk orders show ID`: the terminal's orders over the typed
 * client (`GET /api/v1/order/`, `GET /api/v1/order/{id}`), a real provider or the sandbox. The list's
 * filters are the provider's (status, side, method, dates, page, size, sort), checked here first so a
 * bad value is bad usage (exit 2), not a provider error.
 */
import { knownStatus, ORDER_SIDES, ORDER_STATUSES } from '../../provider/facts.js';
import type { OrdersQuery } from '../../provider/index.js';
import { parseIsoDateTime } from '../../provider/time.js';
import { UsageError, printJson } from '../core/io.js';
import { clientOf, providerTarget, viaProvider } from '../core/provider.js';
import { JSON_OPTION, PROVIDER_OPTIONS, type CommandSpec, type Input } from '../core/spec.js';
import { fields, table } from '../core/table.js';

const LIST_OPTIONS = {
  status: { type: 'string', value: 'STATUS', help: `only orders in this status: ${ORDER_STATUSES.join(', ')} (any case)` },
  side: { type: 'string', value: 'SIDE', help: 'Buy (pay-ins) or Sell (payouts)', choices: ORDER_SIDES },
  method: { type: 'string', value: 'ID', help: 'only orders of this payment method id' },
  from: { type: 'string', value: 'DATE', help: 'created at or after, ISO 8601 (2025-01-31 or 2025-01-31T12:00:00Z)' },
  to: { type: 'string', value: 'DATE', help: 'created at or before, ISO 8601' },
  page: { type: 'string', value: 'N', help: 'page number, from 1 (default 1)' },
  size: { type: 'string', value: 'N', help: 'orders per page, 1 to 100 (default 20)' },
  'sort-by': { type: 'string', value: 'FIELD', help: 'sort field', choices: ['created_at', 'amount'] },
  sort: { type: 'string', value: 'DIR', help: 'sort direction (default desc)', choices: ['asc', 'desc'] },
} as const;

function integerOption(input: Input, name: string, min: number, max: number): number | undefined {
  const v = input.options[name];
  if (typeof v !== 'string') return undefined;
  if (!/^\d{1,6}$/.test(v) || Number(v) < min || Number(v) > max) throw new UsageError(`--${name} must be a whole number from ${min} to ${max}, not ${JSON.stringify(v)}`);
  return Number(v);
}

function dateOption(input: Input, name: string): string | undefined {
  const v = input.options[name];
  if (typeof v !== 'string') return undefined;
  if (parseIsoDateTime(v) === null) throw new UsageError(`--${name} must be an ISO 8601 date or date-time (2025-01-31, 2025-01-31T12:00:00Z), not ${JSON.stringify(v)}`);
  return v;
}

/** The provider's query from the options (each checked). */
export function ordersQuery(input: Input): OrdersQuery {
  const o = input.options;
  const str = (name: string) => (typeof o[name] === 'string' && o[name] !== '' ? (o[name] as string) : undefined);
  const page = integerOption(input, 'page', 1, 100_000);
  const size = integerOption(input, 'size', 1, 100);
  const from = dateOption(input, 'from');
  const to = dateOption(input, 'to');
  // A status the provider knows (its current or older names), in any case, sent as the document spells it.
  const given = str('status');
  const status = given === undefined ? undefined : knownStatus(given);
  if (status === null) throw new UsageError(`--status must be one of ${ORDER_STATUSES.join(', ')}, not ${JSON.stringify(given)}`);
  return {
    ...(page !== undefined && { page }),
    ...(size !== undefined && { size }),
    ...(status !== undefined && { status }),
    ...(str('side') !== undefined && { order_side: str('side') as OrdersQuery['order_side'] }),
    ...(str('method') !== undefined && { payment_method_id: str('method') }),
    ...(from !== undefined && { start_date: from }),
    ...(to !== undefined && { end_date: to }),
    sort_by: (str('sort-by') ?? 'created_at') as OrdersQuery['sort_by'],
    sort: (str('sort') ?? 'desc') as OrdersQuery['sort'],
  };
}

export const ordersList: CommandSpec = {
  name: 'orders list',
  summary: "the terminal's orders, newest first, with the provider's filters",
  args: [],
  options: { ...LIST_OPTIONS, ...PROVIDER_OPTIONS, ...JSON_OPTION },
  examples: ['paydesk orders list', 'paydesk orders list --status Completed --from 2025-01-01 --size 50', 'paydesk orders list --page 2 --json'],
  async run(input, io) {
    const query = ordersQuery(input);
    const target = providerTarget(input, io);
    const client = clientOf(target, io);
    const page = await viaProvider(target, () => client.listOrders(query));
    if (input.options.json) {
      printJson(io, page);
      return 0;
    }
    if (page.items.length === 0) {
      io.out(`no orders${page.total > 0 ? ` on page ${page.page} (${page.total} in all, ${page.pages} pages)` : ''}`);
      return 0;
    }
    const rows = page.items.map((o) => [o.id, o.client_order_id, o.status, `${o.amount} ${o.currency}`, o.method_type, o.created_at]);
    io.out(table(['ID', 'CLIENT ORDER', 'STATUS', 'AMOUNT', 'METHOD', 'CREATED'], rows));
    io.out(`page ${page.page} of ${page.pages} (${page.total} orders)${page.page < page.pages ? `; next: --page ${page.page + 1}` : ''}`);
    return 0;
  },
};

export const ordersShow: CommandSpec = {
  name: 'orders show',
  summary: 'one order by its provider id',
  args: [{ name: 'ID', help: "the provider's order id", required: true }],
  options: { ...PROVIDER_OPTIONS, ...JSON_OPTION },
  examples: ['paydesk orders show 5f0c2a…', 'paydesk orders show 5f0c2a… --json'],
  async run(input, io) {
    const id = input.args.ID!;
    if (id.length > 128 || !/^[\x21-\x7e]+$/.test(id)) throw new UsageError(`ID must be an order id (visible characters, at most 128), not ${JSON.stringify(id.slice(0, 40))}`);
    const target = providerTarget(input, io);
    const client = clientOf(target, io);
    const o = await viaProvider(target, () => client.getOrder(id));
    if (input.options.json) printJson(io, o);
    else {
      io.out(
        fields([
          ['id', o.id],
          ['client_order_id', o.client_order_id],
          ['status', o.status],
          ['side', o.order_side],
          ['amount', `${o.amount} ${o.currency}`],
          ['fee', o.fee],
          ['method', `${o.method_name} (${o.method_type}, ${o.method_id})`],
          ['holder', `${o.holder_name} ${o.holder_account}`],
          ['customer', o.customer_name ?? o.customer_account],
          ['created_at', o.created_at],
          ['updated_at', o.updated_at],
          ['expires_at', o.expires_at],
          ['webhook_url', o.webhook_url],
        ]),
      );
    }
    return 0;
  },
};
