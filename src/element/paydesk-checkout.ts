import { LitElement, html, nothing } from 'lit';
import type { ButtonName, CustomerBank, KnownMethodType } from '../provider/facts.js';
import type { IntegrationMode, OrderView } from '../protocol/index.js';
import { configProblem, type PaydeskLocale, type Theme } from './config.js';
import { startOf } from './requests.js';
import type { CheckoutEnv } from './env.js';
import { emit } from './events.js';
import { errorText, type MessageOverrides } from './i18n/index.js';
import { isFinalError, isOpen, type MachineState } from './machine.js';
import { actions, button, card, center, failed, spinner, stepTitle, waiting } from './parts.js';
import { styles } from './paydesk-checkout.styles.js';
import { Steps } from './steps.js';

export type { CheckoutEnv } from './env.js';
export type { PaydeskLanguage, PaydeskLocale, Theme } from './config.js';

/**
 * `<paydesk-checkout>`: the embeddable checkout. Shows the ways to pay, then the requisites (exact
 * amount, account, QR on a desktop, the bank apps on a phone, countdown), follows the order live
 * (also after it ended: a late payment, a receipt's check) and returns the shopper to the shop when
 * the server says it is paid. Never creates a second order by itself: the tabs of one browser share
 * the order of one `order-ref`, and a session the server lost is said to be lost.
 *
 * The element renders and wires its attributes; the steps controller (steps.ts) holds the rest: the
 * machine (machine.ts), the requests and the stored session (session.ts), the language (language.ts)
 * and the code loaded on demand (the views, the live status and clock, the bank sheet, the receipt
 * upload, the form frame, the QR encoder).
 *
 * @fires paydesk-ready - Rendered and ready. `detail: { state }`
 * @fires paydesk-session - An order was created. `detail: { session, order }`
 * @fires paydesk-status - The checkout state or the order status changed. `detail: { state, status, order }`
 * @fires paydesk-paid - The server says the order is paid (exactly once per order; `order.late` when after it ended). `detail: { order }`
 * @fires paydesk-expired - The server says the order expired. `detail: { order }`
 * @fires paydesk-error - A request failed. `detail: { code, message, retryable }`
 * @fires paydesk-redirect - About to navigate to `redirect_url`; cancelable. `detail: { url, order }`
 * @fires paydesk-method - The shopper picked a way to pay (once per tap that starts an order; a preselected method fires none). `detail: { method: { id, type, bank }, order }`
 * @fires paydesk-copy - A copy button put its text on the clipboard (once per press; not when the text could only be selected). `detail: { field, order }`, `field`: `amount`, `account`, `holder`, `bank` or `order`
 * @fires paydesk-bank-app - The shopper opened a bank from the bank sheet (its app on a phone, its online bank on a desktop). `detail: { bank: { name, nspk_code }, order }`
 * @fires paydesk-receipt - The receipt upload was opened (`stage: "started"`) or the server accepted the receipts (`stage: "sent"`). `detail: { stage, order }`
 *
 * @csspart base - The card around everything.
 * @csspart heading - The heading of the current step.
 * @csspart countdown - The `role="timer"` countdown.
 * @csspart amount - The amount to send.
 * @csspart requisites - The list of requisites (account, recipient, bank).
 * @csspart order - The order number and its copy button.
 * @csspart qr - The SBP QR code and its caption.
 * @csspart banks - The list of banks in the bank sheet.
 * @csspart sheet - The bank sheet (a modal dialog).
 * @csspart methods - The list of ways to pay.
 * @csspart method - One way to pay (or one bank of the second step).
 * @csspart receipt - The receipt upload form.
 * @csspart actions - The main buttons of a step.
 * @csspart form - The embedded payment page (form mode).
 * @csspart footer - Support and return links.
 * @csspart offline - The note, while the browser is offline, that the status may be out of date.
 *
 * @cssprop --paydesk-color-accent - Buttons, links, focus rings.
 * @cssprop --paydesk-color-on-accent - Text on accent buttons.
 * @cssprop --paydesk-color-surface - Card background.
 * @cssprop --paydesk-color-subtle - Background of the amount box and the countdown.
 * @cssprop --paydesk-color-border - Borders.
 * @cssprop --paydesk-color-text - Main text.
 * @cssprop --paydesk-color-muted - Labels and hints.
 * @cssprop --paydesk-color-success - Success mark and "copied".
 * @cssprop --paydesk-color-warning - Background of the exact-amount warning.
 * @cssprop --paydesk-color-on-warning - Text of the exact-amount warning.
 * @cssprop --paydesk-color-danger - Errors and the last minute of the countdown.
 * @cssprop --paydesk-radius - Corner radius of the card (controls get it minus 4px).
 * @cssprop --paydesk-font - Font family.
 * @cssprop --paydesk-spacing - Base spacing unit.
 * @cssprop --paydesk-max-width - Maximum width of the element.
 * @cssprop --paydesk-form-height - Height of the embedded payment page (form mode) until the page reports its own, default 960px.
 *
 */
