/**
 * The `pay` and `confirming` steps as the element runs them (loaded with `import()` when the checkout
 * starts looking for requisites): which view a step shows (the requisites, or form mode's embedded
 * payment page), the QR drawn after each render, and the background code asked for again when it was
 * lost. The requisites' templates and styles are pay-view.ts, which a first paint draws without the
 * element (paint.ts, static-view.ts): this module is the element's part of the step, never on a first
 * paint's path.
 */
import { css, html, nothing, type TemplateResult } from 'lit';
import { actions } from './parts.js';
import { confirming, openForm, pay, styles as payStyles } from './pay-view.js';
import { safeHttpUrl } from '../protocol/url.js';
import { open } from './open.js';
import { contextOf, type ViewHost } from './views.js';

export { footer, left, timer } from './pay-view.js';

/** The requisites' styles, and form mode's: the provider's page in a frame (never on a first paint, nor on the server). */
export const styles = [...payStyles, css`
iframe{display:block;width:100%;border:0;border-radius:calc(var(--_r) - 4px);color-scheme:normal}
iframe:not([height]){height:var(--paydesk-form-height,960px)}
.form{padding:var(--_s) var(--_s) calc(var(--_s)*2)}
.form>:not(iframe){margin-inline:calc(var(--_s)*2)}
.form .top{display:contents}
`];

/**
 * Form mode with the provider's page to embed (no requisites of our own): its URL with the element's
 * language as `lang` and its theme as `theme` (unless it has them) and `embed=1`, or null.
 */
export function formUrl(host: ViewHost): string | null {
  const order = host.machine.order;
  const url = host.el.mode === 'form' && order && !order.requisites ? safeHttpUrl(order.form_url) : null;
  if (!url) return null;
  const u = new URL(url);
  const { theme } = host.el;
  if (!u.searchParams.has('lang')) u.searchParams.set('lang', host.language);
  if (!u.searchParams.has('theme')) u.searchParams.set('theme', theme === 'light' || theme === 'dark' ? theme : 'auto');
  // Framed in this card: the page may drop its own chrome (the sandbox's does), so there is one card.
  u.searchParams.set('embed', '1');
  return u.href;
}

/** Hosts with a new try of lost background code due, and how many tries each had (see {@link painted}). */
const retrying = new WeakSet<ViewHost>();
const tries = new WeakMap<ViewHost, number>();
/** How long after a failed load code that works in the background is first asked for again (then twice as long each time, at most a minute). */
export const BACKGROUND_RETRY_MS = 5000;

/**
 * After each render (this module is there whenever the element has an order): the QR encoder is loaded
 * when a QR is first shown, and the canvas stays hidden until it is drawn. Code that works in the
 * background and failed to load (a network blip, a deploy in between) is asked for again after 5 s,
 * 10 s, 20 s … (at most a minute apart) while the element is on the page: without the live status the
 * order is not followed (a payment, a late one) and the countdown stands still; without the encoder
 * there is no QR. Nothing on screen offers a "try again" for them, unlike the views.
 */
export function painted(host: ViewHost): void {
  const { code } = host;
  if (!retrying.has(host) && (code.state('live') === 'error' || code.state('qr') === 'error')) {
    const n = tries.get(host) ?? 0;
    retrying.add(host);
    tries.set(host, n + 1);
    host.env$.clock.setTimeout(
      () => {
        retrying.delete(host);
        // Removed from the page meanwhile: nothing to follow (its next render, if it comes back, asks again).
        if (!host.el.isConnected) return;
        code.retry('live');
        code.retry('qr');
      },
      Math.min(BACKGROUND_RETRY_MS * 2 ** n, 60_000),
    );
  }
  const canvas = host.el.renderRoot.querySelector('canvas');
  const text = canvas?.dataset.qr;
  const qr = host.code.get('qr');
  if (canvas && text && canvas.dataset.text !== text) {
    if (qr) {
      if (qr.drawQr(canvas, text)) canvas.dataset.text = text;
    } else host.code.load('qr');
  }
}

/**
 * Form mode: the provider's payment page embedded (as tall as the page says its content is, once it
 * says so) and the link to open it in a new tab.
 */
export function form(host: ViewHost, url: string): TemplateResult {
  const frame = host.frame;
  frame?.show(url);
  // Opened in a tab of its own, the page keeps its own chrome: no `embed`.
  const own = new URL(url);
  own.searchParams.delete('embed');
  return html`<iframe part="form" src=${url} title=${host.m.formTitle} height=${frame?.height || nothing} @load=${(e: Event) => frame?.onLoad(e)}></iframe>${actions(openForm(host.m, own.href))}`;
}

/** The `pay` and `confirming` steps (form mode's embedded page included). */
export function view(host: ViewHost): TemplateResult {
  const url = formUrl(host);
  if (url) return form(host, url);
  const c = contextOf(host, host.machine.order!, open);
  // The QR the server painted (paydesk/ssr) moves into this step until the encoder is here to draw it.
  const painted = !host.code.get('qr') && host.el.renderRoot.querySelector('[part=qr]>svg');
  if (painted) {
    host.code.load('qr');
    c.qrImage = () => painted;
  }
  return host.machine.name === 'confirming' ? confirming(c) : pay(c);
}

