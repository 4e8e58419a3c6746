/**
 * html-string.ts writes Lit's templates out as HTML without Lit's renderer (the CDN's first paint).
 * What Lit would draw, case by case; test/browser/html-string.test.ts compares whole painted views with
 * Lit's own rendering in each engine.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { html, nothing, svg } from 'lit';
import { classMap } from 'lit/directives/class-map.js';
import { htmlOf } from '../../../src/element/html-string.js';
import { html as lightHtml, nothing as lightNothing, svg as lightSvg } from '../../../src/element/template-tags.js';

test('text is escaped, nothing/null/undefined write nothing, numbers and booleans as Lit writes them', () => {
  assert.equal(htmlOf(html`<p>${'<b>"Tom" & \'Jerry\'</b>'}</p>`), '<p>&lt;b&gt;&quot;Tom&quot; &amp; &#39;Jerry&#39;&lt;/b&gt;</p>');
  assert.equal(htmlOf(html`<p>${nothing}${null}${undefined}|${0}|${false}</p>`), '<p>|0|false</p>');
});

test('nested templates, arrays and other iterables are written in order', () => {
  const items = ['a', 'b'].map((x) => html`<li>${x}</li>`);
  assert.equal(htmlOf(html`<ul>${items}${new Set([html`<li>c</li>`])}</ul>`), '<ul><li>a</li><li>b</li><li>c</li></ul>');
  assert.equal(htmlOf(html`<svg viewBox="0 0 2 2">${svg`<path d=${'M0 0'}/>`}</svg>`), '<svg viewBox="0 0 2 2"><path d="M0 0"/></svg>');
});

test('attributes: quoted, unquoted and several bindings in one value; nothing leaves the attribute out', () => {
  assert.equal(htmlOf(html`<a href=${'/x?a=1&b="2"'} title='${'t'}'>x</a>`), '<a href="/x?a=1&amp;b=&quot;2&quot;" title="t">x</a>');
  assert.equal(htmlOf(html`<div class="card ${'low'} ${1}" aria-busy=${false}></div>`), '<div class="card low 1" aria-busy="false"></div>');
  assert.equal(htmlOf(html`<div class="x" title=${nothing} aria-label="a ${nothing}"></div>`), '<div class="x"></div>');
  assert.equal(htmlOf(html`<div title=${undefined} data-n="${null}"></div>`), '<div title="" data-n=""></div>');
});

test('boolean attributes, listeners and properties', () => {
  assert.equal(htmlOf(html`<button ?disabled=${true} ?hidden=${false} ?inert=${nothing}>b</button>`), '<button disabled>b</button>');
  assert.equal(htmlOf(html`<input class="i" .value=${'v'} @focus=${() => {}} aria-label=${'l'}>`), '<input class="i" aria-label="l">');
});

test('a value is never read as a binding or a tag: a marker-like or tag-like text stays text', () => {
  const sneaky = '\uE0000\uE001<img src=x onerror=alert(1)>';
  const out = htmlOf(html`<p title=${sneaky}>${sneaky}</p><i>${'second'}</i>`);
  assert.equal(out, `<p title="\uE0000\uE001&lt;img src=x onerror=alert(1)&gt;">\uE0000\uE001&lt;img src=x onerror=alert(1)&gt;</p><i>second</i>`);
});

test('text that looks like an attribute outside a tag is left alone; a static ">" in text too', () => {
  assert.equal(htmlOf(html`<p>a=${'b'} c > d</p>`), '<p>a=b c > d</p>');
});

test('a directive is refused (the first paint draws none; Lit would be needed)', () => {
  assert.throws(() => htmlOf(html`<p class=${classMap({ a: true })}></p>`), /directive/);
});

test('the light tags make what Lit\'s tags make: the same shape, the same markers', () => {
  const v = 'x';
  const light = lightHtml`<p title=${v}>${lightNothing}</p>`;
  const lit = html`<p title=${v}>${nothing}</p>`;
  assert.deepEqual({ ...light }, { ...lit });
  assert.equal(lightNothing, nothing);
  assert.equal(lightSvg`<path/>`['_$litType$'], svg`<path/>`['_$litType$']);
  assert.equal(htmlOf(light), htmlOf(lit));
});

test('a binding on the element itself is refused; the tags after it are still read as tags', () => {
  assert.throws(() => htmlOf(html`<p ${'x'}></p>`), /element binding/);
  // Many tags in a row, each with bindings (a regular expression's state must not carry over).
  const row = (i: number) => html`<span class="c${i}" title=${i}>${i}</span>`;
  assert.equal(htmlOf(html`${[1, 2, 3].map(row)}`), '<span class="c1" title="1">1</span><span class="c2" title="2">2</span><span class="c3" title="3">3</span>');
});

test('the light css tag: other styles and numbers go in, anything else is refused; Lit\'s css takes its styles', async () => {
  const { css: lightCss, unsafeCSS } = await import('../../../src/element/template-tags.js');
  const { css: litCss } = await import('lit');
  const inner = lightCss`b { color: red; }`;
  assert.equal(lightCss`a { margin: ${4}px; } ${inner}`.cssText, 'a { margin: 4px; } b { color: red; }');
  assert.equal(String(unsafeCSS('c {}')), 'c {}');
  assert.throws(() => lightCss`a { color: ${'red' as unknown as number}; }`, /only a css style or a number/);
  assert.equal(litCss`${inner as unknown as ReturnType<typeof litCss>} i {}`.cssText, 'b { color: red; } i {}');
});

test('a tag is read attribute by attribute: a ">" or attribute-like text inside a quoted value is the value\'s', () => {
  const v = 'x onmouseover=alert(1)';
  // A ">" in a static value does not end the tag: the binding after it is still an attribute, quoted.
  assert.equal(htmlOf(html`<a title="a>b" href=${v}>t</a>`), '<a title="a>b" href="x onmouseover=alert(1)">t</a>');
  // Attribute-like text inside another attribute's value is not an attribute.
  assert.equal(htmlOf(html`<a data-x = "q r='${v}'">t</a>`), `<a data-x="q r='x onmouseover=alert(1)'">t</a>`);
  assert.equal(htmlOf(html`<svg><path d=${'M0 0'}/></svg>`), '<svg><path d="M0 0"/></svg>');
});

test('a binding inside a comment or a raw-text element is refused, as Lit refuses it', () => {
  assert.throws(() => htmlOf(html`<!-- ${'x'} -->`), /comment or raw text/);
  assert.throws(() => htmlOf(html`<style>a { color: ${'red'} }</style>`), /comment or raw text/);
  assert.throws(() => htmlOf(html`<textarea>${'x'}</textarea>`), /comment or raw text/);
  assert.equal(htmlOf(html`<!-- a note --><p>${'x'}</p><style>p{}</style>${'y'}`), '<!-- a note --><p>x</p><style>p{}</style>y');
});
