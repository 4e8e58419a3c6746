/**
 * The SBP QR code, encoded locally with the `qrcode` package's encoder and drawn on a canvas.
 *
 * `qrcode`'s `create()` also loads its segment optimiser (numeric, alphanumeric and kanji runs and a
 * graph search over them): ~3 KB gzip that a payment link, one byte segment, never needs. So this
 * module assembles the symbol from the package's own parts (version choice, Reed-Solomon, patterns,
 * masks) exactly as its `createSymbol` does for a single byte segment — qrcode (MIT), by Ryan Day,
 * after Kazuhiko Arase's QR Code for JavaScript. "QR Code" is a trademark of DENSO WAVE.
 */
import { html, svg, type TemplateResult } from 'lit';
import AlignmentPattern from 'qrcode/lib/core/alignment-pattern.js';
import BitBuffer from 'qrcode/lib/core/bit-buffer.js';
import BitMatrix from 'qrcode/lib/core/bit-matrix.js';
import ByteData from 'qrcode/lib/core/byte-data.js';
import ECCode from 'qrcode/lib/core/error-correction-code.js';
import ECLevel from 'qrcode/lib/core/error-correction-level.js';
import FinderPattern from 'qrcode/lib/core/finder-pattern.js';
import FormatInfo from 'qrcode/lib/core/format-info.js';
import MaskPattern from 'qrcode/lib/core/mask-pattern.js';
import Mode from 'qrcode/lib/core/mode.js';
import ReedSolomonEncoder from 'qrcode/lib/core/reed-solomon-encoder.js';
import Utils from 'qrcode/lib/core/utils.js';
import Version from 'qrcode/lib/core/version.js';

type Matrix = InstanceType<typeof BitMatrix>;
type Level = typeof ECLevel.M;

/** A square pattern centred at (row, col) with half-size `h`: dark where `dark(r, c)`. */
function square(m: Matrix, row: number, col: number, from: number, to: number, dark: (r: number, c: number) => boolean): void {
  for (let r = from; r <= to; r++) {
    for (let c = from; c <= to; c++) {
      const y = row + r;
      const x = col + c;
      if (y >= 0 && x >= 0 && y < m.size && x < m.size) m.set(y, x, dark(r, c), true);
    }
  }
}

function formatInfo(m: Matrix, level: Level, mask: number): void {
  const size = m.size;
  const bits = FormatInfo.getEncodedBits(level, mask);
  for (let i = 0; i < 15; i++) {
    const mod = ((bits >> i) & 1) === 1;
    m.set(i < 6 ? i : i < 8 ? i + 1 : size - 15 + i, 8, mod, true);
    m.set(8, i < 8 ? size - i - 1 : i < 9 ? 15 - i : 14 - i, mod, true);
  }
  m.set(size - 8, 8, true, true);
}

/** Data and error-correction codewords, interleaved by block. */
function codewords(buffer: InstanceType<typeof BitBuffer>, version: number, level: Level): Uint8Array {
  const total = Utils.getSymbolTotalCodewords(version);
  const dataTotal = total - ECCode.getTotalCodewordsCount(version, level);
  const blocks = ECCode.getBlocksCount(version, level);
  const inGroup1 = blocks - (total % blocks);
  const data1 = Math.floor(dataTotal / blocks);
  const ecCount = Math.floor(total / blocks) - data1;
  const rs = new ReedSolomonEncoder(ecCount);
  const bytes = new Uint8Array(buffer.buffer);
  const dc: Uint8Array[] = [];
  const ec: Uint8Array[] = [];
  for (let b = 0, offset = 0; b < blocks; b++) {
    const size = b < inGroup1 ? data1 : data1 + 1;
    dc.push(bytes.slice(offset, offset + size));
    ec.push(rs.encode(dc[b]!));
    offset += size;
  }
  const out = new Uint8Array(total);
  let i = 0;
  for (let k = 0; k <= data1; k++) for (const block of dc) if (k < block.length) out[i++] = block[k]!;
  for (let k = 0; k < ecCount; k++) for (const block of ec) out[i++] = block[k]!;
  return out;
}

