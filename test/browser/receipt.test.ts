/**
 * "I paid — send a receipt": while the payment is checked and after the order ended; the camera on
 * phones, drag and drop on desktops, type and size checked before upload, progress shown, every
 * answer of `POST {endpoint}/sessions/S/dispute` handled; the dispute followed to paid (late) or closed.
 */
import { expect, waitUntil } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import { byText, mount, norm, settle, type Harness } from './helpers/mount.js';
import { FakeEndpoint } from './helpers/fake-endpoint.js';
import type { PaydeskCheckout } from '../../src/element/index.js';
import { DISPUTE_MAX_FILE_BYTES } from '../../src/protocol/index.js';

const png = (name = 'screenshot.png', size = 2048) => new File([new Uint8Array(size)], name, { type: 'image/png' });
const pdf = (name = 'receipt.pdf', size = 4096) => new File([new Uint8Array(size)], name, { type: 'application/pdf' });

/** Puts files into a file input as the browser's picker would. */
function pick(input: HTMLInputElement, files: File[]): void {
  const dt = new DataTransfer();
  for (const f of files) dt.items.add(f);
  input.files = dt.files;
  input.dispatchEvent(new Event('change', { bubbles: true }));
}

/**
 * The receipt form is a lazy chunk, fetched on the tap: on a busy 2-core machine the dev server took
 * over waitUntil's default second to serve it (1 run in 2 of the whole suite, in Chromium).
 */
const LAZY = { timeout: 6000 };

/** `platform` null: none given, the element reads the browser's user agent (this runner's: a desktop). */
async function toReceipt(platform: 'desktop' | 'ios' | 'android' | null = 'desktop', server = new FakeEndpoint()): Promise<Harness> {
  const h = await mount({ paymentMethodId: 'm-sbp' }, { server, env: { platform: platform ?? undefined } });
  await h.until('pay');
  byText(h.root, 'I have paid').click();
  await h.until('confirming');
  byText(h.root, 'I paid — send a receipt').click();
  await waitUntil(() => h.root.querySelector('[part="receipt"]'), 'the receipt form', LAZY);
  await h.el.updateComplete;
  return h;
}

const filesInput = (h: Harness) => h.root.querySelector<HTMLInputElement>('#receipt-files')!;

