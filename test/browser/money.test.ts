import { expect } from '@open-wc/testing';
import { formatMoney } from '../../src/money/index.js';

describe('money in Chromium', () => {
  it('formats roubles exactly for ru and en with the browser Intl', () => {
    expect(formatMoney('1500', 'RUB', 'ru')).to.equal('1\u00a0500,00\u00a0₽');
    expect(formatMoney('1500.5', 'RUB', 'en')).to.equal('RUB\u00a01,500.50');
  });
});
