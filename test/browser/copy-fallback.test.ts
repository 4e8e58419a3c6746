/**
 * The copy buttons where the clipboard API is missing or refuses (a page not on https, a frame without
 * `clipboard-write`, older Safari): the exact text still reaches the clipboard, through the page's
 * selection inside the shopper's tap; where the browser refuses that too, the text is shown selected
 * for a copy by hand, and the shopper is told so. Taps are real ones (`sendMouse`): a copy by selection
 * needs the user's gesture. Written for every engine: what the test reads back from the clipboard is
 * pasted with the keyboard into a field of the page.
 */
import { expect, waitUntil } from '@open-wc/testing';
import { sendKeys, sendMouse } from '@web/test-runner-commands';
import { mount, type Harness } from './helpers/mount.js';
import { bindCodePanel } from '../../demo/public/src/store-code.js';

/** Chromium (and browsers built on it): its keyboard paste is known to work under the test runner. */
const chromium = /\bChrome\//.test(navigator.userAgent);

/** Replaces `navigator.clipboard` (undefined: removed, as on a page that is not on https) until `restore`. */
function setClipboard(value: unknown): () => void {
  Object.defineProperty(navigator, 'clipboard', { value, configurable: true });
  return () => void delete (navigator as { clipboard?: unknown }).clipboard;
}

/** A real tap on `target` (the browser sees a user gesture). */
async function tap(target: HTMLElement): Promise<void> {
  target.scrollIntoView({ block: 'center' });
  const r = target.getBoundingClientRect();
  await sendMouse({ type: 'click', position: [Math.round(r.left + r.width / 2), Math.round(r.top + r.height / 2)] });
}

/** What the clipboard holds: pasted with Control+V into a new field of the page ('' when the engine pastes nothing). */
async function pasted(): Promise<string> {
  const field = document.createElement('textarea');
  document.body.append(field);
  field.focus();
  try {
    await sendKeys({ down: 'Control' });
    await sendKeys({ press: 'v' });
    await sendKeys({ up: 'Control' });
    return field.value;
  } finally {
    field.remove();
  }
}

/** The text of every `copy` event the page saw put on the clipboard, in order. */
function copyEvents(): { texts: string[]; stop(): void } {
  const texts: string[] = [];
  const on = (e: ClipboardEvent) => texts.push(e.clipboardData?.getData('text/plain') ?? '');
  document.addEventListener('copy', on);
  return { texts, stop: () => document.removeEventListener('copy', on) };
}

const copyButtons = (h: Harness) => [...h.root.querySelectorAll<HTMLButtonElement>('button.copy')];
const said = (h: Harness) => h.root.querySelector('[role="status"]')!.textContent ?? '';

describe('copy buttons without the clipboard API', () => {
  let restore = () => {};
  afterEach(() => restore());

  for (const [name, clipboard] of [
    ['navigator.clipboard removed (a page not on https, older Safari)', undefined],
    ['navigator.clipboard refusing (a frame without clipboard-write)', { writeText: () => Promise.reject(new DOMException('Write permission denied.', 'NotAllowedError')) }],
  ] as const) {
    it(`${name}: the amount and the phone number reach the clipboard exactly`, async () => {
      const h = await mount({ paymentMethodId: 'm-sbp' }, { browserClipboard: true });
      await h.until('pay');
      restore = setClipboard(clipboard);
      const seen = copyEvents();
      try {
        const [amount, account] = copyButtons(h);
        await tap(amount!);
        await waitUntil(() => said(h) === 'Amount to send copied', `the amount said copied (status: "${said(h)}")`);
        expect(seen.texts).to.deep.equal(['1500.00'], 'the copy event carried the amount as the copy button gives it');
        const first = await pasted();
        if (chromium || first) expect(first).to.equal('1500.00');
        await tap(account!);
        await waitUntil(() => said(h) === 'Phone number copied', `the phone number said copied (status: "${said(h)}")`);
        expect(seen.texts).to.deep.equal(['1500.00', '+79991234567']);
        const second = await pasted();
        if (chromium || second) expect(second).to.equal('+79991234567');
        await h.el.updateComplete;
        expect(account!.textContent).to.include('Copied');
        expect(h.root.querySelector('input.by-hand')).to.equal(null, 'nothing to copy by hand');
        expect(h.of('paydesk-copy').map((e) => e.detail.field)).to.deep.equal(['amount', 'account']);
      } finally {
        seen.stop();
      }
    });
  }

  it('when the browser refuses the selection copy too: the exact text is shown selected, and the shopper is told to copy it', async () => {
    const h = await mount({ paymentMethodId: 'm-sbp' }, { browserClipboard: true });
    await h.until('pay');
    restore = setClipboard(undefined);
    const execCommand = Object.getOwnPropertyDescriptor(Document.prototype, 'execCommand')!;
    const asked: string[] = [];
    Object.defineProperty(document, 'execCommand', { configurable: true, value: (command: string) => (asked.push(command), false) });
    const back = restore;
    restore = () => {
      back();
      delete (document as { execCommand?: unknown }).execCommand;
      expect(Object.getOwnPropertyDescriptor(Document.prototype, 'execCommand')).to.deep.equal(execCommand);
    };
    const account = copyButtons(h)[1]!;
    await tap(account);
    const field = await waitUntil(() => h.root.querySelector<HTMLInputElement>('input.by-hand'), 'the field to copy by hand').then(
      () => h.root.querySelector<HTMLInputElement>('input.by-hand')!,
    );
    expect(asked).to.deep.equal(['copy'], 'the selection copy was tried');
    expect(field.value).to.equal('+79991234567', 'the exact text the button copies');
    expect(h.root.activeElement).to.equal(field, 'the field has the focus');
    expect([field.selectionStart, field.selectionEnd]).to.deep.equal([0, field.value.length], 'all of it selected');
    expect(field.getAttribute('inputmode')).to.equal('none', 'no on-screen keyboard over the requisites');
    expect(field.getAttribute('aria-label')).to.equal('Phone number');
    expect(said(h)).to.equal('Could not copy. Select the text and copy it yourself.');
    expect(account.textContent).not.to.include('Copied');
    expect(h.of('paydesk-copy')).to.have.length(0, 'nothing was copied: no copy event for the analytics');
    const r = field.getBoundingClientRect();
    expect(r.width).to.be.greaterThan(100, 'on screen, wide enough to read');
    // Its rule comes with the copy module (copy.ts `styles`), not with the first paint's views.
    const style = getComputedStyle(field);
    expect([style.fontSize, style.minHeight]).to.deep.equal(['16px', '44px'], 'styled: 16px (no zoom on focus in iOS), a 44px target');
  });

  it('the storefront code panel: its copy button copies the code from the selection without navigator.clipboard', async () => {
    const panel = document.createElement('div');
    panel.innerHTML = '<button id="copy-code" type="button">Copy</button><pre id="code-pre"><code id="code">npm install paydesk</code></pre><div id="toast" role="status" hidden></div>';
    document.body.append(panel);
    const toast = panel.querySelector<HTMLElement>('#toast')!;
    const clipboardBack = setClipboard(undefined);
    restore = () => {
      clipboardBack();
      panel.remove();
      toast.remove();
    };
    bindCodePanel();
    await tap(panel.querySelector<HTMLElement>('#copy-code')!);
    await waitUntil(() => !toast.hidden, 'the toast');
    expect(toast.textContent).to.equal('Copied to the clipboard');
    const text = await pasted();
    if (chromium || text) expect(text).to.equal('npm install paydesk');
  });
});
