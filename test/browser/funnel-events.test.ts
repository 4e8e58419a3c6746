/**
 * The widget's funnel events (DESIGN.md, "Widget funnel events"): a way to pay picked
 * (`paydesk-method`), a requisite copied (`paydesk-copy`), a bank opened from the bank sheet
 * (`paydesk-bank-app`), the receipt upload opened and sent (`paydesk-receipt`). Each fires once per
 * action, bubbles out of the shadow root (composed) with its detail and the order where there is one.
 */
import { expect, waitUntil } from '@open-wc/testing';
import { byText, mount, type Harness } from './helpers/mount.js';
import { FakeEndpoint } from './helpers/fake-endpoint.js';
import { FakeClock } from './helpers/fake-clock.js';
import { orderView } from './helpers/orders.js';
import type { PaydeskEventMap } from '../../src/element/index.js';

type Funnel = 'paydesk-method' | 'paydesk-copy' | 'paydesk-bank-app' | 'paydesk-receipt';

/** The funnel events as a page's listener on `document` hears them (they cross the shadow root and bubble). */
function heard(): { of<K extends Funnel>(name: K): PaydeskEventMap[K][]; stop(): void } {
  const seen: CustomEvent[] = [];
  const names: Funnel[] = ['paydesk-method', 'paydesk-copy', 'paydesk-bank-app', 'paydesk-receipt'];
  const on = (e: Event) => seen.push(e as CustomEvent);
  for (const n of names) document.addEventListener(n, on);
  return {
    of: <K extends Funnel>(name: K) => seen.filter((e) => e.type === name) as PaydeskEventMap[K][],
    stop: () => names.forEach((n) => document.removeEventListener(n, on)),
  };
}

let page: ReturnType<typeof heard>;
beforeEach(() => {
  page = heard();
});
afterEach(() => page.stop());

const png = () => new File([new Uint8Array(2048)], 'screenshot.png', { type: 'image/png' });

