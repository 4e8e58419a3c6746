import { useState } from 'react';
import { PaydeskCheckout, type PaydeskEventMap, type PaydeskLocale } from 'paydesk/react';

const products = {
  'coffee-beans': 'Coffee beans, 1 kg',
  'green-tea': 'Green tea, 250 g',
} as const;
type ProductRef = keyof typeof products;

const params = new URLSearchParams(location.search);
const first = params.get('product');
const initial: ProductRef = first !== null && first in products ? (first as ProductRef) : 'coffee-beans';
// `?lang=kk` shows the checkout in Kazakh (its language table is fetched on demand); default: the page's lang.
// A query string is any text: the element shows a language it does not ship in English.
const locale = (params.get('lang') ?? undefined) as PaydeskLocale | undefined;
// The token endpoint: this origin's /api/paydesk (the Vite proxy in development). For an API on another
// origin, build with VITE_PAYDESK_ENDPOINT=https://api.shop.example/api/paydesk and list this page's
// origin in the handler's allowedOrigins.
const endpoint: string = import.meta.env.VITE_PAYDESK_ENDPOINT ?? '/api/paydesk';

export function App() {
  const [paidOrder, setPaidOrder] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);

  // The handler's event is the element's typed CustomEvent: e.detail.order is an OrderView.
  const onError = (e: PaydeskEventMap['paydesk-error']) => setProblem(`${e.detail.code}: ${e.detail.message}`);

  return (
    <main>
      <h1>{products[initial]}</h1>
      {paidOrder ? (
        <p role="status" id="paid">
          Paid: order {paidOrder}
        </p>
      ) : (
        <PaydeskCheckout
          endpoint={endpoint}
          orderRef={initial}
          methodType="SBP"
          locale={locale}
          onPaydeskPaid={(e) => setPaidOrder(e.detail.order.id)}
          onPaydeskError={onError}
        />
      )}
      {problem && <p role="alert">{problem}</p>}
    </main>
  );
}
