/**
 * `paydesk/react` (src/react) rendered by React 19 in Chromium: properties arrive as properties,
 * plain attributes as attributes, and the element's DOM events reach the typed `onPaydesk…` props.
 * The element talks to the in-page fake endpoint of the element tests. Written without JSX.
 */
import { expect, waitUntil } from '@open-wc/testing';
import type { PaydeskCheckout as CheckoutElement } from '../../src/element/index.js';
import type { PaydeskCheckoutProps } from '../../src/react/index.js';
import { FakeEndpoint, FakePage, MemoryStorage } from './helpers/fake-endpoint.js';

// React's CommonJS entry reads process.env.NODE_ENV, which a bundler would replace.
(globalThis as { process?: unknown }).process ??= { env: { NODE_ENV: 'production' } };

type ReactModule = typeof import('react');
type ReactDomClient = typeof import('react-dom/client');
type ReactDom = typeof import('react-dom');
type Wrapper = typeof import('../../src/react/index.js');

/** Generous: the machine running the tests may be busy; waitUntil returns as soon as the condition holds. */
const WAIT = { timeout: 8000 };

let React: ReactModule;
let ReactDOM: ReactDomClient;
let ReactDOMSync: ReactDom;
let wrapper: Wrapper;

function commonJsDefault<T>(mod: T | { default: T }): T {
  return (mod as { default?: T }).default ?? (mod as T);
}

describe('paydesk/react', () => {
  before(async () => {
    React = commonJsDefault(await import('react'));
    ReactDOM = commonJsDefault(await import('react-dom/client'));
    ReactDOMSync = commonJsDefault(await import('react-dom'));
    wrapper = await import('../../src/react/index.js');
  });

  let container: HTMLElement;
  let root: import('react-dom/client').Root;
  let server: FakeEndpoint;

  beforeEach(() => {
    container = document.createElement('div');
    document.body.append(container);
    root = ReactDOM.createRoot(container);
    server = new FakeEndpoint();
  });
  afterEach(() => {
    root.unmount();
    container.remove();
  });

  const env = () => ({
    fetch: server.fetch,
    EventSource: server.EventSource,
    storage: new MemoryStorage(),
    tabStorage: new MemoryStorage(),
    navigate: () => {},
    platform: 'desktop' as const,
    newKey: () => `key-${Math.random()}`,
    // A visible page of its own: the test tab itself may be in the background.
    document: new FakePage(),
    window: new FakePage(),
  });

  /** Renders and commits synchronously (layout effects included, where @lit/react sets properties and listeners). */
  function render(props: PaydeskCheckoutProps & { id?: string; className?: string }): void {
    ReactDOMSync.flushSync(() => root.render(React.createElement(wrapper.PaydeskCheckout, props)));
  }

  const element = () => container.querySelector('paydesk-checkout') as CheckoutElement | null;
  const heading = () => element()?.shadowRoot?.querySelector('[part~="heading"]')?.textContent?.trim() ?? '';

  it('renders <paydesk-checkout>: attributes as attributes, properties (objects too) as properties', async () => {
    render({
      id: 'checkout',
      className: 'shop-checkout',
      endpoint: '/api/paydesk',
      orderRef: 'sku-1',
      methodType: 'SBP',
      locale: 'en',
      env: env(),
      messages: { payTitle: 'Pay from React' },
    });
    await waitUntil(() => element()?.state === 'pay', 'the element reaches the requisites', WAIT);
    const el = element()!;
    expect(el).to.be.instanceOf(customElements.get('paydesk-checkout')!);
    expect(el.getAttribute('id')).to.equal('checkout');
    expect(el.getAttribute('class')).to.equal('shop-checkout');
    expect(el.orderRef).to.equal('sku-1');
    expect(el.messages).to.deep.equal({ payTitle: 'Pay from React' });
    // The state changes before Lit's next render paints it.
    await waitUntil(() => heading() === 'Pay from React', 'the merchant message is the heading', WAIT);
    expect(server.last('create')!.body).to.deep.include({ order_ref: 'sku-1', method_type: 'SBP' });
  });

  it('calls the onPaydesk… props with the typed event details', async () => {
    const seen: string[] = [];
    let paidId = '';
    render({
      endpoint: '/api/paydesk',
      orderRef: 'sku-1',
      methodType: 'SBP',
      locale: 'en',
      env: env(),
      onPaydeskSession: (e) => seen.push(`session ${e.detail.session} ${e.detail.order.id}`),
      onPaydeskStatus: (e) => seen.push(`status ${e.detail.state}`),
      onPaydeskPaid: (e) => {
        paidId = e.detail.order.id;
        seen.push('paid');
      },
    });
    await waitUntil(() => element()?.state === 'pay', 'the element reaches the requisites', WAIT);
    expect(seen).to.include(`session ${server.session} ${server.sessions.get(server.session)!.id}`);
    expect(seen).to.include('status pay');
    await waitUntil(() => server.openStreams.length > 0, 'the element follows the order', WAIT);
    server.update(server.session, { status: 'paid', provider_status: 'Completed' });
    await waitUntil(() => seen.includes('paid'), 'onPaydeskPaid was called', WAIT);
    expect(paidId).to.equal(server.sessions.get(server.session)!.id);
  });

  it('a re-render with a new handler replaces the old one', async () => {
    const first: string[] = [];
    const second: string[] = [];
    const props = { endpoint: '/api/paydesk', orderRef: 'sku-1', methodType: 'SBP' as const, locale: 'en' as const, env: env() };
    render({ ...props, onPaydeskPaid: () => first.push('paid') });
    await waitUntil(() => element()?.state === 'pay' && server.openStreams.length > 0, 'the element follows the order', WAIT);
    const el = element();
    render({ ...props, onPaydeskPaid: () => second.push('paid') });
    expect(element()).to.equal(el, 'the same element stays');
    server.update(server.session, { status: 'paid', provider_status: 'Completed' });
    await waitUntil(() => second.length === 1, 'the new handler was called', WAIT);
    expect(first).to.deep.equal([]);
  });

  it('unmounting removes the element', async () => {
    render({ endpoint: '/api/paydesk', orderRef: 'sku-1', locale: 'en', env: env() });
    await waitUntil(() => element() !== null, 'the element is rendered', WAIT);
    root.unmount();
    expect(element()).to.equal(null);
    root = ReactDOM.createRoot(container); // afterEach unmounts again
  });
});
