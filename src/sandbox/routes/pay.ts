/**
 * The hosted payment form at `form_url` (`GET /pay?session_id=…`) and the widget protocol it speaks
 * under `/pay/api` (DESIGN.md): no API key, the unguessable session id is the capability. Errors are
 * `{"error": {"code", "message", "retryable"}}`.
 */
import type { Context, Hono } from 'hono';
import { streamSSE } from 'hono/streaming';
import { getConnInfo } from '@hono/node-server/conninfo';
import { z } from 'zod';
import { BUTTON_NAMES, CUSTOMER_BANKS, METHOD_TYPES, PROVIDER_MESSAGES, bankByButtonName, bankByCustomerBank } from '../../provider/facts.js';
import { INTEGRATION_MODES, PROTOCOL_HEADER, ORDER_EVENT, type OrderView, type ProtocolErrorBody } from '../../protocol/index.js';
import { SandboxHttpError } from '../errors.js';
import { formMethods, formUrl, isFinalSessionState } from '../engine.js';
import { methodView, orderView } from '../order-view.js';
import { requisitesKind } from '../catalog.js';
import { isoMillis } from '../format.js';
import type { SessionRecord, Terminal } from '../terminal.js';
import { bodyText, type AppContext, type SandboxEnv } from './context.js';
import { DEFAULT_HOSTED_FORM_LOCALE, MAX_BODY_BYTES, type HostedFormLocale } from '../constants.js';
import { hostedFormLocale } from '../locale.js';

export class ProtocolHttpError extends Error {
  readonly status: number;
  readonly code: string;
  readonly retryable: boolean;
  constructor(status: number, code: string, message: string, retryable = false) {
    super(message);
    this.name = 'ProtocolHttpError';
    this.status = status;
    this.code = code;
    this.retryable = retryable;
  }
  body(): ProtocolErrorBody {
    return { error: { code: this.code, message: this.message, retryable: this.retryable } };
  }
}

const CODE_BY_MESSAGE = new Map<string, string>(Object.entries(PROVIDER_MESSAGES).map(([key, text]) => [text, key]));

/** A provider-style error as the widget protocol writes it. */
export function toProtocolError(err: SandboxHttpError): ProtocolHttpError {
  const key = CODE_BY_MESSAGE.get(err.message);
  if (key === 'no_traders') return new ProtocolHttpError(503, 'no_traders', err.message, true);
  if (key === 'user_pending_limit' || key === 'rate_limited') return new ProtocolHttpError(429, 'rate_limited', err.message, true);
  if (key) return new ProtocolHttpError(err.status, key, err.message, false);
  const code =
    err.status === 422
      ? 'validation_failed'
      : err.status === 404
        ? 'not_found'
        : err.status === 409
          ? 'session_expired'
          : err.status === 413
            ? 'payload_too_large'
            : 'bad_request';
  return new ProtocolHttpError(err.status === 422 ? 400 : err.status, code, err.message, false);
}

const SelectBody = z.object({
  order_ref: z.string().min(1).max(200),
  payment_method_id: z.string().min(1).max(64).nullish(),
  method_type: z.enum(METHOD_TYPES).nullish(),
  nspk_code: z.string().min(1).max(64).nullish(),
  customer_bank: z.enum(CUSTOMER_BANKS).nullish(),
  button_name: z.enum(BUTTON_NAMES).nullish(),
  mode: z.enum(INTEGRATION_MODES).optional(),
});

function clientIp(c: Context): string | null {
  try {
    return getConnInfo(c).remote.address ?? null;
  } catch {
    return null; // in-process requests (app.request) have no socket
  }
}

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch]!);

const CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
].join('; ');

const PAGE_HEADERS = {
  'Content-Security-Policy': CSP,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cache-Control': 'no-store',
};

