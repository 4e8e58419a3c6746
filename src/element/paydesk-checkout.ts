import { LitElement, adoptStyles, html, nothing, type CSSResult, type PropertyValues, type TemplateResult } from 'lit';
import { bankByButtonName, bankByCustomerBank, BUTTON_NAMES, CUSTOMER_BANKS } from '../provider/facts.js';
import { INTEGRATION_MODES, type IntegrationMode, type OrderView } from '../protocol/index.js';
import { createApi, newIdempotencyKey, toErrorInfo } from './api.js';
import { clocksDiverged, crossedThreshold, msToNextSecond, remainingMs, serverNow, systemClock, type Clock } from './countdown.js';
import { emit } from './events.js';
import type { LiveStatus } from './live.js';
import { fill, loadLanguage, messagesFor, missingTables, plural, resolveLanguage, type MessageOverrides, type Messages } from './i18n/index.js';
import { actions, badge, button, center, icons, spinner } from './parts.js';
import { initialState, isOrderOpen, isWatching, transition, type Effect, type MachineEvent, type MachineState, type Selection } from './machine.js';
import { defaultStorage, forgetSession, loadSession, saveSession, storageKey, type KeyValueStorage } from './storage.js';
import { styles } from './paydesk-checkout.styles.js';
import { detectPlatform, type Platform } from './platform.js';
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
const REDIRECT_MS = 5000;
const COPIED_MS = 2000;
/** How long the text waits for the shopper's language table before showing the fallback. */
const LANGUAGE_WAIT_MS = 3000;
/** Languages whose readers get the Russian names of banks. */
const CYRILLIC = /^(ru|be|uk|kk|ky|tg)\b/i;

/**
 * The views the element loads with `import()` when a step comes near, so its own module carries only
 * the steps around them: the method choice, the requisites, the closed order.
 */
