/**
 * The storefront's code panel: the exact integration code for what the page shows, and a tiny
 * highlighter that builds DOM nodes (never innerHTML).
 */
import type { IntegrationMode } from '../../../src/protocol/index.js';

/** The element's attributes, in the order the code shows them. */
export const ATTRIBUTE_ORDER = ['endpoint', 'order-ref', 'mode', 'method-type', 'button-name', 'locale', 'theme'] as const;
export type WidgetAttribute = (typeof ATTRIBUTE_ORDER)[number];
export type WidgetAttributes = Partial<Record<WidgetAttribute, string>>;

const REACT_PROPS: Record<WidgetAttribute, string> = {
  endpoint: 'endpoint',
  'order-ref': 'orderRef',
  mode: 'mode',
  'method-type': 'methodType',
  'button-name': 'buttonName',
  locale: 'locale',
  theme: 'theme',
};

export type CodeTab = 'html' | 'cdn' | 'server' | 'react';
export const CODE_TABS: readonly CodeTab[] = ['html', 'cdn', 'server', 'react'];

export interface CodeContext {
  origin: string;
  display: 'inline' | 'modal' | 'server';
  mode: IntegrationMode;
  attributes: WidgetAttributes;
  product: { ref: string; amount: string };
  cdn: { available: boolean; integrity: string | null } | null;
}

const given = (attributes: WidgetAttributes) => ATTRIBUTE_ORDER.filter((name) => attributes[name] !== undefined);

function element(attributes: WidgetAttributes, indent = ''): string {
  return [`${indent}<paydesk-checkout`, ...given(attributes).map((n) => `${indent}  ${n}="${attributes[n]}"`), `${indent}></paydesk-checkout>`].join('\n');
}

/** The server-rendered page (display `server`): the page's server creates the order and renders it into the HTML. */
function serverPage(ctx: CodeContext): string {
  const method = ctx.attributes['method-type'] ? `, method_type: '${ctx.attributes['method-type']}'` : ctx.attributes['button-name'] ? `, button_name: '${ctx.attributes['button-name']}'` : `, method_type: 'SBP'`;
  return [
    "// The checkout page's route on your server (Express here); `handler` as in the Server tab.",
    "import { renderCheckout } from 'paydesk/ssr';",
    '',
    "app.get('/checkout/:cart', async (req, res) => {",
    '  const cart = req.params.cart;',
    '  // The cart is the order_ref and the Idempotency-Key: a reload answers the same order, never a second.',
    "  const request = new Request(`https://shop.example${req.url}`, { headers: { 'Idempotency-Key': cart } });",
    `  const created = await handler.createSession({ order_ref: cart${method} }, request);`,
    '  const checkout = renderCheckout({',
    "    endpoint: '/api/paydesk',",
    '    ...created,',
    `    locale: '${ctx.attributes.locale ?? 'ru'}',`,
    "    userAgent: req.get('user-agent'),",
    '  });',
    '  res.type(\'html\').send(`<!doctype html>',
    `<script type="module" src="${ctx.origin}/paydesk.js"></script>`,
    '${checkout}`);',
    '});',
  ].join('\n');
}

function html(ctx: CodeContext): string {
  if (ctx.display === 'server') return serverPage(ctx);
  const script = `<script type="module" src="${ctx.origin}/paydesk.js"></script>`;
  if (ctx.display === 'modal') {
    return [
      script,
      '',
      '<button id="buy" type="button">Buy</button>',
      '<dialog id="checkout">',
      element(ctx.attributes, '  '),
      '</dialog>',
      '',
      '<!-- a module file of your own (no inline script needed) -->',
      `<script type="module" src="/checkout.js"></script>`,
      '',
      '// checkout.js',
      "document.querySelector('#buy').addEventListener('click', () => document.querySelector('#checkout').showModal());",
      "document.addEventListener('paydesk-paid', (e) => console.log('paid', e.detail.order.id));",
    ].join('\n');
  }
  return [script, '', element(ctx.attributes)].join('\n');
}

