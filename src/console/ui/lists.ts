/**
 * The console's lists: for each, its API route, its filters (names as in the URL and the API), its
 * default page size and its columns. Statuses, sides, states and types are shown in the console's
 * language (labels.ts).
 */
import type { DisputesPage, DisputeView, OrderRow, OrdersPage, PayoutView, WebhookView } from '../contract.js';
import type { FormSession, PaymentMethod, Transaction } from '../../provider/index.js';
import { el } from '../../ui-shared/dom.js';
import { dateTime, shortId } from '../../ui-shared/format.js';
import type { ConsoleKey } from './texts.js';
import type { ConsoleContext } from './context.js';
import {
  disputeLabel,
  formStateLabel,
  methodTypeLabel,
  orderStatusLabel,
  sideLabel,
  transactionLabel,
  webhookOutcomeLabel,
} from './labels.js';
import { disputeBadge, orderLink, productTitle, receiptsView, shopBadges, webhookResultColumns } from './shop.js';
import { badge, renderRows, type Column } from './table.js';
import type { ListName } from './url.js';

/** "Refund of order …", linking to the order a refund's payout gives money back for. */
const refundOfLink = (ctx: ConsoleContext, orderId: string, title = orderId) => orderLink(ctx, orderId, ctx.t('r.refundOf', { id: shortId(orderId) }), title);

/** Page sizes offered, in this order. */
export const PAGE_SIZES = ['10', '20', '50', '100'] as const;

export interface FilterOption {
  value: string;
  label: string;
}

export type Filter =
  | { name: string; kind: 'search'; label: ConsoleKey; hint?: ConsoleKey; placeholder?: string }
  | { name: string; kind: 'select'; label: ConsoleKey; options: FilterOption[]; /** No "any": the first option is the default. */ required?: boolean }
  | { name: string; kind: 'date'; label: ConsoleKey; hint?: ConsoleKey }
  | { name: string; kind: 'check'; label: ConsoleKey };

interface ListDefinition<T> {
  /** The console API route. */
  path: string;
  /** The provider's default page size for this list. */
  defaultSize: (typeof PAGE_SIZES)[number];
  /** False for a list that is not paged (payment methods). */
  paged: boolean;
  filters(ctx: ConsoleContext): Filter[];
  columns(ctx: ConsoleContext): Column<T>[];
  /** The page of items from the API's answer. */
  page(body: unknown): { items: T[]; total: number; page: number; pages: number };
  /** A sentence above the list for this answer (how a search was done, what is not available), or null. */
  note?(ctx: ConsoleContext, body: unknown): string | null;
}

const envelope = <T>(body: unknown) => body as { items: T[]; total: number; page: number; pages: number };
const text = (value: string | null | undefined) => (value === null || value === undefined || value === '' ? '—' : value);

function sizeFilter(): Filter {
  return { name: 'size', kind: 'select', label: 'c.f.size', required: true, options: PAGE_SIZES.map((s) => ({ value: s, label: s })) };
}

function sortFilters(ctx: ConsoleContext): Filter[] {
  const t = ctx.t;
  return [
    { name: 'sort_by', kind: 'select', label: 'c.f.sortBy', required: true, options: [{ value: 'created_at', label: t('c.f.created_at') }, { value: 'amount', label: t('c.f.amount') }] },
    { name: 'sort', kind: 'select', label: 'c.f.sort', required: true, options: [{ value: 'desc', label: t('c.f.desc') }, { value: 'asc', label: t('c.f.asc') }] },
  ];
}

const period: Filter[] = [
  { name: 'start_date', kind: 'date', label: 'c.f.from', hint: 'c.f.periodHint' },
  { name: 'end_date', kind: 'date', label: 'c.f.to' },
];

