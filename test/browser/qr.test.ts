import { expect } from '@open-wc/testing';
import jsQRModule from 'jsqr';
import { byText, mount } from './helpers/mount.js';
import { FakeEndpoint } from './helpers/fake-endpoint.js';
import { FakeClock } from './helpers/fake-clock.js';
import { orderView, PAYMENT_LINK } from './helpers/orders.js';
import { drawQr } from '../../src/element/qr.js';

// jsqr is CommonJS with an ES-style `default`: take the function whichever way the loader hands it over.
type Decoder = (data: Uint8ClampedArray, width: number, height: number) => { data: string } | null;
const jsQR = ((jsQRModule as unknown as { default?: Decoder }).default ?? jsQRModule) as unknown as Decoder;

function decode(canvas: HTMLCanvasElement): string | null {
  const ctx = canvas.getContext('2d')!;
  const { data, width, height } = ctx.getImageData(0, 0, canvas.width, canvas.height);
  return jsQR(data, width, height)?.data ?? null;
}

describe('SBP QR code', () => {
  it('is drawn locally and decodes back to the payment link', async () => {
    const h = await mount({ paymentMethodId: 'm-sbp' });
    await h.until('pay');
    const canvas = h.root.querySelector('canvas')!;
    expect(canvas.width).to.be.greaterThan(100);
    expect(decode(canvas)).to.equal(PAYMENT_LINK);
  });

  it('is redrawn for the new link after new requisites', async () => {
    const server = new FakeEndpoint();
    const clock = new FakeClock(Date.now());
    server.serverNow = () => clock.now();
    const link2 = PAYMENT_LINK.replace('AS1000670LSS7DN18SJQDNP4B05KLJL2', 'AS2000670LSS7DN18SJQDNP4B05KLJL9');
    server.makeOrder = (_b, n) => orderView({ id: `ord-${n}`, payment_link: n === 1 ? PAYMENT_LINK : link2 }, clock.now());
    const h = await mount({ paymentMethodId: 'm-sbp' }, { server, clock });
    await h.until('pay');
    server.update(server.session, { status: 'expired', provider_status: 'CanceledByTimeout' });
    await h.until('expired');
    byText(h.root, 'Get new payment details').click();
    await h.until('pay');
    expect(decode(h.root.querySelector('canvas')!)).to.equal(link2);
  });

  it('is not shown for a payment link that is not http(s)', async () => {
    const server = new FakeEndpoint();
    server.makeOrder = (_b, n) => orderView({ id: `ord-${n}`, payment_link: 'javascript:alert(1)' }, Date.now());
    const h = await mount({ paymentMethodId: 'm-sbp' }, { server, clock: new FakeClock(Date.now()) });
    await h.until('pay');
    expect(h.root.querySelector('canvas')).to.equal(null);
    expect(h.root.querySelector('[part="qr"]')).to.equal(null);
  });

  it('stays scannable in the dark theme (dark modules on white)', async () => {
    const h = await mount({ paymentMethodId: 'm-sbp', theme: 'dark' });
    await h.until('pay');
    expect(decode(h.root.querySelector('canvas')!)).to.equal(PAYMENT_LINK);
  });

  it('drawQr refuses text too long to encode instead of throwing', () => {
    const canvas = document.createElement('canvas');
    expect(drawQr(canvas, 'x'.repeat(5000))).to.equal(false);
  });
});
