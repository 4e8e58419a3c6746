/**
 * The console's order status labels read a status the way the server does: the provider's case is
 * not relied on (provider-notes.md), so a `COMPLETED` is shown as paid, never "COMPLETED (unknown)".
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { disputeStateLabel, errorSentence, orderStatusLabel } from '../../../src/console/ui/labels.js';

describe('console order status labels', () => {
  test('a status in another case is the known status, in both languages and for both sides', () => {
    for (const lang of ['en', 'ru'] as const) {
      for (const side of ['Buy', 'Sell']) {
        assert.deepEqual(orderStatusLabel(lang, 'COMPLETED', side), orderStatusLabel(lang, 'Completed', side), `${lang} ${side}`);
        assert.deepEqual(orderStatusLabel(lang, ' canceledbytimeout ', side), orderStatusLabel(lang, 'CanceledByTimeout', side), `${lang} ${side}`);
      }
    }
    assert.deepEqual(orderStatusLabel('en', 'COMPLETED', 'Buy').tone, 'ok');
    assert.ok(!orderStatusLabel('en', 'COMPLETED', 'Buy').text.includes('unknown'));
  });

  test('an unknown status is shown as the provider wrote it, marked unknown, pending in tone', () => {
    assert.deepEqual(orderStatusLabel('en', 'Brand-new', 'Buy'), { text: 'Brand-new (unknown)', tone: 'wait' });
  });
});

describe('console dispute state', () => {
  test('a dispute of the shop reads what it proved: money found, not found, in review, or processed with the money being looked for, never just "Processed"', () => {
    const en = (processed: boolean, shop: { outcome: string | null } | null) => disputeStateLabel('en', processed, shop);
    assert.deepEqual(en(true, { outcome: 'paid' }), { text: 'Money found', tone: 'ok' });
    assert.deepEqual(en(true, { outcome: 'unconfirmed' }), { text: 'Money not found', tone: 'bad' });
    assert.deepEqual(en(false, { outcome: null }), { text: 'In review', tone: 'wait' });
    assert.deepEqual(en(true, { outcome: null }), { text: 'Processed, money being looked for', tone: 'wait' });
    assert.deepEqual(en(true, null), { text: 'Processed', tone: 'none' }, 'another shop\'s dispute: only what the provider says');
    assert.equal(disputeStateLabel('ru', true, { outcome: 'paid' }).text, 'Деньги найдены');
  });
});
