/**
 * The order page (`/console/orders/{key}`, by order id or client order id): what the shop's server
 * knows of the order (its product, whether it was paid and fulfilled and when, paid late, set aside
 * for review, its hooks and its status history as the server saw it), the provider's order read now,
 * the webhooks the server received for it with their verification, and its disputes with their
 * receipts. Only the latest load is shown.
 */
import type { DisputeView, HistoryView, OrderDetail, OrderDetailResponse, ProviderOrderView, ShopView, WebhookView } from '../contract.js';
import { $, el, keyboardScrollable } from '../../ui-shared/dom.js';
import { dateTime, shortId } from '../../ui-shared/format.js';
import type { ConsoleKey } from './texts.js';
import { ApiError, api, isUnauthorized } from './api.js';
import type { ConsoleContext } from './context.js';
import {
  flagReasonLabel,
  historyNote,
  methodTypeLabel,
  modeLabel,
  orderStatusLabel,
  recordedStatusLabel,
  shopStatusLabel,
  sideLabel,
  viaLabel,
} from './labels.js';
import { disputeBadge, hookText, orderLink, productTitle, receiptsView, shopBadges, webhookResultColumns } from './shop.js';
import { badge, renderRows, type Column } from './table.js';
import { refundsSection } from './refund-form.js';

let loadSeq = 0;
let aborter: AbortController | null = null;

/** Shows the order `key`; `setTitle` names the page once the order is known. */
export function showOrder(ctx: ConsoleContext, key: string, setTitle: (title: string) => void): void {
  const seq = ++loadSeq;
  aborter?.abort();
  const controller = (aborter = new AbortController());
  const body = $('#order-body');
  body.setAttribute('aria-busy', 'true');
  if (body.dataset.key !== key) body.replaceChildren(el('p', { className: 'muted order-loading', text: ctx.t('o.loading') }));
  body.dataset.key = key;
  api<OrderDetailResponse>(`/orders/${encodeURIComponent(key)}`, { signal: controller.signal }).then(
    ({ order }) => {
      if (seq !== loadSeq) return;
      setTitle(ctx.t('c.orderTitle', { name: order.shop ? productTitle(ctx, order.shop) : order.client_order_id }));
      body.replaceChildren(...renderOrder(ctx, order));
      for (const wrap of body.querySelectorAll<HTMLElement>('.table-wrap')) keyboardScrollable(wrap);
      body.removeAttribute('aria-busy');
    },
    (err: unknown) => {
      if (seq !== loadSeq || controller.signal.aborted) return;
      if (isUnauthorized(err)) return ctx.loggedOut();
      const notFound = err instanceof ApiError && err.status === 404;
      body.replaceChildren(
        el('p', { className: notFound ? 'empty muted' : 'form-error', role: 'alert', text: notFound ? ctx.t('o.notFound', { key }) : ctx.t('o.loadError', { message: ctx.errorText(err) }) }),
      );
      body.removeAttribute('aria-busy');
    },
  );
}

/** A definition list; rows with a null value are left out. */
function facts(rows: ReadonlyArray<readonly [string, Node | string | null]>, className = 'facts'): HTMLDListElement {
  return el(
    'dl',
    { className },
    ...rows.filter((r): r is readonly [string, Node | string] => r[1] !== null).map(([term, value]) => el('div', {}, el('dt', { text: term }), el('dd', {}, value))),
  );
}

function section(ctx: ConsoleContext, id: string, title: ConsoleKey, ...children: Array<Node | null>): HTMLElement {
  return el('section', { className: 'card order-section', id, 'aria-labelledby': `${id}-title` }, el('h2', { id: `${id}-title`, text: ctx.t(title) }), ...children);
}

function table<T>(columns: Column<T>[], items: readonly T[], label: string): HTMLElement {
  const t = el('table', { className: 'cards-on-phone', 'aria-label': label }, el('thead'), el('tbody'));
  renderRows(t, columns, items);
  return el('div', { className: 'table-wrap' }, t);
}

function renderOrder(ctx: ConsoleContext, order: OrderDetail): HTMLElement[] {
  // The provider's order and the shop's hooks side by side on a wide screen, the lists below.
  const out: HTMLElement[] = [summary(ctx, order), provider(ctx, order)];
  if (order.shop) out.push(hooks(ctx, order.shop), history(ctx, order.shop.history));
  if (order.refundable || order.refunds.length > 0) out.push(refundsSection(ctx, order, () => showOrder(ctx, order.key, () => undefined)));
  out.push(webhooks(ctx, order.webhooks), disputes(ctx, order));
  if (order.others.length > 0) {
    out.push(
      section(
        ctx,
        'order-others',
        'o.others',
        el(
          'ul',
          { className: 'others' },
          ...order.others.map((o) => {
            const s = orderStatusLabel(ctx.lang, o.status, 'Buy');
            return el('li', {}, orderLink(ctx, o.id, shortId(o.id), o.id), ' ', badge(s.text, s.tone), ' ', dateTime(o.created_at, ctx.lang));
          }),
        ),
      ),
    );
  }
  return out;
}

