/**
 * Form mode across a frame: `<paydesk-checkout mode="form">` embeds the provider's payment page
 * (`form_url`), itself the same element on the provider's page. The two talk with `postMessage`:
 *
 *   page element (outer)                          framed element (inner, on the provider's page)
 *   ─ iframe `load` / `ready` from the frame ─▶   {paydesk: 'host', v: 1}
 *   ◀─ {paydesk: 'ready'} (to '*', no data)        on connecting, when framed
 *   ◀─ {paydesk: 'height', height}                 to the origin the `host` message came from, on every resize
 *
 * The outer element accepts a message only from the frame's window (`event.source`) and the form
 * URL's origin (`event.origin`), and only these shapes; the frame is then exactly as tall as its
 * content. Once told it is embedded, the inner element leaves the links (support, back to the shop,
 * "open the payment page") and the redirect after payment to the outer one: one set, on the shop's page.
 *
 * Loaded on demand: the outer part when a form is shown, the inner part when the element runs in a frame.
 */
import type { ReactiveController } from 'lit';
import type { FrameHost } from './hosts.js';

const TAG = 'paydesk';
export const HELLO = { [TAG]: 'host', v: 1 } as const;
/** Bounds of a frame height a message may set (CSS pixels). */
export const MIN_HEIGHT = 120;
export const MAX_HEIGHT = 20_000;

/** The window whose `message` events are heard and whose `parent` is the embedding page. */
const win = (): Window | undefined => globalThis.window;

/** The data of a height message, or null for anything else. */
export function heightOf(data: unknown): number | null {
  const d = data as { paydesk?: unknown; height?: unknown } | null;
  if (typeof d !== 'object' || d === null || d.paydesk !== 'height') return null;
  const h = d.height;
  return typeof h === 'number' && Number.isFinite(h) && h >= MIN_HEIGHT && h <= MAX_HEIGHT ? Math.ceil(h) : null;
}

const isReady = (data: unknown) => (data as { paydesk?: unknown } | null)?.paydesk === 'ready';
const isHello = (data: unknown) => (data as { paydesk?: unknown; v?: unknown } | null)?.paydesk === 'host' && (data as { v?: unknown }).v === 1;

/** The page side: sizes the iframe of the payment page to its content. */
export class FormFrameController implements ReactiveController {
  /** The content height the frame reported, or 0 (the CSS default height applies). */
  height = 0;
  /** The origin of the form URL: messages from anywhere else are ignored. */
  origin = '';
  private frame: HTMLIFrameElement | null = null;

  constructor(private readonly host: FrameHost) {
    host.el.addController(this);
  }

  hostConnected(): void {
    win()?.addEventListener('message', this.onMessage);
  }

  hostDisconnected(): void {
    win()?.removeEventListener('message', this.onMessage);
  }

  /** The form URL now shown (a safe http(s) URL). */
  show(url: string): void {
    const origin = new URL(url).origin;
    if (origin !== this.origin) {
      this.origin = origin;
      this.height = 0;
    }
  }

  /** The iframe's `load`: say hello (the framed element answers with its height). */
  readonly onLoad = (e: Event): void => {
    this.frame = e.target as HTMLIFrameElement;
    this.hello();
  };

  private hello(): void {
    try {
      this.frame?.contentWindow?.postMessage(HELLO, this.origin);
    } catch {
      // The frame navigated elsewhere: its origin no longer matches, nothing is sent.
    }
  }

  private readonly onMessage = (e: MessageEvent): void => {
    const frame = this.host.el.renderRoot.querySelector('iframe');
    if (!frame || !this.origin || e.origin !== this.origin || e.source === null || e.source !== frame.contentWindow) return;
    this.frame = frame;
    if (isReady(e.data)) return this.hello();
    const height = heightOf(e.data);
    if (height !== null && height !== this.height) {
      this.height = height;
      this.host.el.requestUpdate();
    }
  };
}

/** The framed side: once the page's element says hello, leave it the links and report the height. */
export class FramedController implements ReactiveController {
  /** True once the embedding page's element said hello. */
  embedded = false;
  private target = '';
  private observer: ResizeObserver | null = null;
  private sent = 0;

  constructor(private readonly host: FrameHost) {
    host.el.addController(this);
  }

  private get parent(): Window | null {
    const w = win();
    return w && w.parent && w.parent !== w ? w.parent : null;
  }

  hostConnected(): void {
    const parent = this.parent;
    if (!parent) return;
    win()!.addEventListener('message', this.onMessage);
    parent.postMessage({ [TAG]: 'ready' }, '*');
    if (this.embedded) this.observe();
  }

  hostDisconnected(): void {
    win()?.removeEventListener('message', this.onMessage);
    this.observer?.disconnect();
    this.observer = null;
  }

  /**
   * Reports after every update as well as from the observer: an observer calls back only when the
   * page renders, and a hidden page (a background tab, the test runner's pages) never does, so the
   * frame would keep its default height. Duplicates are not sent (`sent`).
   */
  hostUpdated(): void {
    this.report();
  }

  private readonly onMessage = (e: MessageEvent): void => {
    if (e.source !== this.parent || !isHello(e.data) || !/^https?:\/\//.test(e.origin)) return;
    this.target = e.origin;
    this.sent = 0;
    if (!this.embedded) {
      this.embedded = true;
      this.host.el.requestUpdate();
    }
    this.observe();
    this.report();
  };

  private observe(): void {
    if (this.observer || typeof ResizeObserver === 'undefined') return;
    this.observer = new ResizeObserver(() => this.report());
    this.observer.observe(this.host.el);
  }

  /** Posts the height the page needs to show the element whole (its bottom edge and the margin below). */
  private report(): void {
    const parent = this.parent;
    if (!parent || !this.target) return;
    const w = win()!;
    const body = w.document.body;
    const below = body ? parseFloat(w.getComputedStyle(body).marginBottom) || 0 : 0;
    const height = Math.ceil(this.host.el.getBoundingClientRect().bottom + w.scrollY + below);
    if (height === this.sent || height < MIN_HEIGHT) return;
    this.sent = height;
    parent.postMessage({ [TAG]: 'height', height }, this.target);
  }
}

/** Made by the steps controller when this module arrives: both sides of form mode's frame, on the host. */
export function attach(host: FrameHost & { frame?: FormFrameController | null; framed?: FramedController }): void {
  host.frame = new FormFrameController(host);
  host.framed = new FramedController(host);
}
