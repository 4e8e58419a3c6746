import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { BANK_VALUES, BUTTON_VALUES, configProblem, preselection, type Attributes } from '../../../src/element/config.js';
import { BANKS, BUTTON_NAMES } from '../../../src/provider/facts.js';

const attrs = (a: Partial<Attributes> = {}): Attributes => ({
  endpoint: '/api/paydesk',
  orderRef: 'ord-1',
  session: '',
  mode: '',
  methodType: '',
  paymentMethodId: '',
  bank: '',
  buttonName: '',
  supportUrl: '',
  ...a,
});

describe('the attributes, checked before anything is asked of the server', () => {
  test('an endpoint and an order ref (or a session) are all a checkout needs', () => {
    assert.equal(configProblem(attrs()), null);
    assert.equal(configProblem(attrs({ orderRef: '', session: 'ses_1' })), null);
    assert.equal(configProblem(attrs({ endpoint: 'https://shop.example/api/paydesk' })), null);
  });

  test('a missing or unusable endpoint, or neither order ref nor session, is a clear problem', () => {
    for (const endpoint of ['', 'javascript:alert(1)', '//evil.example/x', 'ftp://x.example'])
      assert.equal(configProblem(attrs({ endpoint })), 'endpoint must be an http(s) URL or a path such as /api/paydesk', endpoint);
    assert.equal(configProblem(attrs({ orderRef: '' })), 'order-ref or session is required');
  });

  test('mode, bank and button-name take only their known values, and say which', () => {
    assert.equal(configProblem(attrs({ mode: 'iframe' })), 'mode must be one of h2h, order_with_form, form');
    assert.match(configProblem(attrs({ bank: 'mybank' })) ?? '', /^bank must be one of .*sberbank/);
    assert.equal(configProblem(attrs({ buttonName: 'ApplePay' })), 'button-name must be one of AlfaPay, SberPay, TPay, VTBPay');
    for (const bank of BANK_VALUES) assert.equal(configProblem(attrs({ bank })), null, bank);
    for (const buttonName of BUTTON_VALUES) assert.equal(configProblem(attrs({ buttonName })), null, buttonName);
  });

  test("the element's bank and button values are the provider facts' own (they cannot drift)", () => {
    assert.deepEqual([...BANK_VALUES].sort(), [...new Set(BANKS.map((b) => b.customerBank).filter(Boolean))].sort());
    assert.deepEqual([...BUTTON_VALUES].sort(), [...BUTTON_NAMES].sort());
  });

  test('a support page must be http(s); a method id and a method type cannot both be given', () => {
    assert.equal(configProblem(attrs({ supportUrl: 'javascript:alert(1)' })), 'support-url must be an http(s) URL');
    assert.equal(configProblem(attrs({ supportUrl: 'https://shop.example/help' })), null);
    assert.equal(configProblem(attrs({ methodType: 'SBP', paymentMethodId: 'pm_1' })), 'use payment-method-id or method-type, not both');
  });
});

describe('the attributes as the selection of POST /sessions', () => {
  test('nothing preselected: the shopper chooses (null)', () => {
    assert.equal(preselection(attrs()), null);
    assert.equal(preselection(attrs({ bank: 'sberbank' })), null, 'a bank alone in h2h limits the list, it selects nothing');
  });

  test('a method id, a method type, a button are sent as given', () => {
    assert.deepEqual(preselection(attrs({ paymentMethodId: 'pm_1' })), { payment_method_id: 'pm_1' });
    assert.deepEqual(preselection(attrs({ methodType: 'SBP', buttonName: 'SberPay' })), { method_type: 'SBP', button_name: 'SberPay' });
  });

  test('the bank goes with the request only where the provider takes it (order_with_form, form); form mode always creates', () => {
    assert.deepEqual(preselection(attrs({ bank: 'vtb', mode: 'order_with_form' })), { customer_bank: 'vtb' });
    assert.deepEqual(preselection(attrs({ bank: 'vtb', mode: 'form' })), { customer_bank: 'vtb' });
    assert.deepEqual(preselection(attrs({ mode: 'form' })), {});
    assert.equal(preselection(attrs({ mode: 'h2h' })), null);
  });
});
