/**
 * What the element's controllers and views read and ask for, as types only: the steps controller
 * (steps.ts) is the host they get, and `el` the element itself (its attributes, its render root). No
 * module here imports a controller or a view, so none of them imports another through this file.
 */
import type { ReactiveControllerHost } from 'lit';
import type { Api } from './api.js';
import type { CheckoutEnv } from './env.js';
import type { MessageOverrides, Messages } from './i18n/index.js';
import type { MachineEvent, MachineState } from './machine.js';
import type { PaydeskCopyField } from './events.js';

/** The element as its controllers see it: its attributes and the Lit host it is. */
export interface CheckoutElement extends ReactiveControllerHost, HTMLElement {
  readonly renderRoot: HTMLElement | DocumentFragment;
  endpoint: string;
  orderRef: string;
  /** The `session` attribute: a session to resume. */
  session: string;
  mode: string;
  bank: string;
  buttonName: string;
  /** The `support-url` attribute (the order's own `support_url` comes first). */
  supportUrl: string;
  locale: string;
  theme: string;
  messages: MessageOverrides | null;
  env: Partial<CheckoutEnv>;
}

/** Code loaded on demand (lazy.ts): registers with the element, whose `updateComplete` waits for it. */
export interface LazyHost {
  readonly el: ReactiveControllerHost;
  wait(work: Promise<unknown>): void;
}

/**
 * What every controller reads: the element (where it registers and asks for a render), the machine's
 * state, the outside world; and feeds the machine.
 */
export interface Host extends LazyHost {
  readonly el: CheckoutElement;
  readonly machine: MachineState;
  readonly env$: CheckoutEnv;
  send(event: MachineEvent): void;
}

/** The language (language.ts) and the requests (session.ts) need no more. */
export type LanguageHost = Host;
export type SessionHost = Host;

/** The live status (live.ts). */
export interface LiveHost extends Host {
  api(): Api;
}

/** Controllers that speak to the shopper. */
export interface TextHost extends Host {
  readonly m: Messages;
  /** The language tag used with `Intl`. */
  readonly language: string;
  /** Says `text` in the polite live region. */
  announce(text: string): void;
  /** Asks the server for the status (and its time) now. */
  recheck(): void;
}

/** The clock (live.ts `TickController`). */
export interface TickHost extends TextHost {
  /** Where "paid" returns the shopper (a safe URL), or null (none, or the checkout is embedded in a frame). */
  readonly redirectUrl: string | null;
}

/** The bank sheet (banks.ts). */
export type SheetHost = TextHost;

/** The receipt upload (receipt.ts). */
export interface ReceiptHost extends TextHost {
  /** The token endpoint (normalised). */
  readonly base: string;
}

/** The form frame (frame.ts). */
export type FrameHost = Pick<Host, 'el'>;

/** The footer (footer.ts). */
export interface FooterHost {
  readonly el: CheckoutElement;
  readonly machine: MachineState;
  readonly m: Messages;
  /** Inside the provider's payment page in the shop's frame: the shop's element shows the links. */
  readonly embedded: boolean;
  readonly redirectUrl: string | null;
}

/** The bank sheet and the receipt upload as the element and the views use them. */
export interface SheetLike {
  open(opener: HTMLElement | null): void;
  close(): void;
  render(): unknown;
}
export interface ReceiptLike {
  readonly open: boolean;
  show(): void;
  close(): void;
  render(): unknown;
}

/** What the views (views.ts and the view modules) read from the steps controller and ask of it. */
export interface ViewHost extends TickHost, ReceiptHost, FooterHost {
  readonly el: CheckoutElement;
  readonly machine: MachineState;
  readonly m: Messages;
  readonly redirectUrl: string | null;
  /** The clock (live.ts), once loaded: seconds until the redirect after "paid". */
  readonly tick?: { readonly redirectIn: number } | undefined;
  /** The live status (live.ts), once loaded: true while the browser is offline. */
  readonly live?: { readonly offline: boolean } | undefined;
  /** Form mode: sizes the frame of the payment page (once its code is there). */
  readonly frame: { height: number; onLoad(e: Event): void; show(url: string): void } | null;
  /** The copy button showing "Copied", or ''. */
  copied: string;
  copyTimer: unknown;
  sheet: SheetLike | null;
  receipt: ReceiptLike | null;
  /** Work under way that the element's `updateComplete` waits for (code loaded on demand). */
  readonly loading?: Promise<unknown> | null;
  /** A new order (new requisites, a new payment). */
  renew(): void;
  /** Code loaded on demand (lazy.ts): the QR encoder, the bank sheet, the receipt upload. */
  readonly code: {
    get(name: 'qr'): { drawQr(canvas: HTMLCanvasElement, text: string): boolean } | undefined;
    /** The copy buttons' work (copy.ts), loaded with the views that have them; none in a static paint. */
    get(name: 'copy'): { copyTo(host: ViewHost, id: PaydeskCopyField, label: string, text: string): Promise<void> } | undefined;
    get(name: 'banks' | 'receipt'): object | undefined;
    load(name: 'qr' | 'banks' | 'receipt'): void;
    retry(name: 'banks' | 'receipt' | 'live' | 'qr'): void;
    state(name: 'banks' | 'receipt' | 'live' | 'qr'): string;
  };
}