/** The modules (`size` × `size`, row-major, 1 = dark) of `text` as one byte segment, level M. */
export function qrModules(text: string): { size: number; data: Uint8Array } {
  const level = ECLevel.M;
  const segment = new ByteData(text);
  const version = Version.getBestVersionForData(segment, level);
  if (!version) throw new RangeError('too much data for a QR code');

  const buffer = new BitBuffer();
  buffer.put(Mode.BYTE.bit, 4);
  buffer.put(segment.getLength(), Mode.getCharCountIndicator(Mode.BYTE, version));
  segment.write(buffer);
  const bits = (Utils.getSymbolTotalCodewords(version) - ECCode.getTotalCodewordsCount(version, level)) * 8;
  if (buffer.getLengthInBits() + 4 <= bits) buffer.put(0, 4);
  while (buffer.getLengthInBits() % 8 !== 0) buffer.putBit(false);
  for (let i = 0, pad = (bits - buffer.getLengthInBits()) / 8; i < pad; i++) buffer.put(i % 2 ? 0x11 : 0xec, 8);
  const data = codewords(buffer, version, level);

  const m = new BitMatrix(Utils.getSymbolSize(version));
  const size = m.size;
  for (const [row, col] of FinderPattern.getPositions(version)) {
    square(m, row, col, -1, 7, (r, c) => (r >= 0 && r <= 6 && (c === 0 || c === 6)) || (c >= 0 && c <= 6 && (r === 0 || r === 6)) || (r >= 2 && r <= 4 && c >= 2 && c <= 4));
  }
  for (let r = 8; r < size - 8; r++) {
    m.set(r, 6, r % 2 === 0, true);
    m.set(6, r, r % 2 === 0, true);
  }
  for (const [row, col] of AlignmentPattern.getPositions(version)) {
    square(m, row, col, -2, 2, (r, c) => r === -2 || r === 2 || c === -2 || c === 2 || (r === 0 && c === 0));
  }
  formatInfo(m, level, 0); // reserves the format area before the data goes in
  if (version >= 7) {
    const v = Version.getEncodedBits(version);
    for (let i = 0; i < 18; i++) {
      const row = Math.floor(i / 3);
      const col = (i % 3) + size - 11;
      const mod = ((v >> i) & 1) === 1;
      m.set(row, col, mod, true);
      m.set(col, row, mod, true);
    }
  }
  // Data, in two-module columns zig-zagging up and down from the bottom right.
  let inc = -1;
  let row = size - 1;
  let bit = 7;
  let byte = 0;
  for (let col = size - 1; col > 0; col -= 2) {
    if (col === 6) col--;
    for (;;) {
      for (let c = 0; c < 2; c++) {
        if (m.isReserved(row, col - c)) continue;
        m.set(row, col - c, byte < data.length && ((data[byte]! >>> bit) & 1) === 1);
        if (--bit === -1) {
          byte++;
          bit = 7;
        }
      }
      row += inc;
      if (row < 0 || row >= size) {
        row -= inc;
        inc = -inc;
        break;
      }
    }
  }
  const mask = MaskPattern.getBestMask(m, (p: number) => formatInfo(m, level, p));
  MaskPattern.applyMask(mask, m);
  formatInfo(m, level, mask);
  return { size, data: m.data };
}

/** Draws `text` as a QR code (dark on white, with a quiet zone); false when it cannot be encoded. */
export function drawQr(canvas: HTMLCanvasElement, text: string, scale = 6, margin = 4): boolean {
  let modules: { size: number; data: Uint8Array };
  try {
    modules = qrModules(text);
  } catch {
    return false;
  }
  const px = (modules.size + margin * 2) * scale;
  canvas.width = canvas.height = px;
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

/**
 * The QR of `text` as an SVG path of its dark modules, with a light margin: what paydesk/ssr and a first
 * paint (paint.ts) draw, and the element's pay view moves into its own step until it draws the canvas.
 */
export function qrSvg(text: string, label: string): TemplateResult {
  const { size, data } = qrModules(text);
  let d = '';
  for (let y = 0; y < size; y++) {
    // One rectangle per run of dark modules in a row.
    for (let x = 0; x < size; x++) {
      if (!data[y * size + x]) continue;
      const from = x;
      while (x + 1 < size && data[y * size + x + 1]) x++;
      d += `M${from} ${y}h${x + 1 - from}v1H${from}z`;
    }
  }
  return html`<svg role="img" aria-label=${label} viewBox="-3 -3 ${size + 6} ${size + 6}" shape-rendering="crispEdges">${svg`<path d=${d}/>`}</svg>`;
}