function summary(ctx: ConsoleContext, order: OrderDetail): HTMLElement {
  const shop = order.shop;
  const p = 'order' in (order.provider ?? {}) ? (order.provider as { order: ProviderOrderView }).order : null;
  const amount = shop ? ctx.money(shop.amount, shop.currency) : p ? ctx.money(p.amount, p.currency) : '—';
  const head = el(
    'div',
    { className: 'order-head' },
    shop ? shopBadges(ctx, shop) : el('span', { className: 'muted', text: ctx.t('c.notShop') }),
    el('strong', { className: 'order-amount', text: amount }),
  );
  const rows: Array<readonly [string, Node | string | null]> = [
    [ctx.t('o.product'), shop ? productTitle(ctx, shop) : null],
    [ctx.t('o.orderRef'), shop ? el('code', { text: shop.order_ref }) : null],
    [ctx.t('c.col.client'), el('code', { text: order.client_order_id })],
    [ctx.t('c.col.order'), order.id ? el('code', { text: order.id }) : '—'],
    [ctx.t('c.col.created'), dateTime(shop?.created_at ?? p?.created_at, ctx.lang, { seconds: true })],
  ];
  if (shop) {
    const twice = shop.double_payment;
    if (twice) rows.push([ctx.t('o.paidTwice'), el('span', { 'data-double-of': twice.first_order_id }, ...withLink(ctx.t('o.paidTwiceFirst', { order: '\u0000' }), orderLink(ctx, twice.first_order_id, shortId(twice.first_order_id), twice.first_order_id)))]);
    rows.push(
      [ctx.t('o.fulfilment'), fulfilment(ctx, shop)],
      [ctx.t('o.late'), ctx.t(shop.late ? 'o.lateYes' : 'o.lateNo')],
      [ctx.t('o.flagged'), shop.flagged ? ctx.t('o.flaggedAt', { reason: flagReasonLabel(ctx.lang, shop.flagged.reason), time: dateTime(shop.flagged.at, ctx.lang) }) : null],
      [ctx.t('o.endpoint'), el('code', { text: shop.endpoint })],
      [ctx.t('o.mode'), modeLabel(ctx.lang, shop.mode)],
      [ctx.t('o.refreshed'), dateTime(order.shop!.refreshed_at, ctx.lang, { seconds: true })],
    );
  }
  return el(
    'section',
    { className: 'card order-section order-summary', 'aria-labelledby': 'view-title' },
    head,
    shop ? null : el('p', { className: 'muted', text: ctx.t('o.notShop') }),
    facts(rows),
  );
}

/** A sentence with a link in place of its `\u0000`. */
function withLink(text: string, link: Node): Array<Node | string> {
  const [before, after] = text.split('\u0000');
  return [before ?? '', link, after ?? ''];
}

function fulfilment(ctx: ConsoleContext, shop: ShopView): Node {
  const f = shop.fulfilment;
  return el(
    'span',
    { className: 'fulfilment', 'data-state': f.state },
    hookText(ctx, f),
    f.error && f.state !== 'done' ? el('small', { className: 'hook-error', text: ctx.t('o.h.lastError', { error: f.error }) }) : null,
  );
}

function hooks(ctx: ConsoleContext, shop: NonNullable<OrderDetail['shop']>): HTMLElement {
  const rows = (['paid', 'closed', 'flagged'] as const).map((kind) => ({ name: { paid: 'onOrderPaid', closed: 'onOrderClosed', flagged: 'onOrderFlagged' }[kind], hook: shop.hooks[kind] }));
  return section(
    ctx,
    'order-hooks',
    'o.hooks',
    facts(
      rows.map(({ name, hook }) => [
        name,
        el(
          'span',
          { className: 'fulfilment', 'data-hook': name, 'data-state': hook.state },
          hookText(ctx, hook),
          hook.error && hook.state !== 'done' ? el('small', { className: 'hook-error', text: ctx.t('o.h.lastError', { error: hook.error }) }) : null,
        ),
      ]),
      'facts hooks',
    ),
  );
}

function history(ctx: ConsoleContext, entries: HistoryView[]): HTMLElement {
  if (entries.length === 0) return section(ctx, 'order-history', 'o.history', el('p', { className: 'muted', text: ctx.t('o.noHistory') }));
  const columns: Column<HistoryView>[] = [
    { key: 'time', label: ctx.t('o.col.time'), cell: (h) => dateTime(h.at, ctx.lang, { seconds: true }) },
    {
      key: 'status',
      label: ctx.t('o.col.status'),
      cell: (h) => badge(shopStatusLabel(ctx.lang, h.status), h.status === 'paid' ? 'ok' : h.status === 'pending' ? 'wait' : 'bad'),
    },
    { key: 'provider', label: ctx.t('o.col.provider'), cell: (h) => recordedStatusLabel(ctx.lang, h.provider_status), title: (h) => h.provider_status },
    { key: 'via', label: ctx.t('o.col.via'), cell: (h) => viaLabel(ctx.lang, h.via) },
    { key: 'note', label: ctx.t('o.col.note'), cell: (h) => historyNote(ctx.lang, h.note) ?? '—', wrap: true },
  ];
  return section(ctx, 'order-history', 'o.history', table(columns, entries, ctx.t('o.history')));
}

