import { expect } from '@open-wc/testing';
import { byText, mount, norm } from './helpers/mount.js';

describe('<paydesk-checkout> flow', () => {
  it('shows the methods with their fee, creates a session for the chosen one and shows the requisites', async () => {
    const h = await mount();
    await h.until('choose');
    expect(h.server.last('methods')!.query.get('order_ref')).to.equal('sku-1');
    const methods = h.root.querySelectorAll('[part="method"]');
    expect(methods.length).to.equal(2);
    expect(norm(methods[0]!.textContent!)).to.include('fee RUB 22.50');
    expect(norm(methods[0]!.textContent!)).to.include('To pay RUB 1,522.50');
    expect(norm(methods[1]!.textContent!)).to.include('no fee');
    (methods[0] as HTMLButtonElement).click();
    await h.until('pay');
    const create = h.server.last('create')!;
    expect(create.body).to.deep.equal({ order_ref: 'sku-1', payment_method_id: 'm-sbp' });
    expect(create.headers.get('X-Paydesk')).to.equal('1');
    expect(create.headers.get('Idempotency-Key')).to.match(/^key-/);
    expect(norm(h.root.querySelector('[part="amount"]')!.textContent!)).to.include('RUB 1,500.00');
    expect(h.text()).to.include('+7 (999) 123-45-67');
    expect(h.text()).to.include('Иванов Иван Иванович');
    expect(h.of('paydesk-session')[0]!.detail.session).to.equal('sess-1');
  });
});
