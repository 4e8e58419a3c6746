/** The payout rules shared by the console API and the console page (src/console/payout-rules.ts). */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { addAmounts, compareAmounts, fromMinor } from '../../../src/money/index.js';
import { AGGREGATE_METHOD_IDS } from '../../../src/provider/facts.js';
import {
  accountKindOf,
  choiceOfCustomerBank,
  formatDestination,
  luhnValid,
  maskDestination,
  normalizeDestination,
  payoutClientOrderId,
  payoutLimits,
  payoutBankName,
  payoutMethodOf,
  phoneRefundChoices,
  quotePayout,
  refundMethodFor,
  type PayoutMethod,
} from '../../../src/console/payout-rules.js';

const providerMethod = (type: string, ranges: Array<[string, number, number, number, number | null]>) => ({
  method_id: 'm-1',
  method_name: 'Method',
  method_type: type,
  method_currency: 'RUB',
  nspk_code: null,
  ranges: ranges.map(([fee_side, min_amount, max_amount, fee, fixed_fee]) => ({ fee_side, min_amount, max_amount, fee, fixed_fee })),
});

describe('payout methods', () => {
  test('a method makes payouts only with a Sell range; its ranges become exact decimal strings, sorted', () => {
    assert.equal(payoutMethodOf(providerMethod('SBP', [['Buy', 100, 300000, 4.5, null]])), null);
    assert.equal(payoutMethodOf(providerMethod('NSPKLink', [['Sell', 100, 1000, 1, null]])), null, 'a payment link is no payout destination');
    const m = payoutMethodOf(providerMethod('BankCard', [['Buy', 500, 500000, 4.5, null], ['Sell', 15000, 150000, 2, 0], ['Sell', 1000, 14999.99, 2.5, 50]]))!;
    assert.equal(m.kind, 'card');
    assert.deepEqual(m.ranges, [
      { min: '1000', max: '14999.99', fee: '2.5', fixed_fee: '50' },
      { min: '15000', max: '150000', fee: '2', fixed_fee: null },
    ]);
    assert.deepEqual(payoutLimits(m), { min: '1000', max: '150000' });
    assert.equal(payoutMethodOf(providerMethod('TransSBP', [['Sell', 1, 2, 1, null]]))!.kind, 'phone');
    assert.equal(payoutMethodOf(providerMethod('BankAccount', [['Sell', 1, 2, 1, null]]))!.kind, 'account');
  });

  const card: PayoutMethod = payoutMethodOf(providerMethod('BankCard', [['Sell', 1000, 14999.99, 2.5, 50], ['Sell', 15000, 150000, 2, null]]))!;

  test('the quote: the percent rounded half-up to kopecks plus the fixed fee, from the range that holds the amount', () => {
    assert.deepEqual(quotePayout(card, '2500.00'), { ok: true, quote: { amount: '2500.00', fee: '112.50', total: '2612.50', currency: 'RUB', range: card.ranges[0] } });
    // 2.5 % of 1000.10 is 25.0025 → 25.00; of 1000.30 is 25.0075 → 25.01.
    assert.equal((quotePayout(card, '1000.10') as { quote: { fee: string } }).quote.fee, '75.00');
    assert.equal((quotePayout(card, '1000.30') as { quote: { fee: string } }).quote.fee, '75.01');
    assert.equal((quotePayout(card, '15000.00') as { quote: { fee: string } }).quote.fee, '300.00', 'the second range, no fixed fee');
    assert.equal(quotePayout(card, '1000.00').ok, true, 'the bounds are inside');
    assert.equal(quotePayout(card, '150000.00').ok, true);
    assert.deepEqual(quotePayout(card, '999.99'), { ok: false, problem: 'out_of_limits', min: '1000', max: '150000' });
    assert.deepEqual(quotePayout(card, '150000.01'), { ok: false, problem: 'out_of_limits', min: '1000', max: '150000' });
  });

  test('property: total = amount + fee to the kopeck, and the fee is never negative', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 100000n, max: 15000000n }), (kopecks) => {
        const amount = fromMinor(kopecks);
        const r = quotePayout(card, amount);
        if (!r.ok) return false;
        return addAmounts(amount, r.quote.fee) === r.quote.total && compareAmounts(r.quote.fee, '0') >= 0;
      }),
    );
  });
});

