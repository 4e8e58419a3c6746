import { LitElement, adoptStyles, html, nothing, type CSSResult, type PropertyValues, type TemplateResult } from 'lit';
import type { ButtonName, CustomerBank, KnownMethodType } from '../provider/facts.js';
import { INTEGRATION_MODES, type IntegrationMode, type OrderView } from '../protocol/index.js';
import { ApiError, newIdempotencyKey, type Api } from './api.js';
import { systemClock, type Clock } from './countdown.js';
import { emit } from './events.js';
import { errorText, type MessageOverrides, type Messages } from './i18n/index.js';
import { LanguageController } from './language.js';
import { LazyController, type Loaded } from './lazy.js';
import { initialState, isFinalError, isOpen, transition, type Effect, type MachineEvent, type MachineState, type Selection } from './machine.js';
import { actions, alert, badge, button, center, spinner } from './parts.js';
import { SessionController } from './session.js';
import { NSPK_CODES, type Locks } from './claim.js';
import { defaultStorage, tabStorage, type KeyValueStorage } from './storage.js';
import { styles } from './paydesk-checkout.styles.js';
import { detectPlatform, type Platform } from './platform.js';
import { normaliseEndpoint, safeHttpUrl } from './url.js';

/** What the element needs from the outside world (the `env` property); tests replace parts of it. */
export interface CheckoutEnv {
  clock: Clock;
  fetch: typeof fetch | undefined;
  EventSource: typeof EventSource | undefined;
  /** Sends receipts (upload progress needs it; `fetch` reports none); default the browser's. */
  XMLHttpRequest?: typeof XMLHttpRequest;
  storage: KeyValueStorage | null;
  /** This tab's own record of the order it shows (default `sessionStorage`): a reload resumes that one first. */
  tabStorage?: KeyValueStorage | null;
  /** Web Locks, so two tabs never create two orders at once: `navigator.locks` when not given; null: none. */
  locks?: Locks | null;
  navigate(url: string): void;
  copy(text: string): Promise<void>;
  platform: Platform;
  newKey(): string;
  /** Page visibility source for the live status and the bank-app fallback (default `document`). */
  document?: EventTarget & { readonly hidden: boolean };
  /** Receives `pageshow`, `pagehide` and `storage` (default: `window`). */
  window?: EventTarget;
}

const defaultEnv = (): CheckoutEnv => ({
  clock: systemClock,
  fetch: undefined,
  EventSource: globalThis.EventSource,
  storage: defaultStorage(),
  tabStorage: tabStorage(),
  navigate: (url) => location.assign(url),
  copy: (text) => navigator.clipboard.writeText(text),
  platform: detectPlatform(navigator.userAgent, navigator.maxTouchPoints),
  newKey: newIdempotencyKey,
});

export type Theme = 'light' | 'dark' | 'auto';
/** The languages the element ships (lower-case BCP 47), alone or with a region: `ru`, `ru-KZ`, `kk`. */
export type PaydeskLanguage = 'en' | 'ru' | 'kk' | 'uz' | 'hy' | 'az' | 'ky' | 'be' | 'uk' | 'tg';
/** The `locale` property: a shipped language, with a region or script if wanted, or '' (the page's). */
export type PaydeskLocale = '' | PaydeskLanguage | `${PaydeskLanguage}-${string}`;
/**
 * The values `bank` and `button-name` take: provider facts (facts.ts), checked against its types so
 * they cannot drift, without carrying that module (and its bank table) in the element's own one.
 */
const BANK_VALUES = Object.keys(NSPK_CODES);
const BUTTON_VALUES = Object.keys({ AlfaPay: 1, SberPay: 1, TPay: 1, VTBPay: 1 } satisfies Record<ButtonName, 1>);

/**
 * The code the element loads with `import()` when a step comes near, so its own module carries only
 * the steps around them: the views (method choice, requisites, closed order), the live status, the
 * bank sheet, the receipt upload, the form frame messaging and the QR encoder.
 */
const LOADERS = {
  choose: () => import('./choose-view.js'),
  pay: () => import('./pay-view.js'),
  closed: () => import('./closed-view.js'),
  live: () => import('./live.js'),
  banks: () => import('./banks.js'),
  receipt: () => import('./receipt.js'),
  frame: () => import('./frame.js'),
  qr: () => import('./qr.js'),
};
type Modules = Loaded<typeof LOADERS>;
type ViewName = 'choose' | 'pay' | 'closed' | 'receipt';

