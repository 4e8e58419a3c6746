/**
 * A list as a table: on a wide screen rows and columns; below 720 px each row becomes a card whose
 * cells carry their column's name (`data-label`, shown by CSS), so nothing scrolls sideways.
 */
import { el } from '../../ui-shared/dom.js';
import type { Tone } from './labels.js';

export interface Column<T> {
  /** Names the column's cells (`data-col`), for styles and tests. */
  key?: string;
  label: string;
  cell(item: T): Node | string;
  num?: boolean;
  mono?: boolean;
  wrap?: boolean;
  /** The full value, when the cell shortens it. */
  title?(item: T): string;
}

export function renderRows<T>(table: HTMLTableElement, columns: readonly Column<T>[], items: readonly T[]): void {
  table.tHead!.replaceChildren(el('tr', {}, ...columns.map((c) => el('th', { className: c.num ? 'num' : null, scope: 'col', text: c.label, 'data-col': c.key }))));
  table.tBodies[0]!.replaceChildren(
    ...items.map((item) =>
      el(
        'tr',
        {},
        ...columns.map((c) => {
          const classes = [c.num && 'num', c.mono && 'mono', c.wrap && 'wrap-cell'].filter(Boolean).join(' ');
          return el('td', { className: classes || null, title: c.title?.(item), 'data-label': c.label, 'data-col': c.key }, c.cell(item));
        }),
      ),
    ),
  );
}

/** A status badge: the text in the console's language, the tone as a class. */
export function badge(text: string, tone: Tone): HTMLElement {
  return el('span', { className: `status ${tone === 'none' ? '' : tone}`.trim(), text });
}