/** The orders: the provider's list with the shop's session beside each order; search merged (src/console/shop.ts). */
const orders: ListDefinition<OrderRow> = {
  path: '/orders',
  defaultSize: '10',
  paged: true,
  filters: (ctx) => [
    { name: 'q', kind: 'search', label: 'c.f.search', hint: 'c.f.searchHint', placeholder: 'coffee-beans' },
    { name: 'status', kind: 'select', label: 'c.f.status', options: ctx.meta.order_statuses.map((s) => ({ value: s, label: orderStatusLabel(ctx.lang, s, 'Buy').text })) },
    { name: 'order_side', kind: 'select', label: 'c.f.side', options: ['Buy', 'Sell'].map((s) => ({ value: s, label: sideLabel(ctx.lang, s) })) },
    ...sortFilters(ctx),
    ...period,
    sizeFilter(),
  ],
  columns: (ctx) => [
    { key: 'created', label: ctx.t('c.col.created'), cell: (o) => dateTime(o.created_at, ctx.lang) },
    {
      // The product and its order_ref for the shop's orders, the client order id always; it opens the order page.
      key: 'client',
      label: ctx.t('c.col.orderName'),
      wrap: true,
      cell: (o) =>
        el(
          'span',
          { className: 'product', 'data-client-order-id': o.client_order_id },
          orderLink(ctx, o.key, o.shop ? productTitle(ctx, o.shop) : o.client_order_id),
          o.shop && el('small', { className: 'ref', 'data-order-ref': o.shop.order_ref, text: o.shop.order_ref }),
          o.shop && el('small', { className: 'ref', text: o.client_order_id }),
        ),
    },
    { key: 'order', label: ctx.t('c.col.order'), cell: (o) => shortId(o.id), mono: true, title: (o) => o.id ?? '' },
    { key: 'method', label: ctx.t('c.col.method'), cell: (o) => o.method?.name ?? '—', wrap: true },
    { key: 'side', label: ctx.t('c.col.side'), cell: (o) => sideLabel(ctx.lang, o.side) },
    { key: 'amount', label: ctx.t('c.col.amount'), cell: (o) => ctx.money(o.amount, o.currency), num: true },
    {
      key: 'status',
      label: ctx.t('c.col.status'),
      title: (o) => (o.source === 'shop' ? ctx.t('c.asOf', { time: dateTime(o.seen_at, ctx.lang) }) : ''),
      cell: (o) => {
        const s = orderStatusLabel(ctx.lang, o.status, o.side);
        return badge(s.text, s.tone);
      },
    },
    { key: 'shop', label: ctx.t('c.col.shop'), cell: (o) => (o.shop ? shopBadges(ctx, o.shop) : o.refund_of ? refundOfLink(ctx, o.refund_of) : el('span', { className: 'muted', text: ctx.t('c.notShop') })) },
  ],
  page: (body) => body as OrdersPage,
  note: (ctx, body) => {
    const search = (body as OrdersPage).search;
    if (!search) return null;
    return search.provider_complete ? ctx.t('c.searchNote', { scanned: search.provider_scanned }) : ctx.t('c.searchIncomplete', { scanned: search.provider_scanned });
  },
};

/** Payouts: Sell orders; in the sandbox a pending one can be completed from its row. */
function payouts(actions: { complete(p: PayoutView, button: HTMLButtonElement): void }): ListDefinition<PayoutView> {
  return {
    path: '/payouts',
    defaultSize: '10',
    paged: true,
    filters: (ctx) => [
      {
        name: 'status',
        kind: 'select',
        label: 'c.f.status',
        options: ctx.meta.order_statuses.map((s) => ({ value: s, label: orderStatusLabel(ctx.lang, s, 'Sell').text })),
      },
      ...sortFilters(ctx),
      ...period,
      sizeFilter(),
    ],
    columns: (ctx) => {
      const cols: Column<PayoutView>[] = [
        { label: ctx.t('c.col.created'), cell: (p) => dateTime(p.created_at, ctx.lang) },
        { label: ctx.t('c.col.destination'), cell: (p) => p.destination, mono: true },
        { label: ctx.t('c.col.method'), cell: (p) => p.method.name, wrap: true },
        { label: ctx.t('c.col.amount'), cell: (p) => ctx.money(p.amount, p.currency), num: true },
        { label: ctx.t('c.col.fee'), cell: (p) => ctx.money(p.fee, p.currency), num: true },
        { label: ctx.t('c.col.total'), cell: (p) => ctx.money(p.total, p.currency), num: true },
        {
          label: ctx.t('c.col.status'),
          cell: (p) => {
            const s = orderStatusLabel(ctx.lang, p.status, 'Sell');
            return badge(s.text, s.tone);
          },
        },
        // A refund's payout names the order it gives money back for: a link to that order.
        { key: 'client', label: ctx.t('c.col.client'), cell: (p) => (p.refund_of ? refundOfLink(ctx, p.refund_of, p.client_order_id) : p.client_order_id), mono: true, wrap: true },
      ];
      if (ctx.meta.sandbox) {
        cols.push({
          label: ctx.t('c.col.actions'),
          cell: (p) => {
            if (p.outcome !== 'pending') return '—';
            const button = el('button', { type: 'button', className: 'btn small', text: ctx.t('p.complete'), 'data-complete': p.id });
            button.addEventListener('click', () => actions.complete(p, button));
            return button;
          },
        });
      }
      return cols;
    },
    page: envelope,
  };
}

