import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { normaliseEndpoint, safeHttpUrl } from '../../../src/protocol/url.js';

describe('URL sanitising', () => {
  test('absolute http and https URLs pass (normalised)', () => {
    assert.equal(safeHttpUrl('https://shop.example/thanks?o=1'), 'https://shop.example/thanks?o=1');
    assert.equal(safeHttpUrl('HTTP://Shop.Example'), 'http://shop.example/');
    assert.equal(safeHttpUrl('https://магазин.рф/'), 'https://xn--80aairftm.xn--p1ai/');
  });

  const dropped: Array<[string, unknown]> = [
    ['javascript:', 'javascript:alert(1)'],
    ['JavaScript: with spaces and case', ' JaVaScRiPt:alert(1)'],
    ['javascript: split by a newline', 'java\nscript:alert(1)'],
    ['javascript: with a tab', 'java\tscript:alert(1)'],
    ['data:', 'data:text/html,<script>alert(1)</script>'],
    ['vbscript:', 'vbscript:msgbox(1)'],
    ['file:', 'file:///etc/passwd'],
    ['protocol-relative', '//evil.example/x'],
    ['backslashes', '/\\evil.example'],
    ['https with backslash host', 'https:\\\\evil.example'],
    ['scheme without slashes', 'https:evil.example'],
    ['relative path', '/thanks'],
    ['empty', ''],
    ['no host', 'https://'],
    ['credentials in the URL', 'https://shop.example@evil.example/'],
    ['user and password', 'https://user:pass@shop.example/'],
    ['space in the host', 'https://sh op.example/'],
    ['a control character', 'https://shop.example/\u0000'],
    ['far too long', `https://shop.example/${'a'.repeat(3000)}`],
    ['not a string', 42],
    ['null', null],
    ['an object', { href: 'https://shop.example' }],
  ];
  for (const [name, value] of dropped) {
    test(`drops ${name}`, () => assert.equal(safeHttpUrl(value), null));
  }
});

describe('token endpoint setting', () => {
  test('a path on this site or an absolute http(s) URL, without the trailing slash', () => {
    assert.equal(normaliseEndpoint('/api/paydesk/'), '/api/paydesk');
    assert.equal(normaliseEndpoint('https://shop.example/api/paydesk'), 'https://shop.example/api/paydesk');
    assert.equal(normaliseEndpoint('https://shop.example/'), 'https://shop.example');
  });

  test('anything else is refused', () => {
    for (const bad of ['', '   ', '//evil.example/api', 'javascript:alert(1)', 'api/paydesk', '/api\\x', undefined]) {
      assert.equal(normaliseEndpoint(bad), null, String(bad));
    }
  });
});
