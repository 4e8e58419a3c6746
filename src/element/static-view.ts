/**
 * The checkout drawn once from an order, by code that cannot act on it: on the merchant's server
 * (paydesk/ssr, rendered to HTML) and in the browser before the element's own code has arrived (the
 * CDN entry's first paint, paint.ts). Both draw the element's own templates (parts.ts `card`, the pay
 * view, the footer) for the step the element's own machine makes of the order, with a host that reads
 * like the element's steps controller but has no actions: one source for the three paints.
 */
import type { TemplateResult } from 'lit';
import type { OrderView } from '../protocol/index.js';
import { normaliseEndpoint } from '../protocol/url.js';
import type { Clock } from './countdown.js';
import type { MessageOverrides, Messages } from './i18n/index.js';
import type { MachineState } from './machine.js';
import { card, stepTitle } from './parts.js';
import { confirming, footer, left, pay, timer } from './pay-view.js';
import type { Platform } from './platform.js';
import { contextOf, type ViewHost } from './views.js';

/** What a static host reads of the element (its attributes) and of the world. */
export interface StaticOptions {
  endpoint: string;
  orderRef?: string | undefined;
  supportUrl?: string | undefined;
  locale?: string | undefined;
  theme?: string | undefined;
  messages?: MessageOverrides | null | undefined;
  state: MachineState;
  m: Messages;
  language: string;
  clock: Clock;
  platform: Platform;
}

/** Every action of a static paint: nothing can act before the element runs. */
const cannot = (): never => {
  throw new Error('paydesk: this checkout is not running yet');
};

/**
 * The views' host for a static paint: what they read (the order's state, the language, the layout, a
 * clock). Nothing can press a button there: an action throws.
 */
export function staticHost(o: StaticOptions): ViewHost {
  const el = {
    endpoint: o.endpoint,
    orderRef: o.orderRef ?? '',
    mode: '',
    bank: '',
    buttonName: '',
    supportUrl: o.supportUrl ?? '',
    locale: o.locale ?? '',
    theme: o.theme ?? 'auto',
    messages: o.messages ?? null,
    env: {},
    requestUpdate: () => {},
  };
  return {
    el,
    machine: o.state,
    env$: { clock: o.clock, platform: o.platform },
    m: o.m,
    language: o.language,
    embedded: false,
    // Nothing can redirect before the element runs: "paid" shows the way back instead of a count.
    redirectUrl: null,
    base: normaliseEndpoint(o.endpoint) ?? '',
    copied: '',
    copyTimer: null,
    sheet: null,
    receipt: null,
    frame: null,
    code: { get: () => undefined, load: () => {}, retry: () => {}, state: () => 'initial' },
    renew: cannot,
    send: cannot,
    announce: cannot,
    recheck: cannot,
    wait: () => {},
    api: cannot,
  } as unknown as ViewHost;
}

/** How the requisites of an open order are drawn (the pay view's options for a static paint). */
export interface OpenCardOptions {
  /** The time zone of the pay-by time (the server cannot know the device's); the device's when absent. */
  timeZone?: string;
  /** The QR as an image (inline SVG, qr.ts `qrSvg`); absent, the pay view's canvas. */
  qrImage?: (text: string, label: string) => unknown;
}

/** The card of an open order (`pay`, `confirming`) on a static host: heading, countdown, requisites, footer. */
export function openCard(host: ViewHost, order: OrderView, o: OpenCardOptions = {}): TemplateResult {
  const { m, machine } = host;
  const c = { ...contextOf(host, order, cannot), ...o };
  const body = machine.name === 'confirming' ? confirming(c) : pay(c);
  return card(m.region, false, false, stepTitle(m, machine.name, order), timer(m, left(order, machine.sync, host.env$.clock)), body, footer(host), '');
}