describe('payout destinations', () => {
  test('card numbers: 16 to 19 digits with a valid Luhn check digit, spaces and dashes dropped', () => {
    assert.ok(luhnValid('4111111111111111') && luhnValid('5555555555554444') && luhnValid('4000000000000002') && luhnValid('6759649826438453'));
    assert.ok(!luhnValid('4111111111111112') && !luhnValid('') && !luhnValid('4111-1111'));
    assert.deepEqual(normalizeDestination('card', ' 4111 1111-1111 1111 '), { ok: true, value: '4111111111111111' });
    assert.deepEqual(normalizeDestination('card', '4111 1111 1111 1112'), { ok: false, problem: 'card_checksum' });
    assert.deepEqual(normalizeDestination('card', '411111111111111'), { ok: false, problem: 'card_format' });
    assert.deepEqual(normalizeDestination('card', '4111 1111 1111 111x'), { ok: false, problem: 'card_format' });
    assert.deepEqual(normalizeDestination('card', '   '), { ok: false, problem: 'empty' });
  });

  test('phone numbers: Russian ones as +7 and ten digits for SBP; international ones for the cross-border TransSBP', () => {
    for (const typed of ['+7 999 123-45-67', '8 (999) 123-45-67', '79991234567', '+7(999)1234567']) {
      assert.deepEqual(normalizeDestination('phone', typed, 'SBP'), { ok: true, value: '+79991234567' }, typed);
    }
    assert.deepEqual(normalizeDestination('phone', '+998 90 123 45 67', 'SBP'), { ok: false, problem: 'phone_format' });
    assert.deepEqual(normalizeDestination('phone', '+998 90 123 45 67', 'TransSBP'), { ok: true, value: '+998901234567' });
    assert.deepEqual(normalizeDestination('phone', '12345', 'TransSBP'), { ok: false, problem: 'phone_format' });
    assert.deepEqual(normalizeDestination('phone', '+7 999 123 45 6', 'SBP'), { ok: false, problem: 'phone_format' });
  });

  test('account numbers: 20 digits', () => {
    assert.deepEqual(normalizeDestination('account', '40817 810 0 0000 0000001'), { ok: true, value: '40817810000000000001' });
    assert.deepEqual(normalizeDestination('account', '4081781000000000000'), { ok: false, problem: 'account_format' });
  });

  test('masked for lists and logs: a card keeps 6 + 4 digits, a phone its operator and last two, an account 5 + 4', () => {
    assert.equal(maskDestination('card', '4111111111111111'), '4111 11•• •••• 1111');
    assert.equal(maskDestination('card', '6759649826438453123'), '6759 64•• •••• •••3 123');
    assert.equal(maskDestination('phone', '+79991234567'), '+7 999 •••-••-67');
    assert.equal(maskDestination('phone', '+998901234567'), '+998 ••••••• 67');
    assert.equal(maskDestination('account', '40817810000000000001'), '40817 •••• •••• 0001');
    assert.equal(maskDestination('', 'something-typed'), '•••• yped');
    assert.equal(maskDestination('card', null), '—');
    for (const full of ['4111111111111111', '+79991234567', '40817810000000000001']) {
      const kind = full.startsWith('+') ? 'phone' : full.length === 20 ? 'account' : 'card';
      assert.ok(!maskDestination(kind, full).replace(/\s/g, '').includes(full.slice(6, -4)), `the middle of ${full} is hidden`);
    }
  });

  test('written out in full for the confirmation', () => {
    assert.equal(formatDestination('card', '4111111111111111'), '4111 1111 1111 1111');
    assert.equal(formatDestination('phone', '+79991234567'), '+7 999 123-45-67');
    assert.equal(formatDestination('account', '40817810000000000001'), '40817 810 0 0000 0000001');
  });
});

