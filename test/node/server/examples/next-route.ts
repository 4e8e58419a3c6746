// app/api/paydesk/[...path]/route.ts: a Next.js App Router route handler. No socket reaches it:
// the handler was created with getClientAddress: (req) => req.headers.get('x-real-ip') ?? undefined.
import { toNextRouteHandlers } from '../../../../src/server/index.js';
import { handler } from './handler.js';

export const { GET, POST, OPTIONS } = toNextRouteHandlers(handler);
