import { fixture, html, waitUntil } from '@open-wc/testing';
import '../../../src/index.js';
import type { PaydeskCheckout, CheckoutEnv } from '../../../src/element/index.js';
import type { PaydeskEventName } from '../../../src/element/events.js';
import { FakeClock } from './fake-clock.js';
import { FakeEndpoint, FakePage, MemoryStorage } from './fake-endpoint.js';

export interface Harness {
  el: PaydeskCheckout;
  server: FakeEndpoint;
  clock: FakeClock;
  storage: MemoryStorage;
  /** The tab's own storage (its `sessionStorage`): a fresh one per mount unless given. */
  tabStorage: MemoryStorage;
  page: FakePage;
  navigations: string[];
  copies: string[];
  /** Every paydesk-* event the element fired, in order. */
  events: CustomEvent[];
  of(name: PaydeskEventName): CustomEvent[];
  /** The element's shadow root. */
  root: ShadowRoot;
  /** Waits for a state. */
  until(state: PaydeskCheckout['state']): Promise<void>;
  /** Moves the fake clock and lets the element re-render. */
  advance(ms: number): Promise<void>;
  text(): string;
}

const EVENTS: PaydeskEventName[] = [
  'paydesk-ready',
  'paydesk-session',
  'paydesk-status',
  'paydesk-paid',
  'paydesk-expired',
  'paydesk-error',
  'paydesk-redirect',
  'paydesk-method',
  'paydesk-copy',
  'paydesk-bank-app',
  'paydesk-receipt',
];

export interface MountOptions {
  server?: FakeEndpoint;
  clock?: FakeClock;
  storage?: MemoryStorage;
  /** The tab's own storage; a mount is a new tab unless it is given (a reload of that tab). */
  tabStorage?: MemoryStorage;
  env?: Partial<CheckoutEnv>;
  /** Parent to put the element in (default: a fresh fixture). */
  into?: HTMLElement | ShadowRoot;
  /** Copy through the browser's own clipboard (the element's default `copy`), not into `copies`. */
  browserClipboard?: boolean;
  /** Called with the element before it is connected (to watch its first renders). */
  onCreate?(el: PaydeskCheckout): void;
}

let keys = 0;

/**
 * The browser's Web Locks with names scoped to this test page. Test files run side by side in pages
 * of one origin, which share their locks: unscoped, a widget of one file would join another file's
 * attempt (claim.ts reads the attempts under way from the held locks' names).
 */
const scope = `page-${Math.random().toString(36).slice(2)}:`;
export const pageLocks: NonNullable<CheckoutEnv['locks']> = {
  request: <T>(name: string, callback: () => T | Promise<T>) => navigator.locks.request(scope + name, () => callback()) as Promise<T>,
  query: async () => {
    const { held = [] } = await navigator.locks.query();
    return { held: held.filter((l) => l.name?.startsWith(scope)).map((l) => ({ ...l, name: l.name!.slice(scope.length) })) };
  },
};

export async function mount(props: Partial<PaydeskCheckout> = {}, options: MountOptions = {}): Promise<Harness> {
  const clock = options.clock ?? new FakeClock();
  const server = options.server ?? new FakeEndpoint();
  if (!options.server) server.serverNow = () => clock.now();
  const storage = options.storage ?? new MemoryStorage();
  const tabStorage = options.tabStorage ?? new MemoryStorage();
  const page = new FakePage();
  const navigations: string[] = [];
  const copies: string[] = [];
  const events: CustomEvent[] = [];
  const el = document.createElement('paydesk-checkout');
  el.env = {
    clock,
    fetch: server.fetch,
    EventSource: server.EventSource,
    XMLHttpRequest: server.XMLHttpRequest,
    storage,
    tabStorage,
    navigate: (url) => navigations.push(url),
    copy: async (text) => void copies.push(text),
    platform: 'desktop',
    newKey: () => `key-${++keys}`,
    locks: pageLocks,
    document: page,
    window: page,
    ...options.env,
  };
  if (options.browserClipboard) delete el.env.copy;
  Object.assign(el, { endpoint: '/api/paydesk', orderRef: 'sku-1', locale: 'en', ...props });
  for (const name of EVENTS) el.addEventListener(name, (e) => events.push(e as CustomEvent));
  options.onCreate?.(el);
  if (options.into) {
    options.into.appendChild(el);
  } else {
    await fixture(html`${el}`);
  }
  await el.updateComplete;
  const h: Harness = {
    el,
    server,
    clock,
    storage,
    tabStorage,
    page,
    navigations,
    copies,
    events,
    of: (name) => events.filter((e) => e.type === name),
    get root() {
      return el.shadowRoot!;
    },
    until: async (state) => {
      await waitUntil(() => el.state === state, `state ${state} (now ${el.state})`, { timeout: 4000 });
      await el.updateComplete;
    },
    advance: async (ms) => {
      clock.advance(ms);
      await el.updateComplete;
    },
    text: () => norm(el.shadowRoot!.textContent ?? ''),
  };
  return h;
}

/** Finds a button or link in the shadow root by its visible text. */
export function byText<T extends HTMLElement = HTMLElement>(root: ShadowRoot, text: string | RegExp, selector = 'button, a'): T {
  const found = [...root.querySelectorAll<T>(selector)].find((n) =>
    typeof text === 'string' ? (n.textContent ?? '').includes(text) : text.test(n.textContent ?? ''),
  );
  if (!found) throw new Error(`no ${selector} with text ${String(text)}`);
  return found;
}

/** Lets pending promise callbacks (fetch answers) run. */
export async function settle(el: PaydeskCheckout): Promise<void> {
  for (let i = 0; i < 5; i++) await new Promise((r) => setTimeout(r, 0));
  await el.updateComplete;
}

/** Text with every run of white space (NBSP and narrow NBSP from Intl included) as one space. */
export function norm(text: string): string {
  return text.replace(/[\s\u00a0\u202f]+/g, ' ').trim();
}
