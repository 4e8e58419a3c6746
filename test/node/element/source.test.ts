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
    // The one exception: the CDN's first paint writes the same templates out as HTML, every value
    // escaped (html-string.ts `htmlOf`; test/browser/html-string.test.ts compares it with Lit's drawing).
    const written = files.find((f) => f.name === 'html-string.ts')!.text;
    assert.deepEqual(written.match(/.*\.innerHTML.*/g)?.map((l) => l.trim()), ['t.innerHTML = trustedHtml(next);']);
    assert.match(written, /const next = htmlOf\(view\);/);
    for (const f of code) if (f.name !== 'html-string.ts') assert.doesNotMatch(f.text, /\.innerHTML|\.outerHTML|insertAdjacentHTML|unsafeHTML|unsafeSVG|document\.write/, f.name);
    assert.doesNotMatch(written, /\.outerHTML|insertAdjacentHTML|unsafeHTML|unsafeSVG|document\.write/);
  });

  test('no inline style attributes or styleMap (strict CSP without unsafe-inline)', () => {
    // The CSSOM is not inline style: a strict policy lets a script set a custom property (the bank
    // sheet's fit to the visual viewport); test/browser/csp shows it runs there without a violation.
    for (const f of code) assert.doesNotMatch(f.text, /\sstyle=|styleMap|setAttribute\(\s*['"]style|\.style\.(?!setProperty\('--_)/, f.name);
  });

  test('no eval or Function constructor (strict CSP without unsafe-eval)', () => {
    for (const f of code) assert.doesNotMatch(f.text, /\beval\(|new Function\(|setTimeout\(['"`]/, f.name);
  });

  test('no telemetry: no beacons, no third-party hosts besides the bank links and the generated bank table', () => {
    for (const f of code) {
      assert.doesNotMatch(f.text, /sendBeacon|new Image\(/, f.name);
      // The receipt upload alone uses XMLHttpRequest: fetch reports no upload progress.
      if (f.name !== 'receipt.ts') assert.doesNotMatch(f.text, /XMLHttpRequest\(|new XHR/, f.name);
      if (f.name === 'bank-table.ts') continue; // NSPK's web clients of the banks (data, never fetched by the element)
      const hosts = [...f.text.matchAll(/https?:\/\/([a-z0-9.-]+)/gi)].map((m) => m[1]!);
      const allowed = f.name === 'bank-links.ts' ? ['online.vtb.ru', 'qr.nspk.ru'] : [];
      assert.deepEqual(hosts.filter((h) => !allowed.includes(h)), [], f.name);
    }
  });

  test('the generated bank table carries no logo address (third-party host, strict CSP, privacy)', () => {
    const table = readFileSync(new URL('../../../src/banks/bank-table.ts', import.meta.url), 'utf8');
    assert.doesNotMatch(table, /\.png|\.svg|proxyapp/);
  });

  test('links and navigation go through the URL sanitiser', () => {
    const hrefs = code.flatMap((f) => [...f.text.matchAll(/href=\$\{([^}]+)\}/g)].map((m) => [f.name, m[1]!] as const));
    assert.ok(hrefs.some(([name]) => name === 'pay-view.ts'), 'the pay view has links');
    // support/back: safeHttpUrl (footer.ts); url: formUrl() or redirectUrl, both safeHttpUrl; link: paymentLinkOf (safeHttpUrl);
    // b.href / b.web: bankLinks() (safeAppUrl / safeHttpUrl).
    for (const [name, expr] of hrefs) assert.match(expr, /^(support|back|url|link|b\.href|b\.web)$/, `${name}: href=${expr}`);
    const footer = code.find((f) => f.name === 'footer.ts')!.text;
    assert.match(footer, /const support = safeHttpUrl\(/);
    assert.match(footer, /\? \(safeHttpUrl\(s\.order\?\.return_url\) \?\? safeHttpUrl\(s\.known\?\.back\)\)/);
    const pay = code.find((f) => f.name === 'pay-view.ts')!.text;
    assert.match(code.find((f) => f.name === 'pay-step.ts')!.text, /const url = host\.el\.mode === 'form' && order && !order\.requisites \? safeHttpUrl\(order\.form_url\) : null;/);
    assert.match(pay, /const formUrl = c\.embedded \? null : safeHttpUrl\(order\.form_url\);/);
    assert.match(code.find((f) => f.name === 'requisites.ts')!.text, /return safeHttpUrl\(order\.payment_link\) \?\? \(req\?\.kind === 'link' \? safeHttpUrl\(req\.holder_account\) : null\);/);
    const steps = code.find((f) => f.name === 'steps.ts')!.text;
    assert.match(steps, /return this\.embedded \? null : safeHttpUrl\(this\.machine\.order\?\.redirect_url\);/);
  });

  test('the form frame takes messages only from its own window and origin', () => {
    const frame = code.find((f) => f.name === 'frame.ts')!.text;
    assert.match(frame, /e\.origin !== this\.origin \|\| e\.source === null \|\| e\.source !== frame\.contentWindow/);
    assert.match(frame, /e\.source !== this\.parent \|\| !isHello\(e\.data\)/);
  });
});
