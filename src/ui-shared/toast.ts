/** One short message at the bottom of the page (`#toast`, role=status), shared by the console's pages and the demo's. */
import { $ } from './dom.js';

let timer = 0;

/**
 * Shows `message` for 3.5 s. Inside an open modal dialog the toast moves into it: the dialog is in
 * the top layer and would cover a toast of the page behind it.
 */
export function toast(message: string, kind: 'info' | 'error' = 'info'): void {
  const node = $('#toast');
  const dialog = document.querySelector<HTMLDialogElement>('dialog[open]');
  const host = dialog ?? document.body;
  if (node.parentElement !== host) host.append(node);
  node.textContent = message;
  node.classList.toggle('error', kind === 'error');
  node.hidden = false;
  window.clearTimeout(timer);
  timer = window.setTimeout(() => (node.hidden = true), 3500);
}