/** Texts of the plain page (before, or without, the widget): Russian, and English for every other language. */
const TEXTS = {
  ru: {
    shop: 'Магазин',
    order: 'Заказ',
    amount: 'Сумма',
    state: 'Состояние',
    method: 'Способ',
    recipient: 'Получатель',
    card: 'Карта',
    requisites: 'Реквизиты',
    payBy: 'Оплатить до',
    heading: 'Оплата заказа',
    paySbp: 'Оплатить через СБП',
    back: 'Вернуться в магазин',
    support: 'Поддержка',
    title: 'Оплата',
    notFoundTitle: 'Платёж не найден',
    notFoundText: 'Ссылка на оплату неверна или устарела.',
  },
  en: {
    shop: 'Shop',
    order: 'Order',
    amount: 'Amount',
    state: 'State',
    method: 'Method',
    recipient: 'Recipient',
    card: 'Card',
    requisites: 'Requisites',
    payBy: 'Pay by',
    heading: 'Order payment',
    paySbp: 'Pay with SBP',
    back: 'Back to the shop',
    support: 'Support',
    title: 'Payment',
    notFoundTitle: 'Payment not found',
    notFoundText: 'The payment link is wrong or has expired.',
  },
} as const;
type Texts = (typeof TEXTS)[keyof typeof TEXTS];

/** The page's language: the one asked for, else the provider's default. */
interface PageLanguage {
  /** `lang` of the page and the widget's `locale`. */
  lang: HostedFormLocale;
  /** Whether the visitor asked for it (`?lang=` or `Accept-Language`); only then the element gets `locale`. */
  requested: boolean;
  /** Language of the plain texts, and the texts. */
  textLang: keyof typeof TEXTS;
  t: Texts;
}

function pageLanguage(c: Context): PageLanguage {
  const asked = hostedFormLocale(c.req.query('lang'), c.req.header('accept-language'));
  const lang = asked ?? DEFAULT_HOSTED_FORM_LOCALE;
  const textLang = lang === 'ru' ? 'ru' : 'en';
  return { lang, requested: asked !== null, textLang, t: TEXTS[textLang] };
}

function page(title: string, body: string, lang: string): string {
  return `<!doctype html>
<html lang="${escapeHtml(lang)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<script type="module" src="/pay/paydesk.js"></script>
</head>
<body>
${body}
</body>
</html>
`;
}

/** Plain details shown until (or unless) the widget script upgrades the element. */
function fallback(terminal: Terminal, s: SessionRecord, l: PageLanguage): string {
  const t = l.t;
  const rows: [string, string][] = [
    [t.shop, terminal.settings.name],
    [t.order, s.clientOrderId],
    [t.amount, `${s.amount} RUB`],
    [t.state, s.state],
  ];
  const o = s.order;
  if (o) {
    rows.push([t.method, o.method.name], [t.recipient, o.holderName], [requisitesKind(o.method.type) === 'card' ? t.card : t.requisites, o.holderAccount]);
    rows.push([t.payBy, isoMillis(o.expiresMs)]);
  }
  const list = rows.map(([k, v]) => `<dt>${escapeHtml(k)}</dt><dd>${escapeHtml(v)}</dd>`).join('');
  const link = o?.paymentLink ? `<p><a href="${escapeHtml(o.paymentLink)}" rel="noopener">${escapeHtml(t.paySbp)}</a></p>` : '';
  const back = s.returnUrl ? `<p><a href="${escapeHtml(s.returnUrl)}">${escapeHtml(t.back)}</a></p>` : '';
  const support = s.supportUrl ? `<p><a href="${escapeHtml(s.supportUrl)}" rel="noopener">${escapeHtml(t.support)}</a></p>` : '';
  const langAttr = l.textLang === l.lang ? '' : ` lang="${l.textLang}"`;
  return `<div class="paydesk-fallback"${langAttr}><h1>${escapeHtml(t.heading)}</h1><dl>${list}</dl>${link}${back}${support}</div>`;
}

