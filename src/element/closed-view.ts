/**
 * The steps after the order closed: `paid` (with the countdown back to the shop), `expired` and
 * `cancelled` (with "get new requisites"). Loaded with `import()` with the live status, while the
 * order is being created or resumed.
 */
import { html, nothing } from 'lit';
import type { OrderView } from '../protocol/index.js';
import { formatAmount } from './format.js';
import { fill, plural, type Messages } from './i18n/index.js';
import { actions, badge, button, center, icons } from './parts.js';

/** What the view needs from the element. @internal */
export interface ClosedContext {
  m: Messages;
  lang: string;
  name: 'paid' | 'expired' | 'cancelled';
  order: OrderView;
  /** Where `paid` returns the shopper (a safe http(s) URL), or null. */
  redirectUrl: string | null;
  /** Seconds until that. */
  redirectIn: number;
  /** Asks for new requisites; null when no new order can be made. */
  renew: (() => void) | null;
}

export function view(c: ClosedContext): unknown {
  const { m, redirectUrl: url } = c;
  if (c.name === 'paid') {
    return [
      center(
        badge(true, icons.check),
        html`<p>${fill(m.paidText, { amount: formatAmount(c.order.amount, c.order.currency, c.lang) })}</p>`,
        url ? html`<p class="muted">${plural(c.lang, m.redirectIn, c.redirectIn)}</p>` : nothing,
      ),
      url ? actions(html`<a class="btn primary" href=${url}>${m.redirectNow}</a>`) : nothing,
    ];
  }
  return [
    center(badge(false, icons.clock), html`<p>${c.name === 'expired' ? m.expiredText : m.cancelledText}</p>`),
    c.renew ? actions(button(m.renew, c.renew)) : nothing,
  ];
}