const formSessions: ListDefinition<FormSession> = {
  path: '/form-sessions',
  defaultSize: '10',
  paged: true,
  filters: (ctx) => [
    { name: 'client_order_id', kind: 'search', label: 'c.f.clientOrderId', placeholder: 'shop-1042' },
    { name: 'state', kind: 'select', label: 'c.f.state', options: ctx.meta.form_session_states.map((s) => ({ value: s, label: formStateLabel(ctx.lang, s).text })) },
    sizeFilter(),
  ],
  columns: (ctx) => [
    { label: ctx.t('c.col.created'), cell: (s) => dateTime(s.created_at, ctx.lang) },
    { label: ctx.t('c.col.client'), cell: (s) => orderLink(ctx, s.order_id ?? s.client_order_id, s.client_order_id), wrap: true },
    { label: ctx.t('c.col.session'), cell: (s) => shortId(s.session_id), mono: true, title: (s) => s.session_id },
    { label: ctx.t('c.col.method'), cell: (s) => (s.payment_method_type ? methodTypeLabel(ctx.lang, s.payment_method_type) : '—') },
    { label: ctx.t('c.col.amount'), cell: (s) => ctx.money(s.amount, s.currency), num: true },
    {
      label: ctx.t('c.col.state'),
      cell: (s) => {
        const label = formStateLabel(ctx.lang, s.state);
        return badge(label.text, label.tone);
      },
    },
    { label: ctx.t('c.col.expires'), cell: (s) => dateTime(s.expires_at, ctx.lang) },
  ],
  page: envelope,
};

/** Disputes: each with its order, amount, state and receipts. */
const disputes: ListDefinition<DisputeView> = {
  path: '/disputes',
  defaultSize: '10',
  paged: true,
  filters: (ctx) => [
    {
      name: 'processed',
      kind: 'select',
      label: 'c.f.processed',
      options: [
        { value: 'false', label: disputeLabel(ctx.lang, false) },
        { value: 'true', label: disputeLabel(ctx.lang, true) },
      ],
    },
    ...period,
    sizeFilter(),
  ],
  columns: (ctx) => [
    { key: 'created', label: ctx.t('c.col.created'), cell: (d) => dateTime(d.created_at, ctx.lang) },
    {
      key: 'client',
      label: ctx.t('c.col.client'),
      wrap: true,
      cell: (d) =>
        el(
          'span',
          { className: 'product', 'data-client-order-id': d.client_order_id },
          orderLink(ctx, d.order_id, d.client_order_id),
          d.shop && el('small', { className: 'ref', text: d.shop.order_ref }),
        ),
    },
    { key: 'order', label: ctx.t('c.col.order'), cell: (d) => shortId(d.order_id), mono: true, title: (d) => d.order_id },
    { key: 'amount', label: ctx.t('c.col.amount'), cell: (d) => ctx.money(d.amount, d.currency), num: true },
    {
      key: 'processed',
      label: ctx.t('c.col.processed'),
      cell: (d) =>
        el(
          'span',
          { className: 'badges' },
          disputeBadge(ctx, d),
          d.shop?.deposit ? el('small', { className: 'deposit', text: ctx.t('d.depositShort', { amount: ctx.money(d.shop.deposit.amount, d.currency), time: dateTime(d.shop.deposit.created_at, ctx.lang) }) }) : null,
        ),
    },
    { key: 'files', label: ctx.t('c.col.files'), cell: (d) => receiptsView(ctx, d.files), wrap: true },
    { key: 'dispute', label: ctx.t('c.col.dispute'), cell: (d) => shortId(d.dispute_id), mono: true, title: (d) => d.dispute_id },
  ],
  page: (body) => body as DisputesPage,
  note: (ctx, body) => ((body as DisputesPage).receipts_available ? null : ctx.t('d.filesUnavailable')),
};

/** What the token endpoints received, newest first: verified or refused, and why. */
const webhooks: ListDefinition<WebhookView> = {
  path: '/webhooks',
  defaultSize: '20',
  paged: true,
  filters: (ctx) => [
    { name: 'order_id', kind: 'search', label: 'c.f.orderId', placeholder: '8fe3669a-…' },
    { name: 'outcome', kind: 'select', label: 'c.f.outcome', options: ctx.meta.webhook_outcomes.map((o) => ({ value: o, label: webhookOutcomeLabel(ctx.lang, o).text })) },
    {
      name: 'verified',
      kind: 'select',
      label: 'c.f.verified',
      options: [
        { value: 'true', label: ctx.t('w.verified') },
        { value: 'false', label: ctx.t('w.unverified') },
      ],
    },
    ...(ctx.meta.endpoints.length > 1
      ? [{ name: 'endpoint', kind: 'select' as const, label: 'c.f.endpoint' as const, options: ctx.meta.endpoints.map((e) => ({ value: e, label: e })) }]
      : []),
    sizeFilter(),
  ],
  columns: (ctx) => [
    { key: 'received', label: ctx.t('w.col.received'), cell: (w) => dateTime(w.at, ctx.lang, { seconds: true }) },
    { key: 'endpoint', label: ctx.t('w.col.endpoint'), cell: (w) => w.endpoint, mono: true },
    {
      key: 'order',
      label: ctx.t('c.col.order'),
      mono: true,
      title: (w) => w.order_id ?? '',
      // Only a verified payload names an order worth opening; an unverified one (or a test delivery's made-up order) is text.
      cell: (w) => (w.order_id === null ? '—' : w.verified && w.outcome !== 'test' ? orderLink(ctx, w.order_id, shortId(w.order_id), w.order_id) : shortId(w.order_id)),
    },
    ...webhookResultColumns(ctx),
  ],
  page: envelope,
  note: (ctx) => ctx.t('w.lead'),
};

