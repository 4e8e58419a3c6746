/**
 * The footer: support (whenever a support page is known: the order's, the stored one, the `support-url`
 * attribute) and the way back to the shop (while the order is open, and on every final step but
 * "paid" with a redirect, which has its own button). Inside the provider's page in the shop's frame
 * there is none: the shop's element shows them, once. Every view module carries it (loaded on demand);
 * the element shows it once one of them is there.
 */
import { html, nothing, type TemplateResult } from 'lit';
import type { FooterHost } from './hosts.js';
import { isOpen, type MachineState } from './machine.js';
import { safeHttpUrl } from '../protocol/url.js';

/** The order is open (pay, confirming): the return link is shown (provider-api.md, `return_url`). */
export function isOrderOpen(s: MachineState): boolean {
  return s.order !== null && isOpen(s.name);
}

const FINAL = ['expired', 'cancelled', 'dispute', 'gone', 'paid', 'error'];

export function footer(host: FooterHost): TemplateResult | typeof nothing {
  const s = host.machine;
  if (host.embedded) return nothing;
  const support = safeHttpUrl(s.order?.support_url) ?? safeHttpUrl(s.known?.support) ?? safeHttpUrl(host.el.supportUrl);
  const final = FINAL.includes(s.name) && !(s.name === 'paid' && host.redirectUrl);
  const back = isOrderOpen(s) || final ? (safeHttpUrl(s.order?.return_url) ?? safeHttpUrl(s.known?.back)) : null;
  return support || back
    ? html`<footer part="footer">${support ? html`<a href=${support} target="_blank" rel="noopener noreferrer">${host.m.support}</a>` : nothing}${
        back ? html`<a href=${back}>${host.m.returnToShop}</a>` : nothing
      }</footer>`
    : nothing;
}
