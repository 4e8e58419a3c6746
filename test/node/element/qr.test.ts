import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import QRCode from 'qrcode';
import jsQRModule from 'jsqr';
import { qrModules } from '../../../src/element/qr.js';
import { PAYMENT_LINK } from '../../browser/helpers/orders.js';

// jsqr is CommonJS with an ES-style `default`: take the function whichever way it is handed over.
type Decoder = (data: Uint8ClampedArray, width: number, height: number) => { data: string } | null;
const jsQR = ((jsQRModule as unknown as { default?: Decoder }).default ?? jsQRModule) as unknown as Decoder;

/** The package's own encoder, told to use one byte segment (as qr.ts does). */
function reference(text: string): { size: number; data: Uint8Array } {
  const { modules } = QRCode.create([{ data: new TextEncoder().encode(text), mode: 'byte' }], { errorCorrectionLevel: 'M' });
  return { size: modules.size, data: Uint8Array.from(modules.data) };
}

/** Scales the modules up with a quiet zone and decodes them with jsQR. */
function decode({ size, data }: { size: number; data: Uint8Array }): string | null {
  const scale = 4;
  const px = (size + 8) * scale;
  const rgba = new Uint8ClampedArray(px * px * 4).fill(255);
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      if (!data[y * size + x]) continue;
      for (let dy = 0; dy < scale; dy++) {
        for (let dx = 0; dx < scale; dx++) {
          const o = (((y + 4) * scale + dy) * px + (x + 4) * scale + dx) * 4;
          rgba[o] = rgba[o + 1] = rgba[o + 2] = 0;
        }
      }
    }
  }
  return jsQR(rgba, px, px)?.data ?? null;
}

describe('QR encoding', () => {
  test('the NSPK payment link gives exactly the modules of qrcode’s own encoder', () => {
    assert.deepEqual(qrModules(PAYMENT_LINK), reference(PAYMENT_LINK));
  });

  test('and decodes back to the link', () => {
    assert.equal(decode(qrModules(PAYMENT_LINK)), PAYMENT_LINK);
  });

  test('matches qrcode for any text, small and large versions (version info from 7 up, several blocks)', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 600, unit: 'grapheme' }), (text) => {
        assert.deepEqual(qrModules(text), reference(text));
      }),
      { numRuns: 60 },
    );
  });

  test('round-trips long links through a decoder', () => {
    const long = `${PAYMENT_LINK}&extra=${'x'.repeat(300)}`;
    assert.equal(decode(qrModules(long)), long);
  });

  test('refuses text too long for any QR version', () => {
    assert.throws(() => qrModules('x'.repeat(3000)), RangeError);
  });
});