const transactions: ListDefinition<Transaction> = {
  path: '/transactions',
  defaultSize: '20',
  paged: true,
  filters: (ctx) => [
    { name: 'transaction_type', kind: 'select', label: 'c.f.type', options: ctx.meta.transaction_types.map((s) => ({ value: s, label: transactionLabel(ctx.lang, s) })) },
    ...period,
    sizeFilter(),
  ],
  columns: (ctx) => [
    { label: ctx.t('c.col.created'), cell: (x) => dateTime(x.created_at, ctx.lang) },
    { label: ctx.t('c.col.type'), cell: (x) => badge(transactionLabel(ctx.lang, x.transaction_type), x.transaction_type === 'deposit' ? 'ok' : 'bad') },
    {
      label: ctx.t('c.col.amount'),
      num: true,
      cell: (x) => {
        const out = x.transaction_type === 'withdrawal';
        const amount = ctx.money(x.amount.replace(/^-/, ''), x.terminal.currency);
        return el('span', { className: out ? 'amount-out' : 'amount-in', text: `${out ? '−' : '+'}${amount}` });
      },
    },
    { label: ctx.t('c.col.description'), cell: (x) => text(x.client_description), wrap: true },
    { label: ctx.t('c.col.id'), cell: (x) => shortId(x.id), mono: true, title: (x) => x.id },
  ],
  page: envelope,
};

const methods: ListDefinition<PaymentMethod> = {
  path: '/payment-methods',
  defaultSize: '10',
  paged: false,
  filters: (ctx) => [
    { name: 'active', kind: 'check', label: 'c.f.active' },
    { name: 'method_type', kind: 'select', label: 'c.f.methodType', options: ctx.meta.method_types.map((s) => ({ value: s, label: methodTypeLabel(ctx.lang, s) })) },
  ],
  columns: (ctx) => [
    { label: ctx.t('c.col.name'), cell: (p) => p.method_name, wrap: true },
    { label: ctx.t('c.col.type'), cell: (p) => methodTypeLabel(ctx.lang, p.method_type), title: (p) => p.method_type },
    { label: ctx.t('c.col.nspk'), cell: (p) => text(p.nspk_code), mono: true },
    { label: ctx.t('c.col.currency'), cell: (p) => p.method_currency },
    {
      label: ctx.t('c.col.ranges'),
      wrap: true,
      cell: (p) =>
        el(
          'div',
          { className: 'ranges' },
          ...p.ranges.map((r) =>
            el('span', {
              className: 'range',
              'data-side': r.fee_side,
              text: `${sideLabel(ctx.lang, r.fee_side)}: ${ctx.money(r.min_amount, r.currency)} – ${ctx.money(r.max_amount, r.currency)} · ${r.fee}%${
                r.fixed_fee ? ` + ${ctx.money(r.fixed_fee, r.currency)}` : ''
              }`,
            }),
          ),
        ),
    },
  ],
  page: (body) => {
    const items = (body as { methods: PaymentMethod[] }).methods;
    return { items, total: items.length, page: 1, pages: 1 };
  },
};

/** A list as the list view uses it: its items' type stays inside. */
export interface List {
  path: string;
  defaultSize: (typeof PAGE_SIZES)[number];
  paged: boolean;
  filters(ctx: ConsoleContext): Filter[];
  /** Renders the API's answer into `table`; returns the page's numbers. */
  show(ctx: ConsoleContext, body: unknown, table: HTMLTableElement): { count: number; total: number; page: number; pages: number; note: string | null };
}

function list<T>(def: ListDefinition<T>): List {
  return {
    path: def.path,
    defaultSize: def.defaultSize,
    paged: def.paged,
    filters: def.filters,
    show(ctx, body, table) {
      const page = def.page(body);
      renderRows(table, def.columns(ctx), page.items);
      return { count: page.items.length, total: page.total, page: page.page, pages: page.pages, note: def.note?.(ctx, body) ?? null };
    },
  };
}

export function consoleLists(actions: { complete(p: PayoutView, button: HTMLButtonElement): void }): Record<ListName, List> {
  return {
    orders: list(orders),
    payouts: list(payouts(actions)),
    'form-sessions': list(formSessions),
    disputes: list(disputes),
    webhooks: list(webhooks),
    transactions: list(transactions),
    'payment-methods': list(methods),
  };
}
