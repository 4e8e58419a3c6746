/**
 * A preselected way to pay that the order does not offer (issue 20: `method-type="BankCard"` on a
 * terminal without card transfers, or in another currency): the server refuses the create with
 * 409 `method_unavailable` (src/server/methods.ts `selectMethod`), and the shopper gets the list of
 * the ways the order does offer, not an error screen.
 */
import { expect } from '@open-wc/testing';
import { mount, norm } from './helpers/mount.js';
import { FakeEndpoint } from './helpers/fake-endpoint.js';
import { METHODS } from './helpers/orders.js';

const REFUSED = {
  status: 409,
  body: { error: { code: 'method_unavailable', message: 'This payment method is not available for this payment. Please choose another one.', retryable: false } },
};

describe('<paydesk-checkout> with a preselected method the order does not offer', () => {
  it('falls back to the method list, without an error screen, and pays with the method chosen there', async () => {
    const server = new FakeEndpoint();
    server.methods = [METHODS[0]!, { ...METHODS[0]!, id: 'm-link', name: 'NSPK link', type: 'NSPKLink', fee: '0.00', total: '1500.00' }];
    server.failNext('create', REFUSED);
    const h = await mount({ methodType: 'BankCard' }, { server });
    await h.until('choose');
    expect(server.requests.filter((r) => r.route === 'create').map((r) => r.body)).to.deep.equal([{ order_ref: 'sku-1', method_type: 'BankCard' }]);
    const methods = [...h.root.querySelectorAll<HTMLElement>('[part="method"]')];
    expect(methods.map((m) => norm(m.innerText).split(' ')[0])).to.deep.equal(['SBP', 'SBP']);
    expect(h.of('paydesk-error')).to.have.length(0);
    expect(h.of('paydesk-status').map((e) => e.detail.state)).not.to.include('error');
    methods[0]!.click();
    await h.until('pay');
    expect(server.last('create')!.body).to.deep.equal({ order_ref: 'sku-1', payment_method_id: 'm-sbp' });
  });

  it('a method the shopper chose from the list and the server refuses is still said (error step)', async () => {
    const server = new FakeEndpoint();
    const h = await mount({}, { server });
    await h.until('choose');
    server.failNext('create', REFUSED);
    h.root.querySelector<HTMLElement>('[part="method"]')!.click();
    await h.until('error');
    expect(h.of('paydesk-error')[0]!.detail.code).to.equal('method_unavailable');
  });
});
