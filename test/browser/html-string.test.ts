/**
 * The CDN's first paint writes the element's templates out as HTML without Lit's renderer
 * (src/element/html-string.ts); the element then takes the painted shadow root over. What it writes
 * must be what Lit draws: every view a first paint shows is drawn both ways here, in each engine the
 * browser tests run in, and the two trees compared node by node (Lit's own marker comments aside).
 */
import { expect } from '@open-wc/testing';
import { LitElement, html, nothing, render, type CSSResultGroup } from 'lit';
import { syncFrom, type Clock } from '../../src/element/countdown.js';
import { htmlOf, htmlWriter } from '../../src/element/html-string.js';
import { adoptStyles, css } from '../../src/element/template-tags.js';
import { addTables, errorText, messagesFor } from '../../src/element/i18n/index.js';
import ru from '../../src/element/i18n/ru.js';
import { initialState } from '../../src/element/machine.js';
import { transition } from '../../src/element/transition.js';
import { card, center, failed, spinner, stepTitle, waiting } from '../../src/element/parts.js';
import { qrSvg } from '../../src/element/qr.js';
import { openCard, staticHost } from '../../src/element/static-view.js';
import type { OrderView } from '../../src/protocol/index.js';
import { firstPaintOrders } from './helpers/orders.js';

addTables({ ru });
const NOW = Date.parse('2026-11-27T10:00:00Z');
const clock: Clock = { now: () => NOW, mono: () => 0, setTimeout: () => 0, clearTimeout: () => {} };

/** A node as a comparable text: element names, attributes in name order, texts; comments left out. */
function shape(node: Node): string {
  if (node.nodeType === Node.TEXT_NODE) return JSON.stringify(node.nodeValue);
  if (!(node instanceof Element)) return '';
  const attrs = [...node.attributes].map((a) => `${a.namespaceURI ?? ''}:${a.name}=${JSON.stringify(a.value)}`).sort();
  const children = [...node.childNodes].map(shape).filter(Boolean);
  return `<${node.namespaceURI === 'http://www.w3.org/2000/svg' ? 'svg:' : ''}${node.localName} ${attrs.join(' ')}>${children.join('')}</>`;
}

/** `root` without its comments (Lit's markers), adjacent texts joined (Lit writes one text a node, the parser joins them). */
function plain(root: Element): Element {
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_COMMENT);
  const comments: Node[] = [];
  while (walker.nextNode()) comments.push(walker.currentNode);
  for (const c of comments) c.parentNode!.removeChild(c);
  root.normalize();
  return root;
}

/** The view drawn by Lit and written out by htmlOf, each as a comparable text. */
function both(view: unknown): { lit: string; written: string } {
  const a = document.createElement('div');
  render(view, a);
  const b = document.createElement('div');
  b.innerHTML = htmlOf(view);
  return { lit: shape(plain(a)), written: shape(plain(b)) };
}

function openView(o: OrderView, platform: 'desktop' | 'ios' | 'android', said: boolean, qr: boolean): unknown {
  const m = messagesFor('ru');
  let state = transition(initialState(), { type: 'start', resume: { session: 's1', said }, preselected: null, canCreate: true, key: 'k' }).state;
  state = transition(state, { type: 'order', order: o, serverTime: '2026-11-27T10:00:00Z', mono: 0, wall: NOW }).state;
  state = { ...state, sync: syncFrom('2026-11-27T10:00:00Z', 0) };
  const host = staticHost({ endpoint: '/api/paydesk', orderRef: 'cart-1', state, m, language: 'ru', clock, platform });
  return openCard(host, o, qr ? { qrImage: qrSvg } : {});
}