describe('receipt upload', () => {
  it('while confirming: the requisites stay one tap away and the countdown visible, then the receipt form', async () => {
    const h = await mount({ paymentMethodId: 'm-sbp' });
    await h.until('pay');
    byText(h.root, 'I have paid').click();
    await h.until('confirming');
    expect(h.root.querySelector('[part="countdown"]')).to.exist;
    const details = h.root.querySelector('details')!;
    expect(details.open).to.equal(false);
    h.root.querySelector<HTMLElement>('details summary')!.click();
    await h.el.updateComplete;
    expect(details.open).to.equal(true);
    expect(norm(details.textContent!)).to.include('+7 (999) 123-45-67');
    expect(norm(h.root.querySelector('[part="order"]')!.textContent!)).to.include('sku-1');
    byText(h.root, 'I paid — send a receipt').click();
    await waitUntil(() => h.root.querySelector('[part="receipt"]'), 'the receipt form', LAZY);
    expect(h.root.querySelector('h2')!.textContent).to.equal('Send a receipt');
  });

  it('the form shows the order number with a copy button, which copies it and sends nothing', async () => {
    const h = await toReceipt();
    const order = h.root.querySelector('[part="order"]');
    expect(order, 'the order number on the receipt form').to.exist;
    expect(norm(order!.textContent!)).to.include('Order number').and.include('sku-1');
    const copy = order!.querySelector<HTMLButtonElement>('button')!;
    expect(copy.getAttribute('aria-label')).to.equal('Copy: Order number');
    copy.click();
    await settle(h.el);
    expect(h.copies).to.deep.equal(['sku-1']);
    expect(norm(h.root.querySelector('[part="order"] button')!.textContent!)).to.equal('Copied');
    expect(h.root.querySelector('[part="receipt"]'), 'the form stays open').to.exist;
    expect(h.root.querySelector('[role="alert"]')!.textContent, 'the form was not sent').to.equal('');
    expect(h.server.count('dispute')).to.equal(0);
  });

  it('a file under 1 kB is listed as "<1 kB"', async () => {
    const h = await toReceipt();
    pick(filesInput(h), [png('tiny.png', 24)]);
    await h.el.updateComplete;
    expect(norm(h.root.querySelector('.files')!.textContent!)).to.include('tiny.png<1 kB');
  });

  it('on a phone: the camera (capture) and the files (images and PDF), no drop hint', async () => {
    const h = await toReceipt('ios');
    const camera = h.root.querySelector<HTMLInputElement>('#receipt-camera')!;
    expect(camera.getAttribute('accept')).to.equal('image/*');
    expect(camera.getAttribute('capture')).to.equal('environment');
    expect(filesInput(h).multiple).to.equal(true);
    expect(filesInput(h).accept).to.include('application/pdf');
    expect(filesInput(h).accept).to.include('.heic');
    expect(h.text()).not.to.include('or drop them here');
  });

  it('with no platform given, the browser\'s own (a desktop here): no camera, the drop hint, as on a desktop', async () => {
    const h = await toReceipt(null);
    expect(h.el.env.platform).to.equal(undefined);
    expect(h.root.querySelector('#receipt-camera')).to.equal(null);
    expect(h.text()).to.include('or drop them here');
  });

  it('on a desktop: files dropped on the form are taken', async () => {
    const h = await toReceipt();
    expect(h.root.querySelector('#receipt-camera')).to.equal(null);
    const drop = h.root.querySelector('.drop')!;
    const dt = new DataTransfer();
    dt.items.add(png());
    drop.dispatchEvent(new DragEvent('dragover', { dataTransfer: dt, bubbles: true, cancelable: true }));
    await h.el.updateComplete;
    expect(drop.classList.contains('over')).to.equal(true);
    drop.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
    await h.el.updateComplete;
    expect(drop.classList.contains('over')).to.equal(false);
    expect(norm(h.root.querySelector('.files')!.textContent!)).to.include('screenshot.png');
  });

  it('checks type, size and number before anything is sent, and says what is wrong', async () => {
    const h = await toReceipt();
    byText(h.root, 'Send', 'button[type="submit"]').click();
    await h.el.updateComplete;
    expect(h.root.querySelector('[role="alert"]')!.textContent).to.include('Attach at least one receipt.');
    pick(filesInput(h), [new File(['x'], 'cat.gif', { type: 'image/gif' }), new File([new Uint8Array(DISPUTE_MAX_FILE_BYTES + 1)], 'huge.pdf', { type: 'application/pdf' })]);
    await h.el.updateComplete;
    const alert = norm(h.root.querySelector('[role="alert"]')!.textContent!);
    expect(alert).to.include('cat.gif: only JPEG, PNG, WebP, HEIC or PDF files can be sent.');
    expect(alert).to.include('huge.pdf is larger than 10 MB.');
    byText(h.root, 'Send', 'button[type="submit"]').click();
    await settle(h.el);
    expect(h.server.count('dispute')).to.equal(0);
    h.root.querySelector<HTMLButtonElement>('button[aria-label="Remove cat.gif"]')!.click();
    h.root.querySelector<HTMLButtonElement>('button[aria-label="Remove huge.pdf"]')!.click();
    pick(filesInput(h), [png('1.png'), png('2.png'), png('3.png'), png('4.png'), png('5.png'), png('6.png')]);
    await h.el.updateComplete;
    expect(h.root.querySelector('[role="alert"]')!.textContent).to.include('At most 5 files.');
  });

  it('a status answer sent before the receipt arrived, arriving after it, does not bring back the requisites and "I have paid"', async () => {
    const server = new FakeEndpoint();
    const h = await toReceipt('desktop', server);
    // The status check of the shopper's return (the photo picker hid the page) is slow (the server asks the provider).
    const before = { ...server.sessions.get(server.session)! };
    server.failNext('session', { status: 200, body: { order: before, server_time: new Date(h.clock.now()).toISOString() } });
    const release = server.hold('session');
    const checks = server.count('session');
    h.page.pageshow();
    await waitUntil(() => server.count('session') === checks + 1, 'the status check went out');
    pick(filesInput(h), [png()]);
    byText(h.root, 'Send', 'button[type="submit"]').click();
    await h.until('dispute');
    release();
    await settle(h.el);
    await settle(h.el);
    expect(h.el.state).to.equal('dispute');
    expect(() => byText(h.root, 'I have paid')).to.throw();
  });

  it('sends the files and the comment with progress shown, then shows the check and follows it to "paid" (late)', async () => {
    const server = new FakeEndpoint();
    let step!: () => void;
    server.uploadGate = () => new Promise<void>((r) => (step = r));
    const h = await toReceipt('desktop', server);
    pick(filesInput(h), [png(), pdf()]);
    h.root.querySelector('textarea')!.value = 'Paid from my Sber card at 10:05';
    h.root.querySelector('textarea')!.dispatchEvent(new Event('input'));
    byText(h.root, 'Send', 'button[type="submit"]').click();
    await waitUntil(() => step, 'the upload started');
    const seen: number[] = [];
    for (let i = 0; i < 3; i++) {
      const current = step;
      current();
      await waitUntil(() => step !== current || h.el.state === 'dispute', 'the next step');
      await h.el.updateComplete;
      const progress = h.root.querySelector('progress');
      if (progress) seen.push(progress.value);
    }
    expect(seen.slice(0, 2)).to.deep.equal([25, 50], 'progress grows as the body goes out');
    await h.until('dispute');
    const req = server.last('dispute')!;
    expect(req.headers.get('X-Paydesk')).to.equal('1');
    expect(req.path).to.equal(`/sessions/${server.session}/dispute`);
    expect(server.disputes[0]).to.deep.equal({
      session: server.session,
      files: [
        { name: 'screenshot.png', type: 'image/png', size: 2048 },
        { name: 'receipt.pdf', type: 'application/pdf', size: 4096 },
      ],
      comment: 'Paid from my Sber card at 10:05',
    });
    expect(h.root.querySelector('h2')!.textContent).to.equal('Checking your receipt');
    expect(h.text()).to.include('The payment service is checking your receipt.');
    expect(norm(h.root.querySelector('[part="order"]')!.textContent!)).to.include('sku-1');
    server.update(server.session, { status: 'paid', provider_status: 'Completed', late: true, dispute: { id: 'dsp-1', status: 'closed', created_at: new Date().toISOString(), outcome: 'confirmed' } });
    await h.until('paid');
    expect(h.of('paydesk-paid')).to.have.length(1);
  });

  it('after expiry too; a check that found no payment says so and offers a new payment', async () => {
    const h = await mount({ paymentMethodId: 'm-sbp' });
    await h.until('pay');
    h.server.update(h.server.session, { status: 'expired', provider_status: 'CanceledByTimeout' });
    await h.until('expired');
    byText(h.root, 'I paid — send a receipt').click();
    await waitUntil(() => h.root.querySelector('[part="receipt"]'), 'the receipt form', LAZY);
    await h.el.updateComplete;
    pick(filesInput(h), [pdf()]);
    byText(h.root, 'Send', 'button[type="submit"]').click();
    await h.until('dispute');
    h.server.update(h.server.session, { dispute: { id: 'dsp-1', status: 'closed', created_at: new Date().toISOString(), outcome: 'unconfirmed' } });
    await waitUntil(() => h.root.querySelector('h2')!.textContent === 'Payment not confirmed');
    expect(h.text()).to.include('We could not confirm a payment for this order. If you paid, contact support: give them the order number and keep your receipt.');
    expect(byText(h.root, 'Support')).to.exist;
    expect(byText(h.root, 'Back to the shop')).to.exist;
    byText(h.root, 'Start a new payment').click();
    await h.until('pay');
    expect(h.server.count('create')).to.equal(2);
  });

  it('outcome "unconfirmed": "checking" gives way to a final screen saying the payment could not be confirmed, with the order number and the support link', async () => {
    const server = new FakeEndpoint();
    const h = await toReceipt('desktop', server);
    pick(filesInput(h), [png()]);
    byText(h.root, 'Send', 'button[type="submit"]').click();
    await h.until('dispute');
    const created_at = new Date().toISOString();
    server.update(server.session, { support_url: 'https://shop.example/help', dispute: { id: 'dsp-1', status: 'open', created_at, outcome: null } });
    await settle(h.el);
    expect(h.root.querySelector('h2')!.textContent).to.equal('Checking your receipt', 'no outcome yet: still checking');
    server.update(server.session, { dispute: { id: 'dsp-1', status: 'closed', created_at, outcome: 'unconfirmed' } });
    await waitUntil(() => h.root.querySelector('h2')!.textContent === 'Payment not confirmed', 'the final screen');
    expect(h.el.state).to.equal('dispute');
    expect(h.text()).to.include('We could not confirm a payment for this order.');
    expect(norm(h.root.querySelector('[part="order"]')!.textContent!)).to.include('sku-1');
    const support = h.root.querySelector<HTMLAnchorElement>('[part="actions"] a[href="https://shop.example/help"]');
    expect(support, 'the support link is one of the step\'s own actions').to.exist;
    expect(norm(support!.textContent!)).to.equal('Support');
    expect(h.root.querySelector('[part="actions"] button'), 'the order is still pending: no new payment offered').to.equal(null);
    expect(h.root.querySelector('.spinner, [part="spinner"]')).to.equal(null);
  });

  const errors: [string, number, string][] = [
    ['unsupported_file', 415, 'This file cannot be sent. Send a JPEG, PNG, WebP, HEIC or PDF file.'],
    ['payload_too_large', 413, 'What you sent is too large. Send smaller files.'],
    ['dispute_not_allowed', 409, 'A receipt can no longer be sent for this order. Please contact support.'],
    ['validation_failed', 400, 'Some details were not accepted. Please check them and try again.'],
  ];
  for (const [code, status, text] of errors) {
    it(`${code} (${status}): said in the form, the files kept for another try`, async () => {
      const server = new FakeEndpoint();
      server.failNext('dispute', { status, body: { error: { code, message: 'for developers', retryable: false } } });
      const h = await toReceipt('desktop', server);
      pick(filesInput(h), [png()]);
      byText(h.root, 'Send', 'button[type="submit"]').click();
      await waitUntil(() => h.root.querySelector('[role="alert"]')!.textContent!.includes(text), text);
      expect(h.text()).not.to.include('for developers');
      expect(h.el.state).to.equal('confirming');
      expect(norm(h.root.querySelector('.files')!.textContent!)).to.include('screenshot.png');
      byText(h.root, 'Send', 'button[type="submit"]').click();
      await h.until('dispute');
    });
  }

  it('a network failure is said and can be tried again', async () => {
    const server = new FakeEndpoint();
    server.failNext('dispute', 'network');
    const h = await toReceipt('desktop', server);
    pick(filesInput(h), [png()]);
    byText(h.root, 'Send', 'button[type="submit"]').click();
    await waitUntil(() => h.root.querySelector('[role="alert"]')!.textContent!.includes('No connection'));
    byText(h.root, 'Send', 'button[type="submit"]').click();
    await h.until('dispute');
  });

  it('dispute_open (one is open already): the status is asked for and shows it', async () => {
    const server = new FakeEndpoint();
    const h = await toReceipt('desktop', server);
    server.update(server.session, { dispute: { id: 'dsp-9', status: 'open', created_at: new Date().toISOString(), outcome: null } }, false);
    pick(filesInput(h), [png()]);
    byText(h.root, 'Send', 'button[type="submit"]').click();
    await h.until('dispute');
    expect(server.disputes).to.have.length(0);
  });

  it('session_not_found: the session-gone screen', async () => {
    const server = new FakeEndpoint();
    const h = await toReceipt('desktop', server);
    server.sessions.delete(server.session);
    pick(filesInput(h), [png()]);
    byText(h.root, 'Send', 'button[type="submit"]').click();
    await h.until('gone');
  });

  it('by keyboard alone: to the form, the file input, the comment, send', async () => {
    const h = await mount({ paymentMethodId: 'm-sbp' });
    await h.until('pay');
    const tabTo = async (match: (el: Element) => boolean, what: string) => {
      for (let i = 0; i < 30 && !(h.root.activeElement && match(h.root.activeElement)); i++) await sendKeys({ press: 'Tab' });
      expect(h.root.activeElement && match(h.root.activeElement), what).to.equal(true);
    };
    await tabTo((el) => el.textContent?.trim() === 'I have paid', '"I have paid"');
    await sendKeys({ press: 'Enter' });
    await h.until('confirming');
    await tabTo((el) => el.textContent?.trim() === 'I paid — send a receipt', 'the receipt button');
    await sendKeys({ press: 'Enter' });
    await waitUntil(() => h.root.querySelector('[part="receipt"]'), 'the receipt form', LAZY);
    await h.el.updateComplete;
    await tabTo((el) => el.id === 'receipt-files', 'the file input');
    // The system's file picker cannot be driven here; the files arrive as the picker hands them over.
    pick(h.root.activeElement as HTMLInputElement, [png()]);
    await h.el.updateComplete;
    await tabTo((el) => el.tagName === 'TEXTAREA', 'the comment');
    await sendKeys({ type: 'Sent at 10:05' });
    await tabTo((el) => el.getAttribute('type') === 'submit', 'Send');
    await sendKeys({ press: 'Enter' });
    await h.until('dispute');
    expect(h.server.disputes[0]!.comment).to.equal('Sent at 10:05');
  });

  it('with the real XMLHttpRequest: a multipart body to the endpoint, with upload progress', async () => {
    const ns = `receipt-${Math.random().toString(36).slice(2)}`;
    const visible = Object.assign(new EventTarget(), { hidden: false });
    const el = document.createElement('paydesk-checkout') as PaydeskCheckout;
    el.env = { navigate: () => {}, document: visible, window: visible };
    Object.assign(el, { endpoint: `/fake-api/${ns}`, orderRef: 'sku-real', paymentMethodId: 'm-sbp', locale: 'en' });
    const progress: number[] = [];
    document.body.appendChild(el);
    await waitUntil(() => el.state === 'pay', 'requisites', { timeout: 6000 });
    const session = (JSON.parse(localStorage.getItem(`paydesk:v2:/fake-api/${ns}|sku-real`)!) as { session: string }).session;
    // The fake endpoint pushes changes to open streams only: expire once the element follows the order.
    await waitUntil(
      async () => ((await (await fetch(`/fake-api/${ns}/__streams/${session}`)).json()) as { open: number }).open > 0,
      'the element follows the order',
      { timeout: 6000 },
    );
    await fetch(`/fake-api/${ns}/__expire/${session}`, { method: 'POST' });
    await waitUntil(() => el.state === 'expired', 'expired through the stream', { timeout: 6000 });
    await el.updateComplete;
    byText(el.shadowRoot!, 'I paid — send a receipt').click();
    await waitUntil(() => el.shadowRoot!.querySelector('#receipt-files'));
    pick(el.shadowRoot!.querySelector<HTMLInputElement>('#receipt-files')!, [pdf('bank-receipt.pdf', 300_000)]);
    await el.updateComplete;
    const watch = new MutationObserver(() => {
      const p = el.shadowRoot!.querySelector('progress');
      if (p) progress.push(p.value);
    });
    watch.observe(el.shadowRoot!, { subtree: true, childList: true, attributes: true });
    byText(el.shadowRoot!, 'Send', 'button[type="submit"]').click();
    await waitUntil(() => el.state === 'dispute', 'the dispute', { timeout: 6000 });
    watch.disconnect();
    expect(progress.length).to.be.greaterThan(0, 'progress was shown');
    const state = (await (await fetch(`/fake-api/${ns}/__state`)).json()) as { disputes: { files: { name: string; type: string; size: number }[] }[] };
    expect(state.disputes[0]!.files).to.deep.equal([{ name: 'bank-receipt.pdf', type: 'application/pdf', size: 300_000 }]);
    localStorage.removeItem(`paydesk:v2:/fake-api/${ns}|sku-real`);
    el.remove();
  });
});
