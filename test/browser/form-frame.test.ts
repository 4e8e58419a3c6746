/**
 * Form mode across a frame: the provider's page (the same widget) in an iframe, sized to its content
 * by the height it posts, themed like the widget, with one set of links (the shop's element has them);
 * messages from anywhere but the frame and the form URL's origin are ignored.
 */
import { expect, waitUntil } from '@open-wc/testing';
import { byText, mount, type Harness } from './helpers/mount.js';
import { FakeEndpoint } from './helpers/fake-endpoint.js';
import { orderView } from './helpers/orders.js';
import { formatMoney } from '../../src/money/index.js';
import type { PaydeskCheckout } from '../../src/element/index.js';

type FormWindow = Window & { paydeskReady?: boolean; navigatedTo?: string };

async function formMode(query = ''): Promise<{ h: Harness; frame: HTMLIFrameElement; inner: () => PaydeskCheckout | null }> {
  const ns = `form-${Math.random().toString(36).slice(2)}`;
  const server = new FakeEndpoint();
  server.makeOrder = (_b, n) =>
    orderView({ id: `ord-${n}`, requisites: null, payment_link: null, form_url: `${location.origin}/test/browser/fixtures/form.html?ns=${ns}&ref=sku-form${query}` }, Date.now());
  const h = await mount({ mode: 'form', theme: 'dark' }, { server });
  await h.until('pay');
  const frame = h.root.querySelector('iframe')!;
  const win = () => frame.contentWindow as FormWindow | null;
  await waitUntil(() => win()?.paydeskReady, 'the payment page loaded', { timeout: 8000 });
  const inner = () => win()?.document.querySelector('paydesk-checkout') as PaydeskCheckout | null;
  await waitUntil(() => inner()?.state === 'pay', 'the page shows its requisites', { timeout: 8000 });
  return { h, frame, inner };
}

describe('form mode: the payment page in a frame', () => {
  it('the frame takes the height the page reports, and follows it', async () => {
    const { h, frame, inner } = await formMode();
    const el = inner()!;
    // The page reports a height after each of its renders: the one of its requisites may still be on
    // its way (an earlier, smaller one already set), so wait for the frame to fit what is on screen.
    const content = () => Math.ceil(el.getBoundingClientRect().bottom);
    const fits = () => frame.hasAttribute('height') && Number(frame.getAttribute('height')) >= content() && Number(frame.getAttribute('height')) <= content() + 40;
    await waitUntil(fits, 'the frame takes the height of the page\'s content', { timeout: 6000 });
    expect(frame.getBoundingClientRect().height).to.equal(Number(frame.getAttribute('height')), 'the CSS default no longer applies');
    expect(frame.contentDocument!.documentElement.scrollHeight).to.be.at.most(Number(frame.getAttribute('height')) + 1, 'no scrolling inside the frame');
    const before = Number(frame.getAttribute('height'));
    byText(el.shadowRoot!, 'I have paid').click();
    await waitUntil(() => Number(frame.getAttribute('height')) !== before, 'a new height for the new step', { timeout: 6000 });
    h.el.remove();
  });

  it('one set of links: the page leaves support, back to the shop and "open the payment page" to the shop’s element', async () => {
    const { h, inner } = await formMode();
    await waitUntil(() => !inner()!.shadowRoot!.querySelector('footer'), 'the page dropped its footer', { timeout: 6000 });
    const page = inner()!.shadowRoot!;
    expect(page.querySelector('footer')).to.equal(null);
    expect([...page.querySelectorAll('a')].filter((a) => /payment page/i.test(a.textContent!))).to.have.length(0);
    expect(byText(h.root, 'Support')).to.exist;
    expect(byText(h.root, 'Back to the shop')).to.exist;
    expect(h.root.querySelectorAll('footer')).to.have.length(1);
    h.el.remove();
  });

  it('one amount: the page inside the frame shows what to pay, the shop’s element around it shows no amount of its own', async () => {
    const { h, inner } = await formMode();
    const order = h.el.order!;
    const amount = formatMoney(order.amount, order.currency, 'en');
    await waitUntil(() => inner()!.shadowRoot!.textContent!.includes(amount), `the page shows ${amount}`, { timeout: 6000 });
    expect(h.root.textContent).to.not.include(amount, 'the shop’s element repeats no amount');
    h.el.remove();
  });

  it('the page is themed like the widget and speaks its language (theme and lang on form_url)', async () => {
    const { h, frame, inner } = await formMode();
    const url = new URL(frame.src);
    expect(url.searchParams.get('theme')).to.equal('dark');
    expect(url.searchParams.get('lang')).to.equal('en');
    expect(inner()!.getAttribute('theme')).to.equal('dark', 'the page (like the sandbox\'s) gives it to its widget');
    expect(getComputedStyle(inner()!).colorScheme).to.equal('dark');
    h.el.remove();
  });

  it('ignores height messages from another origin or another window, and malformed ones', async () => {
    const { h, frame } = await formMode();
    await waitUntil(() => frame.hasAttribute('height'), 'a height from the page', { timeout: 6000 });
    const height = frame.getAttribute('height');
    const send = (data: unknown, origin: string, source: MessageEventSource | null) => window.dispatchEvent(new MessageEvent('message', { data, origin, source }));
    send({ paydesk: 'height', height: 5000 }, 'https://evil.example', frame.contentWindow);
    send({ paydesk: 'height', height: 5000 }, location.origin, window);
    send({ paydesk: 'height', height: 5000 }, location.origin, null);
    send({ paydesk: 'height', height: '5000' }, location.origin, frame.contentWindow);
    send({ paydesk: 'height', height: 1e9 }, location.origin, frame.contentWindow);
    await h.el.updateComplete;
    expect(frame.getAttribute('height')).to.equal(height);
    send({ paydesk: 'height', height: 700 }, location.origin, frame.contentWindow);
    await h.el.updateComplete;
    expect(frame.getAttribute('height')).to.equal('700', 'the well-formed message from the frame is taken');
    h.el.remove();
  });

  it('paid: the shop’s element returns the shopper, never the framed page', async () => {
    const { h, frame, inner } = await formMode();
    const ns = new URL(frame.src).searchParams.get('ns')!;
    const session = JSON.parse(frame.contentWindow!.localStorage.getItem(`paydesk:v2:/fake-api/${ns}|sku-form`)!).session as string;
    await waitUntil(async () => ((await (await fetch(`/fake-api/${ns}/__streams/${session}`)).json()) as { open: number }).open > 0, 'stream', { timeout: 6000 });
    await waitUntil(() => !inner()!.shadowRoot!.querySelector('footer'), 'embedded', { timeout: 6000 });
    await fetch(`/fake-api/${ns}/__complete/${session}`, { method: 'POST' });
    await waitUntil(() => inner()!.state === 'paid', 'the page sees the payment', { timeout: 6000 });
    await inner()!.updateComplete;
    expect(inner()!.shadowRoot!.textContent).not.to.include('Returning to the shop');
    await new Promise((r) => setTimeout(r, 50));
    expect((frame.contentWindow as FormWindow).navigatedTo).to.equal(undefined);
    h.el.remove();
  });
});
