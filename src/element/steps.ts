/**
 * The steps controller: the inside of `<paydesk-checkout>`, which the element only renders and wires.
 * It holds the machine's state and runs its effects (requests and storage through session.ts, events
 * on the element, the `result` promise), the language (language.ts), and the code of the steps that
 * is loaded with `import()` when a step comes near: the views and their styles, the live status and
 * the clock (live.ts), the bank sheet, the receipt upload, the form frame and the QR encoder. It is
 * the host every controller and view gets (hosts.ts), so none of them reaches into the element.
 */
import { adoptStyles, type CSSResult, type LitElement, type ReactiveController } from 'lit';
import type { OrderView } from '../protocol/index.js';
import type { Api } from './api.js';
import { withDefaults, type CheckoutEnv } from './env.js';
import { emit } from './events.js';
import type { CheckoutElement, ViewHost } from './hosts.js';
import type { Messages } from './i18n/index.js';
import { LanguageController } from './language.js';
import { LazyController, type Loaded } from './lazy.js';
import { initialState, type Effect, type MachineEvent } from './machine.js';
import { transition } from './transition.js';
import { actions, button, failed, waiting } from './parts.js';
import { SessionController } from './session.js';
import { safeHttpUrl } from '../protocol/url.js';

/**
 * The code the element loads with `import()` when a step comes near, so its own module carries only
 * the steps around them: the views (method choice, requisites, closed order), the live status, the
 * bank sheet, the receipt upload, the form frame messaging, the QR encoder and the copy buttons' work.
 */
const LOADERS = {
  choose: () => import('./choose-view.js'),
  pay: () => import('./pay-step.js'),
  closed: () => import('./closed-view.js'),
  live: () => import('./live.js'),
  banks: () => import('./banks.js'),
  receipt: () => import('./receipt.js'),
  frame: () => import('./frame.js'),
  qr: () => import('./qr.js'),
  copy: () => import('./copy.js'),
};
type Modules = Loaded<typeof LOADERS>;
type ViewName = 'choose' | 'pay' | 'closed' | 'receipt';

export class Steps implements ViewHost, ReactiveController {
  machine = initialState();
  /** Text of the polite live region. */
  said = '';
  copied = '';
  copyTimer: unknown;
  /** Work under way that the element's `updateComplete` waits for (code and tables loaded on demand). */
  loading?: Promise<unknown> | null;
  /** Resolves with the order when the server says it is paid (a new promise after `reset()`). */
  result!: Promise<OrderView>;
  private resolve!: (order: OrderView) => void;
  private envFor?: [Partial<CheckoutEnv>, CheckoutEnv];
  /** The styles of the views loaded so far (the rules they share once: views.ts `viewStyles`). */
  private readonly styles: CSSResult[] = [];

  readonly lang = new LanguageController(this);
  readonly req = new SessionController(this);
  readonly code = new LazyController(this, LOADERS, (name, module) => this.arrived(name, module));
  /** Controllers of the code loaded on demand, once it is there. */
  tick?: InstanceType<Modules['live']['TickController']>;
  live?: InstanceType<Modules['live']['LiveController']>;
  /** The bank sheet and the receipt upload, once opened (views.ts `open`). */
  sheet: InstanceType<Modules['banks']['BankSheetController']> | null = null;
  receipt: InstanceType<Modules['receipt']['ReceiptController']> | null = null;
  frame: InstanceType<Modules['frame']['FormFrameController']> | null = null;
  framed?: InstanceType<Modules['frame']['FramedController']>;

  constructor(readonly el: CheckoutElement) {
    el.addController(this);
    this.reset(true);
  }

  hostDisconnected(): void {
    this.env$.clock.clearTimeout(this.copyTimer);
  }

  /** After each render: a QR the pay view shows is drawn (pay-step.ts `painted`). */
  hostUpdated(): void {
    this.code.get('pay')?.painted(this);
  }

  get env$(): CheckoutEnv {
    const given = this.el.env;
    if (this.envFor?.[0] !== given) this.envFor = [given, withDefaults(given)];
    return this.envFor[1];
  }
  get m(): Messages {
    return this.lang.m;
  }
  get language(): string {
    return this.lang.lang;
  }
  /** Inside the provider's payment page in the shop's frame: the shop's element shows the links and redirects. */
  get embedded(): boolean {
    return this.framed?.embedded === true;
  }
  /** Where "paid" returns the shopper; none inside the payment page's frame (the page's element does it). */
  get redirectUrl(): string | null {
    return this.embedded ? null : safeHttpUrl(this.machine.order?.redirect_url);
  }
  get base(): string {
    return this.req.endpoint;
  }
  api(): Api {
    return this.req.api();
  }
  announce(text: string): void {
    this.said = text;
    this.el.requestUpdate();
  }
  recheck(): void {
    this.live?.check();
  }
  /** The element's `updateComplete` also waits for `work`. */
  wait(work: Promise<unknown>): void {
    const loading = (this.loading = Promise.all([this.loading, work]).then(() => {
      if (this.loading === loading) this.loading = null;
    }));
  }

