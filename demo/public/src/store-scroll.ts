/** The storefront's scrolling to the checkout (store.ts): its top once shown, then the requisites. */
import { $ } from '../../../src/ui-shared/dom.js';
import { SETTLED_STATES, state } from './store-state.js';

/** Smooth unless the shopper asked for reduced motion. */
function scrollBehavior(): ScrollBehavior {
  return matchMedia('(prefers-reduced-motion: reduce)').matches ? 'instant' : 'smooth';
}

export function scrollToCheckout(): void {
  $('#checkout').scrollIntoView({ block: 'start', behavior: scrollBehavior() });
}

/**
 * Brings the checkout into view once the widget has content: its top at the first non-zero size
 * (scrolling while it is still 0 px tall stopped short: on a phone only the checkout's header showed
 * at the bottom of the screen), then, when the payment step shows the requisites (the widget's
 * `requisites` part), those too if they are below the fold.
 */
export function scrollWhenShown(widget: HTMLElement): void {
  let shown = false;
  const observer = new ResizeObserver(() => {
    if (!widget.isConnected || state.widget !== widget) return observer.disconnect();
    if (widget.getBoundingClientRect().height === 0) return;
    if (!shown) {
      shown = true;
      scrollToCheckout();
    }
    const requisites = widget.shadowRoot?.querySelector('[part~="requisites"]');
    if (requisites) {
      observer.disconnect();
      requisites.scrollIntoView({ block: 'nearest', behavior: scrollBehavior() });
    } else if (SETTLED_STATES.has(String(state.orderState)) || state.orderState === 'error') {
      observer.disconnect(); // no payment step to show
    }
  });
  observer.observe(widget);
}
