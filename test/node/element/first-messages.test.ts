/**
 * The CDN files' first paint reads only the messages its language's first-paint chunk carries
 * (src/element/i18n/first.ts `FIRST_KEYS`, cut by `firstTables`, scripts/vite/first-tables.ts) and the offline ones:
 * every kind of open order a first paint can draw is drawn here with messages that record what is read.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { render } from '@lit-labs/ssr';
import { collectResultSync } from '@lit-labs/ssr/lib/render-result.js';
import { html } from 'lit';
import type { OrderView } from '../../../src/protocol/index.js';
import { syncFrom, type Clock } from '../../../src/element/countdown.js';
import { FIRST_KEYS } from '../../../src/element/i18n/first.js';
import { addTables, messagesFor, type Messages } from '../../../src/element/i18n/index.js';
import offline from '../../../src/element/i18n/en-offline.js';
import ru from '../../../src/element/i18n/ru.js';
import { initialState } from '../../../src/element/machine.js';
import { transition } from '../../../src/element/transition.js';
import { card, center, spinner, stepTitle } from '../../../src/element/parts.js';
import type { Platform } from '../../../src/element/platform.js';
import { openCard, staticHost } from '../../../src/element/static-view.js';
import { firstPaintOrders } from '../../browser/helpers/orders.js';

addTables({ ru });
const NOW = Date.parse('2026-11-27T10:00:00Z');
const clock: Clock = { now: () => NOW, mono: () => 0, setTimeout: () => 0, clearTimeout: () => {} };

/** Messages that record every key read (the errors' too). */
function recording(read: Set<string>): Messages {
  const m = messagesFor('ru');
  return new Proxy(m, {
    get(target, key, receiver) {
      if (typeof key === 'string') read.add(key);
      return Reflect.get(target, key, receiver);
    },
  });
}

function draw(o: OrderView, platform: Platform, said: boolean, read: Set<string>): string {
  const m = recording(read);
  let state = transition(initialState(), { type: 'start', resume: { session: 's1', said }, preselected: null, canCreate: true, key: 'k' }).state;
  state = transition(state, { type: 'order', order: o, serverTime: '2026-11-27T10:00:00Z', mono: 0, wall: NOW }).state;
  state = { ...state, sync: syncFrom('2026-11-27T10:00:00Z', 0) };
  const host = staticHost({ endpoint: '/api/paydesk', orderRef: 'cart-1', state, m, language: 'ru', clock, platform });
  return collectResultSync(render(openCard(host, o)));
}

test('every message a first paint reads is in FIRST_KEYS or the offline English', () => {
  const allowed = new Set<string>([...FIRST_KEYS, ...Object.keys(offline)]);
  const read = new Set<string>();
  const orders = firstPaintOrders(NOW);
  for (const o of orders) {
    for (const platform of ['desktop', 'ios', 'android'] as const) {
      for (const said of [false, true]) {
        const text = draw(o, platform, said, read);
        assert.doesNotMatch(text, /undefined/, 'no message is missing');
      }
    }
  }
  // The card while the order is looked for (paint.ts).
  const m = recording(read);
  collectResultSync(render(card(m.region, false, true, stepTitle(m, 'searching', null), '', center(spinner, html`<p>${m.searchingText}</p>`), '', '')));
  const outside = [...read].filter((k) => !allowed.has(k) && !/^(then|toJSON|constructor|Symbol)/.test(k));
  assert.deepEqual(outside, [], `read by a first paint but not in FIRST_KEYS: ${outside.join(', ')}`);
  // And nothing listed that no paint reads (a table's first chunk carries only what is read).
  const unread = FIRST_KEYS.filter((k) => !read.has(k));
  assert.deepEqual(unread, [], `in FIRST_KEYS but never read: ${unread.join(', ')}`);
});
