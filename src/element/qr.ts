/**
 * The SBP QR code, drawn locally on a canvas from the payment link with the `qrcode` package's
 * encoder (its core only: the renderers are not needed). Always dark modules on white with a quiet
 * zone, so it scans in the dark theme too.
 */
import qrcodeCore from 'qrcode/lib/core/qrcode.js';

/** Draws `text` as a QR code; returns false when it cannot be encoded. */
export function drawQr(canvas: HTMLCanvasElement, text: string, scale = 6, margin = 4): boolean {
  let modules: { size: number; data: Uint8Array };
  try {
    modules = qrcodeCore.create(text, { errorCorrectionLevel: 'M' }).modules;
  } catch {
    return false;
  }
  const px = (modules.size + margin * 2) * scale;
  canvas.width = px;
  canvas.height = px;
  const ctx = canvas.getContext('2d');
  if (!ctx) return false;
  ctx.fillStyle = '#fff';
  ctx.fillRect(0, 0, px, px);
  ctx.fillStyle = '#000';
  for (let y = 0; y < modules.size; y++) {
    for (let x = 0; x < modules.size; x++) {
      if (modules.data[y * modules.size + x]) ctx.fillRect((x + margin) * scale, (y + margin) * scale, scale, scale);
    }
  }
  return true;
}
