/**
 * paydesk/ssr `renderCheckout`: the element with its shadow root rendered on the server, from what
 * `handler.createSession` answers against the sandbox. What a browser makes of the HTML (declarative
 * shadow DOM painted with JavaScript off, the element's take-over with it on) is tested in Chromium:
 * test/e2e/ssr.test.ts.
 */
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { createProviderClient } from '../../../src/provider/index.js';
import type { Sandbox } from '../../../src/sandbox/index.js';
import { createCheckoutHandler, type CheckoutHandler } from '../../../src/server/index.js';
import { createHash } from 'node:crypto';
import { checkoutStyleHashes, renderCheckout, type OrderView } from '../../../src/ssr/index.js';
import { formatMoney } from '../../../src/money/index.js';
import { formatAccount } from '../../../src/element/requisites.js';
import { sandboxDeliveringTo } from '../server/fake-provider.js';

const KEY = 'merchant_integration_key_0123456789';
const ENDPOINT = 'http://merchant.test/api/paydesk';

let sandbox: Sandbox;
let handler: CheckoutHandler;
after(async () => {
  await handler?.close();
  await sandbox?.close();
});

function shop(): CheckoutHandler {
  sandbox = sandboxDeliveringTo(KEY, ENDPOINT, () => handler);
  const client = createProviderClient({ baseUrl: 'http://sandbox.test', apiKey: KEY, fetch: (i, init) => sandbox.fetch(new Request(i, init)), maxRetries: 0 });
  handler = createCheckoutHandler({
    provider: { client, apiKey: KEY },
    sessionSecrets: ['ssr-session-secret-0123456789abcdef'],
    webhookSecrets: [sandbox.webhookSecret(KEY)],
    resolveOrder: (ref) => ({ amount: '1500.00', client_order_id: `shop-${ref}` }),
    logger: { warn: () => undefined, error: () => undefined },
    reconcileIntervalSeconds: 0,
  });
  return handler;
}

