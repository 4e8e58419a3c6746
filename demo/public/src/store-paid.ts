/**
 * The storefront's paid cart: the shop's thank-you for a cart its record says is paid (no widget, no
 * order), and the watch that brings it up while a checkout of the cart is open and another order
 * pays it (GET /demo/api/carts/{id}, demo/carts.ts).
 */
import { $, el } from '../../../src/ui-shared/dom.js';
import { cartInfo, state, type CheckoutElement, type ShownOrder } from './store-state.js';

/** How often the page asks whether another order paid the cart on screen. */
const CART_WATCH_MS = 5_000;

/**
 * While a checkout is open, asks the shop every {@link CART_WATCH_MS} whether the cart was paid by
 * another order (from another browser, or an expired order paid late after its renewal): then the
 * page shows the cart paid instead of this order's requisites, so the shopper is not asked to pay a
 * paid cart again. The widget's own order paid is the widget's to show. Stops with the widget.
 */
export function watchCart(cart: string, widget: CheckoutElement, onPaid: (orderNumber: string) => void): void {
  const timer = setInterval(() => {
    if (state.widget !== widget || !widget.isConnected) return clearInterval(timer);
    if (state.orderState === 'paid') return;
    cartInfo(cart)
      .then((info) => {
        if (!info?.paid || state.widget !== widget || state.cart !== cart) return;
        // The widget's own order paid: the widget shows it, from its own status (a moment later, maybe).
        if (state.orderState === 'paid' || paidByOwnOrder(info.paid, state.order)) return;
        clearInterval(timer);
        onPaid(info.paid.client_order_id);
      })
      .catch(() => undefined); // offline for a moment: the next tick asks again
  }, CART_WATCH_MS);
}

/**
 * Whether the cart's payment is the widget's own order: by the provider's order id, or by the
 * session's client order id, unique to it. The second matters in form mode: the order is made on
 * the provider's page and the widget's order has no id (`''`) until the paid status brings it, so
 * the cart found paid before that status arrived must not be taken for another order's payment
 * (the page would take the widget away, and the shopper's payment would not reach it).
 */
export function paidByOwnOrder(paid: { order_id: string; client_order_id: string }, order: Pick<ShownOrder, 'id' | 'client_order_id'> | null): boolean {
  if (!order) return false;
  return (order.id !== '' && paid.order_id === order.id) || (order.client_order_id !== '' && paid.client_order_id === order.client_order_id);
}

/** The paid cart's thank-you in the checkout panel (again in the current language). */
export function renderPaidCart(): void {
  if (state.paidOrder === null) return;
  $('#inline-host').replaceChildren(
    el(
      'div',
      { className: 'cart-paid', role: 'status', 'data-cart-paid': state.paidOrder },
      el('p', { className: 'cart-paid-title', text: state.t('cart.paid', { order: state.paidOrder }) }),
      el('p', { className: 'cart-paid-lead', text: state.t('cart.paidLead') }),
    ),
  );
}
