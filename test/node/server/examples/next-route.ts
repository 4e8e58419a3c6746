// app/api/paydesk/[...path]/route.ts: a Next.js App Router route handler.
import { toNextRouteHandlers } from '../../../../src/server/index.js';
import { handler } from './handler.js';

export const { GET, POST, OPTIONS } = toNextRouteHandlers(handler);
export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';
