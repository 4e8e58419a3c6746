/**
 * The first paint of the CDN files, part of their entry: the requisites drawn from the answer of the
 * request the entry started (first.ts), before the element's own code has arrived, with the templates
 * and styles the element and paydesk/ssr draw them with (static-view.ts), written out as HTML
 * (html-string.ts: Lit's renderer comes with the element's code). The element, once defined, takes the shadow
 * root over as it takes a server-rendered one (paydesk-checkout.ts `createRenderRoot`): what is painted
 * stays until the element can show the same step itself, then the two are swapped in one render.
 *
 * Painted: the card with a spinner while the order is looked for; then, for an open order with
 * requisites or an SBP link, the heading and the countdown (ticking), the amount, pay-by, the
 * requisites, the recipient's bank, the QR on a desktop (drawn when its encoder arrives, in parallel)
 * or the bank-app button on a phone, the order number and the footer. Its buttons work once the
 * element has taken over (a few hundred milliseconds later on a slow network). Anything else (a closed
 * order, form mode, an error) is left to the element.
 */
import { adoptStyles, html, nothing, type CSSResultOrNative } from 'lit';
import { htmlWriter } from './html-string.js';
import { firstMessages } from './i18n/first.js';
import { errorText, messagesFor, resolveLanguage } from './i18n/index.js';
import { answered, isOpen, type MachineEvent } from './machine.js';
import { card, center, failed, spinner, stepTitle, waiting } from './parts.js';
import { styles as elementStyles } from './paydesk-checkout.styles.js';
import { styles as payStyles } from './pay-view.js';
import { platformOf } from './platform.js';
import { paymentLinkOf } from './requisites.js';
import { openCard, staticHost } from './static-view.js';
import type { Started } from './first.js';

/** Each painted checkout: its way to draw, its messages, and whether the element's code was refused (nothing else is drawn then). */
interface Painted {
  /** Draws `view`; false when the page refused it (nothing drawn). */
  render: (view: unknown) => boolean;
  m: ReturnType<typeof messagesFor>;
  refused: boolean;
}
const painted = new WeakMap<Element, Painted>();

/**
 * The element's own code was refused (its digest did not match): a painted checkout shows the error
 * step instead of its requisites (nothing would follow the order or answer its buttons). False when
 * `el` was not painted here, or the error could not be drawn (the entry then says it without Lit).
 */
export function paintFailure(el: Element): boolean {
  const p = painted.get(el);
  if (!p) return false;
  // The countdown's tick and an answer still on its way draw nothing more.
  p.refused = true;
  return p.render(card(p.m.region, false, false, stepTitle(p.m, 'error', null), nothing, failed(errorText(p.m, 'integrity')), nothing, ''));
}

/** How often the painted countdown is drawn again, until the element takes over. */
const TICK_MS = 1000;

/**
 * Paints `first`'s checkout (its language's first-paint messages at hand, i18n/first.ts): the card and a spinner at once, the requisites
 * when the answer is an open order. Resolves once the requisites are painted, or when there is nothing
 * more to paint (the element will show it). Never rejects.
 */
export async function paintFirst(first: Started): Promise<void> {
  const { el, env, attrs, tag } = first;
  // A shadow root already there (paydesk/ssr, or the element's own): painted already.
  // (A page whose Trusted Types refuse the `paydesk` policy never gets here: the first-paint
  // messages load through the same policy. test/node/pack/integrity.test.ts.)
  if (el.shadowRoot || attrs.mode === 'form') return;
  const root = el.attachShadow({ mode: 'open' });
  adoptStyles(root, [elementStyles, ...payStyles].flat() as CSSResultOrNative[]);
  // What is painted goes before `at`: the element's own render removes both (it takes them as a
  // server-rendered paint), which ends the paint.
  const at = root.appendChild(document.createComment(''));
  const write = htmlWriter(root, at);
  const render = (view: unknown) => {
    try {
      write(view);
      return true;
    } catch {
      // A template only Lit's renderer can draw (html-string.ts `refuse`): nothing more is drawn, the element paints.
      shown.refused = true;
      return false;
    }
  };
  const shown: Painted = { render, m: messagesFor(tag, firstMessages(tag)), refused: false };
  const draw = (view: unknown) => !shown.refused && shown.render(view);
  const table = resolveLanguage(tag);
  const language = tag.toLowerCase().startsWith(table) ? tag : table;
  const { m } = shown;
  painted.set(el, shown);
  const searching = first.state.name === 'searching';
  draw(card(m.region, false, true, stepTitle(m, first.state.name, null), nothing, searching ? center(spinner, html`<p class="muted">${m.searchingText}</p>`) : waiting, nothing, ''));

  let event: MachineEvent | null;
  try {
    event = await first.answer;
  } catch {
    return;
  }
  // Another tab's order to follow (`adopt`): the element reads it.
  if (event?.type !== 'created' && event?.type !== 'order') return;
  const state = answered(first.state, event).state;
  const order = state.order;
  if (!order || !isOpen(state.name) || (!order.requisites && !paymentLinkOf(order))) return;
  const platform = platformOf(env);
  const host = staticHost({ ...attrs, state, m, language, clock: env.clock, platform });
  let qrImage: ((text: string, label: string) => unknown) | undefined;
  const paint = () => draw(openCard(host, order, qrImage ? { qrImage } : {}));
  paint();
  // The countdown ticks until the element takes over (its render removes `at`).
  const tick = () => at.isConnected && !shown.refused && (paint(), env.clock.setTimeout(tick, TICK_MS));
  env.clock.setTimeout(tick, TICK_MS);
  // A desktop's QR: its encoder arrives after the paint (the element moves the drawn QR into its own).
  if (platform === 'desktop' && paymentLinkOf(order)) {
    void import('./qr.js').then(
      ({ qrSvg }) => {
        qrImage = qrSvg;
        paint();
      },
      () => {},
    );
  }
}

