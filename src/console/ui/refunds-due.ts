/**
 * "To refund" (`{basePath}/refunds`): the orders whose money goes back — each paid a purchase
 * another order had already paid (`GET /refunds/due`) — with why, what is left to refund, and a link to
 * the order's page, where the refund is made (refund-form.ts).
 */
import type { RefundDue, RefundsDueResponse } from '../contract.js';
import { api } from './api.js';
import type { ConsoleContext, ConsolePage } from './context.js';
import { el, keyboardScrollable } from '../../ui-shared/dom.js';
import { dateTime, shortId } from '../../ui-shared/format.js';
import { orderLink } from './shop.js';
import { badge, renderRows, type Column } from './table.js';
import type { ConsoleKey } from './texts.js';

async function show(ctx: ConsoleContext, root: HTMLElement): Promise<void> {
  const panel = el('section', { className: 'card panel refunds-due', 'aria-busy': 'true' }, el('p', { className: 'panel-lead muted', text: ctx.t('r.lead') }));
  root.append(panel);
  const { items } = await api<RefundsDueResponse>('/refunds/due');
  panel.removeAttribute('aria-busy');
  if (items.length === 0) {
    panel.append(el('p', { className: 'empty muted', text: ctx.t('r.empty') }));
    return;
  }
  const columns: Column<RefundDue>[] = [
    { key: 'order', label: ctx.t('r.order'), cell: (d) => orderLink(ctx, d.order_id, shortId(d.order_id), d.order_id), mono: true },
    { key: 'reason', label: ctx.t('r.reason'), cell: (d) => badge(ctx.t(`r.reason.${d.reason}` as ConsoleKey), 'bad') },
    { key: 'amount', label: ctx.t('r.left'), cell: (d) => ctx.money(d.amount, d.currency), num: true },
    { key: 'paid', label: ctx.t('r.paidAt'), cell: (d) => dateTime(d.paid_at, ctx.lang) },
    { key: 'first', label: ctx.t('r.first'), cell: (d) => orderLink(ctx, d.first_order_id, shortId(d.first_order_id), d.first_order_id), mono: true },
    {
      key: 'action',
      label: ctx.t('r.open'),
      cell: (d) => {
        const link = orderLink(ctx, d.order_id, ctx.t('r.open'), d.order_id);
        link.className = 'btn small primary';
        return link;
      },
    },
  ];
  const table = el('table', { className: 'cards-on-phone', 'aria-label': ctx.t('c.refunds') }, el('thead'), el('tbody'));
  renderRows(table, columns, items);
  const wrap = el('div', { className: 'table-wrap' }, table);
  panel.append(wrap);
  keyboardScrollable(wrap);
}

export const refundsDuePage: ConsolePage = { path: 'refunds', title: 'c.refunds', show };
