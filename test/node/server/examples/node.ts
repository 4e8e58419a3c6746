// server.ts: Node's own http module.
import http from 'node:http';
import { toNodeListener } from '../../../../src/server/index.js';
import { handler } from './handler.js';

const paydesk = toNodeListener(handler);

export const server = http.createServer((req, res) => {
  if (req.url?.startsWith('/api/paydesk/')) return paydesk(req, res);
  res.writeHead(404).end();
});
// server.listen(3000, '127.0.0.1');
