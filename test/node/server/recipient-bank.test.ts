/**
 * `OrderView.requisites.bank_name` (DESIGN.md, "Requisites a shopper can act on"): the recipient's bank
 * as a shopper picks it in a bank app, from the provider's method name or the NSPK member id of the
 * payment link. End to end through the token endpoint and the in-process sandbox, then the mapping
 * itself for what the sandbox does not make (a method that names the bank another way, a link only).
 */
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import type { Order } from '../../../src/provider/index.js';
import { orderToView } from '../../../src/server/index.js';
import { parseOrderView, type OrderView } from '../../../src/protocol/index.js';
import { bankOfMethodName, recipientBankName } from '../../../src/provider/recipient-bank.js';
import { created as createdFor, world as sandboxWorld, type World } from './world.js';

const world = () => sandboxWorld({ client: { timeoutMs: 500 } });

async function created(w: World, body: Record<string, unknown>): Promise<OrderView> {
  // What the widget reads: the answer passes its check and keeps the field.
  return parseOrderView((await createdFor(w, body)).order);
}

describe('the recipient’s bank of an order (requisites.bank_name), end to end', () => {
  test('SBP by phone number of "СБП — ВТБ": bank_name "ВТБ", also on a status read', async () => {
    const w = world();
    const order = await created(w, { order_ref: 'a', method_type: 'SBP', nspk_code: 'bank100000000005' });
    assert.equal(order.method?.name, 'СБП — ВТБ');
    assert.equal(order.requisites?.kind, 'phone');
    assert.equal(order.requisites?.bank_name, 'ВТБ');
  });

  test('the aggregate SBP method routed to a bank: the bank of the method that took the order', async () => {
    const w = world();
    const order = await created(w, { order_ref: 'b', method_type: 'SBP' });
    const bank = /СБП — (.+)$/.exec(order.method!.name)![1]!;
    assert.equal(order.requisites?.bank_name, { 'Сбербанк': 'Сбербанк', 'Т-Банк': 'Т-Банк', 'ВТБ': 'ВТБ', 'Альфа-Банк': 'Альфа-Банк' }[bank]);
  });

  test('a card transfer whose method names the bank: "Карта — Альфа-Банк" → "Альфа-Банк"', async () => {
    const w = world();
    const order = await created(w, { order_ref: 'c', method_type: 'BankCard', nspk_code: 'bank100000000008' });
    assert.equal(order.requisites?.kind, 'card');
    assert.equal(order.requisites?.bank_name, 'Альфа-Банк');
  });

  test('an account transfer by a method that names no bank: null, not a guess', async () => {
    const w = world();
    const order = await created(w, { order_ref: 'd', method_type: 'BankAccount' });
    assert.equal(order.requisites?.kind, 'account');
    assert.equal(order.requisites?.bank_name, null);
  });
});

const providerOrder = (over: Partial<Order>): Order =>
  ({
    id: 'o-1',
    client_order_id: 'c-1',
    currency: 'RUB',
    method_id: 'm-1',
    method_name: 'СБП',
    method_type: 'SBP',
    initial_method_id: 'm-1',
    order_side: 'Buy',
    amount: '1500.00',
    fee: '0',
    fixed_fee: null,
    status: 'Unpaid',
    holder_name: 'Иванов Иван Иванович',
    holder_account: '+79991234567',
    customer_name: null,
    customer_account: null,
    customer_bank: null,
    payment_link: null,
    webhook_url: null,
    created_at: '2026-11-27T06:00:00',
    updated_at: '2026-11-27T06:00:00',
    expires_at: '2026-11-27T06:30:00',
    ...over,
  }) as Order;
const ctx = { currency: 'RUB', requested_amount: '1500.00', redirect_url: null, support_url: null, return_url: null };
const bankName = (over: Partial<Order>, nspk: string | null = null) => orderToView(providerOrder(over), { ...ctx, nspk_code: nspk }).requisites?.bank_name;

describe('the recipient’s bank from the provider’s order', () => {
  test('the method name, by the name bank apps show (another spelling or an old name too)', () => {
    assert.equal(bankName({ method_name: 'СБП — ВТБ' }), 'ВТБ');
    assert.equal(bankName({ method_name: 'СБП - Тинькофф' }), 'Т-Банк');
    assert.equal(bankName({ method_name: 'Карта — Сбербанк', method_type: 'BankCard', holder_account: '4276380012345678' }), 'Сбербанк');
    assert.equal(bankName({ method_name: 'Счёт — Банк ВТБ', method_type: 'BankAccount', holder_account: '40817810099991234567' }), 'ВТБ');
  });

  test('the NSPK member id of the payment link, either of VTB’s ids', () => {
    const link = (id: string) => `https://qr.nspk.ru/AS1000670LSS7DN18SJQDNP4B05KLJL2?type=02&bank=${id}&sum=150000&cur=RUB&crc=C08B`;
    assert.equal(bankName({ payment_link: link('100000000005') }), 'ВТБ');
    assert.equal(bankName({ payment_link: link('110000000005') }), 'ВТБ');
    assert.equal(bankName({ payment_link: link('100000000004') }), 'Т-Банк');
    assert.equal(bankName({ payment_link: 'https://evil.example/?bank=100000000004' }), null, 'only an NSPK link says a member id');
  });

  test('the chosen method’s nspk_code when nothing else names the bank', () => {
    assert.equal(bankName({}, 'bank100000000111'), 'Сбербанк');
  });

  test('a bank the table does not know is shown as the provider wrote it; no bank, or markup, is null', () => {
    assert.equal(bankName({ method_name: 'Карта — Kapitalbank', method_type: 'BankCard', currency: 'UZS' }), 'Kapitalbank');
    assert.equal(bankName({ method_name: 'СБП' }), null);
    assert.equal(bankName({ method_name: 'Трансграничный перевод по СБП' }), null);
    assert.equal(bankOfMethodName('СБП — <img src=x>'), null);
    assert.equal(recipientBankName({ method_name: null, payment_link: 'not a url' }), null);
  });

  test('an older server without bank_name: the widget reads null', () => {
    const view = orderToView(providerOrder({}), ctx);
    delete (view.requisites as { bank_name?: unknown }).bank_name;
    assert.equal(parseOrderView(view).requisites?.bank_name, null);
    assert.throws(() => parseOrderView({ ...view, requisites: { ...view.requisites, bank_name: 5 } }), /requisites\.bank_name/);
  });
});
