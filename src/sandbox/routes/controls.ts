/**
 * Scenario controls under `/sandbox` (same `X-API-Key` as the API; each acts on the caller's terminal,
 * except the clock, which is the whole sandbox's).
 */
import { readFile } from 'node:fs/promises';
import type { Hono } from 'hono';
import { z } from 'zod';
import { BUTTON_NAMES } from '../../provider/facts.js';
import { HttpUrl, RequestAmount } from '../../provider/schemas.js';
import { TERMINAL_CURRENCIES, defaultOpeningBalance } from '../currencies.js';
import { SandboxHttpError } from '../errors.js';
import { isoMillis } from '../format.js';
import { topUp } from '../ledger.js';
import { normalizeAmount } from '../orders.js';
import { contentDisposition } from '../receipts.js';
import { balanceJson, disputeDetailJson, orderJson, sessionJson } from '../serialize.js';
import type { Terminal } from '../terminal.js';
import { parseBody, readJsonObject, type AppContext, type SandboxContext, type SandboxEnv } from './context.js';

const EmptyBody = z.strictObject({});
const CompleteBody = z.strictObject({ late: z.boolean().optional() });

/**
 * Headers of a served receipt: its proven type, never sniffed, no script may run and no page may
 * frame it; images inline (a console can show them), PDFs (and `?download=1`) as downloads.
 */
export const RECEIPT_CSP = "default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'; sandbox";
const AdvanceBody = z.strictObject({
  seconds: z.number().finite().min(0, 'must be zero or more').max(10 * 365 * 24 * 3600, 'must be at most ten years'),
});
const TopUpBody = z.strictObject({ amount: RequestAmount });
const ProcessDisputeBody = z.strictObject({ accepted: z.boolean().optional() });
const SeedBody = z.strictObject({
  count: z.number().int().min(1).max(200_000),
  hours: z.number().positive().max(24 * 365).optional(),
});
export const TerminalUpdateBody = z.strictObject({
  name: z.string().min(1).max(100).optional(),
  webhook_url: HttpUrl.nullable().optional(),
  integration_type: z.enum(['plain', 'order_with_form']).optional(),
  form_activated: z.boolean().optional(),
  enabled_buttons: z.array(z.enum(BUTTON_NAMES)).optional(),
  /** A new currency starts the terminal's data afresh (one terminal = one currency). */
  currency: z.enum(TERMINAL_CURRENCIES).optional(),
  auto_pay_after_seconds: z.number().int().min(1).max(86_400).nullable().optional(),
  rate_limit_per_minute: z.number().int().min(1).max(100_000).nullable().optional(),
  anti_fraud_pending_limit: z.number().int().min(1).max(1_000).optional(),
});

/** An optional JSON body: empty means `{}`. */
function optionalBody(c: SandboxContext): Promise<Record<string, unknown>> {
  return readJsonObject(c, { optional: true });
}

export function terminalJson(t: Terminal) {
  const s = t.settings;
  return {
    terminal_id: t.id,
    name: s.name,
    currency: s.currency,
    integration_type: s.integrationType,
    form_activated: s.formActivated,
    enabled_buttons: s.enabledButtons,
    webhook_url: s.webhookUrl,
    webhook_secret: t.webhookSecret,
    rate_limit_per_minute: s.rateLimitPerMinute,
    anti_fraud_pending_limit: s.antiFraudPendingLimit,
    auto_pay_after_seconds: s.autoPayAfterSeconds,
    deposit_id: t.depositId,
    client_id: t.clientId,
  };
}

export function registerControlRoutes(app: Hono<SandboxEnv>, ctx: AppContext): void {
  registerOrderControls(app, ctx);
  registerTerminalControls(app, ctx);
}