  /** Feeds the machine an event and runs the effects. */
  send(event: MachineEvent): void {
    const { state, effects } = transition(this.machine, event);
    if (state !== this.machine) {
      this.machine = state;
      this.el.requestUpdate();
    }
    for (const fx of effects) this.run(fx);
    this.live?.sync();
    this.tick?.sync();
  }

  /** A new order: new requisites after an ended one, or a new payment after a lost session. */
  renew(): void {
    this.send({ type: 'renew', key: this.env$.newKey() });
  }

  /** Back to idle: closes the live status, forgets the stored session; a new `result` (only that at first). */
  reset(first?: boolean): void {
    if (!first) {
      this.req.cancel();
      this.sheet?.close();
      this.receipt?.close();
      this.send({ type: 'reset' });
    }
    this.result = new Promise((resolve) => (this.resolve = resolve));
  }

  private run(fx: Effect): void {
    if (this.req.run(fx)) return;
    const { name, session, order, error } = this.machine;
    const el = this.el;
    if (fx.type === 'check') return this.live?.check();
    if (fx.type !== 'emit') return;
    // Paid resolves `result`, also when a reload resumes the order with `paydesk-paid` said already.
    if (name === 'paid') this.resolve(order!);
    if (fx.event === 'status') emit(el, 'paydesk-status', { state: name, status: order?.status ?? null, order });
    else if (fx.event === 'error') error && emit(el, 'paydesk-error', { ...error });
    else if (fx.event === 'session') session && order && emit(el, 'paydesk-session', { session, order });
    else if (order) emit(el, `paydesk-${fx.event}`, { order });
  }

  /**
   * Before each render: the language of now, and the code of the steps that come near, loaded in
   * parallel with the request that leads to them: the method choice while the methods are fetched;
   * the pay view while the order is being created, and the live status and the closed view once that
   * code is there (the first paint of the requisites waits for the pay view and the order, and they
   * would share its bandwidth); all three while an order is resumed (it may have ended); the framed
   * side of form mode at once inside a frame.
   */
  refresh(): void {
    this.lang.refresh();
    const { name, op, order } = this.machine;
    const code = this.code;
    const win = globalThis.window;
    if (!this.framed && win && win.parent !== win) code.load('frame');
    if (name === 'choose' || (name === 'loading' && op === 'methods')) code.load('choose');
    const resuming = name === 'loading' && op === 'resume';
    if (!resuming && name !== 'searching' && !order) return;
    code.load('pay');
    // load() has run: the pay view is under way, there, or failed.
    if (resuming || code.state('pay') !== 'pending') {
      code.load('live');
      code.load('closed');
      code.load('copy');
    }
    if (this.el.mode === 'form') code.load('frame');
  }

  /** A module arrived: its styles join the element's; its controller is made. */
  private arrived<K extends keyof Modules>(_name: K, module: Modules[K]): void {
    if ('styles' in module) {
      // Added to the element's own styles (a subclass's included): static styles cannot wait for a chunk.
      for (const sheet of module.styles) if (!this.styles.includes(sheet)) this.styles.push(sheet);
      const root = this.el.shadowRoot;
      if (root) adoptStyles(root, [...(this.el.constructor as typeof LitElement).elementStyles, ...this.styles]);
    }
    // The live status and the clock, the form frame: their modules make their controllers (`attach`).
    (module as { attach?: (host: Steps) => void }).attach?.(this);
  }

  /**
   * A loaded view (its module's `view(host)`) with its text; a spinner while either loads; a network error with "try again" when
   * the view or the language table failed to load.
   */
  view(name: ViewName): unknown {
    const view = this.code.get(name);
    const lang = this.lang;
    this.code.load(name);
    if (view && lang.ready) return view.view(this);
    if (this.code.state(name) !== 'error' && !lang.broken) return waiting;
    const retry = () => {
      this.code.retry(name);
      lang.retry();
      this.el.requestUpdate();
    };
    return [failed(this.m.errors.network), actions(button(this.m.retry, retry))];
  }
}