export class PaydeskCheckout extends LitElement {
  static override styles = styles;

  static override properties = {
    endpoint: {},
    orderRef: { attribute: 'order-ref' },
    session: {},
    mode: {},
    methodType: { attribute: 'method-type' },
    paymentMethodId: { attribute: 'payment-method-id' },
    bank: {},
    buttonName: { attribute: 'button-name' },
    supportUrl: { attribute: 'support-url' },
    locale: {},
    theme: { reflect: true },
    messages: { attribute: false },
    env: { attribute: false },
  };

  /** The token endpoint mount point (`/api/paydesk` or an absolute http(s) URL). */
  endpoint = '';
  /** The merchant's order reference; the server decides the price from it. */
  orderRef = '';
  /** A session to resume (or one the merchant's server created). */
  session = '';
  /** Integration mode sent with `POST /sessions`: `h2h`, `order_with_form` or `form`. */
  mode: IntegrationMode | '' = '';
  /** Preselected aggregate method type (e.g. `SBP`): skips the method choice. */
  methodType: KnownMethodType | '' = '';
  /** Preselected payment method id: skips the method choice. */
  paymentMethodId = '';
  /** Preselected bank (`sberbank`, `tinkoff`, `vtb`, `alfabank`): limits methods and bank links. */
  bank: CustomerBank | '' = '';
  /** Preselected payment button (`AlfaPay`, `SberPay`, `TPay`, `VTBPay`). */
  buttonName: ButtonName | '' = '';
  /** The shop's support page (http(s)), shown where the order gives none (e.g. an unknown order). */
  supportUrl = '';
  /** Language (BCP 47); default: the nearest `lang` attribute, then `navigator.language`. */
  locale: PaydeskLocale = '';
  /** `light`, `dark` or `auto` (follows `prefers-color-scheme`). */
  theme: Theme = 'auto';
  /** Overrides of any message (see `Messages`). */
  messages: MessageOverrides | null = null;
  /**
   * The outside world the element uses (clock, fetch, EventSource, storage, navigation, clipboard,
   * platform); any part given replaces the browser's. For tests and unusual hosts.
   */
  env: Partial<CheckoutEnv> = {};

  private readonly _c = new Steps(this);
  /** The step of the last render. */
  private _shown?: string;
  private _started?: boolean;
  private _hadFocus?: boolean;
  /** The nodes of a server-rendered shadow root (paydesk/ssr), on screen until a render has a step to show instead. */
  private _ssr?: ChildNode[] | null;

  /** Resolves with the order when the server says it is paid (a new promise after `reset()`). */
  get result(): Promise<OrderView> {
    return this._c.result;
  }

  /** The current step: `idle`, `loading`, `choose`, `searching`, `pay`, `confirming`, `dispute`, `paid`, `expired`, `cancelled`, `gone`, `error`. */
  get state(): MachineState['name'] {
    return this._c.machine.name;
  }

  /** The order shown, if any. */
  get order(): OrderView | null {
    return this._c.machine.order;
  }

  /** Starts the checkout (automatic when `order-ref` or `session` is set at connection). Twice is once. */
  start(): void {
    const c = this._c;
    if (c.machine.name !== 'idle') return;
    this._started = true;
    const problem = configProblem(this);
    if (problem) return c.send({ type: 'failed', error: { code: 'config', message: problem, retryable: false } });
    // The request the CDN entry started before this code arrived (first.ts) decided the start already.
    c.send(c.req.first?.start ?? startOf(this, c.req.stored(this.session), c.env$.newKey()));
  }

  /** Back to idle: closes the live status, forgets the stored session; `start()` begins again. */
  reset(): void {
    this._c.reset();
  }

  // ------------------------------------------------------------------------------------- lifecycle

  /** Also waits for code loaded on demand (views, language tables, the QR encoder) and the update it brings. */
  protected override async getUpdateComplete(): Promise<boolean> {
    const done = await super.getUpdateComplete();
    const loading = this._c.loading;
    return loading ? loading.then(() => this.getUpdateComplete()) : done;
  }

