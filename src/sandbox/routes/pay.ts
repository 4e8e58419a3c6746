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
import {
  DISPUTE_COMMENT_FIELD,
  DISPUTE_FILES_FIELD,
  DISPUTE_MAX_COMMENT,
  INTEGRATION_MODES,
  ORDER_EVENT,
  PROTOCOL_HEADER,
  isProtocolErrorCode,
  type OrderView,
  type ProtocolErrorBody,
  type ProtocolErrorCode,
} from '../../protocol/index.js';
import { formatMoney } from '../../money/index.js';
import { SandboxHttpError } from '../errors.js';
import { formUrl, isFinalSessionState } from '../form-sessions.js';
import { ENDED_CANCELLED } from '../orders.js';
import { methodView, orderView } from '../order-view.js';
import { requisitesKind } from '../payment-methods.js';
import { isoMillis } from '../format.js';
import { UploadError, formText, readReceipts } from '../receipts.js';
import type { OrderRecord, SessionRecord } from '../records.js';
import type { Terminal } from '../terminal.js';
import { bodyText, noteIgnored, readMultipart, type AppContext, type SandboxContext, type SandboxEnv } from './context.js';
import { DEFAULT_HOSTED_FORM_LOCALE, DISPUTE_LATE_WINDOW_SECONDS, MAX_BODY_BYTES, type HostedFormLocale } from '../constants.js';
import { hostedFormLocale } from '../locale.js';