describe('funnel events', () => {
  it('paydesk-method: once when the shopper picks a way to pay, also on a double tap, with the method; none for a preselected one', async () => {
    const h = await mount({});
    await h.until('choose');
    const sbp = byText(h.root, 'SBP', 'button.method');
    sbp.click();
    sbp.click();
    await h.until('pay');
    const events = page.of('paydesk-method');
    expect(events).to.have.length(1);
    expect(events[0]!.detail).to.deep.equal({ method: { id: 'm-sbp', type: 'SBP', bank: null }, order: null });
    expect(events[0]!.bubbles && events[0]!.composed).to.equal(true);
    expect(h.of('paydesk-method')).to.have.length(1, 'heard on the element too');

    const preselected = await mount({ paymentMethodId: 'm-sbp' });
    await preselected.until('pay');
    expect(preselected.of('paydesk-method')).to.have.length(0);
  });

  it('paydesk-method: the bank of a method of the second step (a card transfer within one bank)', async () => {
    const server = new FakeEndpoint();
    server.methods = [
      { id: 'm-card', name: 'Перевод на карту', type: 'BankCard', bank: null, fee: '0.00', fixed_fee: null, total: '1500.00' },
      { id: 'm-card-sber', name: 'Перевод на карту Сбербанк', type: 'BankCard', bank: 'sberbank', fee: '0.00', fixed_fee: null, total: '1500.00' },
      { id: 'm-card-tbank', name: 'Перевод на карту Т-Банк', type: 'BankCard', bank: 'tinkoff', fee: '0.00', fixed_fee: null, total: '1500.00' },
    ];
    const h = await mount({}, { server });
    await h.until('choose');
    h.root.querySelector<HTMLElement>('summary.method')!.click();
    await h.el.updateComplete;
    byText(h.root, 'Sber', 'button.method').click();
    await waitUntil(() => h.of('paydesk-method').length === 1);
    expect(h.of('paydesk-method')[0]!.detail.method).to.deep.equal({ id: 'm-card-sber', type: 'BankCard', bank: 'sberbank' });
  });

  it('paydesk-copy: once per press, naming the field, with the order', async () => {
    const server = new FakeEndpoint();
    const clock = new FakeClock();
    server.serverNow = () => clock.now();
    server.makeOrder = (_b, n) =>
      orderView({ id: `ord-${n}`, requisites: { holder_name: 'Иванов Иван Иванович', holder_account: '+79991234567', kind: 'phone', bank_name: 'ВТБ' } }, clock.now());
    const h = await mount({ paymentMethodId: 'm-sbp' }, { server, clock });
    await h.until('pay');
    const pressed: string[] = [];
    for (const button of h.root.querySelectorAll<HTMLButtonElement>('button.copy')) {
      const label = button.getAttribute('aria-label')!;
      pressed.push(label);
      button.click();
      await waitUntil(() => h.copies.length === pressed.length, `copied: ${label}`);
    }
    expect(pressed).to.deep.equal(['Copy: Amount to send', 'Copy: Phone number', 'Copy: Recipient’s bank', 'Copy: Order number']);
    const events = page.of('paydesk-copy');
    expect(events.map((e) => e.detail.field)).to.deep.equal(['amount', 'account', 'bank', 'order']);
    expect(events.every((e) => e.detail.order?.id === h.el.order!.id && e.bubbles && e.composed)).to.equal(true);
  });

  it('paydesk-bank-app: once per bank opened from the sheet, with its name and NSPK code and the order', async () => {
    const server = new FakeEndpoint();
    const clock = new FakeClock(Date.now());
    server.serverNow = () => clock.now();
    server.makeOrder = (_b, n) => orderView({ id: `ord-${n}` }, clock.now());
    const h = await mount({ paymentMethodId: 'm-sbp' }, { server, clock, env: { platform: 'ios' } });
    await h.until('pay');
    byText(h.root, 'Pay in bank app').click();
    await waitUntil(() => h.root.querySelector('dialog[open] [part="banks"]'), 'the bank sheet', { timeout: 6000 });
    await h.el.updateComplete;
    expect(page.of('paydesk-bank-app')).to.have.length(0, 'opening the sheet is no bank opened');
    const vtb = [...h.root.querySelectorAll<HTMLAnchorElement>('dialog .bank')].find((a) => a.textContent!.includes('VTB'))!;
    vtb.click();
    await h.el.updateComplete;
    const events = page.of('paydesk-bank-app');
    expect(events).to.have.length(1);
    expect(events[0]!.detail.bank).to.deep.equal({ name: 'ВТБ', nspk_code: 'bank100000000005' });
    expect(events[0]!.detail.order?.id).to.equal(h.el.order!.id);
    expect(h.navigations).to.have.length(1, 'and the app was opened');
  });

  it('paydesk-receipt: "started" once when the upload opens, "sent" once when the server took the receipt, with the order', async () => {
    const h: Harness = await mount({ paymentMethodId: 'm-sbp' });
    await h.until('pay');
    byText(h.root, 'I have paid').click();
    await h.until('confirming');
    const open = byText(h.root, 'I paid — send a receipt');
    open.click();
    open.click();
    await waitUntil(() => h.root.querySelector('[part="receipt"]'), 'the receipt form');
    expect(page.of('paydesk-receipt').map((e) => e.detail.stage)).to.deep.equal(['started']);
    const input = h.root.querySelector<HTMLInputElement>('#receipt-files')!;
    const dt = new DataTransfer();
    dt.items.add(png());
    input.files = dt.files;
    input.dispatchEvent(new Event('change', { bubbles: true }));
    await h.el.updateComplete;
    byText(h.root, 'Send', 'button[type="submit"]').click();
    await h.until('dispute');
    const events = page.of('paydesk-receipt');
    expect(events.map((e) => e.detail.stage)).to.deep.equal(['started', 'sent']);
    expect(events[0]!.detail.order?.id).to.equal(h.el.order!.id);
    expect(events[1]!.detail.order?.dispute?.status).to.equal('open', 'the order the server answered, its dispute open');
  });

  it('the example of docs/funnel-events.md sends each event to the analytics tool (Metrica goals) with the order id', async () => {
    const doc = await (await fetch(new URL('../../docs/funnel-events.md', import.meta.url))).text();
    const example = /```js\n([\s\S]*?)```/.exec(doc)![1]!;
    expect(example.trim().split('\n').length).to.be.at.most(10, 'ten lines');
    const goals: unknown[][] = [];
    const h = await mount({});
    expect(document.querySelectorAll('paydesk-checkout')).to.have.length(1);
    // The page's own script, with Metrica's `ym` recording what it is given.
    new Function('ym', example)((...args: unknown[]) => goals.push(args));
    await h.until('choose');
    byText(h.root, 'SBP', 'button.method').click();
    await h.until('pay');
    const order = h.el.order!.id;
    h.root.querySelector<HTMLButtonElement>('button.copy')!.click();
    await waitUntil(() => goals.length === 2, 'the copy goal');
    h.server.update(h.server.session, { status: 'paid', provider_status: 'Completed' });
    await h.until('paid');
    expect(goals).to.deep.equal([
      [12345678, 'reachGoal', 'paydesk_method', { order_id: null, type: 'SBP', bank: null }],
      [12345678, 'reachGoal', 'paydesk_copy', { order_id: order, field: 'amount' }],
      [12345678, 'reachGoal', 'paydesk_paid', { order_id: order, amount: '1500.00' }],
    ]);
  });
});
