import { LitElement, html, nothing, type PropertyValues, type TemplateResult } from 'lit';
import { bankByButtonName, bankByCustomerBank, BUTTON_NAMES, CUSTOMER_BANKS } from '../provider/facts.js';
import { INTEGRATION_MODES, type IntegrationMode, type OrderView, type PaymentMethodView } from '../protocol/index.js';
import { createApi, newIdempotencyKey, toErrorInfo, type Api, type ErrorInfo } from './api.js';
import { bankLinks, BANK_APPS, detectPlatform, type Platform } from './banks.js';
import { clocksDiverged, crossedThreshold, msToNextSecond, remainingMs, serverNow, systemClock, type Clock } from './countdown.js';
import { emit } from './events.js';
import { changedFrom, copyValue, formatAccount, formatAmount, formatCountdown } from './format.js';
import { fill, loadLanguage, messagesFor, missingTables, plural, resolveLanguage, safeIntl, type MessageOverrides, type Messages } from './i18n/index.js';
import { LiveStatus } from './live.js';
import { initialState, isOrderOpen, isWatching, transition, type Effect, type MachineEvent, type MachineState, type Selection } from './machine.js';
import { drawQr } from './qr.js';
import { defaultStorage, forgetSession, loadSession, saveSession, storageKey, type KeyValueStorage } from './storage.js';
import { styles } from './paydesk-checkout.styles.js';
import { normaliseEndpoint, safeHttpUrl } from './url.js';

/** What the element needs from the outside world; tests replace parts of it. @internal */
export interface CheckoutEnv {
  clock: Clock;
  fetch: typeof fetch | undefined;
  EventSource: typeof EventSource | undefined;
  storage: KeyValueStorage | null;
  navigate(url: string): void;
  copy(text: string): Promise<void>;
  platform: Platform;
  newKey(): string;
  /** Page visibility source for the live status (default `document`/`window`). */
  document?: EventTarget & { readonly hidden: boolean };
  window?: EventTarget;
}

const defaultEnv = (): CheckoutEnv => ({
  clock: systemClock,
  fetch: undefined,
  EventSource: globalThis.EventSource,
  storage: defaultStorage(),
  navigate: (url) => location.assign(url),
  copy: (text) => navigator.clipboard.writeText(text),
  platform: detectPlatform(navigator.userAgent, navigator.maxTouchPoints),
  newKey: newIdempotencyKey,
});

export type Theme = 'light' | 'dark' | 'auto';
const REDIRECT_SECONDS = 5;
const COPIED_MS = 2000;
const CYRILLIC = new Set(['ru', 'be', 'uk', 'kk', 'ky', 'tg']);

const icon = {
  copy: html`<svg viewBox="0 0 24 24" aria-hidden="true"><rect x="9" y="9" width="11" height="11" rx="2"></rect><path d="M5 15V5a2 2 0 0 1 2-2h8"></path></svg>`,
  check: html`<svg viewBox="0 0 24 24" aria-hidden="true"><path d="M5 12.5l4.5 4.5L19 7.5"></path></svg>`,
  clock: html`<svg viewBox="0 0 24 24" aria-hidden="true"><circle cx="12" cy="12" r="9"></circle><path d="M12 7v5l3 2"></path></svg>`,
  alert: html`<svg viewBox="0 0 24 24" aria-hidden="true"><path d="M12 3l10 18H2z"></path><path d="M12 10v4M12 17.5v.5"></path></svg>`,
};

