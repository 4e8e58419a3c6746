/** DOM helpers of the console's pages and the demo's: typed look-ups and an element builder (text only, never innerHTML). */

/** The element matching `selector`; throws when the page lacks it (a page and its code out of step). */
export function $<T extends Element = HTMLElement>(selector: string, root: ParentNode = document): T {
  const found = root.querySelector<T & Element>(selector);
  if (!found) throw new Error(`the page has no ${selector}`);
  return found as T;
}

export function $$<T extends Element = HTMLElement>(selector: string, root: ParentNode = document): T[] {
  return [...root.querySelectorAll<T & Element>(selector)] as T[];
}

type Child = Node | string | null | undefined | false;
type Props = Record<string, string | number | boolean | null | undefined | EventListener>;

/**
 * `el('a', { href: '/x', className: 'btn', text: 'Go', onclick: fn }, child…)`: `className` and `text`
 * set those properties, `on…` adds a listener, `true` sets an empty attribute, null/false/undefined skip.
 */
export function el<K extends keyof HTMLElementTagNameMap>(tag: K, props: Props = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === 'className') node.className = String(value);
    else if (key === 'text') node.textContent = String(value);
    else if (key.startsWith('on') && typeof value === 'function') node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? '' : String(value));
  }
  for (const child of children) if (child !== null && child !== undefined && child !== false) node.append(child);
  return node;
}

/** Sets the checked radio of a group by value. */
export function checkRadio(name: string, value: string): void {
  for (const input of $$<HTMLInputElement>(`input[type="radio"][name="${name}"]`)) input.checked = input.value === value;
}

/** Calls `fn` with the value of the radio of `name` that becomes checked. */
export function onRadio(name: string, fn: (value: string) => void): void {
  for (const input of $$<HTMLInputElement>(`input[type="radio"][name="${name}"]`)) {
    input.addEventListener('change', () => {
      if (input.checked) fn(input.value);
    });
  }
}

/**
 * A region that scrolls sideways (a table wider than the screen) can be reached and scrolled from the
 * keyboard: it joins the tab order only while it does scroll.
 */
export function keyboardScrollable(region: HTMLElement): void {
  if (region.scrollWidth > region.clientWidth + 1) region.tabIndex = 0;
  else region.removeAttribute('tabindex');
}
