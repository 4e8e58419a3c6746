/**
 * Small template parts shared by the element and the views it loads on demand (pay-view.ts,
 * choose-view.ts, closed-view.ts): icons, the spinner, centred blocks, badges, the actions row.
 */
import { html, svg, type TemplateResult } from 'lit';

const icon = (paths: TemplateResult) => html`<svg viewBox="0 0 24 24" aria-hidden="true">${paths}</svg>`;
export const icons = {
  check: icon(svg`<path d="M5 12.5l4.5 4.5L19 7.5"/>`),
  clock: icon(svg`<circle cx="12" cy="12" r="9"/><path d="M12 7v5l3 2"/>`),
  alert: icon(svg`<path d="M12 3l10 18H2z"/><path d="M12 10v4M12 17.5v.5"/>`),
  copy: icon(svg`<rect x="9" y="9" width="11" height="11" rx="2"/><path d="M5 15V5a2 2 0 0 1 2-2h8"/>`),
};
export const spinner = html`<div class="spinner" aria-hidden="true"></div>`;
/** A centred block: a mark (spinner or badge) and the lines under it. */
export const center = (...lines: unknown[]) => html`<div class="center">${lines}</div>`;
export const badge = (ok: boolean, mark: TemplateResult) => html`<div class="badge ${ok ? 'ok' : 'bad'}">${mark}</div>`;
export const actions = (...buttons: unknown[]) => html`<div part="actions">${buttons}</div>`;
export const button = (text: string, click: () => void, cls = 'primary') => html`<button class=${cls} @click=${click}>${text}</button>`;
