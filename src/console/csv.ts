/**
 * CSV text (RFC 4180) for the console's exports: the byte order mark Excel needs to read UTF-8,
 * cells quoted when they hold a comma, a quote, CR or LF (quotes doubled), rows ended by CRLF, and
 * text a spreadsheet would run as a formula (a cell starting with `=`, `+`, `-`, `@`, a tab or CR)
 * neutralised with a leading apostrophe, as OWASP's "CSV injection" advice says. Amounts are written
 * by their own column (a decimal string such as `-150.00` is a number, not a formula: not prefixed).
 */

/** U+FEFF: the byte order mark at the start of the file (EF BB BF in UTF-8). */
export const BOM = '\uFEFF';

/** A value of a row: text, a number, a flag; null and undefined are an empty cell. */
export type CsvValue = string | number | boolean | null | undefined;

const NEEDS_QUOTES = /[",\r\n]/;
const FORMULA_START = /^[=+\-@\t\r]/;
const PLAIN_NUMBER = /^-?\d+(\.\d+)?$/;

/**
 * One cell. Text that starts like a formula gets a leading `'` (so `=HYPERLINK(…)` stays text);
 * a plain decimal number (`-150.00`) does not, so amounts stay numbers.
 */
export function csvCell(value: CsvValue): string {
  if (value === null || value === undefined) return '';
  let text = typeof value === 'string' ? value : String(value);
  if (FORMULA_START.test(text) && !PLAIN_NUMBER.test(text)) text = `'${text}`;
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One record, CRLF-terminated. */
export function csvRow(values: readonly CsvValue[]): string {
  return `${values.map(csvCell).join(',')}\r\n`;
}
