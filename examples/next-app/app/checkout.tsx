// app/checkout.tsx
'use client';
import { PaydeskCheckout } from 'paydesk/react';

export function Checkout({ orderRef }: { orderRef: string }) {
  return <PaydeskCheckout endpoint="/api/paydesk" orderRef={orderRef} methodType="SBP" />;
}
