/** The storefront's code panel: the integration code for the current settings, its tabs and copy button. */
import { CODE_TABS, highlight, integrationCode, type CodeTab } from './code.js';
import { $, $$ } from '../../../src/ui-shared/dom.js';
import { toast } from '../../../src/ui-shared/toast.js';
import { pick, products, state, widgetAttributes } from './store-state.js';

/** Binds the tabs (click, arrow keys) and the copy button. */
export function bindCodePanel(): void {
  for (const tab of $$<HTMLButtonElement>('[data-tab]')) {
    tab.addEventListener('click', () => selectCodeTab(pick(tab.dataset.tab ?? null, CODE_TABS, 'html'), tab));
    tab.addEventListener('keydown', (e) => {
      // Arrow keys move between the tabs (the ARIA tabs pattern).
      if (e.key !== 'ArrowRight' && e.key !== 'ArrowLeft') return;
      const tabs = $$<HTMLButtonElement>('[data-tab]');
      const next = tabs[(tabs.indexOf(tab) + (e.key === 'ArrowRight' ? 1 : tabs.length - 1)) % tabs.length]!;
      next.focus();
      next.click();
    });
  }
  $('#copy-code').addEventListener('click', () => void copyCode());
}

function selectCodeTab(tab: CodeTab, button: HTMLButtonElement): void {
  state.codeTab = tab;
  for (const other of $$<HTMLButtonElement>('[data-tab]')) {
    other.setAttribute('aria-selected', String(other === button));
    other.tabIndex = other === button ? 0 : -1;
  }
  $('#code-pre').setAttribute('aria-labelledby', button.id);
  renderCode();
}

async function copyCode(): Promise<void> {
  const code = $('#code');
  try {
    await navigator.clipboard.writeText(code.textContent ?? '');
    toast(state.t('code.copied'));
  } catch {
    // No clipboard API (a page not on https, older Safari) or refused: the code is selected and copied
    // from the selection, still inside the tap; where that is refused too it stays selected for a
    // manual copy (docs/checkout-on-phones.md, "Copy buttons").
    const range = document.createRange();
    range.selectNodeContents(code);
    getSelection()?.removeAllRanges();
    getSelection()?.addRange(range);
    let copied = false;
    try {
      copied = document.execCommand('copy');
    } catch {
      // refused: the selection stays
    }
    if (copied) toast(state.t('code.copied'));
  }
}

export function renderCode(): void {
  const config = state.config;
  const product = state.buying ?? products()[0];
  if (!config || !product) return;
  const text = integrationCode(state.codeTab, {
    origin: location.origin,
    display: state.display,
    mode: state.mode,
    attributes: widgetAttributes(product.ref),
    product,
    cdn: config.cdn,
  });
  $('#code').replaceChildren(...highlight(text));
}