/**
 * `<paydesk-checkout>`: the embeddable checkout. Shows the ways to pay, then the requisites (exact
 * amount, account, QR on a desktop, the bank apps on a phone, countdown), follows the order live
 * (also after it ended: a late payment, a receipt's check) and returns the shopper to the shop when
 * the server says it is paid. Never creates a second order by itself: the tabs of one browser share
 * the order of one `order-ref`, and a session the server lost is said to be lost.
 *
 * The element renders; its behaviours are reactive controllers: language (language.ts), requests and
 * the stored session (session.ts), the clock (ticker.ts), and, loaded on demand, the views, the live
 * status (live.ts), the bank sheet (banks.ts), the receipt upload (receipt.ts) and the form frame
 * (frame.ts), each through {@link LazyController}.
 *
 * @fires paydesk-ready - Rendered and ready. `detail: { state }`
 * @fires paydesk-session - An order was created. `detail: { session, order }`
 * @fires paydesk-status - The checkout state or the order status changed. `detail: { state, status, order }`
 * @fires paydesk-paid - The server says the order is paid (exactly once per order; `order.late` when after it ended). `detail: { order }`
 * @fires paydesk-expired - The server says the order expired. `detail: { order }`
 * @fires paydesk-error - A request failed. `detail: { code, message, retryable }`
 * @fires paydesk-redirect - About to navigate to `redirect_url`; cancelable. `detail: { url, order }`
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
    _s: { attribute: false },
    _announce: { attribute: false },
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

  private _s: MachineState = initialState();
  /** The copy button showing "Copied" (`amount`, `account`, `order`…), or ''. @internal */
  copied = '';
  /** @internal */
  copyTimer: unknown;
  /** Text of the polite live region. */
  private _announce = '';
  private _started?: boolean;
  private _hadFocus?: boolean;
  private _resolve!: (order: OrderView) => void;
  private _result!: Promise<OrderView>;
  /** Work under way that `updateComplete` waits for (code and tables loaded on demand). */
  private _loading?: Promise<unknown> | null;
  private _envFor?: [Partial<CheckoutEnv>, CheckoutEnv];
  /** The styles of the views loaded so far (the rules they share once: views.ts `viewStyles`). */
  private readonly _styles: CSSResult[] = [];

  private readonly _lang = new LanguageController(this);
  private readonly _req = new SessionController(this);
  private readonly _code = new LazyController(this, LOADERS, (name, module) => this._arrived(name, module));
  /** Controllers of the code loaded on demand, once it is there. */
  private _live?: InstanceType<Modules['live']['LiveController']>;
  private _tick?: InstanceType<Modules['live']['TickController']>;
  /** @internal The bank sheet and the receipt upload, once opened (views.ts `open`). */
  sheet: InstanceType<Modules['banks']['BankSheetController']> | null = null;
  /** @internal */
  receipt: InstanceType<Modules['receipt']['ReceiptController']> | null = null;
  private _frame: InstanceType<Modules['frame']['FormFrameController']> | null = null;
  private _framed?: InstanceType<Modules['frame']['FramedController']>;

  constructor() {
    super();
    this._newResult();
  }

  /** Resolves with the order when the server says it is paid (a new promise after `reset()`). */
  get result(): Promise<OrderView> {
    return this._result;
  }

  /** The current step: `idle`, `loading`, `choose`, `searching`, `pay`, `confirming`, `dispute`, `paid`, `expired`, `cancelled`, `gone`, `error`. */
  get state(): MachineState['name'] {
    return this._s.name;
  }

  /** The order shown, if any. */
  get order(): OrderView | null {
    return this._s.order;
  }

  /** Starts the checkout (automatic when `order-ref` or `session` is set at connection). Twice is once. */
  start(): void {
    if (this._s.name !== 'idle') return;
    this._started = true;
    const problem = this._configProblem();
    if (problem) return this.send({ type: 'failed', error: { code: 'config', message: problem, retryable: false } });
    const stored = this.session ? null : this._req.stored();
    this.send({
      type: 'start',
      resume: this.session
        ? { session: this.session, from: 'attribute' }
        : stored?.session
          ? { session: stored.session, from: 'storage', paidNotified: stored.paid, known: stored.order }
          : null,
      preselected: this._preselection(),
      canCreate: this.orderRef !== '',
      key: this.env$.newKey(),
    });
  }

  /** Back to idle: closes the live status, forgets the stored session; `start()` begins again. */
  reset(): void {
    this._req.cancel();
    this.sheet?.close();
    this.receipt?.close();
    this.send({ type: 'reset' });
    this._newResult();
  }

  // ------------------------------------------------------------------ what the controllers use
  /** @internal */
  get env$(): CheckoutEnv {
    if (this._envFor?.[0] !== this.env) this._envFor = [this.env, { ...defaultEnv(), ...this.env }];
    return this._envFor[1];
  }
  /** @internal */
  get machine(): MachineState {
    return this._s;
  }
  /** @internal */
  get m(): Messages {
    return this._lang.m;
  }
  /** @internal The language tag used with `Intl`. */
  get language(): string {
    return this._lang.lang;
  }
  /** @internal Inside the provider's payment page in the shop's frame: the shop's element shows the links and redirects. */
  get embedded(): boolean {
    return this._framed?.embedded === true;
  }
  /** @internal */
  get frame() {
    return this._frame;
  }
  /** @internal Where "paid" returns the shopper; none inside the payment page's frame (the page's element does it). */
  get redirectUrl(): string | null {
    return this.embedded ? null : safeHttpUrl(this._s.order?.redirect_url);
  }
  /** @internal Seconds until then. */
  get redirectIn(): number {
    return this._tick?.redirectIn ?? 0;
  }
  /** @internal The token endpoint, normalised. */
  get base(): string {
    return this._req.endpoint;
  }
  /** @internal */
  api(): Api {
    return this._req.api();
  }
  /** @internal */
  announce(text: string): void {
    this._announce = text;
  }
  /** @internal */
  recheck(): void {
    this._live?.check();
  }
  /** @internal `updateComplete` also waits for `work`. */
  wait(work: Promise<unknown>): void {
    const loading = (this._loading = Promise.all([this._loading, work]).then(() => {
      if (this._loading === loading) this._loading = null;
    }));
  }

  /** @internal Feeds the machine an event and runs the effects. */
  send(event: MachineEvent): void {
    const { state, effects } = transition(this._s, event);
    this._s = state;
    for (const fx of effects) this._run(fx);
    this._live?.sync();
    this._tick?.sync();
  }

  // ----------------------------------------------------------------------------------------- config

  /** Why the attributes cannot work, or null. */
  private _configProblem(): string | null {
    const oneOf = (name: string, value: string, allowed: readonly string[]) =>
      !value || allowed.includes(value) ? null : `${name} must be one of ${allowed.join(', ')}`;
    return !normaliseEndpoint(this.endpoint)
      ? 'endpoint must be an http(s) URL or a path such as /api/paydesk'
      : !this.orderRef && !this.session
        ? 'order-ref or session is required'
        : (oneOf('mode', this.mode, INTEGRATION_MODES) ??
          oneOf('bank', this.bank, BANK_VALUES) ??
          oneOf('button-name', this.buttonName, BUTTON_VALUES) ??
          (this.supportUrl && !safeHttpUrl(this.supportUrl) ? 'support-url must be an http(s) URL' : null) ??
          (this.methodType && this.paymentMethodId ? 'use payment-method-id or method-type, not both' : null));
  }

  /** The attributes as a request selection, or null when the shopper chooses. */
  private _preselection(): Selection | null {
    const sel: Selection = {};
    if (this.paymentMethodId) sel.payment_method_id = this.paymentMethodId;
    // With `bank`, the create adds the bank's `nspk_code` (claim.ts, loaded with the first create).
    if (this.methodType) sel.method_type = this.methodType;
    if (this.buttonName) sel.button_name = this.buttonName;
    if (this.bank && (this.mode === 'order_with_form' || this.mode === 'form')) sel.customer_bank = this.bank;
    return Object.keys(sel).length > 0 || this.mode === 'form' ? sel : null;
  }

  private _newResult(): void {
    this._result = new Promise((resolve) => (this._resolve = resolve));
  }

  private _run(fx: Effect): void {
    if (this._req.run(fx)) return;
    const { name, session, order, error } = this._s;
    if (fx.type === 'check') return this._live?.check();
    if (fx.type !== 'emit') return;
    if (fx.event === 'status') emit(this, 'paydesk-status', { state: name, status: order?.status ?? null, order });
    else if (fx.event === 'error') error && emit(this, 'paydesk-error', { ...error });
    else if (fx.event === 'session') session && order && emit(this, 'paydesk-session', { session, order });
    else if (order) {
      if (fx.event === 'paid') this._resolve(order);
      emit(this, `paydesk-${fx.event}`, { order });
    }
  }

  // ------------------------------------------------------------------------------------- lifecycle

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.env$.clock.clearTimeout(this.copyTimer);
  }

  /** Also waits for code loaded on demand (views, language tables, the QR encoder) and the update it brings. */
  protected override async getUpdateComplete(): Promise<boolean> {
    const done = await super.getUpdateComplete();
    return this._loading ? this._loading.then(() => this.getUpdateComplete()) : done;
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    this._lang.refresh();
    this._loadNear();
    if (this._stepChanged(changed)) {
      this._hadFocus = this.matches(':focus-within');
      this._announce = this._lang.hold ? '' : this._heading();
      this._tick?.stepChanged();
    }
  }

  protected override firstUpdated(): void {
    emit(this, 'paydesk-ready', { state: this._s.name });
  }

  protected override updated(changed: PropertyValues<this>): void {
    if (!this._started && this._s.name === 'idle' && (this.orderRef || this.session)) this.start();
    if (this._hadFocus && this._stepChanged(changed)) {
      this._hadFocus = false;
      this.renderRoot.querySelector('h2')?.focus();
    }
    // The QR encoder is loaded when a QR is first shown; the canvas stays hidden until it is drawn.
    const canvas = this.renderRoot.querySelector('canvas');
    const text = canvas?.dataset.qr;
    const qr = this._code.get('qr');
    if (canvas && text && canvas.dataset.text !== text) {
      if (qr) {
        if (qr.drawQr(canvas, text)) canvas.dataset.text = text;
      } else this._code.load('qr');
    }
  }

  /**
   * Loads the code of the steps that come near, in parallel with the request that leads to them: the
   * method choice while the methods are fetched; the pay view while the order is being created, and
   * the live status and the closed view once that code is there (the first paint of the requisites
   * waits for the pay view and the order, and they would share its bandwidth); all three while an order
   * is resumed (it may have ended); the framed side of form mode at once inside a frame.
   */
  private _loadNear(): void {
    const { name, op, order } = this._s;
    const code = this._code;
    const win = globalThis.window;
    if (!this._framed && win && win.parent !== win) code.load('frame');
    if (name === 'choose' || (name === 'loading' && op === 'methods')) code.load('choose');
    const resuming = name === 'loading' && op === 'resume';
    if (!resuming && name !== 'searching' && !order) return;
    code.load('pay');
    // load() has run: the pay view is under way, there, or failed.
    if (resuming || code.state('pay') !== 'pending') {
      code.load('live');
      code.load('closed');
    }
    if (this.mode === 'form') code.load('frame');
  }

  /** A module arrived: its styles join the element's; its controller is made. */
  private _arrived<K extends keyof Modules>(_name: K, module: Modules[K]): void {
    if ('styles' in module) {
      // Added to the element's own styles (a subclass's included): static styles cannot wait for a chunk.
      for (const sheet of module.styles) if (!this._styles.includes(sheet)) this._styles.push(sheet);
      if (this.shadowRoot) adoptStyles(this.shadowRoot, [...(this.constructor as typeof LitElement).elementStyles, ...this._styles]);
    }
    const m = module as Partial<Modules['live'] & Modules['frame']>;
    if (m.LiveController) {
      this._live = new m.LiveController(this);
      this._tick = new m.TickController!(this);
    }
    if (m.FormFrameController) {
      this._frame = new m.FormFrameController(this);
      this._framed = new m.FramedController!(this);
    }
  }

  /**
   * A loaded view with its text; a spinner while either loads; a network error with "try again" when
   * the view or the language table failed to load.
   */
  private _view<K extends ViewName>(name: K, show: (view: Modules[K]) => unknown): unknown {
    const view = this._code.get(name);
    const lang = this._lang;
    this._code.load(name);
    if (view && lang.ready) return show(view);
    if (this._code.state(name) !== 'error' && !lang.broken) return center(spinner);
    const retry = () => {
      this._code.retry(name);
      lang.retry();
      this.requestUpdate();
    };
    return [center(badge(false, alert), html`<p>${this.m.errors.network}</p>`), actions(button(this.m.retry, retry))];
  }

  /** True when this update moves to another step. */
  private _stepChanged(changed: PropertyValues<this>): boolean {
    const prev = changed.get('_s' as keyof PaydeskCheckout) as MachineState | undefined;
    return !!prev && prev.name !== this._s.name;
  }

  // ----------------------------------------------------------------------------------------- render

  private _heading(): string {
    const m = this.m;
    const { name, order } = this._s;
    // Before the language table arrives only the offline messages are there (see `_view`).
    if (this.receipt?.open) return m.receiptTitle;
    if (name === 'dispute' && order?.dispute?.status === 'closed') return m.disputeClosedTitle;
    return name === 'idle' ? m.region : (name !== 'loading' && m[`${name}Title`]) || m.loading;
  }

  /** @internal The module `name`, loaded now if need be (again after a failure); rejects when it cannot be loaded. */
  async need<K extends keyof Modules>(name: K): Promise<Modules[K]> {
    const code = this._code;
    code.retry(name);
    code.load(name);
    for (;;) {
      const m = code.get(name);
      if (m) return m;
      if (code.state(name) === 'error') throw new ApiError('network', `${name} could not be loaded`, true);
      await this._loading;
    }
  }

  /** @internal A new order: new requisites after an ended one, or a new payment after a lost session. */
  renew(): void {
    this.send({ type: 'renew', key: this.env$.newKey() });
  }

  override render(): TemplateResult {
    const { name, order } = this._s;
    // The language table is on its way: the card and a spinner, no text in another language.
    if (this._lang.hold) return html`<section part="base" class="card" aria-busy="true">${center(spinner)}</section>`;
    // Form mode: the embedded page has its own heading and countdown; ours stays for screen readers and focus.
    const pay = this._code.get('pay');
    const form = name === 'pay' && !!pay?.formUrl(this);
    const timer = order && isOpen(name) && !form && !this.receipt?.open;
    return html`<section part="base" class="card ${form ? 'form' : ''}" aria-label=${this.m.region} aria-busy=${name === 'loading' || name === 'searching'}>${
      html`<div class="top"><h2 part="heading" class=${form ? 'sr' : ''} tabindex="-1">${this._heading()}</h2>${
        timer && pay && this._lang.ready ? pay.timer(this.m, pay.left(order, this._s.sync, this.env$.clock)) : nothing
      }</div>`
    }${this._body()}${(this._code.get('closed') ?? this._code.get('pay') ?? this._code.get('choose'))?.footer(this) ?? nothing}<div class="sr" role="status" aria-live="polite" aria-atomic="true">${this._announce}</div></section>${
      this.sheet?.render() ?? nothing
    }`;
  }

  private _body(): unknown {
    const { name, canCreate, error, op } = this._s;
    const m = this.m;
    if (this.receipt?.open) return this._view('receipt', () => this.receipt!.render());
    switch (name) {
      case 'idle':
        return this.orderRef || this.session ? actions(button(m.start, () => this.start())) : nothing;
      case 'loading':
        return center(spinner);
      case 'searching':
        return center(spinner, html`<p class="muted">${m.searchingText}</p>`);
      case 'choose':
        return this._view('choose', (v) => v.view(this));
      case 'pay':
      case 'confirming':
        return this._view('pay', (v) => v.step(this));
      case 'error': {
        // The machine's error step always has its error, retryable only when a retry can mend it (machine.ts `fail`).
        const { code, retryable } = error!;
        // Refused for good: start again (choose another method); a failed create may also choose again.
        const renew = canCreate && !isFinalError(error) && (retryable ? op === 'create' : op);
        return [
          center(badge(false, alert), html`<p>${errorText(m, code)}</p>`),
          retryable || renew
            ? actions(
                retryable ? button(m.retry, () => this.send({ type: 'retry' })) : nothing,
                renew ? button(retryable ? m.chooseTitle : m.start, () => this.renew(), retryable ? '' : 'primary') : nothing,
              )
            : nothing,
        ];
      }
      default: // dispute, paid, expired, cancelled, gone
        return this._view('closed', (v) => v.view(this));
    }
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'paydesk-checkout': PaydeskCheckout;
  }
}