/** An error of the hosted form's widget protocol; its code is one of PROTOCOL_ERROR_CODES. */
export class ProtocolHttpError extends Error {
  readonly status: number;
  readonly code: ProtocolErrorCode;
  readonly retryable: boolean;
  constructor(status: number, code: ProtocolErrorCode, message: string, retryable = false) {
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

/** A provider-style error as the widget protocol writes it (codes from PROTOCOL_ERROR_CODES only). */
export function toProtocolError(err: SandboxHttpError): ProtocolHttpError {
  const key = CODE_BY_MESSAGE.get(err.message);
  if (key === 'no_traders') return new ProtocolHttpError(503, 'no_traders', err.message, true);
  if (key === 'user_pending_limit' || key === 'rate_limited') return new ProtocolHttpError(429, 'rate_limited', err.message, true);
  if (key && isProtocolErrorCode(key)) return new ProtocolHttpError(err.status, key, err.message, false);
  const code: ProtocolErrorCode =
    err.status === 422
      ? 'validation_failed'
      : err.status === 404
        ? 'not_found'
        : err.status === 409
          ? 'session_expired'
          : err.status === 413
            ? 'payload_too_large'
            : err.status === 401
              ? 'unauthorized'
              : 'bad_request';
  return new ProtocolHttpError(err.status === 422 ? 400 : err.status, code, err.message, false);
}

/** An upload refused, in the widget protocol's codes. */
function uploadRefusal(err: UploadError): ProtocolHttpError {
  switch (err.problem) {
    case 'file_too_large':
    case 'total_too_large':
      return new ProtocolHttpError(413, 'payload_too_large', err.message);
    case 'unsupported_file':
      return new ProtocolHttpError(415, 'unsupported_file', err.message);
    case 'not_multipart':
      return new ProtocolHttpError(415, 'unsupported_media_type', err.message);
    default:
      return new ProtocolHttpError(400, 'validation_failed', err.message);
  }
}

/** The hosted form's colour scheme: `?theme=light|dark` on form_url, else the browser's preference. */
type PageTheme = 'light' | 'dark' | null;
function pageTheme(value: string | undefined): PageTheme {
  return value === 'light' || value === 'dark' ? value : null;
}

/**
 * The page's own stylesheet (the CSP allows no inline style): the background and text follow the
 * theme, so the page around the widget is never white in the dark theme. Colours are the widget's.
 */
export const PAGE_CSS = `:root{color-scheme:light dark}
html{background:#f3f5f9;color:#151922}
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
@media (prefers-color-scheme:dark){html:not([data-theme=light]){background:#0f1115;color:#eef1f6}}
html[data-theme=dark]{background:#0f1115;color:#eef1f6;color-scheme:dark}
html[data-theme=light]{background:#f3f5f9;color:#151922;color-scheme:light}
html[data-theme=dark] a{color:#8db0ff}
html[data-embed],html[data-embed] body{background:transparent}
html[data-embed] body{margin:0}
html[data-embed] paydesk-checkout{max-width:none}
html[data-embed] paydesk-checkout::part(base){border:0;border-radius:0;box-shadow:none;background:transparent;padding:var(--paydesk-spacing,8px) 0}
`;

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

/**
 * `embed`: framed in the widget (`?embed=1`, which the widget adds to form_url): the page drops its
 * own chrome (margins, background, the card's border, shadow and padding), so the shopper sees one
 * card, the widget's.
 */
function page(title: string, body: string, lang: string, theme: PageTheme, embed = false): string {
  return `<!doctype html>
<html lang="${escapeHtml(lang)}"${theme ? ` data-theme="${theme}"` : ''}${embed ? ' data-embed' : ''}>
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
${theme ? `<meta name="color-scheme" content="${theme}">\n` : ''}<title>${escapeHtml(title)}</title>
<link rel="stylesheet" href="/pay/page.css">
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
    [t.amount, formatMoney(s.amount, terminal.currency, l.textLang)],
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

  /** The session of an id (unknown: `session_not_found`; `order_not_found` where the id came as `order_ref`). */
  const sessionOr = (id: string | undefined, code: 'session_not_found' | 'order_not_found'): { terminal: Terminal; session: SessionRecord } => {
    const found = id ? engine.sessions.find(id) : undefined;
    if (!found) throw new ProtocolHttpError(404, code, 'Unknown payment session');
    engine.processDue(found.terminal);
    return found;
  };
  const view = (c: Context, terminal: Terminal, s: SessionRecord): OrderView => {
    const order = s.order!;
    return orderView(order, {
      session: s,
      formUrl: terminal.settings.integrationType === 'order_with_form' ? null : formUrl(ctx.baseUrl(c.req.url), s.id),
      dispute: engine.disputes.latestOf(terminal, order),
      creditedLate: engine.disputes.creditedLate(terminal, order),
    });
  };
  const serverTime = () => isoMillis(engine.now());
  const requireProtocolHeader = (c: Context) => {
    if (c.req.header(PROTOCOL_HEADER) !== '1') {
      throw new ProtocolHttpError(403, 'missing_protocol_header', `Every POST needs the header ${PROTOCOL_HEADER}: 1`);
    }
  };

  // The page's language: `?lang=` on form_url, else Accept-Language, else Russian (see locale.ts).
  app.get('/pay', (c) => {
    const l = pageLanguage(c);
    const theme = pageTheme(c.req.query('theme'));
    const headers = { ...PAGE_HEADERS, 'Content-Language': l.lang, Vary: 'Accept-Language' };
    const id = c.req.query('session_id');
    const found = id ? engine.sessions.find(id) : undefined;
    if (!found) {
      const body = `<main${l.textLang === l.lang ? '' : ` lang="${l.textLang}"`}><h1>${escapeHtml(l.t.notFoundTitle)}</h1><p>${escapeHtml(l.t.notFoundText)}</p></main>`;
      return c.html(page(l.t.notFoundTitle, body, l.lang, theme), 404, headers);
    }
    const { terminal, session } = found;
    engine.processDue(terminal);
    engine.sessions.noteVisitor(session, clientIp(c));
    const attr = session.order ? `session="${escapeHtml(session.id)}"` : `order-ref="${escapeHtml(session.id)}"`;
    // Without a preference the element follows the page's lang (the provider's default language).
    const locale = l.requested ? ` locale="${l.lang}"` : '';
    const themeAttr = theme ? ` theme="${theme}"` : '';
    const body = `<main><paydesk-checkout endpoint="/pay/api" ${attr}${locale}${themeAttr}>${fallback(terminal, session, l)}</paydesk-checkout></main>`;
    return c.html(page(`${l.t.title} — ${terminal.settings.name}`, body, l.lang, theme, c.req.query('embed') === '1'), 200, headers);
  });

  app.get('/pay/page.css', (c) =>
    c.body(PAGE_CSS, 200, { 'Content-Type': 'text/css; charset=utf-8', 'Cache-Control': 'no-cache', 'X-Content-Type-Options': 'nosniff' }),
  );

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
    const { terminal, session } = sessionOr(c.req.query('order_ref'), 'order_not_found');
    const bank =
      (session.buttonName ? bankByButtonName(session.buttonName) : undefined) ??
      (session.customerBank && !session.selection ? bankByCustomerBank(session.customerBank) : undefined);
    const methods = terminal.catalog
      .formMethods(session.requestedAmount, bank?.nspkCode ?? null)
      .map((m) => methodView(m, session.requestedAmount))
      .filter((m) => m !== null);
    return c.json({ methods, amount: session.requestedAmount, currency: terminal.currency });
  });

  // POST /sessions: the shopper picks a method; the session's order is created (or the existing one returned).
  app.post('/pay/api/sessions', async (c) => {
    requireProtocolHeader(c);
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
    engine.sessions.noteVisitor(session, clientIp(c));
    engine.sessions.select(terminal, session, parsed.data);
    return c.json({ session: session.id, order: view(c, terminal, session), server_time: serverTime() }, 201);
  });

  app.get('/pay/api/sessions/:s', (c) => {
    const { terminal, session } = sessionOr(c.req.param('s'), 'session_not_found');
    if (!session.order) throw new ProtocolHttpError(404, 'order_not_found', 'No payment method has been chosen in this session yet');
    return c.json({ order: view(c, terminal, session), server_time: serverTime() });
  });

  // Extension: the shopper says the money is sent (requisites_found → payment_confirmation).
  app.post('/pay/api/sessions/:s/confirm', (c) => {
    requireProtocolHeader(c);
    const { terminal, session } = sessionOr(c.req.param('s'), 'session_not_found');
    engine.sessions.confirm(session);
    return c.json({ order: view(c, terminal, session), server_time: serverTime(), state: session.state });
  });

  /**
   * A shopper may open a dispute while the order is Unpaid, or within the late window after it ended
   * expired or cancelled; never when it is paid, and once while one is open.
   */
  const checkDisputable = (terminal: Terminal, order: OrderRecord): void => {
    if (order.status === 'Completed' || engine.disputes.creditedLate(terminal, order)) {
      throw new ProtocolHttpError(409, 'dispute_not_allowed', 'This order is paid: there is nothing to dispute');
    }
    if (order.status !== 'Unpaid' && !ENDED_CANCELLED.has(order.status)) {
      throw new ProtocolHttpError(409, 'dispute_not_allowed', `This order is ${order.status}: it cannot be disputed here`);
    }
    if (ENDED_CANCELLED.has(order.status) && engine.now() - order.updatedMs > DISPUTE_LATE_WINDOW_SECONDS * 1000) {
      throw new ProtocolHttpError(409, 'dispute_not_allowed', `This order ended more than ${DISPUTE_LATE_WINDOW_SECONDS / 86400} days ago; please contact support`);
    }
    const latest = engine.disputes.latestOf(terminal, order);
    if (latest && !latest.processed) throw new ProtocolHttpError(409, 'dispute_open', 'A dispute for this order is already open; the provider is checking it');
  };

  // The shopper's receipt (DESIGN.md, `POST {endpoint}/sessions/S/dispute`): opens the provider's dispute.
  app.post('/pay/api/sessions/:s/dispute', async (c) => {
    requireProtocolHeader(c);
    const { terminal, session } = sessionOr(c.req.param('s'), 'session_not_found');
    // Whether a dispute may be opened at all is decided before the receipts are read.
    const order = session.order;
    if (!order) throw new ProtocolHttpError(409, 'dispute_not_allowed', 'No payment method has been chosen in this session yet: there is nothing to dispute');
    checkDisputable(terminal, order);
    let form: FormData;
    let comment: string | null;
    try {
      form = await readMultipart(c);
      comment = formText(form, DISPUTE_COMMENT_FIELD)?.trim() || null;
    } catch (err) {
      throw err instanceof UploadError ? uploadRefusal(err) : err;
    }
    if (comment !== null && comment.length > DISPUTE_MAX_COMMENT) {
      throw new ProtocolHttpError(400, 'validation_failed', `${DISPUTE_COMMENT_FIELD}: at most ${DISPUTE_MAX_COMMENT} characters, got ${comment.length}`);
    }
    noteIgnored(c as SandboxContext, [...new Set([...form.keys()].filter((k) => k !== DISPUTE_FILES_FIELD && k !== DISPUTE_COMMENT_FIELD))]);
    let files;
    try {
      files = await readReceipts(form, [DISPUTE_FILES_FIELD]);
    } catch (err) {
      throw err instanceof UploadError ? uploadRefusal(err) : err;
    }
    // The order may have changed while the body was read: check once more before opening.
    engine.processDue(terminal);
    checkDisputable(terminal, order);
    engine.disputes.open(terminal, order, { source: 'form', claimedAmount: order.amount, files, comment });
    return c.json({ order: view(c, terminal, session), server_time: serverTime() }, 201);
  });

  // SSE: event `order` with the OrderView at once and on every change (a dispute's too). It ends
  // after paid; after expired or cancelled it stays open, for a late payment may still arrive.
  app.get('/pay/api/sessions/:s/events', (c) => {
    const { terminal, session } = sessionOr(c.req.param('s'), 'session_not_found');
    return streamSSE(c, async (stream) => {
      let wake: (() => void) | null = null;
      let aborted = false;
      const unsubscribe = engine.sessions.subscribe(session.id, () => wake?.());
      stream.onAbort(() => {
        aborted = true;
        wake?.();
      });
      let last = '';
      let n = 0;
      try {
        while (!aborted) {
          if (engine.sessions.find(session.id)?.session !== session) break; // reset meanwhile
          engine.processDue(terminal);
          if (session.order) {
            const v = view(c, terminal, session);
            const data = JSON.stringify(v);
            if (data !== last) {
              await stream.writeSSE({ event: ORDER_EVENT, data, id: String(++n) });
              last = data;
            }
            if (v.status === 'paid') break;
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