describe('the first paint\'s HTML (html-string.ts) is what Lit draws', () => {
  it('every open order a first paint draws, on a desktop (with and without the QR) and on phones', () => {
    let compared = 0;
    for (const o of firstPaintOrders(NOW)) {
      for (const [platform, qr] of [['desktop', false], ['desktop', true], ['ios', false], ['android', false]] as const) {
        for (const said of [false, true]) {
          const { lit, written } = both(openView(o, platform, said, qr));
          expect(written, `${o.method?.type} on ${platform}${qr ? ' with the QR' : ''}`).to.equal(lit);
          compared++;
        }
      }
    }
    expect(compared).to.equal(9 * 4 * 2);
  });

  it('an order whose every text is markup: written as text, the same tree as Lit\'s, no element of it', () => {
    const evil = `"><img src=x onerror="window.__written=1">'&<!--`;
    const [card, sbp] = firstPaintOrders(NOW);
    const orders = [
      { ...card!, client_order_id: evil, method: { id: 'm1', name: evil, type: 'BankCard' }, requisites: { kind: 'card' as const, holder_name: evil, holder_account: '2200700012345678', bank_name: evil } },
      { ...sbp!, client_order_id: evil, support_url: `https://shop.example/s?q="><b>`, requisites: { kind: 'phone' as const, holder_name: evil, holder_account: '+79001234567', bank_name: evil } },
    ];
    for (const o of orders) {
      for (const platform of ['desktop', 'ios'] as const) {
        const view = openView(o, platform, false, platform === 'desktop');
        const { lit, written } = both(view);
        expect(written).to.equal(lit);
        const b = document.createElement('div');
        b.innerHTML = htmlOf(view);
        expect(b.querySelector('img, b')).to.equal(null);
        expect(b.textContent).to.include(`"><img src=x`);
      }
    }
  });

  it('the cards before the answer and after a refused chunk', () => {
    const m = messagesFor('ru');
    const views = [
      card(m.region, false, true, stepTitle(m, 'searching', null), nothing, center(spinner, html`<p class="muted">${m.searchingText}</p>`), nothing, ''),
      card(m.region, false, true, stepTitle(m, 'loading', null), nothing, waiting, nothing, ''),
      card(m.region, false, false, stepTitle(m, 'error', null), nothing, failed(errorText(m, 'integrity')), nothing, ''),
    ];
    for (const v of views) {
      const { lit, written } = both(v);
      expect(written).to.equal(lit);
    }
  });

  it('the countdown\'s tick changes its text in place: the requisites\' nodes and a selection in them survive', () => {
    const host = document.createElement('div');
    document.body.append(host);
    const at = host.appendChild(document.createComment(''));
    const write = htmlWriter(host, at);
    const o = firstPaintOrders(NOW)[1]!;
    const timer = (s: number) => html`<div part="countdown">${s}</div>`;
    const view = (s: number) => html`${timer(s)}<p part="account">${o.requisites!.holder_account}</p>`;
    write(view(59));
    const account = host.querySelector('[part="account"]')!;
    const text = account.firstChild!;
    getSelection()!.selectAllChildren(account);
    write(view(58));
    expect(host.querySelector('[part="countdown"]')!.textContent).to.equal('58');
    expect(host.querySelector('[part="account"]')).to.equal(account);
    expect(account.firstChild).to.equal(text);
    expect(getSelection()!.toString()).to.equal(o.requisites!.holder_account);
    // Another structure (the QR arrived): written anew, before `at`, nothing left of the old.
    write(html`<p part="qr">q</p>${view(57)}`);
    expect([...host.childNodes].map((n) => n.nodeName)).to.deep.equal(['P', 'DIV', 'P', '#comment']);
    expect(host.lastChild).to.equal(at);
    // Once `at` has left (the element's own render took over), nothing more is written.
    at.remove();
    write(view(1));
    expect(host.querySelector('[part="countdown"]')).to.equal(host.childNodes[1]);
    expect(host.querySelector('[part="countdown"]')!.textContent).to.equal('57');
    host.remove();
  });
});

describe('the first paint\'s styles (template-tags.ts `css`, `adoptStyles`), as Lit\'s element takes them', () => {
  it('a shadow root takes them, and so does a LitElement whose styles they are', async () => {
    const inner = css`p { margin-left: ${7}px; }`;
    const style = css`${inner} p { color: rgb(1, 2, 3); }`;
    const host = document.body.appendChild(document.createElement('div'));
    const root = host.attachShadow({ mode: 'open' });
    adoptStyles(root, [style]);
    const p = root.appendChild(document.createElement('p'));
    expect(getComputedStyle(p).color).to.equal('rgb(1, 2, 3)');
    expect(getComputedStyle(p).marginLeft).to.equal('7px');
    class Styled extends LitElement {
      // Lit's type names its own class; the element takes any object of its shape (what the CDN build gives it).
      static override styles = [style] as unknown as CSSResultGroup;
      override render() {
        return html`<p>x</p>`;
      }
    }
    customElements.define('paydesk-light-styles', Styled);
    const el = document.body.appendChild(document.createElement('paydesk-light-styles')) as Styled;
    await el.updateComplete;
    expect(getComputedStyle(el.shadowRoot!.querySelector('p')!).color).to.equal('rgb(1, 2, 3)');
    host.remove();
    el.remove();
  });
});
