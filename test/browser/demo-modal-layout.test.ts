/**
 * The storefront's checkout modal on a phone (demo/public/css/store.css): a full-screen sheet exactly
 * as wide and as tall as the window, also where the page behind has a classic scrollbar (Firefox, and
 * Chromium here without phone emulation: the modal was 378 px wide in a 390 px window, the scrollbar's
 * width outside its `width: 100%`), with the dynamic viewport height (Safari's toolbars) where `vh`
 * alone counted the area behind them. (Its prefers-reduced-motion check needs the runner's media
 * emulation, which WebKit over WebDriver lacks: it is in media-features.test.ts.)
 */
import { expect } from '@open-wc/testing';
import { setViewport } from '@web/test-runner-commands';
import { storeStyles } from './helpers/store-styles.js';


describe('the storefront checkout modal on a phone', () => {
  let cleanup: Array<() => void> = [];
  before(() => setViewport({ width: 390, height: 760 }));
  after(() => setViewport({ width: 800, height: 600 }));
  afterEach(() => {
    for (const f of cleanup.reverse()) f();
    cleanup = [];
  });

  it('covers the whole window, a scrollbar of the page behind or not, and the page behind does not scroll', async () => {
    const link = await storeStyles();
    const tall = document.createElement('div');
    tall.style.height = '3000px';
    document.body.append(tall);
    const modal = document.createElement('dialog');
    modal.id = 'modal';
    modal.className = 'modal';
    modal.textContent = 'checkout';
    document.body.append(modal);
    cleanup.push(() => link.remove(), () => tall.remove(), () => modal.remove());
    expect(document.documentElement.scrollHeight).to.be.greaterThan(innerHeight, 'the page behind scrolls');
    modal.showModal();
    cleanup.unshift(() => modal.close());
    const box = modal.getBoundingClientRect();
    expect(innerWidth).to.equal(390);
    expect(box.width).to.equal(innerWidth, 'as wide as the window');
    expect(box.left).to.equal(0);
    expect(box.height).to.equal(innerHeight, 'as tall as the window');
    expect(getComputedStyle(document.documentElement).overflow).to.equal('hidden', 'the page behind is held while the modal is open');
    modal.close();
    expect(getComputedStyle(document.documentElement).overflow).to.equal('visible', 'and scrolls again once it closed');
  });

  it('every vh of the storefront\'s styles has a dynamic (dvh) or small (svh) viewport twin after it', async () => {
    for (const file of ['demo/public/css/store.css', 'demo/public/css/pages.css', 'src/ui-shared/base.css', 'src/console/ui/console.css']) {
      const res = await fetch(new URL(`../../${file}`, import.meta.url));
      expect(res.ok, `${file} is served`).to.equal(true);
      const text = await res.text();
      const lines = text.split('\n');
      lines.forEach((line, i) => {
        const m = /^\s*([\w-]+)\s*:\s*([^;]*\d+vh[^;]*);/.exec(line);
        if (!m) return;
        const twin = new RegExp(`^\\s*${m[1]}\\s*:[^;]*\\d+[ds]vh`);
        expect(twin.test(lines[i + 1] ?? ''), `${file}:${i + 1} "${line.trim()}" is followed by its dvh/svh twin`).to.equal(true);
      });
    }
  });

});
