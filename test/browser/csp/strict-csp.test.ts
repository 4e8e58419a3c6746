// Runs on a page served with a strict Content-Security-Policy (web-test-runner.config.mjs,
// strictCspMiddleware): no 'unsafe-inline', no 'unsafe-eval', connections to 'self' only.
// The element talks to the fake token endpoint of the dev server with real fetch and EventSource.
import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import { sendMouse } from '@web/test-runner-commands';
import '../../../src/index.js';
import type { PaydeskCheckout } from '../../../src/element/index.js';
import { engine } from '../helpers/engine.js';

const violations: SecurityPolicyViolationEvent[] = [];
document.addEventListener('securitypolicyviolation', (e) => violations.push(e), true);

describe('<paydesk-checkout> under a strict Content Security Policy', () => {
  it('the page really has the policy: inline styles and eval are refused', async () => {
    const before = violations.length;
    const probe = document.createElement('div');
    probe.setAttribute('style', 'color: red');
    document.body.appendChild(probe);
    await waitUntil(() => violations.length > before, 'an inline style attribute should be reported');
    expect(violations.at(-1)!.violatedDirective).to.match(/^style-src/);
    // eslint-disable-next-line no-eval
    expect(() => (0, eval)('1 + 1')).to.throw(EvalError);
    if (engine === 'webkit') {
      // WebKit (2.50) refuses eval with an EvalError that quotes the policy, but fires no
      // securitypolicyviolation event for it (measured: none within 500 ms, in or out of a frame).
      // eslint-disable-next-line no-eval
      expect(() => (0, eval)('1 + 1')).to.throw(/Content Security Policy directive: "script-src 'self'/);
    } else {
      await waitUntil(() => violations.some((v) => v.violatedDirective.startsWith('script-src')), 'eval should be reported');
    }
    probe.remove();
    violations.length = 0;
  });

  it('runs the whole flow (methods, requisites, QR, live status, paid) without a single violation', async () => {
    const ns = `csp-${Math.random().toString(36).slice(2)}`;
    // The runner may keep this page in a background tab, where the element rightly pauses its live
    // status; the page is declared visible so the real EventSource is used.
    const visible = Object.assign(new EventTarget(), { hidden: false });
    const env = { navigate: () => {}, copy: async () => {}, document: visible, window: visible };
    const el = await fixture<PaydeskCheckout>(
      html`<paydesk-checkout endpoint="/fake-api/${ns}" order-ref="sku-csp" locale="ru" .env=${env}></paydesk-checkout>`,
    );
    el.addEventListener('paydesk-redirect', (e) => e.preventDefault());
    await waitUntil(() => el.state === 'choose', 'methods', { timeout: 5000 });
    await el.updateComplete;
    el.shadowRoot!.querySelector<HTMLButtonElement>('[part="method"]')!.click();
    await waitUntil(() => el.state === 'pay', 'requisites', { timeout: 5000 });
    await el.updateComplete;
    const canvas = el.shadowRoot!.querySelector('canvas')!;
    expect(canvas.dataset.text).to.match(/^https:\/\/qr\.nspk\.ru\//);
    el.shadowRoot!.querySelector<HTMLButtonElement>('button.copy')!.click();
    const session = JSON.parse(localStorage.getItem(`paydesk:v2:/fake-api/${ns}|sku-csp`)!).session as string;
    // Once the event stream is connected, the "provider" confirms the payment.
    let open = 0;
    await waitUntil(
      async () => {
        open = ((await (await fetch(`/fake-api/${ns}/__streams/${session}`)).json()) as { open: number }).open;
        return open > 0;
      },
      'the event stream connects',
      { timeout: 5000 },
    );
    await fetch(`/fake-api/${ns}/__complete/${session}`, { method: 'POST' });
    await waitUntil(() => el.state === 'paid', 'paid through the event stream', { timeout: 5000 });
    await el.updateComplete;
    expect(el.shadowRoot!.textContent).to.include('Оплата получена');
    expect(violations.map((v) => `${v.violatedDirective} ${v.blockedURI}`)).to.deep.equal([]);
    el.remove();
  });

  it('the copy fallback and the bank sheet above the keyboard write styles through the CSSOM only: no violation', async () => {
    violations.length = 0;
    const ns = `csp-${Math.random().toString(36).slice(2)}`;
    const visible = Object.assign(new EventTarget(), { hidden: false });
    // No `copy`: the element's own, through the page's selection (navigator.clipboard removed below).
    const env = { navigate: () => {}, document: visible, window: visible, platform: 'ios' as const };
    const el = await fixture<PaydeskCheckout>(
      html`<paydesk-checkout endpoint="/fake-api/${ns}" order-ref="sku-csp" locale="en" payment-method-id="m-sbp" .env=${env}></paydesk-checkout>`,
    );
    await waitUntil(() => el.state === 'pay', 'requisites', { timeout: 5000 });
    await el.updateComplete;
    const root = el.shadowRoot!;
    const copied: string[] = [];
    const onCopy = (e: ClipboardEvent) => copied.push(e.clipboardData?.getData('text/plain') ?? '');
    document.addEventListener('copy', onCopy);
    Object.defineProperty(navigator, 'clipboard', { value: undefined, configurable: true });
    const vv = Object.assign(new EventTarget(), { offsetTop: 0, offsetLeft: 0, scale: 1, width: innerWidth, height: innerHeight });
    Object.defineProperty(window, 'visualViewport', { configurable: true, get: () => vv });
    try {
      const button = root.querySelector<HTMLButtonElement>('button.copy')!;
      button.scrollIntoView({ block: 'center' });
      const r = button.getBoundingClientRect();
      await sendMouse({ type: 'click', position: [Math.round(r.left + r.width / 2), Math.round(r.top + r.height / 2)] });
      await waitUntil(() => copied.length === 1, 'copied through the selection');
      expect(copied[0]).to.match(/^\d+\.\d\d$/, 'the amount');
      [...root.querySelectorAll<HTMLButtonElement>('button')].find((b) => b.getAttribute('aria-haspopup') === 'dialog')!.click();
      await waitUntil(() => root.querySelector('dialog[open]'), 'the bank sheet', { timeout: 5000 });
      const dialog = root.querySelector('dialog')!;
      const bottom = dialog.getBoundingClientRect().bottom;
      Object.assign(vv, { height: innerHeight - 300 });
      vv.dispatchEvent(new Event('resize'));
      expect(dialog.getBoundingClientRect().bottom).to.be.at.most(Math.min(bottom, innerHeight - 300) + 1, 'above the keyboard');
    } finally {
      document.removeEventListener('copy', onCopy);
      delete (navigator as { clipboard?: unknown }).clipboard;
      delete (window as { visualViewport?: unknown }).visualViewport;
    }
    expect(violations.map((v) => `${v.violatedDirective} ${v.blockedURI}`)).to.deep.equal([]);
    el.remove();
  });
});