  /**
   * A shadow root the page's HTML brought (paydesk/ssr: declarative shadow DOM) is kept as it is: what
   * the server painted stays until the element has the order and the code to show its step, then the
   * two are swapped in one render (no blank card, no spinner in between).
   */
  protected override createRenderRoot(): HTMLElement | DocumentFragment {
    const ssr = this.shadowRoot && [...this.shadowRoot.childNodes];
    const root = super.createRenderRoot();
    if (ssr?.length) {
      this._ssr = ssr;
      this.renderOptions.renderBefore = null;
    }
    return root;
  }

  protected override willUpdate(): void {
    const c = this._c;
    c.refresh();
    const shown = this._shown;
    const name = (this._shown = c.machine.name);
    // Another step: the heading is announced, and gets the focus if the element had it (`updated`).
    if (shown && shown !== name) {
      this._hadFocus = this.matches(':focus-within');
      c.said = c.lang.hold ? '' : this._heading();
      c.tick?.stepChanged();
    }
  }

  protected override firstUpdated(): void {
    emit(this, 'paydesk-ready', { state: this.state });
  }

  protected override updated(): void {
    if (!this._started && this.state === 'idle' && (this.orderRef || this.session)) this.start();
    if (this._hadFocus) {
      this._hadFocus = false;
      this.renderRoot.querySelector('h2')?.focus();
    }
  }

  // ----------------------------------------------------------------------------------------- render

  private _heading(): string {
    const c = this._c;
    return c.receipt?.open ? c.m.receiptTitle : stepTitle(c.m, c.machine.name, c.machine.order);
  }

  override render(): unknown {
    const c = this._c;
    const { name, order, sync } = c.machine;
    const m = c.m;
    const body = this._body();
    const ssr = this._ssr;
    if (ssr) {
      // Before the first step (idle) or while the step's code or text is on its way; a first paint's
      // order is on its way to the machine while it searches (paint.ts, first.ts). An error shows at once.
      if (c.lang.hold || (name === 'idle' && !this._started) || body === waiting || name === 'searching') return nothing;
      for (const node of ssr) node.remove();
      this._ssr = null;
    }
    // The language table is on its way: the card and a spinner, no text in another language.
    if (c.lang.hold) return html`<section part="base" class="card" aria-busy="true">${waiting}</section>`;
    // Form mode: the embedded page has its own heading and countdown; ours stays for screen readers and focus.
    const pay = c.code.get('pay');
    const form = name === 'pay' && !!pay?.formUrl(c);
    const timer = order && isOpen(name) && !form && !c.receipt?.open;
    return [
      card(
        m.region,
        form,
        name === 'loading' || name === 'searching',
        this._heading(),
        timer && pay && c.lang.ready ? pay.timer(m, pay.left(order, sync, c.env$.clock)) : nothing,
        body,
        (c.code.get('closed') ?? pay ?? c.code.get('choose'))?.footer(c) ?? nothing,
        c.said,
      ),
      c.sheet?.render() ?? nothing,
    ];
  }

  private _body(): unknown {
    const c = this._c;
    const { name, canCreate, error, op } = c.machine;
    const m = c.m;
    if (c.receipt?.open) return c.view('receipt');
    switch (name) {
      case 'idle':
        return this.orderRef || this.session ? actions(button(m.start, () => this.start())) : nothing;
      case 'loading':
        return waiting;
      case 'searching':
        return center(spinner, html`<p class="muted">${m.searchingText}</p>`);
      case 'choose':
        return c.view('choose');
      case 'pay':
      case 'confirming':
        return c.view('pay');
      case 'error': {
        // The machine's error step always has its error, retryable only when a retry can mend it (machine.ts `fail`).
        const { code, retryable } = error!;
        // Refused for good: start again (choose another method); a failed create may also choose again.
        const renew = canCreate && !isFinalError(error) && (retryable ? op === 'create' : op);
        return [
          failed(errorText(m, code)),
          retryable || renew
            ? actions(
                retryable ? button(m.retry, () => c.send({ type: 'retry' })) : nothing,
                renew ? button(retryable ? m.chooseTitle : m.start, () => c.renew(), retryable ? '' : 'primary') : nothing,
              )
            : nothing,
        ];
      }
      default: // dispute, paid, expired, cancelled, gone
        return c.view('closed');
    }
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'paydesk-checkout': PaydeskCheckout;
  }
}
