/** `GET {endpoint}/methods?order_ref=R`: the methods (and fees) for the order's amount. */
import type { MethodsResponse } from '../../protocol/index.js';
import type { ServerContext } from '../context.js';
import { jsonResponse } from '../http.js';
import { ORDER_REF, validationError } from './body.js';

export async function methodsRoute(ctx: ServerContext, req: Request, url: URL, cors: Record<string, string>): Promise<Response> {
  const parsed = ORDER_REF.safeParse(url.searchParams.get('order_ref') ?? undefined);
  if (!parsed.success) throw validationError(parsed.error, 'order_ref');
  const order = await ctx.core.resolve(parsed.data, req);
  const offers = await ctx.core.offers.for(order);
  const body: MethodsResponse = { methods: offers.map((o) => o.view), amount: order.amount, currency: order.currency };
  return jsonResponse(200, body, cors);
}
