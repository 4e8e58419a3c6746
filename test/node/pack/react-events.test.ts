/**
 * paydesk/react maps every DOM event of the element to an `onPaydesk…` prop (checked against
 * `PaydeskEventMap` in the source, so a new event without its prop fails here).
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { test } from 'node:test';
import { PAYDESK_REACT_EVENTS, PaydeskCheckout } from '../../../src/react/index.js';

const eventsSource = new URL('../../../src/element/events.ts', import.meta.url);

test('every event of PaydeskEventMap has an on… prop named after it, and no other prop exists', async () => {
  const map = /interface PaydeskEventMap\s*{([^}]*)}/.exec(await readFile(eventsSource, 'utf8'))?.[1] ?? '';
  const events = [...map.matchAll(/'(paydesk-[a-z-]+)'/g)].map((m) => m[1]!);
  assert.ok(events.length > 0);
  const propName = (event: string) => `on${event.split('-').map((w) => w[0]!.toUpperCase() + w.slice(1)).join('')}`;
  assert.deepEqual(
    Object.entries(PAYDESK_REACT_EVENTS).map(([prop, event]) => [prop, String(event)]).sort(),
    events.map((e) => [propName(e), e]).sort(),
  );
});

test('the component is a forwardRef component named PaydeskCheckout', () => {
  assert.equal((PaydeskCheckout as unknown as { displayName?: string }).displayName, 'PaydeskCheckout');
  assert.equal(typeof (PaydeskCheckout as unknown as { render?: unknown }).render, 'function');
});
