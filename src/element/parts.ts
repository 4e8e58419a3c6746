/**
 * Small template parts shared by the element and the views it loads on demand (pay-view.ts,
 * choose-view.ts, closed-view.ts): the alert icon, the spinner, centred blocks, badges, the actions
 * row. The icons only the views show are theirs (views.ts `icons`).
 */
import { html, svg, type TemplateResult } from 'lit';
import type { OrderView } from '../protocol/index.js';
import type { Messages } from './i18n/index.js';
import type { StateName } from './machine.js';

/** `copied` of a field whose text could not be copied and is shown selected for a copy by hand (copy.ts, views.ts `copyButton`). */
export const BY_HAND = '?';

export const icon = (paths: TemplateResult) => html`<svg viewBox="0 0 24 24" aria-hidden="true">${paths}</svg>`;
export const alert = icon(svg`<path d="M12 3l10 18H2z"/><path d="M12 10v4M12 17.5v.5"/>`);
export const spinner = html`<div class="spinner" aria-hidden="true"></div>`;
/** A centred block: a mark (spinner or badge) and the lines under it. */
export const center = (...lines: unknown[]) => html`<div class="center">${lines}</div>`;
/** A step whose code or text is still on its way (the same object every time: the element tells it apart). */
export const waiting = center(spinner);
/**
 * The card around every step, as the element renders it and as paydesk/ssr renders it on the server:
 * the heading row (the heading, the countdown), the step, the footer and the polite live region.
 * `form`: form mode's embedded page, which has its own heading (ours stays for screen readers).
 */
export const card = (label: string, form: boolean, busy: boolean, heading: string, timer: unknown, body: unknown, footer: unknown, said: string) =>
  html`<section part="base" class="card ${form ? 'form' : ''}" aria-label=${label} aria-busy=${busy}><div class="top"><h2 part="heading" class=${form ? 'sr' : ''} tabindex="-1">${heading}</h2>${timer}</div>${body}${footer}<div class="sr" role="status" aria-live="polite" aria-atomic="true">${said}</div></section>`;
export const badge = (ok: boolean, mark: TemplateResult) => html`<div class="badge ${ok ? 'ok' : 'bad'}">${mark}</div>`;
/** A step that failed: the alert badge and what went wrong. */
export const failed = (text: string) => center(badge(false, alert), html`<p>${text}</p>`);
export const actions = (...buttons: unknown[]) => html`<div part="actions">${buttons}</div>`;
export const button = (text: string, click: () => void, cls = 'primary') => html`<button class=${cls} @click=${click}>${text}</button>`;

/**
 * The heading of a step, as the element shows it and as paydesk/ssr renders it (the receipt upload,
 * open over a step, has its own: paydesk-checkout.ts). Before the language table arrives only the
 * offline messages are there (see steps.ts `view`).
 */
export function stepTitle(m: Messages, name: StateName, order: OrderView | null): string {
  if (name === 'dispute' && order?.dispute?.status === 'closed') return m.disputeClosedTitle;
  return name === 'idle' ? m.region : (name !== 'loading' && m[`${name}Title`]) || m.loading;
}