/**
 * `<paydesk-checkout>`: the embeddable checkout. Shows the payment methods, then the requisites
 * (exact amount, account, QR, bank-app links, countdown), follows the order live and returns the
 * shopper to the shop when the server says it is paid.
 *
 * @fires paydesk-ready - Rendered and ready. `detail: { state }`
 * @fires paydesk-session - An order was created. `detail: { session, order }`
 * @fires paydesk-status - The checkout state or the order status changed. `detail: { state, status, order }`
 * @fires paydesk-paid - The server says the order is paid (exactly once per order). `detail: { order }`
 * @fires paydesk-expired - The server says the order expired. `detail: { order }`
 * @fires paydesk-error - A request failed. `detail: { code, message, retryable }`
 * @fires paydesk-redirect - About to navigate to `redirect_url`; cancelable. `detail: { url, order }`
 *
 * @csspart base - The card around everything.
 * @csspart heading - The heading of the current step.
 * @csspart countdown - The `role="timer"` countdown.
 * @csspart amount - The amount to send.
 * @csspart requisites - The list of requisites (account, recipient, bank).
 * @csspart qr - The SBP QR code and its caption.
 * @csspart banks - The bank-app links.
 * @csspart methods - The list of payment methods.
 * @csspart method - One payment method button.
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
    locale: {},
    theme: { reflect: true },
    messages: { attribute: false },
    env: { attribute: false },
    _s: { state: true, attribute: false },
    _now: { state: true, attribute: false },
    _copied: { state: true, attribute: false },
    _announce: { state: true, attribute: false },
    _langTick: { state: true, attribute: false },
  };

  /** The token endpoint mount point (`/api/paydesk` or an absolute http(s) URL). */
  endpoint = '';
  /** The merchant's order reference; the server decides the price from it. */
  orderRef = '';
  /** A session to resume (or one the merchant's server created). */
  session = '';
  /** Integration mode sent with `POST /sessions`: `h2h`, `order_with_form` or `form`. */
  mode = '';
  /** Preselected aggregate method type (e.g. `SBP`): skips the method choice. */
  methodType = '';
  /** Preselected payment method id: skips the method choice. */
  paymentMethodId = '';
  /** Preselected bank (`sberbank`, `tinkoff`, `vtb`, `alfabank`): limits methods and bank links. */
  bank = '';
  /** Preselected payment button (`AlfaPay`, `SberPay`, `TPay`, `VTBPay`). */
  buttonName = '';
  /** Language (BCP 47); default: the nearest `lang` attribute, then `navigator.language`. */
  locale = '';
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
  private _now = 0;
  private _copied = '';
  private _announce = '';
  private _langTick = 0;

  private _live: LiveStatus | null = null;
  private _abort: AbortController | null = null;
  private _op = 0;
  private _pending: Effect | null = null;
  private _tick: unknown = null;
  private _copyTimer: unknown = null;
  private _last = { wall: 0, mono: 0, remaining: Infinity };
  private _redirectAt = 0;
  private _started = false;
  private _ready = false;
  private _hadFocus = false;
  private _resolve!: (order: OrderView) => void;
  private _result!: Promise<OrderView>;
  private _m: Messages = messagesFor('en');
  private _mKey = '';
  private _lang = 'en';
  private _envFor: [Partial<CheckoutEnv>, CheckoutEnv] | null = null;

  constructor() {
    super();
    this._newResult();
  }

  /** Resolves with the order when the server says it is paid (a new promise after `reset()`). */
  get result(): Promise<OrderView> {
    return this._result;
  }

  /** The current step: `idle`, `loading`, `choose`, `searching`, `pay`, `confirming`, `paid`, `expired`, `cancelled`, `error`. */
  get state(): MachineState['name'] {
    return this._s.name;
  }

  /** The order shown, if any. */
  get order(): OrderView | null {
    return this._s.order;
  }

  private get _env(): CheckoutEnv {
    if (this._envFor?.[0] !== this.env) this._envFor = [this.env, { ...defaultEnv(), ...this.env }];
    return this._envFor[1];
  }

  private _newResult(): void {
    this._result = new Promise((resolve) => (this._resolve = resolve));
  }

  /** Starts the checkout (automatic when `order-ref` or `session` is set at connection). */
  start(): void {
    if (this._s.name !== 'idle') return;
    this._started = true;
    const problem = this._configProblem();
    if (problem) return this._send({ type: 'failed', error: { code: 'config', message: problem, retryable: false } });
    const stored = this.session ? null : loadSession(this._env.storage, this._storageKey());
    const resume = this.session
      ? { session: this.session, from: 'attribute' as const }
      : stored && this.orderRef
        ? { session: stored.session, from: 'storage' as const, paidNotified: stored.paid }
        : null;
    this._send({ type: 'start', resume, preselected: this._preselection(), canCreate: this.orderRef !== '', key: this._env.newKey() });
  }

  /** Back to idle: closes the live status, forgets the stored session; `start()` begins again. */
  reset(): void {
    this._cancelAsync();
    this._send({ type: 'reset' });
    this._newResult();
  }

  // ----------------------------------------------------------------------------------------- config

  private _endpoint(): string {
    return normaliseEndpoint(this.endpoint) ?? '';
  }

  private _storageKey(): string {
    return storageKey(this._endpoint(), this.orderRef);
  }

  /** Why the attributes cannot work, or null. */
  private _configProblem(): string | null {
    if (!this._endpoint()) return 'endpoint must be an http(s) URL or a path such as /api/paydesk';
    if (!this.orderRef && !this.session) return 'order-ref or session is required';
    if (this.mode && !INTEGRATION_MODES.includes(this.mode as IntegrationMode)) return `mode must be one of ${INTEGRATION_MODES.join(', ')}`;
    if (this.bank && !(CUSTOMER_BANKS as readonly string[]).includes(this.bank)) return `bank must be one of ${CUSTOMER_BANKS.join(', ')}`;
    if (this.buttonName && !(BUTTON_NAMES as readonly string[]).includes(this.buttonName)) return `button-name must be one of ${BUTTON_NAMES.join(', ')}`;
    if (this.methodType && this.paymentMethodId) return 'use payment-method-id or method-type, not both';
    return null;
  }

  /** The attributes as a request selection, or null when the shopper chooses. */
  private _preselection(): Selection | null {
    const sel: Selection = {};
    if (this.paymentMethodId) sel.payment_method_id = this.paymentMethodId;
    if (this.methodType) {
      sel.method_type = this.methodType;
      const code = this.bank ? bankByCustomerBank(this.bank)?.nspkCode : undefined;
      if (code) sel.nspk_code = code;
    }
    if (this.buttonName) sel.button_name = this.buttonName;
    if (this.bank && (this.mode === 'order_with_form' || this.mode === 'form')) sel.customer_bank = this.bank;
    return Object.keys(sel).length > 0 || this.mode === 'form' ? sel : null;
  }

  // ------------------------------------------------------------------------------------ the machine

  private _send(event: MachineEvent): void {
    const { state, effects } = transition(this._s, event);
    this._s = state;
    for (const fx of effects) this._run(fx);
    this._sync();
  }

  private _api(): Api {
    return createApi(this._endpoint(), { fetch: this._env.fetch });
  }

  private _run(fx: Effect): void {
    const env = this._env;
    const s = this._s;
    switch (fx.type) {
      case 'fetchMethods':
        return this._async(fx, (api, signal) =>
          api.methods(this.orderRef, signal).then((methods) => {
            const only = this.bank ? methods.filter((m) => m.bank === this.bank) : [];
            this._send({ type: 'methods', methods: only.length > 0 ? only : methods });
          }),
        );
      case 'create':
        return this._async(fx, (api, signal) =>
          api
            .create({ order_ref: this.orderRef, ...fx.selection, ...(this.mode ? { mode: this.mode as IntegrationMode } : {}) }, fx.key, signal)
            .then((r) => this._send({ type: 'created', session: r.session, order: r.order, serverTime: r.serverTime, ...this._time() })),
        );
      case 'resume':
        return this._async(fx, (api, signal) =>
          api.session(fx.session, true, signal).then((r) => this._send({ type: 'order', order: r.order, serverTime: r.serverTime, ...this._time() })),
        );
      case 'check':
        void this._live?.check(true);
        return;
      case 'store':
        if (this.orderRef) saveSession(env.storage, this._storageKey(), { session: fx.session, paid: fx.paid });
        return;
      case 'forget':
        if (this.orderRef) forgetSession(env.storage, this._storageKey());
        return;
      case 'emit':
        switch (fx.event) {
          case 'session':
            return void (s.session && s.order && emit(this, 'paydesk-session', { session: s.session, order: s.order }));
          case 'status':
            return void emit(this, 'paydesk-status', { state: s.name, status: s.order?.status ?? null, order: s.order });
          case 'paid':
            if (s.order) {
              this._resolve(s.order);
              emit(this, 'paydesk-paid', { order: s.order });
            }
            return;
          case 'expired':
            return void (s.order && emit(this, 'paydesk-expired', { order: s.order }));
          case 'error':
            return void (s.error && emit(this, 'paydesk-error', { ...s.error }));
        }
    }
  }

  private _time(): { mono: number; wall: number } {
    const c = this._env.clock;
    return { mono: c.mono(), wall: c.now() };
  }

  /** Runs one request of the machine; a newer one (or a disconnect) makes its answer stale. */
  private _async(fx: Effect, work: (api: Api, signal: AbortSignal) => Promise<void>): void {
    this._cancelAsync();
    const op = ++this._op;
    const ctrl = new AbortController();
    this._abort = ctrl;
    this._pending = fx;
    work(this._api(), ctrl.signal)
      .then(() => {
        if (op === this._op) this._pending = null;
      })
      .catch((e: unknown) => {
        if (op !== this._op) return;
        this._pending = null;
        const info: ErrorInfo = toErrorInfo(e);
        if (info.code !== 'aborted') this._send({ type: 'failed', error: info });
      });
  }

  private _cancelAsync(): void {
    this._op++;
    this._abort?.abort();
    this._abort = null;
    this._pending = null;
  }

  /** Brings the live status and the timers in line with the state. */
  private _sync(): void {
    const s = this._s;
    const connected = this.isConnected;
    if (connected && isWatching(s)) {
      if (!this._live || this._live.session !== s.session) {
        this._live?.stop();
        const env = this._env;
        this._live = new LiveStatus({
          api: this._api(),
          session: s.session!,
          clock: env.clock,
          EventSource: env.EventSource,
          document: env.document,
          window: env.window,
          onOrder: (a) => this._send({ type: 'order', order: a.order, serverTime: a.serverTime, ...this._time() }),
          onFatal: (error) => this._send({ type: 'failed', error }),
        });
        this._live.start();
      }
    } else if (this._live) {
      this._live.stop();
      this._live = null;
    }
    if (s.name === 'paid' && this._redirectAt === 0) this._redirectAt = this._env.clock.mono() + REDIRECT_SECONDS * 1000;
    if (s.name !== 'paid') this._redirectAt = 0;
    const ticking = connected && (s.name === 'pay' || s.name === 'confirming' || (s.name === 'paid' && this._redirectUrl() !== null));
    if (ticking && this._tick === null) this._onTick();
    if (!ticking) this._stopTick();
  }

  private _stopTick(): void {
    if (this._tick !== null) this._env.clock.clearTimeout(this._tick);
    this._tick = null;
  }

  /** Once a second (on the second boundary of the countdown): countdown, announcements, redirect. */
  private readonly _onTick = (): void => {
    const { clock } = this._env;
    this._tick = null;
    const s = this._s;
    const wall = clock.now();
    const mono = clock.mono();
    if (this._last.mono && clocksDiverged(wall - this._last.wall, mono - this._last.mono)) void this._live?.check(true);
    this._last.wall = wall;
    this._last.mono = mono;
    this._now = mono;
    let next = 1000;
    if (s.name === 'paid') {
      const left = this._redirectAt - mono;
      const url = this._redirectUrl();
      if (left <= 0 && url && s.order) {
        if (emit(this, 'paydesk-redirect', { url, order: s.order }, true)) this._env.navigate(url);
        return;
      }
      next = msToNextSecond(left);
    } else if (s.order && (s.name === 'pay' || s.name === 'confirming')) {
      const remaining = remainingMs(s.order.expires_at, s.sync, mono, wall);
      const crossed = crossedThreshold(this._last.remaining, remaining);
      this._last.remaining = remaining;
      if (crossed !== null && s.name === 'pay') {
        this._announce = crossed === 1 ? this._m.lastMinute : plural(this._lang, this._m.minutesLeft, crossed);
      }
      if (remaining <= 0 && s.name === 'pay') return this._send({ type: 'timeUp' });
      next = remaining > 0 ? msToNextSecond(remaining) : 1000;
    }
    this._tick = clock.setTimeout(this._onTick, next);
  };

  private _redirectUrl(): string | null {
    return safeHttpUrl(this._s.order?.redirect_url);
  }

  // ------------------------------------------------------------------------------------- lifecycle

  override connectedCallback(): void {
    super.connectedCallback();
    if (this._pending) {
      const fx = this._pending;
      this._pending = null;
      this._run(fx); // a request cut off by a disconnect runs again (same idempotency key)
    }
    this._sync();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    const pending = this._pending;
    this._cancelAsync();
    this._pending = pending;
    this._live?.stop();
    this._live = null;
    this._stopTick();
    if (this._copyTimer !== null) this._env.clock.clearTimeout(this._copyTimer);
    this._copyTimer = null;
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    const requested = this.locale || this._nearestLang() || navigator.language || 'en';
    const table = resolveLanguage(requested);
    this._lang = requested.toLowerCase().startsWith(table) ? requested : table;
    if (missingTables(requested).length > 0) {
      void loadLanguage(requested).then((arrived) => {
        if (arrived) this._langTick++;
      });
    }
    const key = `${requested}|${this._langTick}`;
    if (key !== this._mKey || changed.has('messages')) {
      this._mKey = key;
      this._m = messagesFor(requested, this.messages);
    }
    if (changed.has('_s' as keyof PaydeskCheckout)) {
      const prev = changed.get('_s' as keyof PaydeskCheckout) as MachineState | undefined;
      if (prev && prev.name !== this._s.name) {
        this._hadFocus = this.matches(':focus-within');
        this._announce = this._heading();
        this._last.remaining = Infinity;
      }
    }
  }

  protected override firstUpdated(): void {
    this._ready = true;
    emit(this, 'paydesk-ready', { state: this._s.name });
  }

  protected override updated(changed: PropertyValues<this>): void {
    if (this._ready && !this._started && this._s.name === 'idle' && (this.orderRef || this.session)) this.start();
    if (changed.has('_s' as keyof PaydeskCheckout)) {
      const prev = changed.get('_s' as keyof PaydeskCheckout) as MachineState | undefined;
      if (prev && prev.name !== this._s.name && this._hadFocus) {
        this._hadFocus = false;
        this.renderRoot.querySelector<HTMLElement>('h2')?.focus();
      }
    }
    const canvas = this.renderRoot.querySelector('canvas');
    const link = this._s.order?.payment_link;
    if (canvas && link && canvas.dataset.text !== link) {
      if (drawQr(canvas, link)) canvas.dataset.text = link;
    }
  }

  private _nearestLang(): string {
    let node: Node | null = this;
    while (node) {
      if (node instanceof Element && node.getAttribute('lang')) return node.getAttribute('lang')!;
      node = node instanceof ShadowRoot ? node.host : node.parentNode;
    }
    return '';
  }

  // ----------------------------------------------------------------------------------------- render

  private _money(amount: string, currency = this._s.order?.currency ?? 'RUB'): string {
    return formatAmount(amount, currency, this._lang);
  }

  private _heading(): string {
    const m = this._m;
    const map: Record<MachineState['name'], string> = {
      idle: m.region,
      loading: m.loading,
      choose: m.chooseTitle,
      searching: m.searchingTitle,
      pay: m.payTitle,
      confirming: m.confirmingTitle,
      paid: m.paidTitle,
      expired: m.expiredTitle,
      cancelled: m.cancelledTitle,
      error: m.errorTitle,
    };
    return map[this._s.name];
  }

  private _bankName(code: string | null | undefined): string | null {
    const app = code ? BANK_APPS.find((b) => b.customerBank === code) : undefined;
    return app ? this._nameOf(app.name) : null;
  }

  private _nameOf(name: { ru: string; en: string }): string {
    return CYRILLIC.has(this._lang.slice(0, 2)) ? name.ru : name.en;
  }

  private async _copy(id: string, label: string, text: string): Promise<void> {
    const env = this._env;
    try {
      await env.copy(text);
      this._copied = id;
      this._announce = fill(this._m.copiedAnnounce, { what: label });
      if (this._copyTimer !== null) env.clock.clearTimeout(this._copyTimer);
      this._copyTimer = env.clock.setTimeout(() => {
        this._copyTimer = null;
        this._copied = '';
      }, COPIED_MS);
    } catch {
      this._announce = this._m.copyFailed;
    }
  }

  private _copyButton(id: string, label: string, text: string): TemplateResult {
    const done = this._copied === id;
    return html`<button class="copy ${done ? "done" : ""}" aria-label="${done ? this._m.copied : this._m.copy}: ${label}" @click=${() => this._copy(id, label, text)}>
      ${done ? icon.check : icon.copy}<span>${done ? this._m.copied : this._m.copy}</span>
    </button>`;
  }

  override render(): TemplateResult {
    const s = this._s;
    const m = this._m;
    void this._langTick;
    const busy = s.name === 'loading' || s.name === 'searching';
    return html`<section part="base" class="card" aria-label=${m.region} aria-busy=${busy ? 'true' : 'false'}>
      <div class="top">
        <h2 part="heading" tabindex="-1">${this._heading()}</h2>
        ${s.name === 'pay' ? this._timer() : nothing}
      </div>
      ${this._body()} ${this._footer()}
      <div class="sr" role="status" aria-live="polite" aria-atomic="true">${this._announce}</div>
    </section>`;
  }

  private _body(): TemplateResult | typeof nothing {
    const s = this._s;
    const m = this._m;
    switch (s.name) {
      case 'idle':
        return this.orderRef || this.session
          ? html`<div part="actions"><button class="primary" @click=${() => this.start()}>${m.start}</button></div>`
          : nothing;
      case 'loading':
        return html`<div class="center"><div class="spinner" aria-hidden="true"></div></div>`;
      case 'searching':
        return html`<div class="center"><div class="spinner" aria-hidden="true"></div><p class="muted">${m.searchingText}</p></div>`;
      case 'choose':
        return this._choose();
      case 'pay':
        return this._pay();
      case 'confirming':
        return html`<div class="center">
          <div class="spinner" aria-hidden="true"></div>
          <p>${m.confirmingText}</p>
          ${s.order ? html`<p class="amount">${this._money(s.order.amount)}</p>` : nothing}
        </div>`;
      case 'paid':
        return this._paid();
      case 'expired':
      case 'cancelled':
        return html`<div class="center">
            <div class="badge bad">${icon.clock}</div>
            <p>${s.name === 'expired' ? m.expiredText : m.cancelledText}</p>
          </div>
          ${s.canCreate ? html`<div part="actions"><button class="primary" @click=${() => this._send({ type: 'renew', key: this._env.newKey() })}>${m.renew}</button></div>` : nothing}`;
      case 'error':
        return this._error();
    }
  }

  private _choose(): TemplateResult {
    const m = this._m;
    const pick = (method: PaymentMethodView) => this._send({ type: 'choose', selection: { payment_method_id: method.id }, key: this._env.newKey() });
    return html`<p class="muted">${m.chooseHint}</p>
      <ul class="methods" part="methods">
        ${this._s.methods.map((method) => {
          const bank = this._bankName(method.bank);
          const fee = Number(method.fee) > 0 ? fill(m.fee, { fee: this._money(method.fee) }) : m.noFee;
          return html`<li>
            <button class="method" part="method" @click=${() => pick(method)}>
              <span>${method.name}${bank && !method.name.includes(bank) ? html` · ${bank}` : nothing}</span>
              <span class="total">${fill(m.total, { total: this._money(method.total) })}</span>
              <span class="muted">${fee}</span>
            </button>
          </li>`;
        })}
      </ul>`;
  }

  private _timer(): TemplateResult | typeof nothing {
    const s = this._s;
    if (!s.order) return nothing;
    const { clock } = this._env;
    const wall = clock.now();
    const mono = clock.mono();
    void this._now;
    const remaining = remainingMs(s.order.expires_at, s.sync, mono, wall);
    return html`<div part="countdown" class="timer ${remaining < 60_000 ? 'low' : ''}" role="timer" aria-label=${this._m.timerLabel}>
      ${icon.clock}<span>${formatCountdown(remaining)}</span>
    </div>`;
  }

  private _payBy(order: OrderView): string {
    const { clock } = this._env;
    const end = Date.parse(order.expires_at);
    // In the device's own clock, so "pay by" matches the phone even when its clock is off.
    const device = end - serverNow(this._s.sync, clock.mono(), clock.now()) + clock.now();
    const fmt = safeIntl(
      () => new Intl.DateTimeFormat(this._lang, { hour: '2-digit', minute: '2-digit' }),
      () => new Intl.DateTimeFormat('en', { hour: '2-digit', minute: '2-digit' }),
    );
    return fill(this._m.payBy, { time: fmt.format(device) });
  }

  private _pay(): TemplateResult {
    const m = this._m;
    const order = this._s.order!;
    const amount = this._money(order.amount);
    const requested = changedFrom(order);
    const req = order.requisites;
    const formUrl = safeHttpUrl(order.form_url);
    const link = safeHttpUrl(order.payment_link);
    const accountLabel = req ? { card: m.cardLabel, phone: m.phoneLabel, account: m.accountLabel, link: m.linkLabel }[req.kind] : '';
    const apps = bankLinks(order, this._env.platform, this.bank || bankByButtonName(this.buttonName)?.customerBank || null);
    const bank = this._bankName(order.bank);
    const phone = this._env.platform !== 'desktop';
    const qr = link
      ? html`<figure part="qr" class="qr">
          <canvas role="img" aria-label=${fill(m.qrLabel, { amount })}></canvas>
          <figcaption class="muted">${m.qrHint}</figcaption>
        </figure>`
      : nothing;
    if (this.mode === 'form' && formUrl && !req) {
      return html`<iframe part="form" src=${formUrl} title=${m.formTitle}></iframe>
        <div part="actions"><a class="btn" href=${formUrl} target="_blank" rel="noopener noreferrer">${m.openForm}</a></div>`;
    }
    return html`<div class="pay">
      <div part="amount" class="box">
        <span class="muted">${m.amountLabel}</span>
        <div class="row">
          <span class="amount">${amount}</span>
          ${this._copyButton('amount', m.amountLabel, order.amount)}
        </div>
        <span class="muted">${requested ? nothing : html`${m.amountExact} `}${this._payBy(order)}</span>
      </div>
      ${requested ? html`<p class="warn">${icon.alert}<span>${fill(m.amountChanged, { amount, requested: this._money(requested) })}</span></p>` : nothing}
      ${phone ? nothing : qr}
      ${req
        ? html`<dl part="requisites">
            <div>
              <dt>${accountLabel}</dt>
              <dd class="row">
                ${req.kind === 'link' && safeHttpUrl(req.holder_account)
                  ? html`<a href=${safeHttpUrl(req.holder_account)!} rel="noopener noreferrer">${m.linkLabel}</a>`
                  : html`<span class="num">${formatAccount(req.holder_account, req.kind)}</span>`}
                ${this._copyButton('account', accountLabel, copyValue(req.holder_account, req.kind))}
              </dd>
            </div>
            ${req.holder_name ? html`<div><dt>${m.holderLabel}</dt><dd>${req.holder_name}</dd></div>` : nothing}
            ${bank ? html`<div><dt>${m.bankLabel}</dt><dd>${bank}</dd></div>` : nothing}
            ${order.method ? html`<div><dt>${m.methodLabel}</dt><dd>${order.method.name}</dd></div>` : nothing}
          </dl>`
        : nothing}
      ${apps.primary ? html`<a class="btn primary" href=${apps.primary}>${m.openBankApp}</a>` : nothing}
      ${apps.banks.length > 0
        ? html`<div>
            <p class="muted">${m.otherBanks}</p>
            <ul class="banks" part="banks">
              ${apps.banks.map((b) => {
                const name = this._nameOf(b.name);
                return html`<li><a class="btn" href=${b.href} aria-label=${fill(m.openInBank, { bank: name })}>${name}</a></li>`;
              })}
            </ul>
          </div>`
        : nothing}
      ${phone ? qr : nothing}
      ${formUrl ? html`<a class="btn" href=${formUrl} target="_blank" rel="noopener noreferrer">${m.openForm}</a>` : nothing}
      <div part="actions"><button class="primary" @click=${() => this._send({ type: 'paidPressed' })}>${m.iPaid}</button></div>
    </div>`;
  }

  private _paid(): TemplateResult {
    const m = this._m;
    const order = this._s.order!;
    const url = this._redirectUrl();
    const left = Math.max(0, Math.ceil((this._redirectAt - this._env.clock.mono()) / 1000));
    void this._now;
    return html`<div class="center">
        <div class="badge ok">${icon.check}</div>
        <p>${fill(m.paidText, { amount: this._money(order.amount) })}</p>
        ${url ? html`<p class="muted">${plural(this._lang, m.redirectIn, left)}</p>` : nothing}
      </div>
      ${url ? html`<div part="actions"><a class="btn primary" href=${url}>${m.redirectNow}</a></div>` : nothing}`;
  }

  private _error(): TemplateResult {
    const s = this._s;
    const m = this._m;
    const err = s.error ?? { code: 'default', message: '', retryable: false };
    const text = (m.errors as Record<string, string | undefined>)[err.code] ?? (err.message || m.errors.default);
    const renew = !err.retryable && s.canCreate && (s.op === 'create' || s.op === 'methods' || s.op === 'resume');
    return html`<div class="center">
        <div class="badge bad">${icon.alert}</div>
        <p>${text}</p>
      </div>
      ${err.retryable || renew
        ? html`<div part="actions">
            ${err.retryable ? html`<button class="primary" @click=${() => this._send({ type: 'retry' })}>${m.retry}</button>` : nothing}
            ${renew || (err.retryable && s.canCreate && s.op === 'create')
              ? html`<button class=${err.retryable ? '' : 'primary'} @click=${() => this._send({ type: 'renew', key: this._env.newKey() })}>
                  ${err.retryable ? m.chooseTitle : m.start}
                </button>`
              : nothing}
          </div>`
        : nothing}`;
  }

  private _footer(): TemplateResult | typeof nothing {
    const s = this._s;
    const support = safeHttpUrl(s.order?.support_url);
    const back = isOrderOpen(s) ? safeHttpUrl(s.order?.return_url) : null;
    if (!support && !back) return nothing;
    return html`<footer part="footer">
      ${support ? html`<a href=${support} target="_blank" rel="noopener noreferrer">${this._m.support}</a>` : nothing}
      ${back ? html`<a href=${back}>${this._m.returnToShop}</a>` : nothing}
    </footer>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'paydesk-checkout': PaydeskCheckout;
  }
}
