import { expect, waitUntil } from '@open-wc/testing';
import { byText, mount, norm, settle } from './helpers/mount.js';
import { FakeEndpoint, MemoryStorage } from './helpers/fake-endpoint.js';
import { FakeClock } from './helpers/fake-clock.js';
import { METHODS, orderView } from './helpers/orders.js';

describe('<paydesk-checkout> flow', () => {
  it('shows the ways to pay (the amount once, a fee only where there is one), creates a session for the chosen one and shows the requisites', async () => {
    const h = await mount();
    await h.until('choose');
    expect(h.server.last('methods')!.query.get('order_ref')).to.equal('sku-1');
    expect(h.root.querySelector('.to-pay .muted')!.textContent).to.equal('To pay');
    expect(norm(h.root.querySelector('.to-pay .amount')!.textContent!)).to.equal('RUB 1,500.00');
    const methods = h.root.querySelectorAll('[part="method"]');
    expect(methods.length).to.equal(2);
    expect(norm((methods[0] as HTMLElement).innerText)).to.equal('SBP (Faster Payments) In your bank app, by phone number or QR code Fee RUB 22.50, RUB 1,522.50 in all');
    expect(norm((methods[1] as HTMLElement).innerText)).to.equal('Card transfer To a card number, from any bank');
    expect(h.text()).not.to.include('no fee');
    (methods[0] as HTMLButtonElement).click();
    await h.until('pay');
    const create = h.server.last('create')!;
    expect(create.body).to.deep.equal({ order_ref: 'sku-1', payment_method_id: 'm-sbp' });
    expect(create.headers.get('X-Paydesk')).to.equal('1');
    expect(create.headers.get('Idempotency-Key')).to.match(/^key-/);
    expect(norm(h.root.querySelector('[part="amount"]')!.textContent!)).to.include('RUB 1,500.00');
    expect(h.text()).to.include('+7 (999) 123-45-67');
    expect(h.text()).to.include('Иванов Иван Иванович');
    expect(h.text()).to.include('Sber');
    expect(h.of('paydesk-session')[0]!.detail.session).to.equal('sess-1');
    expect(h.of('paydesk-session')[0]!.detail.order.id).to.equal('ord-1');
  });

  it('skips the choice when a payment method is preselected', async () => {
    const h = await mount({ paymentMethodId: 'm-card' });
    await h.until('pay');
    expect(h.server.count('methods')).to.equal(0);
    expect(h.server.last('create')!.body).to.deep.equal({ order_ref: 'sku-1', payment_method_id: 'm-card' });
  });

  it('sends method type with the bank code, the button name and the mode as preselected', async () => {
    const h = await mount({ methodType: 'SBP', bank: 'tinkoff', buttonName: 'TPay', mode: 'order_with_form' });
    await h.until('pay');
    expect(h.server.last('create')!.body).to.deep.equal({
      order_ref: 'sku-1',
      method_type: 'SBP',
      nspk_code: 'bank100000000004',
      button_name: 'TPay',
      customer_bank: 'tinkoff',
      mode: 'order_with_form',
    });
  });

  it('chooses by itself when only one method is offered, and a bank limits the offer', async () => {
    const h = await mount({ bank: 'sberbank' });
    await h.until('pay');
    expect(h.server.last('create')!.body).to.deep.equal({ order_ref: 'sku-1', payment_method_id: 'm-card' });
  });

  it('shows the searching step while the requisites are being found', async () => {
    const server = new FakeEndpoint();
    const release = server.hold('create');
    const h = await mount({ paymentMethodId: 'm-sbp' }, { server });
    await h.until('searching');
    expect(h.root.querySelector('h2')!.textContent).to.equal('Finding payment details');
    expect(h.root.querySelector('[part="base"]')!.getAttribute('aria-busy')).to.equal('true');
    release();
    await h.until('pay');
    expect(h.root.querySelector('[part="base"]')!.getAttribute('aria-busy')).to.equal('false');
  });

  it('"I have paid" moves to confirming without claiming the payment', async () => {
    const h = await mount({ paymentMethodId: 'm-sbp' });
    await h.until('pay');
    byText(h.root, 'I have paid').click();
    await h.until('confirming');
    expect(h.root.querySelector('h2')!.textContent).to.equal('Checking your payment');
    expect(h.of('paydesk-paid')).to.have.length(0);
    await waitUntil(() => h.server.count('session') === 1, 'asks the server at once');
    expect(h.server.last('session')!.query.get('refresh')).to.equal('1');
  });

  it('shows paid when the server says so, fires paydesk-paid once, counts 5 seconds down and redirects', async () => {
    const h = await mount({ paymentMethodId: 'm-sbp' });
    await h.until('pay');
    h.server.update(h.server.session, { status: 'paid', provider_status: 'Completed' });
    await h.until('paid');
    expect(h.of('paydesk-paid')).to.have.length(1);
    expect(h.of('paydesk-paid')[0]!.detail.order.status).to.equal('paid');
    expect(h.text()).to.include('Returning to the shop in 5 seconds');
    await h.advance(1000);
    expect(h.text()).to.include('Returning to the shop in 4 seconds');
    await h.advance(3000);
    expect(h.text()).to.include('in 1 second');
    expect(h.navigations).to.deep.equal([]);
    await h.advance(1000);
    expect(h.of('paydesk-redirect')).to.have.length(1);
    expect(h.of('paydesk-redirect')[0]!.detail.url).to.equal('https://shop.example/thanks');
    expect(h.navigations).to.deep.equal(['https://shop.example/thanks']);
    expect(h.clock.pending).to.equal(0);
    expect(byText(h.root, 'Return now').getAttribute('href')).to.equal('https://shop.example/thanks');
  });

  it('keeps the shopper on the page when paydesk-redirect is cancelled', async () => {
    const h = await mount({ paymentMethodId: 'm-sbp' });
    h.el.addEventListener('paydesk-redirect', (e) => e.preventDefault());
    await h.until('pay');
    h.server.update(h.server.session, { status: 'paid', provider_status: 'Completed' });
    await h.until('paid');
    await h.advance(6000);
    expect(h.of('paydesk-redirect')).to.have.length(1);
    expect(h.navigations).to.deep.equal([]);
  });

  it('el.result resolves with the paid order', async () => {
    const h = await mount({ paymentMethodId: 'm-sbp' });
    await h.until('pay');
    h.server.update(h.server.session, { status: 'paid', provider_status: 'Completed' });
    const order = await h.el.result;
    expect(order.status).to.equal('paid');
    expect(order.id).to.equal('ord-1');
  });

  it('shows expired from the server and gets new requisites with a new key and the same method', async () => {
    const h = await mount({ paymentMethodId: 'm-sbp' });
    await h.until('pay');
    const firstKey = h.server.last('create')!.headers.get('Idempotency-Key');
    h.server.update(h.server.session, { status: 'expired', provider_status: 'CanceledByTimeout' });
    await h.until('expired');
    expect(h.of('paydesk-expired')).to.have.length(1);
    expect(h.text()).to.include('Do not send money');
    expect(h.root.querySelector('[part="requisites"]')).to.equal(null);
    byText(h.root, 'Get new payment details').click();
    await h.until('pay');
    expect(h.server.count('create')).to.equal(2);
    expect(h.server.last('create')!.headers.get('Idempotency-Key')).not.to.equal(firstKey);
    expect(h.server.last('create')!.body).to.deep.equal({ order_ref: 'sku-1', payment_method_id: 'm-sbp' });
    expect(h.el.order!.id).to.equal('ord-2');
  });

  it('shows cancelled when the service cancels the order', async () => {
    const h = await mount({ paymentMethodId: 'm-sbp' });
    await h.until('pay');
    h.server.update(h.server.session, { status: 'cancelled', provider_status: 'CanceledByService' });
    await h.until('cancelled');
    expect(h.root.querySelector('h2')!.textContent).to.equal('Payment cancelled');
    expect(h.text()).to.include('contact support');
  });

  it('shows the server error by its code and retries the create with the same idempotency key', async () => {
    const server = new FakeEndpoint();
    server.failNext('create', { status: 500, body: { error: { code: 'no_traders', message: 'No available traders…', retryable: true } } });
    const h = await mount({ paymentMethodId: 'm-sbp' }, { server });
    await h.until('error');
    expect(h.text()).to.include('No payment details are available right now');
    expect(h.of('paydesk-error')[0]!.detail).to.deep.equal({ code: 'no_traders', message: 'No available traders…', retryable: true });
    const key = server.last('create')!.headers.get('Idempotency-Key');
    byText(h.root, 'Try again').click();
    await h.until('pay');
    expect(server.count('create')).to.equal(2);
    expect(server.last('create')!.headers.get('Idempotency-Key')).to.equal(key);
  });

  it('a create lost on the network and retried makes one order, not two', async () => {
    const server = new FakeEndpoint();
    // The server created the order but the answer never arrived.
    const realFetch = server.fetch;
    let dropped = false;
    const h = await mount(
      { paymentMethodId: 'm-sbp' },
      {
        server,
        env: {
          fetch: async (input, init) => {
            const res = await realFetch(input, init);
            if (!dropped && init?.method === 'POST') {
              dropped = true;
              throw new TypeError('Failed to fetch');
            }
            return res;
          },
        },
      },
    );
    await h.until('error');
    expect(h.text()).to.include('No connection');
    byText(h.root, 'Try again').click();
    await h.until('pay');
    expect(server.count('create')).to.equal(2);
    expect(server.sessions.size).to.equal(1);
  });

  it('a refused create offers another method instead of a retry', async () => {
    const server = new FakeEndpoint();
    server.failNext('create', { status: 409, body: { error: { code: 'amount_out_of_limits', message: 'limits', retryable: false } } });
    const h = await mount({ paymentMethodId: 'm-sbp' }, { server });
    await h.until('error');
    expect(h.text()).to.include('cannot be paid with this method');
    expect(() => byText(h.root, 'Try again')).to.throw();
    byText(h.root, 'Continue to payment').click();
    await h.until('choose');
  });

  it('never shows the server\'s message (it is for developers): an unknown code reads as an internal error', async () => {
    const server = new FakeEndpoint();
    server.failNext('methods', { status: 400, body: { error: { code: 'shop_closed', message: 'The shop is closed tonight.', retryable: false } } });
    const h = await mount({}, { server });
    await h.until('error');
    expect(h.text()).not.to.include('The shop is closed tonight.');
    expect(h.text()).to.include('Something went wrong on our side. Please try again in a minute.');
    expect(h.of('paydesk-error')[0]!.detail.message).to.equal('The shop is closed tonight.', 'the event keeps it for developers');
  });

  it('an unknown order ref is a final error with the support link: no retry loop', async () => {
    const server = new FakeEndpoint();
    server.failNext('methods', { status: 404, body: { error: { code: 'order_not_found', message: 'no such order', retryable: false } } });
    const h = await mount({ supportUrl: 'https://shop.example/help' }, { server });
    await h.until('error');
    expect(h.text()).to.include('This order was not found. Go back to the shop and start the purchase again.');
    expect(h.root.querySelectorAll('button').length).to.equal(0, 'no "try again", no "continue to payment"');
    expect(byText(h.root, 'Support').getAttribute('href')).to.equal('https://shop.example/help');
    expect(server.count('methods')).to.equal(1);
  });

  it('a network failure of the methods is retried', async () => {
    const server = new FakeEndpoint();
    server.failNext('methods', 'network');
    const h = await mount({}, { server });
    await h.until('error');
    byText(h.root, 'Try again').click();
    await h.until('choose');
  });

  it('refuses a wrong configuration with a clear error', async () => {
    for (const [props, text] of [
      [{ bank: 'mybank' }, 'bank must be one of'],
      [{ mode: 'iframe' }, 'mode must be one of'],
      [{ buttonName: 'ApplePay' }, 'button-name must be one of'],
      [{ endpoint: 'javascript:alert(1)' }, 'endpoint must be'],
      [{ methodType: 'SBP', paymentMethodId: 'x' }, 'not both'],
    ] as const) {
      const h = await mount(props as unknown as Parameters<typeof mount>[0]);
      await h.until('error');
      expect(h.of('paydesk-error')[0]!.detail.code).to.equal('config');
      expect(h.of('paydesk-error')[0]!.detail.message).to.include(text);
      expect(h.server.requests).to.have.length(0);
      expect(h.text()).to.include('The checkout is not set up correctly.');
    }
  });

  it('waits in idle without an order ref, and starts when one is set', async () => {
    const h = await mount({ orderRef: '' });
    expect(h.el.state).to.equal('idle');
    expect(h.server.requests).to.have.length(0);
    h.el.orderRef = 'sku-late';
    await h.until('choose');
    expect(h.server.last('methods')!.query.get('order_ref')).to.equal('sku-late');
  });

  it('reset() closes everything and forgets the session; start() begins a new order', async () => {
    const h = await mount({ paymentMethodId: 'm-sbp' });
    await h.until('pay');
    await waitUntil(() => h.server.openStreams.length === 1);
    expect(h.storage.data.size).to.equal(1);
    h.el.reset();
    await h.el.updateComplete;
    expect(h.el.state).to.equal('idle');
    expect(h.server.openStreams).to.have.length(0);
    expect(h.storage.data.size).to.equal(0);
    expect(h.clock.pending).to.equal(0);
    byText(h.root, 'Continue to payment').click();
    await h.until('pay');
    expect(h.server.count('create')).to.equal(2);
  });

  it('a reload resumes the same session instead of creating a second order, and does not fire paid twice', async () => {
    const server = new FakeEndpoint();
    const storage = new MemoryStorage();
    const clock = new FakeClock();
    server.serverNow = () => clock.now();
    const first = await mount({ paymentMethodId: 'm-sbp' }, { server, storage, clock });
    await first.until('pay');
    first.el.remove();
    const second = await mount({ paymentMethodId: 'm-sbp' }, { server, storage, clock });
    await second.until('pay');
    expect(server.count('create')).to.equal(1);
    expect(server.last('session')!.query.get('refresh')).to.equal('1');
    expect(second.el.order!.id).to.equal(first.el.order!.id);
    server.update(server.session, { status: 'paid', provider_status: 'Completed' });
    await second.until('paid');
    expect(second.of('paydesk-paid')).to.have.length(1);
    second.el.remove();
    const third = await mount({ paymentMethodId: 'm-sbp' }, { server, storage, clock });
    await third.until('paid');
    expect(third.of('paydesk-paid')).to.have.length(0);
    expect(server.count('create')).to.equal(1);
    // Said once, but a page awaiting the element's result still gets the paid order.
    expect((await third.el.result).id).to.equal(first.el.order!.id);
  });

  it('resumes a session the merchant server created (session attribute, no order ref)', async () => {
    const server = new FakeEndpoint();
    server.sessions.set('merchant-made', orderView({ id: 'ord-m' }, Date.now()));
    const h = await mount({ orderRef: '', session: 'merchant-made' }, { server, clock: new FakeClock(Date.now()) });
    await h.until('pay');
    expect(h.el.order!.id).to.equal('ord-m');
    expect(server.count('create')).to.equal(0);
    expect(server.count('methods')).to.equal(0);
  });

  it('a session given by attribute (a server-rendered page) that is paid: paydesk-paid once, not again on each reload of the page', async () => {
    const server = new FakeEndpoint();
    const clock = new FakeClock(Date.now());
    const storage = new MemoryStorage();
    server.sessions.set('merchant-made', orderView({ id: 'ord-m' }, Date.now()));
    const first = await mount({ orderRef: '', session: 'merchant-made' }, { server, storage, clock });
    await first.until('pay');
    server.update('merchant-made', { status: 'paid', provider_status: 'Completed' });
    await first.until('paid');
    expect(first.of('paydesk-paid')).to.have.length(1);
    first.el.remove();
    // The page reloaded (same browser storage, a new tab storage): still paid, said once already.
    const reload = await mount({ orderRef: '', session: 'merchant-made' }, { server, storage, clock });
    await reload.until('paid');
    expect(reload.of('paydesk-paid')).to.have.length(0);
    reload.el.remove();
    // Another session on the same page address is another order: its payment is said.
    server.sessions.set('merchant-other', orderView({ id: 'ord-o', status: 'paid', provider_status: 'Completed' }, Date.now()));
    const other = await mount({ orderRef: '', session: 'merchant-other' }, { server, storage, clock });
    await other.until('paid');
    expect(other.of('paydesk-paid')).to.have.length(1);
  });

  it('form mode embeds the provider page and offers to open it', async () => {
    const server = new FakeEndpoint();
    server.makeOrder = (_b, n) => orderView({ id: `ord-${n}`, requisites: null, payment_link: null, form_url: 'https://pay.provider.example/pay?session_id=abc' }, Date.now());
    const h = await mount({ mode: 'form' }, { server, clock: new FakeClock(Date.now()) });
    await h.until('pay');
    expect(server.last('create')!.body).to.deep.equal({ order_ref: 'sku-1', mode: 'form' });
    const frame = h.root.querySelector('iframe')!;
    expect(frame.getAttribute('src')).to.equal('https://pay.provider.example/pay?session_id=abc&lang=en&theme=auto&embed=1');
    expect(frame.getAttribute('title')).to.equal('Payment page');
    expect(byText(h.root, 'Open the payment page').getAttribute('target')).to.equal('_blank');
    expect(byText(h.root, 'Open the payment page').getAttribute('href')).to.equal('https://pay.provider.example/pay?session_id=abc&lang=en&theme=auto', 'a tab of its own keeps the page\'s chrome');
  });

  it('form mode shows one heading and one countdown: the embedded page\'s (ours is for screen readers only)', async () => {
    const server = new FakeEndpoint();
    server.makeOrder = (_b, n) => orderView({ id: `ord-${n}`, requisites: null, payment_link: null, form_url: 'https://pay.provider.example/pay?session_id=abc' }, Date.now());
    const h = await mount({ mode: 'form' }, { server, clock: new FakeClock(Date.now()) });
    await h.until('pay');
    expect(h.root.querySelector('[part="countdown"]')).to.equal(null);
    const heading = h.root.querySelector('h2')!;
    expect(heading.textContent).to.equal('Make a transfer');
    expect(heading.getBoundingClientRect().height).to.be.at.most(1);
    const frame = h.root.querySelector('iframe')!;
    expect(frame.getBoundingClientRect().height).to.be.at.least(900);
    h.el.style.setProperty('--paydesk-form-height', '700px');
    expect(frame.getBoundingClientRect().height).to.equal(700);
  });

  it('form mode sends the element\'s language to the embedded page, unless form_url names one', async () => {
    const server = new FakeEndpoint();
    const urls = ['https://pay.provider.example/pay?session_id=abc', 'https://pay.provider.example/pay?session_id=abc&lang=kk', 'https://pay.provider.example/pay?session_id=def'];
    server.makeOrder = (_b, n) => orderView({ id: `ord-${n}`, requisites: null, payment_link: null, form_url: urls[n - 1] ?? null }, Date.now());
    const ru = await mount({ mode: 'form', locale: 'ru' }, { server, clock: new FakeClock(Date.now()) });
    await ru.until('pay');
    expect(ru.root.querySelector('iframe')!.getAttribute('src')).to.equal('https://pay.provider.example/pay?session_id=abc&lang=ru&theme=auto&embed=1');
    expect(ru.root.querySelector('[part="actions"] a')!.getAttribute('href')).to.equal('https://pay.provider.example/pay?session_id=abc&lang=ru&theme=auto');
    const kept = await mount({ mode: 'form', locale: 'ru', orderRef: 'sku-2' }, { server, clock: new FakeClock(Date.now()) });
    await kept.until('pay');
    expect(kept.root.querySelector('iframe')!.getAttribute('src')).to.equal('https://pay.provider.example/pay?session_id=abc&lang=kk&theme=auto&embed=1');
    const dark = await mount({ mode: 'form', theme: 'dark', orderRef: 'sku-3' }, { server, clock: new FakeClock(Date.now()) });
    await dark.until('pay');
    expect(new URL(dark.root.querySelector('iframe')!.src).searchParams.get('theme')).to.equal('dark', 'the page is themed like the widget');
  });

  it('statuses arrive in order as paydesk-status events', async () => {
    const h = await mount();
    await h.until('choose');
    (h.root.querySelector('[part="method"]') as HTMLButtonElement).click();
    await h.until('pay');
    h.server.update(h.server.session, { status: 'paid', provider_status: 'Completed' });
    await h.until('paid');
    expect(h.of('paydesk-status').map((e) => e.detail.state)).to.deep.equal(['loading', 'choose', 'searching', 'pay', 'paid']);
    expect(h.of('paydesk-status').at(-1)!.detail.status).to.equal('paid');
    expect(h.of('paydesk-ready')).to.have.length(1);
    await settle(h.el);
  });

  it('shows the return link while the order is open and the support link always', async () => {
    const h = await mount({ paymentMethodId: 'm-sbp' });
    await h.until('pay');
    expect(byText(h.root, 'Back to the shop').getAttribute('href')).to.equal('https://shop.example/cart');
    expect(byText(h.root, 'Support').getAttribute('href')).to.equal('https://shop.example/support');
    byText(h.root, 'I have paid').click();
    await h.until('confirming');
    expect(byText(h.root, 'Back to the shop')).to.exist;
    h.server.update(h.server.session, { status: 'paid', provider_status: 'Completed' });
    await h.until('paid');
    expect(() => byText(h.root, 'Back to the shop')).to.throw();
    expect(byText(h.root, 'Support')).to.exist;
  });

  it('copies the amount and the account with visible and screen-reader confirmation', async () => {
    const h = await mount({ paymentMethodId: 'm-sbp' });
    await h.until('pay');
    const buttons = h.root.querySelectorAll<HTMLButtonElement>('button.copy');
    buttons[0]!.click();
    await waitUntil(() => h.copies.length === 1);
    await h.el.updateComplete;
    expect(h.copies[0]).to.equal('1500.00');
    expect(buttons[0]!.textContent).to.include('Copied');
    expect(h.root.querySelector('[role="status"]')!.textContent).to.equal('Amount to send copied');
    buttons[1]!.click();
    await waitUntil(() => h.copies.length === 2);
    await h.el.updateComplete;
    expect(h.copies[1]).to.equal('+79991234567');
    expect(h.root.querySelector('[role="status"]')!.textContent).to.equal('Phone number copied');
    await h.advance(2000);
    expect(buttons[1]!.textContent).not.to.include('Copied');
  });

  it('tells the shopper when copying fails', async () => {
    const h = await mount({ paymentMethodId: 'm-sbp' }, { env: { copy: () => Promise.reject(new Error('denied')) } });
    await h.until('pay');
    h.root.querySelector<HTMLButtonElement>('button.copy')!.click();
    await waitUntil(() => h.root.querySelector('[role="status"]')!.textContent!.includes('Could not copy'));
  });

  it('warns that the amount must match exactly when unique_amount changed it', async () => {
    const server = new FakeEndpoint();
    server.makeOrder = (_b, n) => orderView({ id: `ord-${n}`, amount: '1503.00', requested_amount: '1500.00' }, Date.now());
    const h = await mount({ paymentMethodId: 'm-sbp' }, { server, clock: new FakeClock(Date.now()) });
    await h.until('pay');
    expect(norm(h.root.querySelector('.warn')!.textContent!)).to.equal('Send exactly RUB 1,503.00, not RUB 1,500.00: the exact amount identifies your payment.');
    expect(norm(h.root.querySelector('[part="amount"] .amount')!.textContent!)).to.equal('RUB 1,503.00');
  });

  it('does not warn when the amount was not changed', async () => {
    const h = await mount({ paymentMethodId: 'm-sbp' });
    await h.until('pay');
    expect(h.root.querySelector('.warn')).to.equal(null);
    expect(h.text()).to.include('Send exactly this amount in one transfer.');
  });

  it('formats a card number in groups of four', async () => {
    const server = new FakeEndpoint();
    server.makeOrder = (_b, n) => orderView({ id: `ord-${n}`, payment_link: null, requisites: { holder_name: 'Петров Пётр', holder_account: '4627100101654724', kind: 'card' } }, Date.now());
    const h = await mount({ paymentMethodId: 'm-card' }, { server, clock: new FakeClock(Date.now()) });
    await h.until('pay');
    expect(h.text()).to.include('Card number');
    expect(h.text()).to.include('4627 1001 0165 4724');
    expect(h.root.querySelector('canvas')).to.equal(null);
  });

  it('offers the bank apps on phones (a sheet), the QR and online banks on a desktop', async () => {
    const ios = await mount({ paymentMethodId: 'm-sbp' }, { env: { platform: 'ios' } });
    await ios.until('pay');
    expect(ios.root.querySelector('canvas'), 'no QR on a phone').to.equal(null);
    expect(byText(ios.root, 'Pay in bank app').classList.contains('primary')).to.equal(true);
    const desktop = await mount({ paymentMethodId: 'm-sbp' });
    await desktop.until('pay');
    expect(desktop.root.querySelector('[part="qr"] h3')!.textContent).to.equal('Pay from your phone');
    expect(desktop.text()).to.include('Scan the QR code with your phone’s camera or bank app.');
    expect(byText(desktop.root, 'Pay in your online bank')).to.exist;
    expect(() => byText(desktop.root, 'Pay in bank app')).to.throw();
  });

  it('names the ways in the widget\'s language, an unknown type by its own name', async () => {
    const server = new FakeEndpoint();
    server.methods = [...METHODS, { id: 'm-acc', name: 'Банковский счёт', type: 'BankAccount', bank: null, fee: '5.00', fixed_fee: '5.00', total: '1505.00' }, { id: 'm-x', name: 'Crypto wallet', type: 'Crypto', bank: null, fee: '0.00', fixed_fee: null, total: '1500.00' }];
    const h = await mount({}, { server });
    await h.until('choose');
    expect(h.root.querySelectorAll('[part="method"]').length).to.equal(4);
    expect(h.text()).to.include('Bank transfer');
    expect(h.text()).not.to.include('Банковский счёт');
    expect(h.text()).to.include('Crypto wallet');
  });

  it('a card transfer offered by several banks asks for the card\'s bank as a second step', async () => {
    const server = new FakeEndpoint();
    server.methods = [
      { id: 'card', name: 'Банковская карта', type: 'BankCard', bank: null, fee: '0.00', fixed_fee: null, total: '1500.00' },
      { id: 'card-sber', name: 'Карта — Сбербанк', type: 'BankCard', bank: 'sberbank', fee: '0.00', fixed_fee: null, total: '1500.00' },
      { id: 'card-vtb', name: 'Карта — ВТБ', type: 'BankCard', bank: 'vtb', fee: '0.00', fixed_fee: null, total: '1500.00' },
      { id: 'sbp', name: 'СБП', type: 'SBP', bank: null, fee: '0.00', fixed_fee: null, total: '1500.00' },
    ];
    const h = await mount({}, { server });
    await h.until('choose');
    const summary = h.root.querySelector<HTMLElement>('summary[part="method"]')!;
    expect(norm(summary.textContent!)).to.include('Card transfer');
    summary.click();
    await h.el.updateComplete;
    expect(h.text()).to.include('Which bank is your card from?');
    byText(h.root, 'VTB', 'button').click();
    await h.until('pay');
    expect(server.last('create')!.body).to.deep.equal({ order_ref: 'sku-1', payment_method_id: 'card-vtb' });
  });
});
