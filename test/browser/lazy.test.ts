/**
 * What the element loads on demand (npm build): the language tables, held text while they arrive,
 * and what happens when one is slow or cannot be loaded. Each test file runs in a page of its own, so
 * the tables used here start unloaded.
 */
import { expect, waitUntil } from '@open-wc/testing';
import { byText, mount, norm } from './helpers/mount.js';
import { FakeClock } from './helpers/fake-clock.js';
import { LAZY, loadLanguage } from '../../src/element/i18n/load.js';
import type { PaydeskCheckout } from '../../src/element/index.js';

type Loader = () => Promise<{ default: object }>;
const loaders = LAZY as unknown as Record<string, Loader>;

/** Replaces a table's loader for one test. */
function replaceLoader(lang: string, loader: Loader): () => void {
  const original = loaders[lang]!;
  loaders[lang] = loader;
  return () => void (loaders[lang] = original);
}

/** Every text the element's shadow root showed, render after render, from its first one. */
function recordTexts(into: string[]): (el: PaydeskCheckout) => void {
  return (el) => {
    let observer: MutationObserver | undefined;
    const record = () => into.push(norm(el.shadowRoot?.textContent ?? ''));
    el.addEventListener('paydesk-ready', () => {
      record();
      observer = new MutationObserver(record);
      observer.observe(el.shadowRoot!, { subtree: true, childList: true, characterData: true });
    });
  };
}

describe('<paydesk-checkout> language tables loaded on demand', () => {
  it('shows no English before the Kazakh table arrives: the first render has no text at all', async () => {
    const texts: string[] = [];
    const h = await mount({ locale: 'kk' }, { onCreate: recordTexts(texts) });
    await h.until('choose');
    expect(texts[0], 'the first render').to.equal('');
    const english = ['Loading', 'Checkout', 'Choose how to pay', 'Continue to payment'];
    expect(texts.filter((t) => english.some((word) => t.includes(word)))).to.deep.equal([]);
    expect(h.root.querySelector('h2')!.textContent).to.match(/\p{Script=Cyrillic}/u);
    expect(h.root.querySelectorAll('[part="method"]').length).to.be.greaterThan(1);
  });

  it('a slow table: text held for 3 s, then the offline English, then the language when it arrives', async () => {
    let arrive!: () => void;
    const az = (await import('../../src/element/i18n/az.js')).default;
    const restore = replaceLoader('az', () => new Promise((resolve) => (arrive = () => resolve({ default: az }))));
    try {
      const clock = new FakeClock();
      let el!: PaydeskCheckout;
      const mounted = mount({ locale: 'az' }, { clock, onCreate: (e) => (el = e) });
      await waitUntil(() => el?.state === 'choose', 'methods arrived', { timeout: 4000 });
      await new Promise((r) => setTimeout(r, 20));
      expect(norm(el.shadowRoot!.textContent!), 'held').to.equal('');
      expect(el.shadowRoot!.querySelector('.spinner')).to.exist;

      clock.advance(3000);
      const h = await mounted;
      expect(h.root.querySelector('h2')!.textContent, 'offline English after 3 s').to.equal('Choose how to pay');
      expect(h.root.querySelector('[part="method"]'), 'the list waits for its text').to.equal(null);
      expect(h.root.querySelector('.spinner')).to.exist;

      arrive();
      await waitUntil(() => h.root.querySelector('h2')!.textContent === az.chooseTitle, 'Azerbaijani heading', { timeout: 4000 });
      await h.el.updateComplete;
      expect(h.root.querySelectorAll('[part="method"]').length).to.be.greaterThan(1);
      expect(h.text()).to.include(az.toPay);
    } finally {
      restore();
    }
  });

  it('a table that cannot be loaded: offline English, the network error, and "try again" loads it', async () => {
    let fail = true;
    const original = loaders.hy!;
    const restore = replaceLoader('hy', () => (fail ? Promise.reject(new TypeError('Failed to fetch dynamically imported module')) : original()));
    try {
      const h = await mount({ locale: 'hy' });
      await h.until('choose');
      expect(h.root.querySelector('h2')!.textContent).to.equal('Choose how to pay');
      expect(h.text()).to.include('No connection. Check your internet and try again.');
      expect(h.root.querySelector('[part="method"]')).to.equal(null);

      fail = false;
      byText(h.root, 'Try again').click();
      await waitUntil(() => h.root.querySelector('[part="method"]') !== null, 'the method list', { timeout: 4000 });
      await h.el.updateComplete;
      const hy = (await import('../../src/element/i18n/hy.js')).default;
      expect(h.root.querySelector('h2')!.textContent).to.equal(hy.chooseTitle);
      expect(h.text()).not.to.include('No connection');
    } finally {
      restore();
    }
  });

  it('the whole flow in a language loaded on demand, with the views loaded on demand too', async () => {
    const h = await mount({ locale: 'uz', paymentMethodId: 'm-sbp' });
    await h.until('pay');
    const uz = (await import('../../src/element/i18n/uz.js')).default;
    expect(h.root.querySelector('h2')!.textContent).to.equal(uz.payTitle);
    expect(h.root.querySelector('[part="countdown"]')).to.exist;
    expect(h.root.querySelector('[part="amount"]')).to.exist;
    h.server.update(h.server.session, { status: 'paid', provider_status: 'Completed' });
    await h.until('paid');
    expect(h.root.querySelector('h2')!.textContent).to.equal(uz.paidTitle);
  });

  // Last: it puts the English table at hand for the rest of this page.
  it('where English is at hand (the CDN files carry it), a table that cannot be loaded leaves English', async () => {
    expect(await loadLanguage('en')).to.equal(true);
    const restore = replaceLoader('be', () => Promise.reject(new TypeError('Failed to fetch dynamically imported module')));
    try {
      const h = await mount({ locale: 'be' });
      await h.until('choose');
      expect(h.root.querySelector('h2')!.textContent).to.equal('Choose how to pay');
      expect(h.text()).to.include('To pay');
      expect(h.root.querySelectorAll('[part="method"]').length).to.be.greaterThan(1);
      expect(h.text()).not.to.include('No connection');
    } finally {
      restore();
    }
  });
});