function provider(ctx: ConsoleContext, order: OrderDetail): HTMLElement {
  const read = order.provider;
  if (read === null) return section(ctx, 'order-provider', 'o.provider', el('p', { className: 'muted', text: ctx.t('o.providerNone') }));
  if ('error' in read) {
    const err = new ApiError(502, read.error);
    return section(ctx, 'order-provider', 'o.provider', el('p', { className: 'form-error', text: ctx.t('o.providerError', { message: ctx.errorText(err) }) }));
  }
  const o = read.order;
  const status = orderStatusLabel(ctx.lang, o.status, o.side);
  return section(
    ctx,
    'order-provider',
    'o.provider',
    facts([
      [ctx.t('c.col.status'), badge(status.text, status.tone)],
      [ctx.t('c.col.side'), sideLabel(ctx.lang, o.side)],
      [ctx.t('c.col.amount'), ctx.money(o.amount, o.currency)],
      [ctx.t('c.col.fee'), ctx.money(o.fee, o.currency)],
      [ctx.t('c.col.method'), `${o.method.name} · ${methodTypeLabel(ctx.lang, o.method.type)}`],
      [ctx.t('o.p.requisites'), o.holder_account ? `${o.holder_name} · ${o.holder_account}` : null],
      [ctx.t('o.p.customer'), o.customer_account],
      [ctx.t('c.col.created'), dateTime(o.created_at, ctx.lang, { seconds: true })],
      [ctx.t('o.p.updated'), dateTime(o.updated_at, ctx.lang, { seconds: true })],
      [ctx.t('c.col.expires'), dateTime(o.expires_at, ctx.lang, { seconds: true })],
      [ctx.t('o.p.webhook'), o.webhook_url ? el('code', { text: o.webhook_url }) : null],
    ]),
  );
}

function webhooks(ctx: ConsoleContext, items: WebhookView[]): HTMLElement {
  if (items.length === 0) return section(ctx, 'order-webhooks', 'o.webhooks', el('p', { className: 'muted', text: ctx.t('o.noWebhooks') }));
  const columns: Column<WebhookView>[] = [
    { key: 'received', label: ctx.t('w.col.received'), cell: (w) => dateTime(w.at, ctx.lang, { seconds: true }) },
    ...webhookResultColumns(ctx),
  ];
  return section(ctx, 'order-webhooks', 'o.webhooks', table(columns, items, ctx.t('o.webhooks')));
}

function disputes(ctx: ConsoleContext, order: OrderDetail): HTMLElement {
  const list = order.disputes;
  if (!Array.isArray(list)) {
    return section(ctx, 'order-disputes', 'o.disputes', el('p', { className: 'form-error', text: ctx.t('o.disputesError', { message: ctx.errorText(new ApiError(502, list.error)) }) }));
  }
  if (list.length === 0) return section(ctx, 'order-disputes', 'o.disputes', el('p', { className: 'muted', text: ctx.t('o.noDisputes') }));
  return section(
    ctx,
    'order-disputes',
    'o.disputes',
    order.receipts_available ? null : el('p', { className: 'muted', text: ctx.t('d.filesUnavailable') }),
    el('ul', { className: 'disputes' }, ...list.map((d) => el('li', { className: 'dispute', 'data-dispute': d.dispute_id }, ...dispute(ctx, d)))),
  );
}

function dispute(ctx: ConsoleContext, d: DisputeView): Node[] {
  return [
    el(
      'div',
      { className: 'dispute-head' },
      el('span', { className: 'badges' }, disputeBadge(ctx, d)),
      el('span', { className: 'muted', text: ctx.t('d.opened', { time: dateTime(d.created_at, ctx.lang) }) }),
    ),
    facts([
      [ctx.t('c.col.dispute'), el('code', { text: d.dispute_id })],
      [ctx.t('c.col.amount'), ctx.money(d.amount, d.currency)],
      [ctx.t('d.source'), d.shop ? ctx.t(d.shop.via === 'widget' ? 'd.via.widget' : 'd.via.provider') : null],
      [
        ctx.t('d.deposit'),
        d.shop?.deposit
          ? el('span', {}, ctx.money(d.shop.deposit.amount, d.currency), ' · ', el('code', { text: d.shop.deposit.id }), ' · ', dateTime(d.shop.deposit.created_at, ctx.lang))
          : null,
      ],
    ]),
    receiptsView(ctx, d.files),
  ];
}
