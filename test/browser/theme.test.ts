import { expect } from '@open-wc/testing';
import { mount } from './helpers/mount.js';

/** Each documented token, and where it shows (selector in the shadow root, computed property). */
const TOKENS: Array<[string, string, string, string]> = [
  // (button backgrounds are transitioned, so the accent is read from the copy button's text colour)
  ['--paydesk-color-accent', 'rgb(1, 2, 3)', 'button.copy', 'color'],
  ['--paydesk-color-on-accent', 'rgb(4, 5, 6)', '.primary', 'color'],
  ['--paydesk-color-surface', 'rgb(7, 8, 9)', '.card', 'background-color'],
  ['--paydesk-color-subtle', 'rgb(10, 11, 12)', '.box', 'background-color'],
  ['--paydesk-color-border', 'rgb(13, 14, 15)', '.card', 'border-top-color'],
  ['--paydesk-color-text', 'rgb(16, 17, 18)', 'dd', 'color'],
  ['--paydesk-color-muted', 'rgb(19, 20, 21)', 'dt', 'color'],
  ['--paydesk-color-warning', 'rgb(22, 23, 24)', '.warn', 'background-color'],
  ['--paydesk-color-on-warning', 'rgb(25, 26, 27)', '.warn', 'color'],
  ['--paydesk-radius', '3px', '.card', 'border-top-left-radius'],
  ['--paydesk-font', 'monospace', '.card', 'font-family'],
  ['--paydesk-spacing', '5px', '.card', 'padding-top'],
  ['--paydesk-max-width', '300px', ':host', 'max-width'],
];

describe('<paydesk-checkout> theming', () => {
  it('every documented --paydesk-* token changes what it names', async () => {
    const h = await mount({ paymentMethodId: 'm-sbp' }, {});
    await h.until('pay');
    // A changed amount shows the warning block, so its tokens are checked too.
    h.server.update(h.server.session, { amount: '1503.00', requested_amount: '1500.00' });
    await h.el.updateComplete;
    for (const [token, value, selector, prop] of TOKENS) {
      const target = selector === ':host' ? h.el : h.root.querySelector<HTMLElement>(selector)!;
      expect(target, selector).to.exist;
      const before = getComputedStyle(target).getPropertyValue(prop);
      h.el.style.setProperty(token, value);
      const after = getComputedStyle(target).getPropertyValue(prop);
      expect(after, token).not.to.equal(before);
      if (token === '--paydesk-spacing') expect(after).to.equal('15px');
      else if (token === '--paydesk-font') expect(after).to.include('monospace');
      else expect(after, token).to.equal(value);
      h.el.style.removeProperty(token);
    }
  });

  it('the success and danger tokens colour their marks', async () => {
    const h = await mount({ paymentMethodId: 'm-sbp' });
    await h.until('pay');
    h.server.update(h.server.session, { status: 'paid', provider_status: 'Completed' });
    await h.until('paid');
    h.el.style.setProperty('--paydesk-color-success', 'rgb(0, 99, 0)');
    expect(getComputedStyle(h.root.querySelector('.badge.ok')!).color).to.equal('rgb(0, 99, 0)');
    const e = await mount({ endpoint: 'javascript:x' });
    await e.until('error');
    e.el.style.setProperty('--paydesk-color-danger', 'rgb(99, 0, 0)');
    expect(getComputedStyle(e.root.querySelector('.badge.bad')!).color).to.equal('rgb(99, 0, 0)');
  });

  it('light and dark themes', async () => {
    const h = await mount({ theme: 'light' });
    await h.until('choose');
    const surface = () => getComputedStyle(h.root.querySelector('.card')!).backgroundColor;
    expect(surface()).to.equal('rgb(255, 255, 255)');
    h.el.theme = 'dark';
    await h.el.updateComplete;
    expect(surface()).to.equal('rgb(23, 26, 33)');
    h.el.theme = 'light';
    await h.el.updateComplete;
    expect(surface()).to.equal('rgb(255, 255, 255)');
  });

  it('a merchant token wins in the dark theme too', async () => {
    const h = await mount({ theme: 'dark' });
    await h.until('choose');
    h.el.style.setProperty('--paydesk-color-surface', 'rgb(1, 1, 1)');
    expect(getComputedStyle(h.root.querySelector('.card')!).backgroundColor).to.equal('rgb(1, 1, 1)');
  });

  it('exposes the main blocks as ::part()', async () => {
    const h = await mount({ paymentMethodId: 'm-sbp' });
    await h.until('pay');
    const parts = new Set([...h.root.querySelectorAll('[part]')].map((n) => n.getAttribute('part')));
    for (const p of ['base', 'heading', 'countdown', 'amount', 'requisites', 'qr', 'actions', 'footer']) expect(parts.has(p), p).to.equal(true);
  });
});
