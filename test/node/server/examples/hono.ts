// app.ts: Hono (with @hono/node-server, Bun or Deno).
import { Hono } from 'hono';
import { toHonoHandler } from '../../../../src/server/index.js';
import { handler } from './handler.js';

export const app = new Hono();
app.all('/api/paydesk/*', toHonoHandler(handler)); // or: (c) => handler(c.req.raw)
// serve({ fetch: app.fetch, port: 3000, hostname: '127.0.0.1' });
