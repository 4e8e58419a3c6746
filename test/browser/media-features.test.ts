/**
 * The element follows the shopper's system settings: prefers-color-scheme (theme "auto") and
 * prefers-reduced-motion. The runner changes those settings with emulateMedia: Chromium over CDP,
 * Firefox through its preferences (scripts/wtr/firefox-launcher.mjs); WebKit over WebDriver cannot,
 * so web-test-runner.config.mjs leaves this file out there and docs/browsers.md says so. The rest of
 * theming runs in every engine (theme.test.ts).
 */
import { expect } from '@open-wc/testing';
import { emulateMedia } from '@web/test-runner-commands';
import { mount } from './helpers/mount.js';
import { FakeEndpoint } from './helpers/fake-endpoint.js';
import { storeStyles } from './helpers/store-styles.js';

describe('<paydesk-checkout> and the system settings', () => {
  it('theme "auto" follows the system setting', async () => {
    const h = await mount({ theme: 'auto' });
    await h.until('choose');
    const surface = () => getComputedStyle(h.root.querySelector('.card')!).backgroundColor;
    await emulateMedia({ colorScheme: 'dark' });
    expect(surface()).to.equal('rgb(23, 26, 33)');
    await emulateMedia({ colorScheme: 'light' });
    expect(surface()).to.equal('rgb(255, 255, 255)');
  });

  it('honours prefers-reduced-motion: the spinner stops turning', async () => {
    const server = new FakeEndpoint();
    server.hold('create');
    const h = await mount({ paymentMethodId: 'm-sbp' }, { server });
    await h.until('searching');
    const spinner = h.root.querySelector('.spinner')!;
    expect(getComputedStyle(spinner).animationName).to.equal('spin');
    await emulateMedia({ reducedMotion: 'reduce' });
    expect(getComputedStyle(spinner).animationName).to.equal('none');
    await emulateMedia({ reducedMotion: 'no-preference' });
  });

  it('the demo storefront honours prefers-reduced-motion: its buttons stop their transitions', async () => {
    const link = await storeStyles();
    const button = document.createElement('button');
    button.className = 'btn';
    document.body.append(button);
    await emulateMedia({ reducedMotion: 'no-preference' });
    expect(getComputedStyle(button).transitionDuration).to.not.match(/^0s(, 0s)*$/, 'transitions by default');
    await emulateMedia({ reducedMotion: 'reduce' });
    try {
      expect(getComputedStyle(button).transitionDuration).to.match(/^0s(, 0s)*$/, 'none when the system asks for less motion');
    } finally {
      link.remove();
      button.remove();
      await emulateMedia({ reducedMotion: 'no-preference' });
    }
  });
});