/** The text a reader sees: tags out, the few references the renderer writes decoded. */
const textOf = (html: string) =>
  html
    .replace(/<style>[\s\S]*?<\/style>/g, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#(\d+);/g, (_, n: string) => String.fromCharCode(Number(n)))
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&');

const order = (over: Partial<OrderView> = {}): OrderView =>
  ({
    id: 'ord_1',
    client_order_id: 'shop-1',
    status: 'pending',
    provider_status: 'pending',
    amount: '1500.00',
    fee: '0.00',
    currency: 'RUB',
    created_at: '2026-11-27T10:00:00Z',
    expires_at: '2026-11-27T10:15:00Z',
    bank: null,
    payment_link: null,
    form_url: null,
    redirect_url: 'https://shop.example/thanks',
    support_url: 'https://shop.example/help',
    return_url: 'https://shop.example/cart',
    requested_amount: null,
    method: { id: 'm1', name: 'Card', type: 'BankCard' },
    requisites: { kind: 'card', holder_name: 'Иван И.', holder_account: '2200700012345678', bank_name: 'Т-Банк' },
    dispute: null,
    late: false,
    ...over,
  }) as OrderView;

describe('renderCheckout', () => {
  test('an SBP order the handler created: the element with its session, and in its shadow root the amount, requisites, recipient bank, pay-by time and QR', async () => {
    const h = shop();
    const created = await h.createSession({ order_ref: 'tee', method_type: 'SBP' });
    const html = renderCheckout({ endpoint: '/api/paydesk', ...created, locale: 'ru' });
    assert.match(html, /^<paydesk-checkout endpoint="\/api\/paydesk" session="[^"]+" locale="ru"><template shadowrootmode="open"><style>/);
    assert.ok(html.includes(` session="${created.session}"`));
    assert.ok(html.endsWith('</template></paydesk-checkout>'));
    const text = textOf(html);
    const { order: o } = created;
    assert.ok(o.requisites, 'the sandbox gives SBP requisites');
    assert.ok(text.includes(formatMoney(o.amount, o.currency, 'ru')), 'the amount, as the element formats it');
    assert.ok(text.includes(formatAccount(o.requisites.holder_account, o.requisites.kind)), 'the account');
    assert.ok(text.includes(o.requisites.holder_name), 'the holder');
    assert.ok(o.requisites.bank_name && text.includes(o.requisites.bank_name), 'the recipient bank');
    assert.match(text, /Оплатите до \d\d:\d\d GMT\+3/, 'the pay-by time in Moscow time, named');
    assert.ok(text.includes(o.client_order_id), 'the order number');
    if (o.payment_link) assert.match(html, /<figure part="qr" class="qr"><h3>[^<]+<\/h3><svg role="img" aria-label="[^"]+" viewBox="-3 -3 \d+ \d+"[^>]*><path d="M/);
    assert.doesNotMatch(html, /<!--lit-|<\?>|<script/i, 'no hydration markers, no script');
    assert.match(html, /<style>[^<]*button,\[part=countdown\]\{display:none\}[^<]*<\/style>/, "the server's buttons and countdown are not shown: only the element's own render makes them work");
  });

  test('text from the provider is escaped, never markup', () => {
    const evil = '"><img src=x onerror=alert(1)><script>alert(2)</script>';
    const html = renderCheckout({
      endpoint: '/api/paydesk',
      session: 's"><script>alert(3)</script>',
      order: order({ requisites: { kind: 'card', holder_name: evil, holder_account: '2200700012345678', bank_name: evil } }),
      server_time: '2026-11-27T10:00:00Z',
      locale: 'en',
    });
    assert.doesNotMatch(html, /<img|<script/i);
    assert.ok(textOf(html).includes(evil), 'shown as text');
  });

  test('the step follows the order: a paid order shows "paid", no countdown; a phone gets the bank apps instead of the QR', () => {
    const paid = renderCheckout({ endpoint: '/api/paydesk', session: 's', order: order({ status: 'paid' }), server_time: '2026-11-27T10:05:00Z', locale: 'en' });
    assert.doesNotMatch(paid, /role="timer"/);
    assert.match(textOf(paid), /Payment received\s+RUB\s1,500\.00 received\. Thank you!/);
    assert.doesNotMatch(textOf(paid), /Returning to the shop in/, 'no redirect count: nothing redirects before the script');
    assert.match(paid, /<a href="https:\/\/shop\.example\/cart">Back to the shop<\/a>/);
    const link = 'https://qr.nspk.ru/AS1000670LSS7DN18SJQDNP4B05KLJL2?type=02&bank=100000000111&sum=150000&cur=RUB&crc=C08B';
    const sbp = { payment_link: link, method: { id: 'm2', name: 'SBP', type: 'SBP' }, requisites: { kind: 'phone' as const, holder_name: 'Иван И.', holder_account: '+79001234567', bank_name: 'Сбербанк' } };
    const desktop = renderCheckout({ endpoint: '/api/paydesk', session: 's', order: order(sbp), server_time: '2026-11-27T10:00:00Z' });
    assert.match(desktop, /<svg role="img"/);
    assert.match(desktop, /role="timer"[^>]*>.*?<span>15:00<\/span>/);
    const phone = renderCheckout({
      endpoint: '/api/paydesk',
      session: 's',
      order: order(sbp),
      server_time: '2026-11-27T10:00:00Z',
      userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
    });
    assert.doesNotMatch(phone, /<svg role="img"/);
    assert.ok(textOf(phone).includes('+7 900 123-45-67') || textOf(phone).includes(formatAccount('+79001234567', 'phone')));
  });

  test('under a strict style-src: the nonce goes on the <style>, and checkoutStyleHashes() are the hashes of the styles written', () => {
    const styles = [order(), order({ status: 'expired' })].map((o) => {
      const html = renderCheckout({ endpoint: '/api/paydesk', session: 's', order: o, server_time: '2026-11-27T10:00:00Z', nonce: 'n0"nce' });
      const m = /<style nonce="n0&#34;nce">([^<]*)<\/style>/.exec(html);
      assert.ok(m, 'the nonce, escaped, on the one <style>');
      return `'sha256-${createHash('sha256').update(m[1]!).digest('base64')}'`;
    });
    assert.deepEqual(checkoutStyleHashes(), styles);
  });

  test("a decided dispute has the element's own heading", () => {
    const dispute = { id: 'd1', status: 'closed', outcome: 'unconfirmed', created_at: '2026-11-27T10:05:00Z' };
    const html = renderCheckout({ endpoint: '/api/paydesk', session: 's', order: order({ status: 'expired', dispute } as never), server_time: '2026-11-27T10:20:00Z', locale: 'en' });
    assert.match(html, /<h2 part="heading"[^>]*>Payment not confirmed<\/h2>/);
  });

  test('a bad option is a TypeError that names it', () => {
    const ok = { endpoint: '/api/paydesk', session: 's', order: order(), server_time: '2026-11-27T10:00:00Z' };
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ endpoint: 'javascript:alert(1)' }, /endpoint/],
      [{ session: '' }, /session/],
      [{ server_time: 'yesterday' }, /server_time/],
      [{ theme: 'neon' }, /theme/],
      [{ timeZone: 'Mars/Olympus' }, /timeZone/],
      [{ locale: 7 }, /locale/],
      [{ supportUrl: 'help' }, /supportUrl/],
      [{ messages: 5 }, /messages/],
      [{ server_time: '1' }, /server_time/],
      [{ order: { ...order(), amount: 'lots' } }, /order\.amount/],
      [{ order: null }, /order/],
    ];
    for (const [bad, name] of cases) {
      assert.throws(() => renderCheckout({ ...ok, ...bad } as never), (e: unknown) => e instanceof TypeError && name.test(e.message), JSON.stringify(bad));
    }
    assert.throws(() => renderCheckout(null as never), TypeError);
  });
});