function cdn(ctx: CodeContext): string {
  const integrity = ctx.cdn?.integrity ? `\n  integrity="${ctx.cdn.integrity}"\n  crossorigin="anonymous"` : '';
  return [
    '<!-- dist/cdn/paydesk.iife.js from `npm run build`: a classic script, works under',
    "     Content-Security-Policy: script-src 'self' (no inline code, no eval) -->",
    `<script src="${ctx.origin}/cdn/paydesk.iife.js"${integrity}></script>`,
    '',
    element(ctx.attributes),
  ].join('\n');
}

function server(ctx: CodeContext): string {
  const modes = ctx.mode === 'h2h' ? '' : `\n  modes: ['h2h', '${ctx.mode}'],`;
  return [
    "// server.mjs — Node 20+, no framework (Express: app.use('/api/paydesk', toExpressMiddleware(handler)))",
    "import http from 'node:http';",
    "import { createCheckoutHandler, toNodeListener } from 'paydesk/server';",
    '',
    'const products = {',
    `  '${ctx.product.ref}': { amount: '${ctx.product.amount}' },`,
    '};',
    '',
    'const handler = createCheckoutHandler({',
    '  provider: { baseUrl: process.env.PAYDESK_PROVIDER_URL, apiKey: process.env.PAYDESK_API_KEY },',
    '  sessionSecrets: [process.env.PAYDESK_SESSION_SECRET], // 32+ random characters',
    '  webhookUrl: `https://shop.example/api/paydesk/webhooks`,' + modes,
    '  // The price is decided here, never by the browser.',
    '  resolveOrder: (ref) => products[ref] ?? null,',
    "  onOrderPaid: ({ order }) => console.log('paid', order.client_order_id),",
    '});',
    '',
    'http',
    '  .createServer((req, res) =>',
    "    req.url.startsWith('/api/paydesk/') ? toNodeListener(handler)(req, res) : res.writeHead(404).end(),",
    '  )',
    "  .listen(3000, '127.0.0.1');",
  ].join('\n');
}

function react(ctx: CodeContext): string {
  return [
    "import { PaydeskCheckout } from 'paydesk/react';",
    '',
    'export function Checkout() {',
    '  return (',
    '    <PaydeskCheckout',
    ...given(ctx.attributes).map((n) => `      ${REACT_PROPS[n]}="${ctx.attributes[n]}"`),
    "      onPaydeskPaid={(e) => console.log('paid', e.detail.order.id)}",
    '    />',
    '  );',
    '}',
  ].join('\n');
}

export function integrationCode(tab: CodeTab, ctx: CodeContext): string {
  switch (tab) {
    case 'cdn':
      return cdn(ctx);
    case 'server':
      return server(ctx);
    case 'react':
      return react(ctx);
    case 'html':
      return html(ctx);
  }
}

const TOKEN = /(<!--[\s\S]*?-->|(?<![:\w/'"`])\/\/[^\n]*)|(<\/?[a-zA-Z][\w-]*|\/?>)|([a-zA-Z][\w-]*)(?==)|("[^"\n]*"|'[^'\n]*'|`[^`\n]*`)/g;

/** Splits code into text nodes and `<span class="tok-…">` nodes. */
export function highlight(text: string): Node[] {
  const nodes: Node[] = [];
  let last = 0;
  for (const m of text.matchAll(TOKEN)) {
    if (m.index > last) nodes.push(document.createTextNode(text.slice(last, m.index)));
    const span = document.createElement('span');
    span.className = m[1] ? 'tok-com' : m[2] ? 'tok-tag' : m[3] ? 'tok-attr' : 'tok-str';
    span.textContent = m[0];
    nodes.push(span);
    last = m.index + m[0].length;
  }
  if (last < text.length) nodes.push(document.createTextNode(text.slice(last)));
  return nodes;
}
