/**
 * The copy buttons' work: the clipboard API, else the page's selection inside the tap, else the text
 * shown selected for a copy by hand. Part of the element's own code (the steps controller's `copy`),
 * not of the views: a first paint's buttons work once the element has taken over.
 */
import { css } from 'lit';
import { emit, type PaydeskCopyField } from './events.js';
import type { ViewHost } from './hosts.js';
import { fill } from './i18n/text.js';
import { BY_HAND } from './parts.js';

/**
 * The field of a text to copy by hand (views.ts `copyButton`), shown only after this module failed to
 * copy it: its rule comes with this module (the element adopts it on arrival), not on a first paint.
 */
export const styles = [css`
.by-hand{flex-basis:100%;min-width:0;min-height:44px;padding:8px 12px;border:2px solid var(--_a);border-radius:calc(var(--_r) - 4px);background:var(--_f);color:var(--_t);font:inherit;font-size:16px}
`];

/** How long a copy button says "Copied". */
export const COPIED_MS = 2000;

/**
 * Copies `text` through the page's selection (`document.execCommand('copy')`, inside the tap that
 * asked for it): the way that works where `navigator.clipboard` is missing (a page not on https, older
 * Safari) or refuses (a frame without `clipboard-write`). The text is put on the clipboard as it is
 * (the `copy` event sets it), whatever the page's styles do to the selection. False when the browser
 * refuses this too.
 */
export function copyBySelection(text: string): boolean {
  const doc = globalThis.document;
  const selection = doc?.getSelection();
  if (!selection || !doc.body) return false;
  const node = doc.createElement('span');
  node.textContent = text;
  node.setAttribute('aria-hidden', 'true');
  // Set through the CSSOM, which a strict Content Security Policy allows (no style attribute parsed).
  Object.assign(node.style, { position: 'fixed', top: '0', clip: 'rect(0,0,0,0)', whiteSpace: 'pre', userSelect: 'text', webkitUserSelect: 'text' });
  const put = (e: ClipboardEvent) => {
    if (!e.clipboardData) return;
    e.clipboardData.setData('text/plain', text);
    e.preventDefault();
  };
  node.addEventListener('copy', put);
  doc.body.append(node);
  const kept = selection.rangeCount ? selection.getRangeAt(0) : null;
  try {
    const range = doc.createRange();
    range.selectNodeContents(node);
    selection.removeAllRanges();
    selection.addRange(range);
    return doc.execCommand('copy');
  } catch {
    return false;
  } finally {
    selection.removeAllRanges();
    if (kept) selection.addRange(kept);
    node.remove();
  }
}

/**
 * Copies `text` and says so (visibly on the button, to screen readers, and with `paydesk-copy`): by the
 * clipboard API (`env.copy`), else by the page's selection ({@link copyBySelection}). When neither
 * works, the exact text is shown in a field beside the button, selected, and the shopper is told to
 * copy it by hand.
 */
export async function copyTo(host: ViewHost, id: PaydeskCopyField, label: string, text: string): Promise<void> {
  const env = host.env$;
  let copied: boolean;
  try {
    // Without `navigator.clipboard` the default throws at once: the fallback still runs inside the tap.
    await env.copy(text);
    copied = true;
  } catch {
    copied = copyBySelection(text);
  }
  env.clock.clearTimeout(host.copyTimer);
  host.copyTimer = null;
  if (!copied) {
    host.copied = BY_HAND + id;
    host.announce(host.m.copyFailed);
    await host.el.updateComplete;
    const field = host.el.renderRoot.querySelector<HTMLInputElement>('input.by-hand');
    field?.focus();
    field?.setSelectionRange(0, field.value.length);
    return;
  }
  host.copied = id;
  host.announce(fill(host.m.copiedAnnounce, { what: label }));
  emit(host.el, 'paydesk-copy', { field: id, order: host.machine.order });
  host.copyTimer = env.clock.setTimeout(() => {
    host.copyTimer = null;
    host.copied = '';
    host.el.requestUpdate();
  }, COPIED_MS);
}

