// proxy.ts: a cart id for each shopper, in a cookie (a real shop has one already)
import { NextResponse, type NextRequest } from 'next/server';

export function proxy(request: NextRequest) {
  if (request.cookies.has('cart')) return NextResponse.next();
  const cart = crypto.randomUUID();
  // The page of this request reads it too: add it to the request's cookies, then to the response's.
  const headers = new Headers(request.headers);
  headers.set('cookie', [request.headers.get('cookie'), `cart=${cart}`].filter(Boolean).join('; '));
  const response = NextResponse.next({ request: { headers } });
  response.cookies.set('cart', cart, { httpOnly: true, sameSite: 'lax', path: '/' });
  return response;
}

export const config = { matcher: '/checkout' };