/** What happens to one order, dispute or form session: paid, cancelled, expired, disputed, decided. */
function registerOrderControls(app: Hono<SandboxEnv>, ctx: AppContext): void {
  const { engine } = ctx;

  // complete: Unpaid → Completed; with {"late": true} also an order that had ended CanceledByTimeout/CanceledByService.
  app.post('/sandbox/orders/:id/complete', async (c) => {
    const body = parseBody(CompleteBody, await optionalBody(c));
    const t = c.get('terminal');
    const order = engine.orders.find(t, c.req.param('id'));
    if (body.late === true) engine.orders.completeLate(t, order, engine.now());
    else engine.orders.transition(t, order, 'Completed', engine.now());
    return c.json({ success: true, message: `Order ${order.status}${order.endedAs ? ` (late, had ended ${order.endedAs})` : ''}`, order: orderJson(order) });
  });
  const orderAction = (status: 'CanceledByService' | 'CanceledByTimeout') => async (c: SandboxContext) => {
    parseBody(EmptyBody, await optionalBody(c));
    const t = c.get('terminal');
    const order = engine.orders.find(t, c.req.param('id')!);
    engine.orders.transition(t, order, status, engine.now());
    return c.json({ success: true, message: `Order ${status}`, order: orderJson(order) });
  };
  app.post('/sandbox/orders/:id/cancel', orderAction('CanceledByService'));
  app.post('/sandbox/orders/:id/expire', orderAction('CanceledByTimeout'));

  // The order's webhook again, with its current status (a new request_id): `paydesk webhooks resend`.
  app.post('/sandbox/orders/:id/webhook', async (c) => {
    parseBody(EmptyBody, await optionalBody(c));
    const t = c.get('terminal');
    const order = engine.orders.find(t, c.req.param('id'));
    if ((order.webhookUrl ?? t.settings.webhookUrl) === null) {
      throw new SandboxHttpError(409, `Order ${order.id} has no webhook URL and the terminal has none: set one (--webhook-url, POST /sandbox/terminal {"webhook_url"}) first`);
    }
    const delivery = engine.sendWebhook(t, order);
    return c.json({ success: true, message: `Webhook of order ${order.id} (${order.status}) sent to ${delivery.url}`, delivery }, 202);
  });

  app.post('/sandbox/orders/:id/dispute', async (c) => {
    parseBody(EmptyBody, await optionalBody(c));
    const t = c.get('terminal');
    const dispute = engine.disputes.open(t, engine.orders.find(t, c.req.param('id')), { source: 'control' });
    return c.json({ success: true, message: 'Dispute opened', dispute: disputeDetailJson(dispute) }, 201);
  });

  app.get('/sandbox/disputes/:id', (c) => {
    const dispute = engine.disputes.find(c.get('terminal'), c.req.param('id'));
    return c.json({ success: true, message: 'Success', dispute: disputeDetailJson(dispute) });
  });

  app.post('/sandbox/disputes/:id/process', async (c) => {
    const body = parseBody(ProcessDisputeBody, await optionalBody(c));
    const t = c.get('terminal');
    const dispute = engine.disputes.find(t, c.req.param('id'));
    engine.disputes.process(t, dispute, body.accepted === true);
    return c.json({ success: true, message: 'Dispute processed', dispute: disputeDetailJson(dispute), deposit: balanceJson(t) });
  });

  // A dispute's receipt, for a console: served as the type its content proved, never as a page.
  app.get('/sandbox/disputes/:id/files/:index', async (c) => {
    const dispute = engine.disputes.find(c.get('terminal'), c.req.param('id'));
    const indexText = c.req.param('index');
    const file = /^\d{1,2}$/.test(indexText) ? dispute.files[Number(indexText)] : undefined;
    if (!file) {
      throw new SandboxHttpError(404, `Dispute ${dispute.id} has no receipt ${JSON.stringify(indexText)}; it has ${dispute.files.length} (0 to ${dispute.files.length - 1})`);
    }
    let bytes = file.data;
    if (!bytes && file.path) {
      try {
        bytes = new Uint8Array(await readFile(file.path));
      } catch (err) {
        throw new SandboxHttpError(410, `The receipt's file ${file.path} cannot be read (${(err as Error).message})`);
      }
    }
    if (!bytes) throw new SandboxHttpError(410, `The receipt ${file.id} is no longer kept`);
    const download = c.req.query('download') === '1' || file.contentType === 'application/pdf';
    return c.body(bytes as Uint8Array<ArrayBuffer>, 200, {
      'Content-Type': file.contentType,
      'Content-Length': String(bytes.byteLength),
      'Content-Disposition': contentDisposition(download ? 'attachment' : 'inline', file.name),
      'X-Content-Type-Options': 'nosniff',
      'Content-Security-Policy': RECEIPT_CSP,
      'X-Frame-Options': 'DENY',
      'Cross-Origin-Resource-Policy': 'same-site',
      'Cache-Control': 'private, no-store',
    });
  });

  const sessionAction = (action: 'confirm' | 'cancel') => async (c: SandboxContext) => {
    parseBody(EmptyBody, await optionalBody(c));
    const t = c.get('terminal');
    const session = t.data.sessionsById.get(c.req.param('id')!);
    if (!session) throw new SandboxHttpError(404, `Form session ${c.req.param('id')} not found on this terminal`);
    if (action === 'confirm') engine.sessions.confirm(session);
    else engine.sessions.cancel(t, session);
    return c.json({ success: true, message: `Session ${session.state}`, session: sessionJson(t, session) });
  };
  app.post('/sandbox/sessions/:id/confirm', sessionAction('confirm'));
  app.post('/sandbox/sessions/:id/cancel', sessionAction('cancel'));

}

