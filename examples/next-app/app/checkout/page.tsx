// app/checkout/page.tsx: the server-rendered checkout (needs @lit-labs/ssr installed)
import { cookies, headers } from 'next/headers';
import { connection } from 'next/server';
import { renderCheckout } from 'paydesk/ssr';
import { handler } from '../../paydesk.ts';
import { TakeOver } from './take-over.tsx';

// Rendered whole on each request: the requisites are in the first HTML, not in a <Suspense> part
// that only a script would reveal.
export const instant = false;

export default async function CheckoutPage() {
  const cart = (await cookies()).get('cart')?.value; // proxy.ts gives every shopper one
  if (!cart) throw new Error('no cart cookie: is proxy.ts in place?');
  const incoming = await headers();
  // The page's request, as resolveOrder and getClientAddress read it.
  const request = new Request(`http://${incoming.get('host')}/checkout`, { method: 'POST', headers: new Headers(incoming) });
  await connection(); // the order is made at request time, never while prerendering
  // One order for this purchase (the cart): a reload or a second tab gets the same; once it has
  // ended unpaid, the next call makes the next one (a paid or disputed order stays).
  const created = await handler.createSession({ order_ref: 'coffee-beans', method_type: 'SBP' }, request, { purchase: `${cart}-coffee-beans` });
  const checkout = renderCheckout({
    endpoint: '/api/paydesk',
    ...created,
    locale: 'ru',
    userAgent: incoming.get('user-agent') ?? undefined, // a phone gets the phone's layout
  });
  return (
    <main>
      <h1>Coffee beans, 1 kg</h1>
      {/* The element with its shadow root, as HTML: React leaves it as it is when it hydrates. */}
      <div dangerouslySetInnerHTML={{ __html: checkout }} suppressHydrationWarning />
      <TakeOver />
    </main>
  );
}
