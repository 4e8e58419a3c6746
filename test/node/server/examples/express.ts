// app.ts: Express 5. Mount paydesk before any body parser (webhook signatures need the raw body).
import express from 'express';
import { toExpressMiddleware } from '../../../../src/server/index.js';
import { handler } from './handler.js';

export const app = express();
app.use('/api/paydesk', toExpressMiddleware(handler));
app.use(express.json());
app.get('/', (_req, res) => {
  res.send('the shop');
});
// app.listen(3000, '127.0.0.1');