const VIEWS = {
  choose: () => import('./choose-view.js'),
  pay: () => import('./pay-view.js'),
  closed: () => import('./closed-view.js'),
};
type Views = { [K in keyof typeof VIEWS]: Awaited<ReturnType<(typeof VIEWS)[K]>> };
type ViewName = keyof Views;

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
 * @cssprop --paydesk-form-height - Height of the embedded payment page (form mode), default 960px.
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
    _s: { attribute: false },
    _now: { attribute: false },
    _copied: { attribute: false },
    _announce: { attribute: false },
    _langTick: { attribute: false },
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
  /** Monotonic time of the last tick: re-renders the countdown. */
  private _now = 0;
  /** The copy button showing "Copied" (`amount`, `account`), or ''. */
  private _copied = '';
  /** Text of the polite live region. */
  private _announce = '';
  /** Counts language tables that arrived, so the messages are merged again. */
  private _langTick = 0;
  /** The language whose table is on its way while the text waits for it, or ''. */
  private _langHold = '';
  /** Languages whose tables were asked for, and those whose tables could not be loaded. */
  private _langAsked = new Set<string>();
  private _langFailed = new Set<string>();
  /** The language asked for (`locale`, else the nearest `lang`, else the browser's). */
  private _langTag = 'en';

  /** The live status code (live.ts), loaded with the pay view, and the connection of the order watched. */
  private _liveCode: typeof import('./live.js') | null = null;
  private _live: LiveStatus | null = null;
  private _abort: AbortController | null = null;
  /** Number of the request under way: answers of older ones are stale. */
  private _op = 0;
  /** The request effect under way, run again after a reconnect. */
  private _pending: Effect | null = null;
  private _tick: unknown = null;
  private _copyTimer: unknown = null;
  /** The previous tick: clock readings and the time left (for the announcements). */
  private _last = { wall: 0, mono: 0, left: Infinity };
  private _redirectAt = 0;
  private _started = false;
  private _hadFocus = false;
  /** Lazily loaded code (views, bank-app links, QR encoder, language tables) still arriving; `updateComplete` waits for it. */
  private _loading: Promise<unknown> | null = null;
  /** The views loaded so far. */
  private _views: Partial<Views> = {};
  /** Views that failed to load: their step offers to try again. */
  private _failed = new Set<ViewName>();
  /** The bank-app links (phones only), once loaded. */
  private _banks: typeof import('./banks.js') | null = null;
  /** Lazy modules asked for by this element. */
  private _asked = new Set<string>();
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
    this._send({
      type: 'start',
      resume: this.session
        ? { session: this.session, from: 'attribute' }
        : stored && this.orderRef
          ? { session: stored.session, from: 'storage', paidNotified: stored.paid }
          : null,
      preselected: this._preselection(),
      canCreate: this.orderRef !== '',
      key: this._env.newKey(),
    });
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
    const oneOf = (name: string, value: string, allowed: readonly string[]) =>
      !value || allowed.includes(value) ? null : `${name} must be one of ${allowed.join(', ')}`;
    return !this._endpoint()
      ? 'endpoint must be an http(s) URL or a path such as /api/paydesk'
      : !this.orderRef && !this.session
        ? 'order-ref or session is required'
        : (oneOf('mode', this.mode, INTEGRATION_MODES) ??
          oneOf('bank', this.bank, CUSTOMER_BANKS) ??
          oneOf('button-name', this.buttonName, BUTTON_NAMES) ??
          (this.methodType && this.paymentMethodId ? 'use payment-method-id or method-type, not both' : null));
  }

  /** The attributes as a request selection, or null when the shopper chooses. */
  private _preselection(): Selection | null {
    const sel: Selection = {};
    if (this.paymentMethodId) sel.payment_method_id = this.paymentMethodId;
    if (this.methodType) {
      sel.method_type = this.methodType;
      const code = bankByCustomerBank(this.bank)?.nspkCode;
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

  /** The clock readings an order event carries. */
  private _time(): { mono: number; wall: number } {
    const c = this._env.clock;
    return { mono: c.mono(), wall: c.now() };
  }

  private _api() {
    return createApi(this._endpoint(), { fetch: this._env.fetch });
  }

  private _run(fx: Effect): void {
    const { storage } = this._env;
    const { name, session, order, error } = this._s;
    switch (fx.type) {
      case 'fetchMethods':
        return this._async(fx, (signal) =>
          this._api()
            .methods(this.orderRef, signal)
            .then((methods) => {
              const only = methods.filter((m) => m.bank === this.bank);
              this._send({ type: 'methods', methods: only.length > 0 ? only : methods });
            }),
        );
      case 'create':
        return this._async(fx, (signal) =>
          this._api()
            .create({ order_ref: this.orderRef, ...fx.selection, ...(this.mode && { mode: this.mode as IntegrationMode }) }, fx.key, signal)
            .then((r) => this._send({ type: 'created', ...r, ...this._time() })),
        );
      case 'resume':
        return this._async(fx, (signal) =>
          this._api()
            .session(fx.session, true, signal)
            .then((r) => this._send({ type: 'order', ...r, ...this._time() })),
        );
      case 'check':
        return void this._live?.check(true);
      case 'store':
        return void (this.orderRef && saveSession(storage, this._storageKey(), { session: fx.session, paid: fx.paid }));
      case 'forget':
        return void (this.orderRef && forgetSession(storage, this._storageKey()));
      case 'emit':
        if (fx.event === 'status') emit(this, 'paydesk-status', { state: name, status: order?.status ?? null, order });
        else if (fx.event === 'error') error && emit(this, 'paydesk-error', { ...error });
        else if (fx.event === 'session') session && order && emit(this, 'paydesk-session', { session, order });
        else if (order) {
          if (fx.event === 'paid') this._resolve(order);
          emit(this, `paydesk-${fx.event}`, { order });
        }
    }
  }

  /** Runs one request of the machine; a newer one (or a disconnect) makes its answer stale. */
  private _async(fx: Effect, work: (signal: AbortSignal) => Promise<void>): void {
    this._cancelAsync();
    const op = ++this._op;
    const ctrl = (this._abort = new AbortController());
    this._pending = fx;
    work(ctrl.signal).then(
      () => {
        if (op === this._op) this._pending = null;
      },
      (e: unknown) => {
        if (op !== this._op) return;
        this._pending = null;
        const error = toErrorInfo(e);
        if (error.code !== 'aborted') this._send({ type: 'failed', error });
      },
    );
  }

  private _cancelAsync(): void {
    this._op++;
    this._abort?.abort();
    this._abort = this._pending = null;
  }

  /** Brings the live status and the timers in line with the state. */
  private _sync(): void {
    const s = this._s;
    const env = this._env;
    const connected = this.isConnected;
    const code = this._liveCode;
    if (connected && isWatching(s)) {
      if (code && this._live?.session !== s.session) {
        this._live?.stop();
        (this._live = new code.LiveStatus({
          api: this._api(),
          session: s.session!,
          clock: env.clock,
          EventSource: env.EventSource,
          document: env.document,
          window: env.window,
          onOrder: (a) => this._send({ type: 'order', ...a, ...this._time() }),
          onFatal: (error) => this._send({ type: 'failed', error }),
        })).start();
      }
    } else {
      this._live?.stop();
      this._live = null;
    }
    this._redirectAt = s.name !== 'paid' ? 0 : this._redirectAt || env.clock.mono() + REDIRECT_MS;
    if (connected && (s.name === 'pay' || s.name === 'confirming' || (s.name === 'paid' && this._redirectUrl()))) {
      if (this._tick === null) this._onTick();
    } else this._stopTick();
  }

  private _stopTick(): void {
    this._env.clock.clearTimeout(this._tick);
    this._tick = null;
  }

  /** Once a second (on the second boundary of the countdown): countdown, announcements, redirect. */
  private readonly _onTick = (): void => {
    const { clock } = this._env;
    const { name, order, sync } = this._s;
    const last = this._last;
    const wall = clock.now();
    const mono = clock.mono();
    this._tick = null;
    if (last.mono && clocksDiverged(wall - last.wall, mono - last.mono)) void this._live?.check(true);
    last.wall = wall;
    this._now = last.mono = mono;
    let next = 1000;
    if (name === 'paid') {
      const left = this._redirectAt - mono;
      const url = this._redirectUrl();
      if (left <= 0 && url && order) {
        if (emit(this, 'paydesk-redirect', { url, order }, true)) this._env.navigate(url);
        return;
      }
      next = msToNextSecond(left);
    } else if (order) {
      const left = remainingMs(order.expires_at, sync, mono, wall);
      const crossed = crossedThreshold(last.left, left);
      last.left = left;
      if (name === 'pay') {
        if (crossed) this._announce = crossed === 1 ? this._m.lastMinute : plural(this._lang, this._m.minutesLeft, crossed);
        if (left <= 0) return this._send({ type: 'timeUp' });
      }
      if (left > 0) next = msToNextSecond(left);
    }
    this._tick = clock.setTimeout(this._onTick, next);
  };

  private _redirectUrl(): string | null {
    return safeHttpUrl(this._s.order?.redirect_url);
  }

  // ------------------------------------------------------------------------------------- lifecycle

  override connectedCallback(): void {
    super.connectedCallback();
    const fx = this._pending;
    this._pending = null;
    if (fx) this._run(fx); // a request cut off by a disconnect runs again (same idempotency key)
    this._sync();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    const pending = this._pending;
    this._cancelAsync();
    this._pending = pending;
    this._sync();
    this._env.clock.clearTimeout(this._copyTimer);
    this._copyTimer = null;
  }

  /** Also waits for code loaded on demand (the QR encoder) and the update it brings. */
  protected override async getUpdateComplete(): Promise<boolean> {
    const done = await super.getUpdateComplete();
    return this._loading ? this._loading.then(() => this.getUpdateComplete()) : done;
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    this._loadViews();
    const requested = (this._langTag = this.locale || this._nearestLang() || navigator.language || 'en');
    const table = resolveLanguage(requested);
    this._lang = requested.toLowerCase().startsWith(table) ? requested : table;
    this._loadLanguage(requested);
    const key = `${requested}|${this._langTick}`;
    if (key !== this._mKey || changed.has('messages')) {
      this._mKey = key;
      this._m = messagesFor(requested, this.messages);
    }
    if (this._stepChanged(changed)) {
      this._hadFocus = this.matches(':focus-within');
      this._announce = this._langHold ? '' : this._heading();
      this._last.left = Infinity;
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
    const link = this._s.order?.payment_link;
    if (canvas && link && canvas.dataset.link !== link) {
      canvas.dataset.link = link;
      this._wait(
        import('./qr.js').then(
          ({ drawQr }) => drawQr(canvas, link) && (canvas.dataset.text = link),
          () => delete canvas.dataset.link, // tried again at the next update
        ),
      );
    }
  }

  /** `updateComplete` also waits for this. */
  private _wait(work: Promise<unknown>): void {
    const loading = (this._loading = Promise.all([this._loading, work]).then(() => {
      if (this._loading === loading) this._loading = null;
    }));
  }

  /**
   * Loads the code of the steps that come near, in parallel with the request that leads to them: the
   * method choice while the methods are fetched; the live status, the pay view (also in form mode,
   * where it embeds the provider's page), the closed-order view and on phones the bank-app links while
   * the order is being created or resumed. What failed to load is asked for again: the live status at
   * the next update, a view when the shopper presses "try again".
   */
  private _loadViews(): void {
    const s = this._s;
    const { name, op, order } = s;
    if (name === 'choose' || (name === 'loading' && op === 'methods')) this._loadView('choose');
    const near = name === 'searching' || name === 'pay' || (name === 'loading' && op === 'resume');
    if (!near && !order) return;
    this._once('live', () =>
      import('./live.js').then(
        (code) => {
          this._liveCode = code;
          this._sync();
        },
        () => void this._asked.delete('live'),
      ),
    );
    this._loadView('closed');
    this._loadView('pay');
    if (this._env.platform !== 'desktop') {
      this._once('banks', () => import('./banks.js').then((banks) => void (this._banks = banks), () => {})); // links are optional
    }
  }

  /** Runs `load` once per element and `key`; `updateComplete` waits for it, an update follows. */
  private _once(key: string, load: () => Promise<void>): void {
    if (this._asked.has(key)) return;
    this._asked.add(key);
    this._wait(load().then(() => this.requestUpdate()));
  }

  private _loadView(name: ViewName): void {
    if (this._failed.has(name)) return;
    this._once(name, () =>
      VIEWS[name]().then(
        (view) => {
          (this._views as Record<ViewName, unknown>)[name] = view;
          if ('styles' in view && this.shadowRoot) {
            // Added to the element's own styles (a subclass's included): static styles cannot wait for a chunk.
            const loaded = Object.values(this._views).flatMap((v): CSSResult[] => ('styles' in v ? [v.styles] : []));
            adoptStyles(this.shadowRoot, [...(this.constructor as typeof LitElement).elementStyles, ...loaded]);
          }
        },
        () => {
          this._failed.add(name);
          this._asked.delete(name);
        },
      ),
    );
  }

  /**
   * A loaded view with its text; a spinner while either loads; a network error with "try again" when
   * the view or the language table failed to load.
   */
  private _view<K extends ViewName>(name: K, show: (view: Views[K]) => unknown): unknown {
    const view = this._views[name];
    const tag = this._langTag;
    const ready = this._textReady();
    if (view && ready) return show(view);
    if (!this._failed.has(name) && (ready || !this._langFailed.has(tag))) return center(spinner);
    const retry = () => {
      this._failed.delete(name);
      this._langFailed.delete(tag);
      this._langAsked.delete(tag);
      this.requestUpdate();
    };
    return [center(badge(false, icons.alert), html`<p>${this._m.errors.network}</p>`), actions(button(this._m.retry, retry))];
  }

  /**
   * True when the steps can speak: the language's tables are at hand, or, once the wait for them is
   * over, the complete English table is (the CDN files carry it) and stands in until they arrive.
   */
  private _textReady(): boolean {
    const tag = this._langTag;
    return missingTables(tag).length === 0 || (this._langHold !== tag && missingTables('en').length === 0);
  }

  /**
   * Loads the tables a language needs (once per tag, again after "try again"), holding the text
   * meanwhile, so a shopper never sees English flash before their language: at most
   * {@link LANGUAGE_WAIT_MS}. Past that, English stands in where it is at hand; otherwise the steps
   * that need only the offline messages (idle, loading, error) show them, the others a spinner until
   * the text is there, or the network error with "try again" when it cannot be loaded (see `_view`).
   */
  private _loadLanguage(tag: string): void {
    if (this._langAsked.has(tag) || missingTables(tag).length === 0) return;
    this._langAsked.add(tag);
    this._langHold = tag;
    const { clock } = this._env;
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = () => {
        clock.clearTimeout(timer);
        if (this._langHold === tag) this._langHold = '';
        this._langTick++;
        resolve();
      };
    });
    const timer = clock.setTimeout(release, LANGUAGE_WAIT_MS);
    void loadLanguage(tag).then(() => {
      if (missingTables(tag).length > 0) this._langFailed.add(tag);
      release();
    });
    this._wait(released);
  }

  /** True when this update moves to another step. */
  private _stepChanged(changed: PropertyValues<this>): boolean {
    const prev = changed.get('_s' as keyof PaydeskCheckout) as MachineState | undefined;
    return !!prev && prev.name !== this._s.name;
  }

  private _nearestLang(): string {
    for (let node: Node | null = this; node; node = node instanceof ShadowRoot ? node.host : node.parentNode) {
      const lang = node instanceof Element && node.getAttribute('lang');
      if (lang) return lang;
    }
    return '';
  }

  // ----------------------------------------------------------------------------------------- render

  private _heading(): string {
    const m = this._m;
    const name = this._s.name;
    // Before the language table arrives only the offline messages are there (see `_view`).
    return name === 'idle' ? m.region : (name !== 'loading' && m[`${name}Title`]) || m.loading;
  }

  /** A bank's name in the shopper's script (Cyrillic languages get the Russian one). */
  private _nameOf(name: { ru: string; en: string } | undefined): string | null {
    return name ? name[CYRILLIC.test(this._lang) ? 'ru' : 'en'] : null;
  }

  private _bankName(customerBank: string | null): string | null {
    return this._nameOf(bankByCustomerBank(customerBank ?? '')?.name);
  }

  private async _copy(id: string, label: string, text: string): Promise<void> {
    const env = this._env;
    try {
      await env.copy(text);
      this._copied = id;
      this._announce = fill(this._m.copiedAnnounce, { what: label });
      env.clock.clearTimeout(this._copyTimer);
      this._copyTimer = env.clock.setTimeout(() => {
        this._copyTimer = null;
        this._copied = '';
      }, COPIED_MS);
    } catch {
      this._announce = this._m.copyFailed;
    }
  }

  private readonly _renew = (): void => this._send({ type: 'renew', key: this._env.newKey() });

  /**
   * Form mode with the provider's page to embed (no requisites of our own): its URL with the element's
   * language as `lang` (unless it has one), or null.
   */
  private _formOnly(order: OrderView): string | null {
    const url = this.mode === 'form' && !order.requisites ? safeHttpUrl(order.form_url) : null;
    if (!url) return null;
    const u = new URL(url);
    if (!u.searchParams.has('lang')) u.searchParams.set('lang', this._lang);
    return u.href;
  }

  override render(): TemplateResult {
    const { name, order } = this._s;
    // The language table is on its way: the card and a spinner, no text in another language.
    if (this._langHold) return html`<section part="base" class="card" aria-busy="true">${center(spinner)}</section>`;
    // Form mode: the embedded page has its own heading and countdown; ours stays for screen readers and focus.
    const form = name === 'pay' && order ? this._formOnly(order) : null;
    return html`<section part="base" class="card ${form ? 'form' : ''}" aria-label=${this._m.region} aria-busy=${name === 'loading' || name === 'searching'}>${
      html`<div class="top"><h2 part="heading" class=${form ? 'sr' : ''} tabindex="-1">${this._heading()}</h2>${order && name === 'pay' && !form ? this._timer(order) : nothing}</div>`
    }${this._body()}${this._footer()}<div class="sr" role="status" aria-live="polite" aria-atomic="true">${this._announce}</div></section>`;
  }

  private _body(): unknown {
    const { name, order, canCreate, methods, error } = this._s;
    const m = this._m;
    switch (name) {
      case 'idle':
        return this.orderRef || this.session ? actions(button(m.start, () => this.start())) : nothing;
      case 'loading':
        return center(spinner);
      case 'searching':
        return center(spinner, html`<p class="muted">${m.searchingText}</p>`);
      case 'choose':
        return this._view('choose', ({ view }) =>
          view({
            m,
            lang: this._lang,
            methods,
            bankName: (b) => this._bankName(b),
            pick: (method) => this._send({ type: 'choose', selection: { payment_method_id: method.id }, key: this._env.newKey() }),
          }),
        );
      case 'pay':
        return this._pay(order!);
      case 'confirming':
        return this._view('pay', ({ confirming }) => confirming(m, this._lang, order!));
      case 'paid':
      case 'expired':
      case 'cancelled':
        void this._now;
        return this._view('closed', ({ view }) =>
          view({
            m,
            lang: this._lang,
            name,
            order: order!,
            redirectUrl: this._redirectUrl(),
            redirectIn: Math.max(0, Math.ceil((this._redirectAt - this._env.clock.mono()) / 1000)),
            renew: canCreate ? this._renew : null,
          }),
        );
      case 'error': {
        const { code, message, retryable } = error ?? { code: 'default', message: '', retryable: false };
        const op = this._s.op;
        // Refused for good: start again (choose another method); a failed create may also choose again.
        const renew = canCreate && (retryable ? op === 'create' : !!op);
        return [
          center(badge(false, icons.alert), html`<p>${(m.errors as Record<string, string | undefined>)[code] ?? (message || m.errors.default)}</p>`),
          retryable || renew
            ? actions(
                retryable ? button(m.retry, () => this._send({ type: 'retry' })) : nothing,
                renew ? button(retryable ? m.chooseTitle : m.start, this._renew, retryable ? '' : 'primary') : nothing,
              )
            : nothing,
        ];
      }
    }
  }

  /** The countdown, once the pay view and the text are there. */
  private _timer(order: OrderView): unknown {
    const { clock } = this._env;
    void this._now;
    const pay = this._views.pay;
    return pay && this._textReady()
      ? pay.timer(this._m, remainingMs(order.expires_at, this._s.sync, clock.mono(), clock.now()))
      : nothing;
  }

  private _pay(order: OrderView): unknown {
    const m = this._m;
    const form = this._formOnly(order);
    if (form) return this._view('pay', (pay) => pay.form(m, form));
    const { clock, platform } = this._env;
    const preferred = this.bank || bankByButtonName(this.buttonName)?.customerBank || null;
    return this._view('pay', ({ view }) =>
      view({
        m,
        lang: this._lang,
        order,
        deviceExpiry: Date.parse(order.expires_at) - serverNow(this._s.sync, clock.mono(), clock.now()) + clock.now(),
        phone: platform !== 'desktop',
        apps: this._banks?.bankLinks(order, platform, preferred) ?? null,
        copied: this._copied,
        bankName: (b) => this._bankName(b),
        nameOf: (n) => this._nameOf(n),
        copy: (id, label, text) => void this._copy(id, label, text),
        paid: () => this._send({ type: 'paidPressed' }),
      }),
    );
  }

  private _footer(): TemplateResult | typeof nothing {
    const s = this._s;
    const support = safeHttpUrl(s.order?.support_url);
    const back = isOrderOpen(s) ? safeHttpUrl(s.order?.return_url) : null;
    return support || back
      ? html`<footer part="footer">${support ? html`<a href=${support} target="_blank" rel="noopener noreferrer">${this._m.support}</a>` : nothing}${
          back ? html`<a href=${back}>${this._m.returnToShop}</a>` : nothing
        }</footer>`
      : nothing;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'paydesk-checkout': PaydeskCheckout;
  }
}
