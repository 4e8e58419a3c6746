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
