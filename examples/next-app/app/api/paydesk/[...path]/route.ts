// app/api/paydesk/[...path]/route.ts: Next.js App Router
import { toNextRouteHandlers } from 'paydesk/server';
import { handler } from '../../../../paydesk.ts';

export const { GET, POST, OPTIONS } = toNextRouteHandlers(handler);
