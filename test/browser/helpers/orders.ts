import type { OrderView, PaymentMethodView } from '../../../src/protocol/index.js';

export const PAYMENT_LINK =
  'https://qr.nspk.ru/AS1000670LSS7DN18SJQDNP4B05KLJL2?type=02&bank=100000000111&sum=150000&cur=RUB&crc=C08B';

/** A pending SBP order by phone, expiring 30 minutes after `createdAt`. */
export function orderView(overrides: Partial<OrderView> = {}, createdAt = Date.parse('2026-03-02T10:00:00.000Z')): OrderView {
  return {
    id: 'ord-1',
    client_order_id: 'sku-1',
    status: 'pending',
    provider_status: 'Unpaid',
    amount: '1500.00',
    currency: 'RUB',
    fee: '22.50',
    method: { id: 'm-sbp', name: 'СБП', type: 'SBP' },
    bank: 'sberbank',
    requisites: { holder_name: 'Иванов Иван Иванович', holder_account: '+79991234567', kind: 'phone' },
    payment_link: PAYMENT_LINK,
    form_url: null,
    created_at: new Date(createdAt).toISOString(),
    expires_at: new Date(createdAt + 30 * 60_000).toISOString(),
    redirect_url: 'https://shop.example/thanks',
    support_url: 'https://shop.example/support',
    return_url: 'https://shop.example/cart',
    dispute: null,
    late: false,
    ...overrides,
  };
}

export const METHODS: PaymentMethodView[] = [
  { id: 'm-sbp', name: 'СБП', type: 'SBP', bank: null, fee: '22.50', fixed_fee: null, total: '1522.50' },
  { id: 'm-card', name: 'Перевод на карту', type: 'BankCard', bank: 'sberbank', fee: '0.00', fixed_fee: null, total: '1500.00' },
];

/**
 * Every kind of open order a first paint draws (src/element/paint.ts): a card transfer with a hosted
 * form, SBP with its link (and a requested amount), a bank account, NSPK links with and without a
 * link, TransSBP, a cross-border card, a method of the provider's own name with only a link.
 */
export function firstPaintOrders(now: number): OrderView[] {
  const order = (over: Partial<OrderView> = {}): OrderView =>
    orderView(
      {
        bank: 'vtb',
        form_url: 'https://pay.example/form/1',
        payment_link: null,
        method: { id: 'm1', name: 'Card', type: 'BankCard' },
        requisites: { kind: 'card', holder_name: 'Иван И.', holder_account: '2200700012345678', bank_name: 'Т-Банк' },
        ...over,
      },
      now,
    );
  const link = 'https://qr.nspk.ru/AS10003P3RH0LJ2A9ROO038L6NT5RU1M?type=02&bank=100000000111&sum=150000&cur=RUB&crc=AB12';
  const sbp = { payment_link: link, method: { id: 'm2', name: 'SBP', type: 'SBP' }, requisites: { kind: 'phone' as const, holder_name: 'Иван И.', holder_account: '+79001234567', bank_name: 'Сбербанк' } };
  return [
    order(),
    order(sbp),
    order({ ...sbp, requested_amount: '1499.00' }),
    order({ method: { id: 'm3', name: 'Account', type: 'BankAccount' }, requisites: { kind: 'account', holder_name: 'ООО', holder_account: '40817810099910004312', bank_name: 'ВТБ' } }),
    order({ method: { id: 'm4', name: 'Link', type: 'NSPKLink' }, payment_link: link, requisites: { kind: 'link', holder_name: '', holder_account: link, bank_name: '' } }),
    order({ method: { id: 'm5', name: 'Link', type: 'NSPKLink' }, requisites: { kind: 'link', holder_name: '', holder_account: 'CODE-42', bank_name: '' } }),
    order({ method: { id: 'm6', name: 'Abroad', type: 'TransSBP' }, requisites: { kind: 'phone', holder_name: 'Иван И.', holder_account: '+79001234567', bank_name: '' } }),
    order({ method: { id: 'm7', name: 'Abroad card', type: 'TransBankCard' } }),
    order({ method: { id: 'm8', name: 'Their own name', type: 'Other' }, requisites: null, payment_link: link }),
  ];
}