describe('payout idempotency keys', () => {
  test('a form key becomes the payout’s client_order_id; a malformed key is refused', () => {
    assert.equal(payoutClientOrderId('dcZeeSo9VjwDuTl-Sj3JbQ'), 'payout-dcZeeSo9VjwDuTl-Sj3JbQ');
    assert.ok(payoutClientOrderId('x'.repeat(48)).length <= 64, 'within the provider’s 64 characters');
    for (const bad of ['short', 'x'.repeat(49), 'has space in it 123', 'ключ-ключ-ключ-ключ']) assert.throws(() => payoutClientOrderId(bad), RangeError, bad);
  });
});

describe('the method a refund goes by', () => {
  const sell = [{ min: '500', max: '150000', fee: '2', fixed_fee: '30' }];
  const method = (id: string, type: string, kind: PayoutMethod['kind'], nspk_code: string | null = null): PayoutMethod => ({ id, name: id, type, kind, currency: 'RUB', nspk_code, ranges: sell });
  // The sandbox's RUB payout methods: the card aggregate, four banks' SBP and card methods, cross-border cards, a bank account.
  const sber = method('sbp-sber', 'SBP', 'phone', 'bank100000000111');
  const tbank = method('sbp-tbank', 'SBP', 'phone', 'bank100000000004');
  const vtb = method('sbp-vtb', 'SBP', 'phone', 'bank100000000005');
  const alfa = method('sbp-alfa', 'SBP', 'phone', 'bank100000000008');
  const cardAggregate = method('card', 'BankCard', 'card');
  const cardVtb = method('card-vtb', 'BankCard', 'card', 'bank100000000005');
  const transSbp = method('trans-sbp', 'TransSBP', 'phone');
  const account = method('account', 'BankAccount', 'account');
  const all = [cardAggregate, cardVtb, sber, tbank, vtb, alfa, account];
  const PHONE = '+7 999 123-45-67';
  const CARD = '4111 1111 1111 1111';

  test('an account by its shape: a phone, a card number, a 20-digit bank account, or nothing known', () => {
    for (const p of [PHONE, '89991234567', '7 999 123 45 67', '+998 90 123 45 67']) assert.equal(accountKindOf(p), 'phone', p);
    assert.equal(accountKindOf(CARD), 'card');
    assert.equal(accountKindOf('40817 810 0 0000 0000001'), 'account');
    for (const x of ['12345', '', 'abc', '123456789012']) assert.equal(accountKindOf(x), null, x);
  });

  test('a phone refund never goes to a guessed bank: with several banks paying out by SBP it must name one, and the choices are those banks', () => {
    const pick = refundMethodFor(all, PHONE);
    assert.equal(pick.ok, false);
    assert.deepEqual(pick.ok ? null : [pick.field, pick.problem, pick.choices.map((m) => m.id)], ['payment_method_id', 'choose_bank', ['sbp-sber', 'sbp-tbank', 'sbp-vtb', 'sbp-alfa']]);
    assert.deepEqual(refundMethodFor(all, PHONE, { method_type: 'SBP' }), { ok: false, kind: 'phone', field: 'payment_method_id', problem: 'choose_bank', choices: [sber, tbank, vtb, alfa] }, 'SBP names four methods: not one');
    assert.deepEqual(refundMethodFor(all, PHONE, { payment_method_id: 'sbp-vtb' }), { ok: true, kind: 'phone', method: vtb });
    // One bank paying out by SBP: that one, as the only choice there is.
    assert.deepEqual(refundMethodFor([cardAggregate, alfa], PHONE), { ok: true, kind: 'phone', method: alfa });
    assert.deepEqual(refundMethodFor([cardAggregate, alfa], PHONE, { method_type: 'SBP' }), { ok: true, kind: 'phone', method: alfa });
  });

  test('the aggregate SBP method pays out to no bank: named, it is refused with the banks to choose from', () => {
    const aggregate = method(AGGREGATE_METHOD_IDS.SBP, 'SBP', 'phone');
    const pick = refundMethodFor([aggregate, ...all], PHONE, { payment_method_id: AGGREGATE_METHOD_IDS.SBP });
    assert.deepEqual(pick.ok ? null : [pick.field, pick.problem, pick.choices.length], ['payment_method_id', 'choose_bank', 4]);
    assert.deepEqual(phoneRefundChoices([aggregate, vtb]), [vtb]);
  });

  test('a method named pays out to the account’s kind: a card method with a phone, an SBP method with a card, are refused', () => {
    assert.deepEqual(refundMethodFor(all, PHONE, { payment_method_id: 'card-vtb' }), { ok: false, kind: 'phone', field: 'payment_method_id', problem: 'wrong_kind', method: cardVtb, choices: [] });
    assert.deepEqual(refundMethodFor(all, CARD, { payment_method_id: 'sbp-vtb' }), { ok: false, kind: 'card', field: 'payment_method_id', problem: 'wrong_kind', method: vtb, choices: [] });
    assert.deepEqual(refundMethodFor(all, CARD, { method_type: 'SBP' }), { ok: false, kind: 'card', field: 'method_type', problem: 'wrong_kind', method: sber, choices: [] });
    assert.deepEqual(refundMethodFor(all, '40817810000000000001', { payment_method_id: 'card' }), { ok: false, kind: 'account', field: 'payment_method_id', problem: 'wrong_kind', method: cardAggregate, choices: [] });
    assert.deepEqual(refundMethodFor(all, '40817810000000000001', { payment_method_id: 'account' }), { ok: true, kind: 'account', method: account });
    assert.deepEqual(refundMethodFor(all, PHONE, { payment_method_id: 'nope' }), { ok: false, kind: 'phone', field: 'payment_method_id', problem: 'unknown_method', choices: [] });
    assert.deepEqual(refundMethodFor(all, PHONE, { method_type: 'Nope' }), { ok: false, kind: 'phone', field: 'method_type', problem: 'unknown_type', choices: [] });
  });

  test('a card refund works as before: the first card method, or the named one', () => {
    assert.deepEqual(refundMethodFor(all, CARD), { ok: true, kind: 'card', method: cardAggregate });
    assert.deepEqual(refundMethodFor(all, CARD, { method_type: 'BankCard' }), { ok: true, kind: 'card', method: cardAggregate });
    assert.deepEqual(refundMethodFor(all, CARD, { payment_method_id: 'card-vtb' }), { ok: true, kind: 'card', method: cardVtb });
    assert.deepEqual(refundMethodFor([sber], CARD), { ok: false, kind: 'card', field: 'account', problem: 'no_method', choices: [] });
    assert.deepEqual(refundMethodFor(all, '12345'), { ok: false, kind: null, field: 'account', problem: 'account_shape', choices: [] });
  });

  test('a phone SBP does not take (an international number) goes by the cross-border TransSBP when it pays out', () => {
    assert.deepEqual(refundMethodFor([...all, transSbp], '+998 90 123 45 67'), { ok: true, kind: 'phone', method: transSbp });
    assert.deepEqual(refundMethodFor(all, '+998 90 123 45 67'), { ok: false, kind: 'phone', field: 'account', problem: 'account_shape', choices: [] });
    assert.deepEqual(refundMethodFor([cardAggregate], PHONE), { ok: false, kind: 'phone', field: 'account', problem: 'no_method', choices: [] });
    assert.deepEqual(phoneRefundChoices([...all, transSbp], PHONE), [sber, tbank, vtb, alfa], 'a Russian number: the banks’ SBP methods');
  });

  test('the bank the order names (customer_bank) is found among the choices by its NSPK identity, and named in both languages', () => {
    const choices = phoneRefundChoices(all);
    assert.equal(choiceOfCustomerBank(choices, 'vtb'), vtb);
    assert.equal(choiceOfCustomerBank(choices, 'tinkoff'), tbank);
    assert.equal(choiceOfCustomerBank(choices, null), undefined);
    assert.equal(choiceOfCustomerBank(choices, 'raiffeisen'), undefined);
    assert.equal(choiceOfCustomerBank([sber], 'vtb'), undefined, 'a bank that does not pay out now is not preselected');
    assert.deepEqual([payoutBankName(vtb, 'ru'), payoutBankName(vtb, 'en'), payoutBankName(transSbp, 'en')], ['ВТБ', 'VTB', 'trans-sbp']);
  });
});
