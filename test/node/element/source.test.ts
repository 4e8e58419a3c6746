// Static checks of the element's source: the safety rules that a reviewer would otherwise have to
// re-read every file for.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const dir = fileURLToPath(new URL('../../../src/element/', import.meta.url));
const files = readdirSync(dir, { recursive: true, encoding: 'utf8' })
  .filter((f) => f.endsWith('.ts'))
  .map((f) => ({ name: f, text: readFileSync(join(dir, f), 'utf8') }));
const code = files.filter((f) => !f.name.startsWith('i18n/'));

describe('element source', () => {
  test('renders only through Lit templates: no innerHTML, outerHTML, insertAdjacentHTML, unsafeHTML or document.write', () => {
    for (const f of code) assert.doesNotMatch(f.text, /\.innerHTML|\.outerHTML|insertAdjacentHTML|unsafeHTML|unsafeSVG|document\.write/, f.name);
  });

  test('no inline style attributes or styleMap (strict CSP without unsafe-inline)', () => {
    for (const f of code) assert.doesNotMatch(f.text, /\sstyle=|styleMap|\.style\./, f.name);
  });

  test('no eval or Function constructor (strict CSP without unsafe-eval)', () => {
    for (const f of code) assert.doesNotMatch(f.text, /\beval\(|new Function\(|setTimeout\(['"`]/, f.name);
  });

  test('no telemetry: no beacons, no third-party hosts besides the bank-link table', () => {
    for (const f of code) {
      assert.doesNotMatch(f.text, /sendBeacon|XMLHttpRequest|new Image\(/, f.name);
      const hosts = [...f.text.matchAll(/https?:\/\/([a-z0-9.-]+)/gi)].map((m) => m[1]!);
      const allowed = f.name === 'banks.ts' ? ['online.vtb.ru'] : [];
      assert.deepEqual(hosts.filter((h) => !allowed.includes(h)), [], f.name);
    }
  });

  test('links and navigation go through the URL sanitiser', () => {
    const el = code.find((f) => f.name === 'paydesk-checkout.ts')!.text;
    const hrefs = code.flatMap((f) => [...f.text.matchAll(/href=\$\{([^}]+)\}/g)].map((m) => [f.name, m[1]!] as const));
    assert.ok(hrefs.some(([name]) => name === 'pay-view.ts'), 'the pay view has links');
    for (const [name, expr] of hrefs) {
      assert.match(expr, /^(formUrl|support|back|url|apps\.primary|b\.href|safeHttpUrl\(.+\)!?)$/, `${name}: href=${expr}`);
    }
    // The embedded page: pay-view's form(m, url) gets only _formOnly()'s URL (safeHttpUrl(order.form_url) with lang added).
    assert.match(code.find((f) => f.name === 'pay-view.ts')!.text, /export function form\(m: Messages, url: string\)[^]*?src=\$\{url\}/);
    assert.match(el, /const form = this\._formOnly\(order\);\s*if \(form\) return this\._view\('pay', \(pay\) => pay\.form\(m, form\)\)/);
  });
});
