/**
 * "Send test webhook" on the webhooks page: the console's server sends a signed test delivery to a
 * token endpoint's webhook route (`POST {basePath}/api/webhooks/test`, src/console/webhook-test.ts);
 * the page says what the handler did with it — verified and answered `{test: true}`, or refused
 * (401: the webhook secret or key differs) — and reloads the log, where it is a `test` row.
 */
import type { WebhookTestResult } from '../webhook-test-result.js';
import { el } from '../../ui-shared/dom.js';
import { api, isUnauthorized } from './api.js';
import type { ConsoleContext } from './context.js';

/** The tool above the webhook log; `reload` shows the log again after a delivery. */
export function webhookTestTool(ctx: ConsoleContext, reload: () => void): HTMLElement {
  const endpoints = ctx.meta.endpoints;
  const select =
    endpoints.length > 1
      ? el('select', { id: 'webhook-test-endpoint', name: 'endpoint', 'aria-label': ctx.t('c.f.endpoint') }, ...endpoints.map((e) => el('option', { value: e, text: e })))
      : null;
  const status = el('p', { className: 'webhook-test-result', id: 'webhook-test-result', role: 'status', hidden: true });
  const button = el('button', { className: 'btn small primary', type: 'button', id: 'webhook-test', text: ctx.t('w.test.send') });
  button.addEventListener('click', () => void send());

  async function send(): Promise<void> {
    button.disabled = true;
    button.setAttribute('aria-busy', 'true');
    status.hidden = false;
    status.className = 'webhook-test-result';
    status.textContent = ctx.t('w.test.sending');
    try {
      const { result } = await api<{ result: WebhookTestResult }>('/webhooks/test', { method: 'POST', body: select ? { endpoint: select.value } : {} });
      status.dataset.ok = String(result.ok);
      status.className = `webhook-test-result ${result.ok ? 'ok' : 'bad'}`;
      status.textContent = describe(ctx, result);
      reload();
    } catch (err) {
      if (isUnauthorized(err)) return ctx.loggedOut();
      status.dataset.ok = 'false';
      status.className = 'webhook-test-result bad';
      status.textContent = ctx.t('w.test.failed', { message: ctx.errorText(err) });
    } finally {
      button.disabled = false;
      button.removeAttribute('aria-busy');
    }
  }

  return el(
    'div',
    { className: 'webhook-test', id: 'webhook-test-tool' },
    el('p', { className: 'muted', text: ctx.t('w.test.lead') }),
    el('div', { className: 'webhook-test-row' }, select, button),
    status,
  );
}

/** The sentence for a result, in the page's language. */
function describe(ctx: ConsoleContext, r: WebhookTestResult): string {
  const where = { endpoint: r.endpoint, status: r.status };
  if (r.ok) return ctx.t('w.test.ok', where);
  if (r.problem === 'unverified') return ctx.t('w.test.unverified', where);
  if (r.problem === 'not_a_test_answer') return ctx.t('w.test.notTest', where);
  return ctx.t('w.test.error', { ...where, answer: r.answer.replace(/\s+/g, ' ').slice(0, 160) || '—' });
}
