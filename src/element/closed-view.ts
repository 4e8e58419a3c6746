/**
 * The steps after the order closed or while a receipt is checked: `paid` (late too, with the
 * countdown back to the shop), `expired` and `cancelled` (new requisites; "I paid — send a receipt"),
 * `dispute` (the receipt being checked, or the check found no payment), and `gone` (the session ended:
 * never a silent new order). Each shows the order number. Loaded with `import()` with the live status,
 * while the order is being created or resumed.
 */
import { css, html, nothing } from 'lit';
import { fill } from './i18n/text.js';
import { plural } from './i18n/plural.js';
import { actions, badge, button, center, spinner } from './parts.js';
import { safeHttpUrl } from '../protocol/url.js';
import { open } from './open.js';
import { amountOf, contextOf, copyFor, icons, orderNumber, viewStyles, type CopyContext, type ViewContext, type ViewHost } from './views.js';

export { footer } from './footer.js';

export const styles = [viewStyles, css`
.closed{display:grid;gap:calc(var(--_s)*2)}
.closed .order{display:grid;justify-items:center;gap:2px;text-align:center}
.closed .order .row{display:flex;flex-wrap:wrap;align-items:center;justify-content:center;gap:var(--_s)}
.closed .num{font-weight:600;overflow-wrap:anywhere;min-width:0}
`];

const block = (...parts: unknown[]) => html`<div class="closed">${parts}</div>`;

/** The step for the state: `paid`, `expired`, `cancelled`, `dispute` or `gone`. */
export function view(host: ViewHost): unknown {
  const { name, order } = host.machine;
  return name === 'gone' || !order ? gone(host) : closed(contextOf(host, order, open), name);
}

function closed(c: ViewContext, name: string): unknown {
  const { m, order, redirectUrl: url } = c;
  const number = orderNumber(c, order.client_order_id);
  if (name === 'paid') {
    return block(
      center(
        badge(true, icons.check),
        html`<p>${fill(order.late ? m.paidLateText : m.paidText, { amount: amountOf(c) })}</p>`,
        url ? html`<p class="muted">${plural(c.lang, m.redirectIn, c.redirectIn)}</p>` : nothing,
      ),
      number,
      url ? actions(html`<a class="btn primary" href=${url}>${m.redirectNow}</a>`) : nothing,
    );
  }
  if (name === 'dispute') {
    const d = order.dispute;
    // Final once the check is decided and the money was not found (`outcome: "unconfirmed"`; a server
    // that does not say the outcome closes a dispute only when it is decided).
    const open = !d || (d.outcome !== 'unconfirmed' && d.status !== 'closed');
    const support = open ? null : (safeHttpUrl(order.support_url) ?? safeHttpUrl(c.host.machine.known?.support) ?? safeHttpUrl(c.host.el.supportUrl));
    const renew = !open && order.status !== 'pending' ? c.renew : null;
    return block(
      center(open ? spinner : badge(false, icons.alert), html`<p>${open ? m.disputeText : m.disputeClosedText}</p>`, html`<p class="amount">${amountOf(c)}</p>`),
      number,
      support || renew
        ? actions(
            support ? html`<a class="btn primary" href=${support} target="_blank" rel="noopener noreferrer">${m.support}</a>` : nothing,
            renew ? button(m.newPayment, renew, support ? '' : undefined) : nothing,
          )
        : nothing,
    );
  }
  return block(
    center(badge(false, icons.clock), html`<p>${name === 'expired' ? m.expiredText : m.cancelledText}</p>`),
    number,
    c.receipt || c.renew
      ? actions(c.receipt ? button(m.sendReceipt, c.receipt, '') : nothing, c.renew ? button(m.renew, c.renew) : nothing)
      : nothing,
  );
}

/** `gone`: the session ended; if the shopper already paid, support (in the footer) with the order number. */
function gone(host: ViewHost): unknown {
  const { m, machine: s } = host;
  const c: CopyContext = { m, copied: host.copied, copy: copyFor(host) };
  return block(
    center(badge(false, icons.alert), html`<p>${m.goneText}</p>`),
    orderNumber(c, s.order?.client_order_id ?? s.known?.number),
    s.canCreate ? actions(button(m.newPayment, () => host.renew())) : nothing,
  );
}
