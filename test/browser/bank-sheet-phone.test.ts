/**
 * The bank sheet on a phone, as Safari and Chrome on Android show it: the on-screen keyboard (opened
 * by the search) covers the bottom of the layout viewport without resizing it, and only
 * `visualViewport` says so. The sheet must stay above the keyboard with its search field and some of
 * its list in sight; focus stays inside the sheet while it is open (Tab and Shift+Tab) and goes back
 * to the button that opened it. The keyboard is simulated by a `visualViewport` that reports it (no
 * engine opens one under a test runner).
 */
import { expect, waitUntil } from '@open-wc/testing';
import { sendKeys, setViewport } from '@web/test-runner-commands';
import { byText, mount, type Harness } from './helpers/mount.js';
import { FakeEndpoint } from './helpers/fake-endpoint.js';
import { FakeClock } from './helpers/fake-clock.js';
import { orderView } from './helpers/orders.js';

/** A `visualViewport` whose size and offset the test sets (the page's layout viewport stays as it is). */
class FakeVisualViewport extends EventTarget {
  offsetLeft = 0;
  pageLeft = 0;
  pageTop = 0;
  scale = 1;
  width = document.documentElement.clientWidth;
  height = document.documentElement.clientHeight;
  offsetTop = 0;
  onresize = null;
  onscroll = null;
  onscrollend = null;
  /** The keyboard (or toolbars) cover `covered` px at the bottom; the visible part may be scrolled by `top`. */
  set(covered: number, top = 0): void {
    this.height = document.documentElement.clientHeight - covered - top;
    this.offsetTop = top;
    this.dispatchEvent(new Event('resize'));
  }
}

/** Lets the resize reach the sheet (its handler sets the sheet's style at once; layout is read synchronously). */
const frame = () => new Promise((r) => setTimeout(r, 0));

async function sheet(): Promise<{ h: Harness; dialog: HTMLDialogElement }> {
  const server = new FakeEndpoint();
  const clock = new FakeClock(Date.now());
  server.serverNow = () => clock.now();
  server.makeOrder = (_b, n) => orderView({ id: `ord-${n}` }, clock.now());
  const h = await mount({ paymentMethodId: 'm-sbp' }, { server, clock, env: { platform: 'ios' } });
  await h.until('pay');
  byText(h.root, 'Pay in bank app').click();
  await waitUntil(() => h.root.querySelector('dialog[open] [part="banks"]'), 'the bank sheet', { timeout: 6000 });
  await h.el.updateComplete;
  return { h, dialog: h.root.querySelector('dialog')! };
}

describe('the bank sheet on a phone', () => {
  let vv: FakeVisualViewport;
  let restore = () => {};
  before(() => setViewport({ width: 390, height: 760 }));
  after(() => setViewport({ width: 800, height: 600 }));
  beforeEach(() => {
    vv = new FakeVisualViewport();
    const own = Object.getOwnPropertyDescriptor(window, 'visualViewport');
    Object.defineProperty(window, 'visualViewport', { configurable: true, get: () => vv });
    restore = () => {
      if (own) Object.defineProperty(window, 'visualViewport', own);
      else delete (window as { visualViewport?: unknown }).visualViewport;
    };
  });
  afterEach(() => restore());

  it('stays above the on-screen keyboard: the search field and the list in sight, and back down when it closes', async () => {
    const { h, dialog } = await sheet();
    const layout = document.documentElement.clientHeight;
    expect(Math.round(dialog.getBoundingClientRect().bottom)).to.be.closeTo(layout, 1, 'at the bottom without a keyboard');
    const covered = Math.round(layout * 0.45);
    vv.set(covered);
    await frame();
    const visibleBottom = vv.offsetTop + vv.height;
    const box = dialog.getBoundingClientRect();
    expect(box.bottom).to.be.at.most(visibleBottom + 1, 'the sheet ends above the keyboard');
    expect(box.top).to.be.at.least(vv.offsetTop - 1, 'and starts in sight');
    const search = dialog.querySelector('input')!.getBoundingClientRect();
    expect(search.top).to.be.at.least(vv.offsetTop);
    expect(search.bottom).to.be.at.most(visibleBottom);
    const list = dialog.querySelector('[part="banks"]')!.getBoundingClientRect();
    expect(Math.min(list.bottom, visibleBottom) - Math.max(list.top, vv.offsetTop)).to.be.at.least(52, 'at least a bank of the list in sight');
    // Safari scrolls the visible part when the field gets the focus.
    vv.set(covered - 40, 40);
    await frame();
    expect(dialog.getBoundingClientRect().bottom).to.be.at.most(vv.offsetTop + vv.height + 1);
    expect(dialog.getBoundingClientRect().top).to.be.at.least(vv.offsetTop - 1);
    vv.set(0);
    await frame();
    expect(Math.round(dialog.getBoundingClientRect().bottom)).to.be.closeTo(layout, 1, 'back at the bottom');
    h.el.remove();
  });

  it('keeps the focus inside while open (Tab and Shift+Tab), and gives it back to its button when closed', async () => {
    const { h, dialog } = await sheet();
    const opener = byText(h.root, 'Pay in bank app');
    await waitUntil(() => h.root.activeElement?.tagName === 'INPUT', 'focus in the search');
    await sendKeys({ type: 'sber' });
    await h.el.updateComplete;
    const focusables = dialog.querySelectorAll('button, input, a[href]').length;
    expect(focusables).to.be.within(3, 12, 'a short list to walk through');
    for (const key of ['Tab', 'Shift+Tab']) {
      for (let i = 0; i < focusables + 2; i++) {
        if (key === 'Tab') await sendKeys({ press: 'Tab' });
        else {
          await sendKeys({ down: 'Shift' });
          await sendKeys({ press: 'Tab' });
          await sendKeys({ up: 'Shift' });
        }
        const active = h.root.activeElement;
        expect(active && dialog.contains(active), `${key} ×${i + 1}: the focus is in the sheet (${active?.outerHTML.slice(0, 60) ?? document.activeElement?.tagName})`).to.equal(true);
      }
    }
    byText(h.root, '', 'button.x').click();
    await waitUntil(() => !h.root.querySelector('dialog[open]') && h.root.activeElement === opener, 'closed, the focus back on its button');
  });
});
