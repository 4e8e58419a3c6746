/**
 * Pieces shared by the orders list, the order page, the webhook log and the disputes: the shop's state
 * of an order as badges, a link to the order page, a hook's state in words, what a webhook delivery
 * said and what came of it, and a dispute's receipts (images shown,
 * PDFs and HEIC linked for download; every file comes from the console API, behind the login).
 */
import type { DisputeView, HookView, ReceiptView, ShopView, WebhookView } from '../contract.js';
import { el } from '../../ui-shared/dom.js';
import { dateTime } from '../../ui-shared/format.js';
import type { ConsoleContext } from './context.js';
import { disputeStateLabel, orderStatusLabel, shopStateLabel, webhookOutcomeLabel, webhookReason } from './labels.js';
import { badge, type Column } from './table.js';
import { orderPath } from './url.js';

/** The product's title in the console's language, else the order_ref. */
export function productTitle(ctx: ConsoleContext, shop: ShopView): string {
  return shop.product ? shop.product[ctx.lang] : shop.order_ref;
}

/** The shop's state of an order: paid and fulfilled (or not), late, needing review, disputed. */
export function shopBadges(ctx: ConsoleContext, shop: ShopView): HTMLElement {
  const state = shopStateLabel(ctx.lang, shop);
  const extra: HTMLElement[] = [];
  if (shop.late) extra.push(badge(ctx.t('c.badge.late'), 'wait'));
  if (shop.flagged) extra.push(badge(ctx.t('c.badge.flagged'), 'bad'));
  if (shop.dispute) extra.push(badge(ctx.t(shop.dispute.processed ? 'c.badge.disputeDone' : 'c.badge.disputeOpen'), shop.dispute.processed ? 'none' : 'wait'));
  const attrs = { className: 'badges', 'data-shop-state': shop.status, 'data-fulfilment': shop.fulfilment.state, 'data-double-payment': shop.double_payment?.refund ?? null };
  return el('span', attrs, badge(state.text, state.tone), ...extra);
}

/**
 * A link to the order page that changes the view without reloading. Its name is its visible text (a
 * product, a client order id, a shortened id); `title` gives the whole id where the text shortens it.
 */
export function orderLink(ctx: ConsoleContext, key: string, text: string, title?: string): HTMLAnchorElement {
  const path = orderPath(key);
  return el('a', {
    href: path,
    text,
    title: title ?? null,
    onclick: (e: Event) => {
      const event = e as MouseEvent;
      if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
      e.preventDefault();
      ctx.navigate(path);
    },
  });
}

/** A hook's state in words: ran when, due, failing and when it runs again, or not configured. */
export function hookText(ctx: ConsoleContext, hook: HookView): string {
  const time = (iso: string | null) => dateTime(iso, ctx.lang, { seconds: true });
  switch (hook.state) {
    case 'done':
      return hook.attempts > 0 ? ctx.t('o.h.doneAfter', { time: time(hook.at), attempts: hook.attempts }) : ctx.t('o.h.done', { time: time(hook.at) });
    case 'due':
      return ctx.t('o.h.due');
    case 'retrying':
      return ctx.t('o.h.retrying', { attempts: hook.attempts, time: time(hook.next_at) });
    case 'none':
      return ctx.t('o.h.none');
    case 'off':
      return ctx.t('o.h.off');
  }
}

function fileSize(ctx: ConsoleContext, bytes: number): string {
  return bytes < 1024 ? ctx.t('u.b', { n: bytes }) : ctx.t('u.kb', { n: new Intl.NumberFormat(ctx.lang, { maximumFractionDigits: 1 }).format(bytes / 1024) });
}

/**
 * A dispute's receipts: images as thumbnails (a link opens the file on its own), other files as
 * download links. `null` files: the provider does not give them out (said once on the page).
 */
export function receiptsView(ctx: ConsoleContext, files: ReceiptView[] | null): HTMLElement {
  if (files === null) return el('span', { className: 'muted', text: '—' });
  if (files.length === 0) return el('span', { className: 'muted', text: ctx.t('d.noFiles') });
  return el(
    'ul',
    { className: 'receipts' },
    ...files.map((f, i) => {
      const n = i + 1;
      if (f.kind === 'image') {
        const label = ctx.t('d.image', { n, name: f.name });
        return el(
          'li',
          {},
          el('a', { href: f.url, target: '_blank', rel: 'noopener', className: 'receipt-image', 'data-receipt': f.kind }, el('img', { src: f.url, alt: label, loading: 'lazy', width: 64, height: 64 })),
        );
      }
      return el('li', {}, el('a', { href: `${f.url}${f.url.includes('?') ? '&' : '?'}download=1`, download: f.name, className: 'receipt-file', 'data-receipt': f.kind, text: ctx.t('d.download', { name: f.name, size: fileSize(ctx, f.size) }) }));
    }),
  );
}

/**
 * The columns of a webhook delivery that the webhook log and the order page both show: the status it
 * carried (dimmed when unverified), its signature, what the server did and answered, and why.
 */
export function webhookResultColumns(ctx: ConsoleContext): Column<WebhookView>[] {
  return [
    {
      key: 'status',
      label: ctx.t('w.col.status'),
      cell: (w) => (w.status ? el('span', { className: w.verified ? null : 'muted', text: orderStatusLabel(ctx.lang, w.status, 'Buy').text }) : '—'),
      wrap: true,
    },
    { key: 'signature', label: ctx.t('w.col.signature'), cell: (w) => badge(ctx.t(w.verified ? 'w.verified' : 'w.unverified'), w.verified ? 'ok' : 'bad') },
    {
      key: 'outcome',
      label: ctx.t('w.col.outcome'),
      cell: (w) => {
        const o = webhookOutcomeLabel(ctx.lang, w.outcome);
        return badge(o.text, o.tone);
      },
    },
    { key: 'http', label: ctx.t('w.col.http'), cell: (w) => String(w.http_status), num: true },
    { key: 'reason', label: ctx.t('w.col.reason'), cell: (w) => webhookReason(ctx.lang, w.detail) ?? '—', title: (w) => w.detail ?? '', wrap: true },
  ];
}

/** A dispute's state: money found / not found / open (for a dispute of this shop), else the provider's word. */
export function disputeBadge(ctx: ConsoleContext, d: DisputeView): HTMLElement {
  const { text, tone } = disputeStateLabel(ctx.lang, d.processed, d.shop);
  return badge(text, tone);
}