export function registerPayRoutes(app: Hono<SandboxEnv>, ctx: AppContext): void {
  const { engine } = ctx;

  const sessionOr = (id: string | undefined, code: string): { terminal: Terminal; session: SessionRecord } => {
    const found = id ? engine.findSession(id) : undefined;
    if (!found) throw new ProtocolHttpError(404, code, 'Unknown payment session');
    engine.processDue(found.terminal);
    return found;
  };
  const view = (c: Context, terminal: Terminal, s: SessionRecord): OrderView =>
    orderView(s.order!, s, terminal.settings.integrationType === 'order_with_form' ? null : formUrl(ctx.baseUrl(c.req.url), s.id));
  const serverTime = () => isoMillis(engine.now());

  // The page's language: `?lang=` on form_url, else Accept-Language, else Russian (see locale.ts).
  app.get('/pay', (c) => {
    const l = pageLanguage(c);
    const headers = { ...PAGE_HEADERS, 'Content-Language': l.lang, Vary: 'Accept-Language' };
    const id = c.req.query('session_id');
    const found = id ? engine.findSession(id) : undefined;
    if (!found) {
      const body = `<main${l.textLang === l.lang ? '' : ` lang="${l.textLang}"`}><h1>${escapeHtml(l.t.notFoundTitle)}</h1><p>${escapeHtml(l.t.notFoundText)}</p></main>`;
      return c.html(page(l.t.notFoundTitle, body, l.lang), 404, headers);
    }
    const { terminal, session } = found;
    engine.processDue(terminal);
    engine.noteVisitor(session, clientIp(c));
    const attr = session.order ? `session="${escapeHtml(session.id)}"` : `order-ref="${escapeHtml(session.id)}"`;
    // Without a preference the element follows the page's lang (the provider's default language).
    const locale = l.requested ? ` locale="${l.lang}"` : '';
    const body = `<main><paydesk-checkout endpoint="/pay/api" ${attr}${locale}>${fallback(terminal, session, l)}</paydesk-checkout></main>`;
    return c.html(page(`${l.t.title} — ${terminal.settings.name}`, body, l.lang), 200, headers);
  });

  app.get('/pay/paydesk.js', async (c) => {
    const script = ctx.widgetScript ? await ctx.widgetScript() : null;
    if (script === null) return c.text('// The paydesk widget script is not available in this sandbox.\n', 404, { 'Content-Type': 'text/javascript; charset=utf-8' });
    return c.body(script, 200, { 'Content-Type': 'text/javascript; charset=utf-8', 'Cache-Control': 'no-cache', 'X-Content-Type-Options': 'nosniff' });
  });

  // The widget's language tables, loaded relative to /pay/paydesk.js.
  app.get('/pay/chunks/:file', async (c) => {
    const file = c.req.param('file');
    const code = /^[a-z0-9][a-z0-9_-]{0,63}\.js$/.test(file) && ctx.widgetFile ? await ctx.widgetFile(`chunks/${file}`) : null;
    if (code === null) return c.text('// No such widget file.\n', 404, { 'Content-Type': 'text/javascript; charset=utf-8' });
    return c.body(code, 200, { 'Content-Type': 'text/javascript; charset=utf-8', 'Cache-Control': 'no-cache', 'X-Content-Type-Options': 'nosniff' });
  });

  // GET /methods?order_ref=S: active Buy methods whose range holds the session's amount.
  app.get('/pay/api/methods', (c) => {
    const { session } = sessionOr(c.req.query('order_ref'), 'order_not_found');
    const bank =
      (session.buttonName ? bankByButtonName(session.buttonName) : undefined) ??
      (session.customerBank && !session.selection ? bankByCustomerBank(session.customerBank) : undefined);
    const methods = formMethods(session.requestedAmount, bank?.nspkCode ?? null)
      .map((m) => methodView(m, session.requestedAmount))
      .filter((m) => m !== null);
    return c.json({ methods, amount: session.requestedAmount, currency: 'RUB' });
  });

  // POST /sessions: the shopper picks a method; the session's order is created (or the existing one returned).
  app.post('/pay/api/sessions', async (c) => {
    if (c.req.header(PROTOCOL_HEADER) !== '1') {
      throw new ProtocolHttpError(403, 'missing_protocol_header', `Every POST needs the header ${PROTOCOL_HEADER}: 1`);
    }
    const text = await bodyText(c);
    if (text.length > MAX_BODY_BYTES) throw new ProtocolHttpError(413, 'payload_too_large', 'Request body is too large');
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch {
      throw new ProtocolHttpError(400, 'bad_request', 'Request body must be a JSON object');
    }
    const parsed = SelectBody.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw new ProtocolHttpError(400, 'validation_failed', `${issue.path.join('.') || 'body'}: ${issue.message}`);
    }
    const { terminal, session } = sessionOr(parsed.data.order_ref, 'order_not_found');
    engine.noteVisitor(session, clientIp(c));
    engine.selectInSession(terminal, session, parsed.data, { baseUrl: ctx.baseUrl(c.req.url) });
    return c.json({ session: session.id, order: view(c, terminal, session), server_time: serverTime() }, 201);
  });

  app.get('/pay/api/sessions/:s', (c) => {
    const { terminal, session } = sessionOr(c.req.param('s'), 'session_invalid');
    if (!session.order) throw new ProtocolHttpError(404, 'order_not_found', 'No payment method has been chosen in this session yet');
    return c.json({ order: view(c, terminal, session), server_time: serverTime() });
  });

  // Extension: the shopper says the money is sent (requisites_found → payment_confirmation).
  app.post('/pay/api/sessions/:s/confirm', (c) => {
    if (c.req.header(PROTOCOL_HEADER) !== '1') {
      throw new ProtocolHttpError(403, 'missing_protocol_header', `Every POST needs the header ${PROTOCOL_HEADER}: 1`);
    }
    const { terminal, session } = sessionOr(c.req.param('s'), 'session_invalid');
    engine.confirmSession(terminal, session);
    return c.json({ order: view(c, terminal, session), server_time: serverTime(), state: session.state });
  });

  // SSE: event `order` with the OrderView on every change; closes after a final state.
  app.get('/pay/api/sessions/:s/events', (c) => {
    const { terminal, session } = sessionOr(c.req.param('s'), 'session_invalid');
    return streamSSE(c, async (stream) => {
      let wake: (() => void) | null = null;
      let aborted = false;
      const unsubscribe = engine.subscribeSession(session.id, () => wake?.());
      stream.onAbort(() => {
        aborted = true;
        wake?.();
      });
      let last = '';
      let n = 0;
      try {
        while (!aborted) {
          if (engine.findSession(session.id)?.session !== session) break; // reset meanwhile
          engine.processDue(terminal);
          if (session.order) {
            const v = view(c, terminal, session);
            const data = JSON.stringify(v);
            if (data !== last) {
              await stream.writeSSE({ event: ORDER_EVENT, data, id: String(++n) });
              last = data;
            }
            if (v.status !== 'pending') break;
          } else if (isFinalSessionState(session.state)) {
            break;
          }
          let timer: NodeJS.Timeout | undefined;
          const woke = await new Promise<boolean>((resolve) => {
            wake = () => resolve(true);
            timer = setTimeout(() => resolve(false), 15_000);
          });
          clearTimeout(timer);
          wake = null;
          if (!woke && !aborted) await stream.write(': keep-alive\n\n');
        }
      } finally {
        unsubscribe();
      }
    });
  });
}

/** Converts errors on `/pay/api` routes to the widget protocol's error body. */
export function protocolErrorResponse(c: Context, err: unknown): Response | null {
  if (!c.req.path.startsWith('/pay/api')) return null;
  const e = err instanceof ProtocolHttpError ? err : err instanceof SandboxHttpError ? toProtocolError(err) : null;
  if (!e) return null;
  return c.json(e.body(), e.status as 400);
}
