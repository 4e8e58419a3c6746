/**
 * The hosted payment page at `form_url` (`GET /pay?session_id=…`): a plain page whose
 * `<paydesk-checkout>` speaks the widget protocol under `/pay/api`, its stylesheet, the widget's
 * script and the language tables it loads. The plain details inside the element show until (or
 * unless) the widget script upgrades it, in the widget's own words (its tables in src/element/i18n).
 */
import type { Context, Hono } from 'hono';
import { formatMoney } from '../../money/index.js';
import type { Messages } from '../../element/i18n/types.js';
import { fill } from '../../element/i18n/text.js';
import az from '../../element/i18n/az.js';
import be from '../../element/i18n/be.js';
import en from '../../element/i18n/en.js';
import hy from '../../element/i18n/hy.js';
import kk from '../../element/i18n/kk.js';
import ky from '../../element/i18n/ky.js';
import ru from '../../element/i18n/ru.js';
import tg from '../../element/i18n/tg.js';
import uk from '../../element/i18n/uk.js';
import uz from '../../element/i18n/uz.js';
import { DEFAULT_HOSTED_FORM_LOCALE, type HostedFormLocale } from '../constants.js';
import { hostedFormLocale } from '../locale.js';
import { requisitesKind } from '../payment-methods.js';
import type { SessionRecord } from '../records.js';
import type { Terminal } from '../terminal.js';
import type { AppContext, SandboxEnv } from './context.js';
import { clientIp } from './pay-session.js';

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

/**
 * The shopper's texts of the plain page are the widget's own (src/element/i18n), in every language
 * the widget has: one home for shopper-facing text. Each table is complete (typed `Messages`).
 */
const TABLES: Readonly<Record<HostedFormLocale, Messages>> = { ru, en, kk, uz, hy, az, ky, be, uk, tg };

/** The page's language: the one asked for, else the provider's default. */
interface PageLanguage {
  /** `lang` of the page and the widget's `locale`. */
  lang: HostedFormLocale;
  /** Whether the visitor asked for it (`?lang=` or `Accept-Language`); only then the element gets `locale`. */
  requested: boolean;
  /** The widget's texts in that language. */
  m: Messages;
}

function pageLanguage(c: Context): PageLanguage {
  const asked = hostedFormLocale(c.req.query('lang'), c.req.header('accept-language'));
  const lang = asked ?? DEFAULT_HOSTED_FORM_LOCALE;
  return { lang, requested: asked !== null, m: TABLES[lang] };
}

/** A moment in the page's language, in UTC (the server does not know the shopper's time zone), saying so. */
function formatDeadline(ms: number, lang: string): string {
  return new Intl.DateTimeFormat(lang, { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' }).format(ms) + ' UTC';
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

/**
 * Plain details shown until (or unless) the widget script upgrades the element, in the widget's
 * words. The session's state is for developers: it is in `data-state`, not in the text.
 */
function fallback(terminal: Terminal, s: SessionRecord, l: PageLanguage): string {
  const { m, lang } = l;
  const rows: [string, string][] = [
    [m.orderLabel, s.clientOrderId],
    [m.toPay, formatMoney(s.amount, terminal.currency, lang)],
  ];
  const o = s.order;
  if (o) {
    const kind = requisitesKind(o.method.type);
    const label = { card: m.cardLabel, phone: m.phoneLabel, account: m.accountLabel, link: m.linkLabel }[kind];
    rows.push([m.methodLabel, o.method.name], [m.holderLabel, o.holderName], [label, o.holderAccount]);
  }
  const list = rows.map(([k, v]) => `<dt>${escapeHtml(k)}</dt><dd>${escapeHtml(v)}</dd>`).join('');
  const deadline = o ? `<p>${escapeHtml(fill(m.payBy, { time: formatDeadline(o.expiresMs, lang) }))}</p>` : '';
  const link = o?.paymentLink ? `<p><a href="${escapeHtml(o.paymentLink)}" rel="noopener">${escapeHtml(m.openLink)}</a></p>` : '';
  const back = s.returnUrl ? `<p><a href="${escapeHtml(s.returnUrl)}">${escapeHtml(m.returnToShop)}</a></p>` : '';
  const support = s.supportUrl ? `<p><a href="${escapeHtml(s.supportUrl)}" rel="noopener">${escapeHtml(m.support)}</a></p>` : '';
  const heading = o ? m.payTitle : m.chooseTitle;
  return `<div class="paydesk-fallback" data-state="${escapeHtml(s.state)}"><p>${escapeHtml(terminal.settings.name)}</p><h1>${escapeHtml(heading)}</h1><dl>${list}</dl>${deadline}${link}${back}${support}</div>`;
}

export function registerPayPageRoutes(app: Hono<SandboxEnv>, ctx: AppContext): void {
  const { engine } = ctx;

  // The page's language: `?lang=` on form_url, else Accept-Language, else Russian (see locale.ts).
  app.get('/pay', (c) => {
    const l = pageLanguage(c);
    const theme = pageTheme(c.req.query('theme'));
    const headers = { ...PAGE_HEADERS, 'Content-Language': l.lang, Vary: 'Accept-Language' };
    const id = c.req.query('session_id');
    const found = id ? engine.sessions.find(id) : undefined;
    if (!found) {
      const body = `<main><h1>${escapeHtml(l.m.errorTitle)}</h1><p>${escapeHtml(l.m.errors.session_invalid)}</p></main>`;
      return c.html(page(l.m.errorTitle, body, l.lang, theme), 404, headers);
    }
    const { terminal, session } = found;
    engine.processDue(terminal);
    engine.sessions.noteVisitor(session, clientIp(c));
    const attr = session.order ? `session="${escapeHtml(session.id)}"` : `order-ref="${escapeHtml(session.id)}"`;
    // Without a preference the element follows the page's lang (the provider's default language).
    const locale = l.requested ? ` locale="${l.lang}"` : '';
    const themeAttr = theme ? ` theme="${theme}"` : '';
    const body = `<main><paydesk-checkout endpoint="/pay/api" ${attr}${locale}${themeAttr}>${fallback(terminal, session, l)}</paydesk-checkout></main>`;
    return c.html(page(`${l.m.region} — ${terminal.settings.name}`, body, l.lang, theme, c.req.query('embed') === '1'), 200, headers);
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
}
