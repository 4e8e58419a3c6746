/**
 * The server-rendered checkout page (checkout.html, filled by demo/checkout-page.ts): the checkout is
 * already in the HTML and the element's own script takes it over. This module only adds the sandbox
 * bar (the order on screen is the element's `session` attribute) and the texts' aria labels.
 */
// The element's events (`paydesk-session`, `paydesk-status`, …), typed on every element by this module.
import type {} from '../../../src/element/events.js';
import { $, $$ } from '../../../src/ui-shared/dom.js';
import { applyTexts, LANGS, setTheme, texts, THEMES } from '../../../src/ui-shared/i18n.js';
import { toast } from '../../../src/ui-shared/toast.js';
import { renderSandbox, SANDBOX_ACTIONS, sandboxAction } from './store-sandbox.js';
import { pick, state, type DemoConfig } from './store-state.js';
import { STORE_TEXTS } from './texts/store.js';

const root = document.documentElement;
state.lang = pick(root.lang, LANGS, 'en');
state.theme = pick(root.dataset.theme ?? null, THEMES, 'light');
state.mode = 'h2h';
state.t = texts(STORE_TEXTS, state.lang);
applyTexts(state.t);
setTheme(state.theme);

const widget = document.querySelector<HTMLElement>('paydesk-checkout');
if (widget) {
  state.session = widget.getAttribute('session');
  widget.addEventListener('paydesk-session', (e) => {
    state.session = e.detail.session;
    renderSandbox();
  });
  widget.addEventListener('paydesk-status', (e) => {
    state.orderState = e.detail.state;
    renderSandbox();
  });
  widget.addEventListener('paydesk-paid', () => toast(state.t('paid.toast')));
}

for (const button of $$<HTMLButtonElement>('[data-sandbox]')) {
  button.addEventListener('click', () => void sandboxAction(pick(button.dataset.sandbox ?? null, SANDBOX_ACTIONS, 'complete'), button));
}

fetch('/demo/api/config', { headers: { accept: 'application/json' } })
  .then(async (res) => {
    if (!res.ok) throw new Error(`config: HTTP ${res.status}`);
    state.config = (await res.json()) as DemoConfig;
    $('#sandbox-bar').hidden = !state.config.sandbox;
    renderSandbox();
  })
  .catch((err: unknown) => {
    console.error(err);
    toast(state.t('error.generic'), 'error');
  });
