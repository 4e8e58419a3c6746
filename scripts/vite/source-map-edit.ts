/** Edits of a built file that keep its source map right: the map's generated columns move with the text. */

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
/** The fields of one source-map segment (VLQ). */
function decodeSegment(text: string): number[] {
  const out: number[] = [];
  let value = 0;
  let shift = 0;
  for (const ch of text) {
    const digit = BASE64.indexOf(ch);
    value += (digit & 31) << shift;
    if (digit & 32) shift += 5;
    else {
      out.push(value & 1 ? -(value >>> 1) : value >>> 1);
      value = shift = 0;
    }
  }
  return out;
}
function encodeSegment(fields: number[]): string {
  let out = '';
  for (const field of fields) {
    let v = field < 0 ? (-field << 1) | 1 : field << 1;
    do {
      const digit = v & 31;
      v >>>= 5;
      out += BASE64[v > 0 ? digit | 32 : digit];
    } while (v > 0);
  }
  return out;
}

/**
 * `code` with the texts at `edits` replaced, and its source map's generated columns moved to match
 * (the sources' positions are untouched).
 */
export function editWithMap(code: string, map: string, edits: { start: number; end: number; text: string }[]): { code: string; map: string } {
  const sorted = [...edits].sort((a, b) => a.start - b.start);
  let out = '';
  let at = 0;
  for (const e of sorted) {
    out += code.slice(at, e.start) + e.text;
    at = e.end;
  }
  out += code.slice(at);
  // Line and column of each edit in the original.
  const lineStarts = [0];
  for (let i = code.indexOf('\n'); i >= 0; i = code.indexOf('\n', i + 1)) lineStarts.push(i + 1);
  const where = (offset: number) => {
    let line = 0;
    while (line + 1 < lineStarts.length && lineStarts[line + 1]! <= offset) line++;
    return { line, col: offset - lineStarts[line]! };
  };
  const m = JSON.parse(map) as { mappings: string };
  const lines = m.mappings.split(';');
  const byLine = new Map<number, { col: number; end: number; delta: number }[]>();
  for (const e of sorted) {
    const { line, col } = where(e.start);
    if (where(e.end).line !== line) throw new Error('paydesk: an edit spans lines');
    byLine.set(line, [...(byLine.get(line) ?? []), { col, end: col + e.end - e.start, delta: e.text.length - (e.end - e.start) }]);
  }
  for (const [line, lineEdits] of byLine) {
    if (!lines[line]) continue;
    let prevOld = 0;
    let prevNew = 0;
    lines[line] = lines[line]!
      .split(',')
      .map((segment) => {
        const fields = decodeSegment(segment);
        const col = prevOld + fields[0]!;
        prevOld = col;
        const moved = col + lineEdits.filter((e) => e.end <= col).reduce((sum, e) => sum + e.delta, 0);
        fields[0] = moved - prevNew;
        prevNew = moved;
        return encodeSegment(fields);
      })
      .join(',');
  }
  m.mappings = lines.join(';');
  return { code: out, map: JSON.stringify(m) };
}
