// app/checkout/take-over.tsx
'use client';
// Loads the element's script in the browser: <paydesk-checkout> takes the server-rendered order
// over (its session attribute: a GET of that session, no second POST /sessions).
import 'paydesk';

export function TakeOver() {
  return null;
}
