// The code panel: the exact integration code for what the storefront shows, and a tiny highlighter
// that builds DOM nodes (never innerHTML).

const ORDER = ['endpoint', 'order-ref', 'mode', 'method-type', 'button-name', 'locale', 'theme'];

function attrLines(attributes, indent) {
  return ORDER.filter((name) => attributes[name] !== undefined).map((name) => `${indent}${name}="${attributes[name]}"`);
}

function element(attributes, indent = '') {
  return [`${indent}<paydesk-checkout`, ...attrLines(attributes, `${indent}  `), `${indent}></paydesk-checkout>`].join('\n');
}

const REACT_PROPS = { endpoint: 'endpoint', 'order-ref': 'orderRef', mode: 'mode', 'method-type': 'methodType', 'button-name': 'buttonName', locale: 'locale', theme: 'theme' };

function html(ctx) {
  const { origin, display, attributes } = ctx;
  const script = `<script type="module" src="${origin}/paydesk.js"></script>`;
  if (display === 'modal') {
    return [
      script,
      '',
      '<button id="buy" type="button">Buy</button>',
      '<dialog id="checkout">',
      element(attributes, '  '),
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
  return [script, '', element(attributes)].join('\n');
}

function cdn(ctx) {
  const { origin, attributes, cdn: info } = ctx;
  const integrity = info?.integrity ? `\n  integrity="${info.integrity}"\n  crossorigin="anonymous"` : '';
  return [
    '<!-- dist/cdn/paydesk.iife.js from `npm run build`: a classic script, works under',
    "     Content-Security-Policy: script-src 'self' (no inline code, no eval) -->",
    `<script src="${origin}/cdn/paydesk.iife.js"${integrity}></script>`,
    '',
    element(attributes),
  ].join('\n');
}

function server(ctx) {
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

function react(ctx) {
  const props = ORDER.filter((n) => ctx.attributes[n] !== undefined).map((n) => `      ${REACT_PROPS[n]}="${ctx.attributes[n]}"`);
  return [
    "import { PaydeskCheckout } from 'paydesk/react';",
    '',
    'export function Checkout() {',
    '  return (',
    '    <PaydeskCheckout',
    ...props,
    "      onPaydeskPaid={(e) => console.log('paid', e.detail.order.id)}",
    '    />',
    '  );',
    '}',
  ].join('\n');
}

export function integrationCode(tab, ctx) {
  switch (tab) {
    case 'cdn':
      return cdn(ctx);
    case 'server':
      return server(ctx);
    case 'react':
      return react(ctx);
    default:
      return html(ctx);
  }
}

const TOKEN = /(<!--[\s\S]*?-->|(?<![:\w\/'\"`])\/\/[^\n]*)|(<\/?[a-zA-Z][\w-]*|\/?>)|([a-zA-Z][\w-]*)(?==)|("[^"\n]*"|'[^'\n]*'|`[^`\n]*`)/g;

/** Splits code into text nodes and <span class="tok-…"> nodes. */
export function highlight(text) {
  const nodes = [];
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
