/**
 * The console's order status labels read a status the way the server does: the provider's case is
 * not relied on (provider-notes.md), so a `COMPLETED` is shown as paid, never "COMPLETED (unknown)".
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { errorSentence, orderStatusLabel } from '../../../demo/public/src/console/labels.js';

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

describe('console error sentences', () => {
  test('payout_in_progress says plainly not to pay again and when to check, in both languages', () => {
    assert.equal(
      errorSentence('en', 'payout_in_progress', 'server message', { retry_after: 42 }),
      'An earlier submission of this payout is still being confirmed; do not pay it again — check again in 42 s.',
    );
    assert.equal(
      errorSentence('ru', 'payout_in_progress', 'server message', { retry_after: 42 }),
      'Предыдущая отправка этой выплаты ещё не подтверждена; не выплачивайте её снова — проверьте ещё раз через 42 с.',
    );
  });
});
