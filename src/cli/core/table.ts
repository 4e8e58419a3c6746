/** Text output: a table with aligned columns, and `key: value` lines. */

/** Rows under a header, columns padded to their widest cell (the last column unpadded). */
export function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]) => cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]!))).join('  ').trimEnd();
  return [line(header), ...rows.map(line)].join('\n');
}

/** `key  value` lines, keys aligned; null and undefined values shown as `-`. */
export function fields(entries: readonly [string, unknown][]): string {
  const width = Math.max(...entries.map(([k]) => k.length));
  return entries.map(([k, v]) => `${k.padEnd(width)}  ${v === null || v === undefined || v === '' ? '-' : String(v)}`).join('\n');
}
