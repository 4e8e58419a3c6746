/**
 * What the CDN entry's first move restates of the element, held to it (src/element/first.ts and
 * src/element/i18n/first.ts keep their own lists so the entry does not carry the element's code):
 *   - the attributes `startFirst` reads are the element's own (`PaydeskCheckout.properties`), each
 *     read into the property it sets on the element;
 *   - every language the element loads (`LAZY`, i18n/load.ts) has its own first-paint table (`FIRST`), so a first
 *     paint in Kazakh is in Kazakh, not the English fallback.
 */
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { startFirst } from '../../../src/element/first.js';
import { FIRST_KEYS, firstMessages, loadFirstLanguage } from '../../../src/element/i18n/first.js';
import { LAZY } from '../../../src/element/i18n/load.js';
import { PaydeskCheckout } from '../../../src/element/paydesk-checkout.js';

/** The attribute Lit gives a property: its `attribute` option, else the property's name in lower case; null for none. */
function attributeOf(property: string): string | null {
  const option = (PaydeskCheckout.properties as Record<string, { attribute?: string | boolean }>)[property]?.attribute;
  if (option === false) return null;
  return typeof option === 'string' ? option : property.toLowerCase();
}

/** A value each attribute may take that no other attribute has (`method-type` and `payment-method-id` go one at a time). */
const VALUES: Record<string, string> = {
  endpoint: '/api/paydesk',
  'order-ref': 'cart-1',
  mode: 'h2h',
  'method-type': 'SBP',
  'payment-method-id': 'pm-7',
  bank: 'vtb',
  'button-name': 'VTBPay',
  'support-url': 'https://shop.example/help',
  locale: 'en',
};

/**
 * Runs `startFirst` on an element in a page that has not loaded the element's code: its attributes
 * are `VALUES`, every read recorded; the request it sends is never answered.
 */
function firstMove(without: string): { read: string[]; attrs: Record<string, string> } {
  const values = Object.fromEntries(Object.entries(VALUES).filter(([name]) => name !== without));
  const read: string[] = [];
  // An element whose code has not arrived: no own properties, only the DOM's methods (on its prototype).
  const el = Object.create({
    getAttribute(name: string) {
      read.push(name);
      return values[name] ?? null;
    },
  }) as HTMLElement;
  const fetch = globalThis.fetch;
  globalThis.fetch = () => new Promise<Response>(() => {});
  try {
    const started = startFirst(el);
    assert.ok(started, 'the first request is sent for these attributes');
    assert.equal(started.fx, 'create', 'a POST /sessions (a preselected method, no session)');
    return { read, attrs: started.attrs as unknown as Record<string, string> };
  } finally {
    globalThis.fetch = fetch;
  }
}

test("the first request reads the element's own attributes, each into the property the element sets from it", () => {
  const byValue = new Map(Object.entries(VALUES).map(([name, value]) => [value, name]));
  const properties = new Set<string>();
  for (const without of ['payment-method-id', 'method-type']) {
    const { read, attrs } = firstMove(without);
    for (const [property, value] of Object.entries(attrs)) {
      properties.add(property);
      const attribute = attributeOf(property);
      assert.ok(attribute, `${property}: a property of <paydesk-checkout> with an attribute`);
      assert.ok(read.includes(attribute), `the attribute "${attribute}" is read`);
      // An absent attribute (session, and the one left out) reads as ''; every other one has its own value.
      if (value !== '') assert.equal(byValue.get(value), attribute, `${property} is read from the element's attribute "${attribute}", not "${byValue.get(value)}"`);
    }
    assert.ok(read.includes('locale'), 'the language of the first paint is read from "locale" too');
  }
  // Every attribute of the element that decides its first request is read; what does not decide it is named.
  const notForTheRequest = new Set(['locale', 'theme']);
  const config = Object.keys(PaydeskCheckout.properties).filter((p) => attributeOf(p) !== null && !notForTheRequest.has(p));
  assert.deepEqual([...properties].sort(), config.sort(), "the first request's attributes are the element's config attributes, all of them");
});

test('every language the element loads has a first-paint table of its own, and there is no other', async () => {
  // The language tables on disk are those the element loads (the first-paint chunks are cut from them).
  const dir = fileURLToPath(new URL('../../../src/element/i18n/', import.meta.url));
  const onDisk = readdirSync(dir)
    .map((f) => /^([a-z]{2,3}(?:-[a-z0-9]+)*)\.ts$/.exec(f)?.[1])
    // en-offline.ts: the offline messages every build carries, not a language.
    .filter((t): t is string => t !== undefined && t !== 'index' && t !== 'first' && t !== 'en-offline');
  assert.deepEqual(Object.keys(LAZY).sort(), onDisk.sort(), 'LAZY lists every language table');
  const english = await LAZY.en();
  for (const tag of Object.keys(LAZY)) {
    assert.equal(await loadFirstLanguage(tag), true, `${tag}: its first-paint messages load`);
    const own = (await LAZY[tag as keyof typeof LAZY]()).default as Record<string, unknown>;
    const first = firstMessages(tag) as Record<string, unknown>;
    for (const key of FIRST_KEYS) {
      if (key in own) assert.equal(first[key], own[key], `${tag}: "${key}" in the first paint is the ${tag} table's, not the fallback`);
    }
    // A language with a table of its own says at least one first-paint message its own way.
    if (tag !== 'en') assert.ok(FIRST_KEYS.some((k) => k in own && own[k] !== (english.default as Record<string, unknown>)[k]), `${tag}: not English`);
  }
});