/** The whole sandbox's clock, and the terminal's balance, webhook log, settings, reset and bulk seed. */
function registerTerminalControls(app: Hono<SandboxEnv>, ctx: AppContext): void {
  const { engine, clock } = ctx;

  const clockJson = () => ({ success: true, message: 'Success', now: isoMillis(clock.now()), offset_seconds: clock.offsetMs / 1000 });
  app.get('/sandbox/clock', (c) => c.json(clockJson()));
  app.post('/sandbox/clock/advance', async (c) => {
    const body = parseBody(AdvanceBody, await readJsonObject(c));
    clock.advance(body.seconds);
    engine.changed();
    engine.sweep(); // expiries fall due now, and their webhooks go out
    return c.json(clockJson());
  });

  app.post('/sandbox/balance/top-up', async (c) => {
    const body = parseBody(TopUpBody, await readJsonObject(c));
    const t = c.get('terminal');
    topUp(t, normalizeAmount(body.amount, t.digits), engine.now());
    engine.changed();
    return c.json({ success: true, message: 'Balance topped up', deposit: balanceJson(t) });
  });

  app.get('/sandbox/webhooks', (c) => {
    const orderId = c.req.query('order_id');
    const status = c.req.query('status');
    const log = c.get('terminal').data.webhookLog;
    const deliveries = log.filter((d) => (orderId === undefined || d.order_id === orderId) && (status === undefined || d.status === status)).reverse();
    return c.json({ success: true, message: 'Success', deliveries });
  });

  app.post('/sandbox/reset', async (c) => {
    parseBody(EmptyBody, await optionalBody(c));
    const t = c.get('terminal');
    engine.clearTerminal(t);
    ctx.reseed(t);
    return c.json({ success: true, message: 'Terminal reset', terminal: terminalJson(t) });
  });

  app.get('/sandbox/terminal', (c) => c.json({ success: true, message: 'Success', terminal: terminalJson(c.get('terminal')) }));
  app.post('/sandbox/terminal', async (c) => {
    const body = parseBody(TerminalUpdateBody, await readJsonObject(c));
    const t = c.get('terminal');
    const s = t.settings;
    let message = 'Terminal updated';
    if (body.currency !== undefined && body.currency !== s.currency) {
      // One terminal = one currency: its orders, balance and history start afresh in the new one.
      s.currency = body.currency;
      s.openingBalance = /^0+(\.0+)?$/.test(s.openingBalance) ? s.openingBalance : defaultOpeningBalance(body.currency);
      engine.clearData(t);
      ctx.reseed(t);
      message = `Terminal updated; its data starts afresh in ${body.currency}`;
    }
    if (body.name !== undefined) s.name = body.name;
    if (body.webhook_url !== undefined) s.webhookUrl = body.webhook_url;
    if (body.integration_type !== undefined) s.integrationType = body.integration_type;
    if (body.form_activated !== undefined) s.formActivated = body.form_activated;
    if (body.enabled_buttons !== undefined) s.enabledButtons = [...new Set(body.enabled_buttons)];
    if (body.auto_pay_after_seconds !== undefined) s.autoPayAfterSeconds = body.auto_pay_after_seconds;
    if (body.rate_limit_per_minute !== undefined) s.rateLimitPerMinute = body.rate_limit_per_minute;
    if (body.anti_fraud_pending_limit !== undefined) s.antiFraudPendingLimit = body.anti_fraud_pending_limit;
    engine.changed();
    return c.json({ success: true, message, terminal: terminalJson(t) });
  });

  app.post('/sandbox/orders/seed', async (c) => {
    const body = parseBody(SeedBody, await readJsonObject(c));
    const t = c.get('terminal');
    const started = performance.now();
    const count = ctx.seedOrders(t, body.count, body.hours === undefined ? {} : { hours: body.hours });
    return c.json({ success: true, message: `Seeded ${count} orders`, count, ms: Math.round(performance.now() - started) }, 201);
  });
}
