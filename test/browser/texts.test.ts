/**
 * Every error code of the protocol, rendered in every language: the language's own sentence, never
 * the English one (in another language) and never the server's message.
 */
import { expect } from '@open-wc/testing';
import { mount } from './helpers/mount.js';
import { FakeEndpoint } from './helpers/fake-endpoint.js';
import { PROTOCOL_ERROR_CODES } from '../../src/protocol/index.js';
import { LANGUAGES, messagesFor } from '../../src/element/i18n/index.js';
import { loadLanguage } from '../../src/element/i18n/load.js';
import type { PaydeskLocale } from '../../src/element/index.js';

const SERVER_MESSAGE = 'Server-side detail for developers';

describe('every error code in every language', () => {
  it('ten languages', () => expect([...LANGUAGES].sort()).to.deep.equal(['az', 'be', 'en', 'hy', 'kk', 'ky', 'ru', 'tg', 'uk', 'uz']));

  for (const lang of LANGUAGES) {
    it(`${lang}: every code has its sentence on the error screen`, async () => {
      await loadLanguage('en');
      await loadLanguage(lang);
      const english = messagesFor('en').errors as Record<string, string>;
      const table = messagesFor(lang).errors as Record<string, string>;
      const server = new FakeEndpoint();
      const h = await mount({ locale: lang as PaydeskLocale, orderRef: '' }, { server });
      const shown: string[] = [];
      for (const code of PROTOCOL_ERROR_CODES) {
        server.failNext('methods', { status: 400, body: { error: { code, message: SERVER_MESSAGE, retryable: false } } });
        h.el.reset();
        h.el.orderRef = `sku-${code}`;
        h.el.start();
        await h.until('error');
        const text = h.root.querySelector('.center p')!.textContent!;
        expect(text, `${lang} ${code}`).to.equal(table[code]);
        if (lang !== 'en') expect(text, `${lang} ${code} is not English`).not.to.equal(english[code]);
        expect(h.text()).not.to.include(SERVER_MESSAGE);
        shown.push(code);
      }
      expect(shown).to.have.length(PROTOCOL_ERROR_CODES.length);
    });
  }
});
