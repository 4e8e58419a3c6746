/**
 * The analytics page (`{basePath}/analytics`): a period (today, 7 days, 30 days, or two dates) in the
 * browser's time zone, and for it the server's `GET /analytics` (src/console/analytics.ts) as
 * figures, charts (analytics-charts.ts) and, for each chart, its numbers as a table. The period is in
 * the address (`?period=7d`, `?period=custom&from=…&to=…`), so Back and a shared link keep it.
 */
import type { AnalyticsReport } from '../analytics-tally.js';
import { el } from '../../ui-shared/dom.js';
import { api, isUnauthorized } from './api.js';
import { barChart, dayChart, SERIES_COLORS } from './analytics-charts.js';
import type { ConsoleContext } from './context.js';
import { methodTypeLabel } from './labels.js';
import type { ConsoleKey } from './texts.js';
import { CONSOLE_ROOT, currentFilters } from './url.js';
import './analytics.css';

const PERIODS = ['today', '7d', '30d', 'custom'] as const;
type PeriodName = (typeof PERIODS)[number];
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DAY_SERIES = ['created', 'paid', 'expired', 'late', 'disputed'] as const;

const dateText = (d: Date) => `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;

/** The period the address names (7 days when it names none or a bad one), as local dates. */
export function periodOf(q: URLSearchParams, today = new Date()): { name: PeriodName; from: string; to: string } {
  const name = (PERIODS as readonly string[]).includes(q.get('period') ?? '') ? (q.get('period') as PeriodName) : '7d';
  const daysBack = (n: number) => dateText(new Date(today.getFullYear(), today.getMonth(), today.getDate() - n));
  if (name === 'custom') {
    const from = q.get('from') ?? '';
    const to = q.get('to') ?? '';
    if (DATE.test(from) && DATE.test(to) && from <= to) return { name, from, to };
    return { name, from: daysBack(6), to: daysBack(0) };
  }
  return { name, from: daysBack(name === 'today' ? 0 : name === '7d' ? 6 : 29), to: daysBack(0) };
}

/** Stops the charts of the last drawing (their resize observers). */
let stopCharts: (() => void)[] = [];
let drawSeq = 0;
/** What was drawn last: drawn again, in the new colours, when the theme changes. */
let drawn: { ctx: ConsoleContext; body: HTMLElement; report: AnalyticsReport } | null = null;
new MutationObserver(() => {
  if (!drawn?.body.isConnected) return;
  for (const stop of stopCharts) stop();
  stopCharts = [];
  drawReport(drawn.ctx, drawn.body, drawn.report);
}).observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] });

export async function showAnalytics(ctx: ConsoleContext, root: HTMLElement): Promise<void> {
  for (const stop of stopCharts) stop();
  stopCharts = [];
  const seq = ++drawSeq;
  const t = ctx.t;
  const period = periodOf(currentFilters());
  const tz = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const body = el('div', { className: 'analytics-body', 'aria-live': 'polite', 'aria-busy': 'true' }, el('p', { className: 'muted', text: t('a.loading') }));
  root.replaceChildren(el('section', { className: 'analytics' }, periodForm(ctx, period), el('p', { className: 'muted zone', text: t('a.zone', { tz }) }), body));

  const q = new URLSearchParams({ from: new Date(`${period.from}T00:00:00`).toISOString(), to: new Date(`${period.to}T23:59:59.999`).toISOString(), tz });
  let report: AnalyticsReport;
  try {
    report = await api<AnalyticsReport>(`/analytics?${q}`);
  } catch (err) {
    if (seq !== drawSeq) return;
    if (isUnauthorized(err)) return ctx.loggedOut();
    body.replaceChildren(el('p', { className: 'error', role: 'alert', text: t('a.error', { message: ctx.errorText(err) }) }));
    body.removeAttribute('aria-busy');
    return;
  }
  if (seq !== drawSeq) return;
  body.removeAttribute('aria-busy');
  drawn = { ctx, body, report };
  drawReport(ctx, body, report);
}

function periodForm(ctx: ConsoleContext, period: { name: PeriodName; from: string; to: string }): HTMLElement {
  const t = ctx.t;
  const go = (q: URLSearchParams) => ctx.navigate(`${CONSOLE_ROOT}/analytics`, q);
  const choices = PERIODS.map((name) => {
    const input = el('input', { type: 'radio', name: 'a-period', value: name, id: `a-period-${name}` });
    input.checked = name === period.name;
    input.addEventListener('change', () => {
      if (name === 'custom') (custom.hidden = false), from.focus();
      else go(new URLSearchParams({ period: name }));
    });
    return el('label', { for: `a-period-${name}` }, input, el('span', { text: t(`a.${name}` as ConsoleKey) }));
  });
  const from = el('input', { type: 'date', id: 'a-from', value: period.from, max: dateText(new Date()) });
  const to = el('input', { type: 'date', id: 'a-to', value: period.to, max: dateText(new Date()) });
  const problem = el('p', { className: 'error', role: 'alert', hidden: true, text: t('a.badPeriod') });
  const custom = el(
    'div',
    { className: 'custom-period', hidden: period.name !== 'custom' },
    el('div', { className: 'field' }, el('label', { for: 'a-from', text: t('a.from') }), from),
    el('div', { className: 'field' }, el('label', { for: 'a-to', text: t('a.to') }), to),
    el('button', { className: 'btn small primary', type: 'submit', text: t('a.show') }),
    problem,
  );
  const form = el('form', { className: 'period-form', 'aria-label': t('a.period') }, el('fieldset', { className: 'segmented' }, el('legend', { className: 'sr-only', text: t('a.period') }), ...choices), custom);
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    if (!DATE.test(from.value) || !DATE.test(to.value) || from.value > to.value) {
      problem.hidden = false;
      return;
    }
    go(new URLSearchParams({ period: 'custom', from: from.value, to: to.value }));
  });
  return form;
}

/** Seconds as `45 s`, `12 min`, `2 h`, `3 d` (whole units, rounded). */
export function duration(t: ConsoleContext['t'], seconds: number | null): string {
  if (seconds === null) return '—';
  if (seconds < 60) return t('a.sec', { n: seconds });
  if (seconds < 3600) return t('a.min', { n: Math.round(seconds / 60) });
  if (seconds < 86400) return t('a.hour', { n: Math.round((seconds / 3600) * 10) / 10 });
  return t('a.day', { n: Math.round((seconds / 86400) * 10) / 10 });
}

const percent = (paid: number, created: number, lang: string) =>
  created === 0 ? '—' : new Intl.NumberFormat(lang, { style: 'percent', maximumFractionDigits: 1 }).format(paid / created);

/** A chart's numbers as a table; `hidden`: for screen readers only (in a box that clips it: a table grows to its content). */
function table(caption: string, head: string[], rows: (string | number)[][], o: { hidden?: boolean; name: string }): HTMLElement {
  const numbers = el(
    'table',
    { className: 'numbers', 'data-numbers': o.name },
    el('caption', { text: caption }),
    el('thead', {}, el('tr', {}, ...head.map((h, i) => el('th', { scope: 'col', className: i > 0 ? 'num' : null, text: h })))),
    el('tbody', {}, ...rows.map((r) => el('tr', {}, ...r.map((c, i) => (i === 0 ? el('th', { scope: 'row', text: String(c) }) : el('td', { className: 'num', text: String(c) })))))),
  );
  return o.hidden ? el('div', { className: 'sr-only' }, numbers) : numbers;
}

function figure(name: string, title: string, note: string | null, numbers: HTMLElement): { figure: HTMLElement; plot: HTMLElement } {
  const plot = el('div', { className: 'plot', 'aria-hidden': 'true' });
  return {
    plot,
    figure: el('figure', { className: 'chart', 'data-chart': name }, el('figcaption', {}, el('h3', { text: title }), note && el('p', { className: 'muted', text: note })), plot, numbers),
  };
}

function drawReport(ctx: ConsoleContext, body: HTMLElement, r: AnalyticsReport): void {
  const t = ctx.t;
  const total = (k: (typeof DAY_SERIES)[number]) => r.days.reduce((s, d) => s + d[k], 0);
  const created = total('created');
  const paid = total('paid');
  const kpi = (name: string, label: string, value: string) => el('div', { className: 'kpi', 'data-kpi': name }, el('dt', { text: label }), el('dd', { text: value }));
  const kpis = el(
    'dl',
    { className: 'kpis' },
    kpi('created', t('a.created'), String(created)),
    kpi('paid', t('a.paid'), String(paid)),
    kpi('conversion', t('a.conversion'), percent(paid, created, ctx.lang)),
    kpi('expired', t('a.expired'), String(total('expired'))),
    kpi('late', t('a.late'), String(total('late'))),
    kpi('disputed', t('a.disputed'), String(total('disputed'))),
    kpi('p50', t('a.p50'), duration(t, r.time_to_pay.p50_seconds)),
    kpi('p90', t('a.p90'), duration(t, r.time_to_pay.p90_seconds)),
  );
  const dayLabel = (date: string) => new Date(`${date}T12:00:00`).toLocaleDateString(ctx.lang, { day: 'numeric', month: 'short' });
  const labels = DAY_SERIES.map((k) => t(`a.${k}` as ConsoleKey));
  const perDay = figure(
    'days',
    t('a.perDay'),
    t('a.perDayNote'),
    table(t('a.perDay'), [t('a.date'), ...labels], r.days.map((d) => [d.date, ...DAY_SERIES.map((k) => d[k])]), { hidden: true, name: 'days' }),
  );
  const conversionRows = (items: { name: string; created: number; paid: number }[]) => items.map((m) => [m.name, m.created, m.paid, percent(m.paid, m.created, ctx.lang)]);
  const methods = r.by_method.map((m) => ({ name: methodTypeLabel(ctx.lang, m.method), created: m.created, paid: m.paid }));
  const banks = r.by_bank.map((b) => ({ name: b.bank ?? t('a.noBank'), created: b.created, paid: b.paid }));
  const head = (first: string) => [first, t('a.created'), t('a.paid'), t('a.conversion')];
  const byMethod = figure('methods', t('a.byMethod'), null, table(t('a.byMethod'), head(t('a.method')), conversionRows(methods), { name: 'methods' }));
  const byBank = figure('banks', t('a.byBank'), null, table(t('a.byBank'), head(t('a.bank')), conversionRows(banks), { name: 'banks' }));
  const bucketLabel = (upto: number | null, i: number) => {
    if (upto !== null) return `≤ ${duration(t, upto)}`;
    const last = r.time_to_pay.histogram[i - 1]?.upto_seconds ?? 0;
    return t('a.more', { time: duration(t, last) });
  };
  const buckets = r.time_to_pay.histogram.map((b, i) => ({ label: bucketLabel(b.upto_seconds, i), count: b.count }));
  const timeToPay = figure(
    'time',
    t('a.timeToPay'),
    t('a.timeToPayNote', { p50: duration(t, r.time_to_pay.p50_seconds), p90: duration(t, r.time_to_pay.p90_seconds) }),
    table(t('a.timeToPay'), [t('a.bucket'), t('a.orders')], buckets.map((b) => [b.label, b.count]), { hidden: true, name: 'time' }),
  );
  body.replaceChildren(kpis, ...(created === 0 ? [el('p', { className: 'muted', text: t('a.none') })] : []), perDay.figure, byMethod.figure, byBank.figure, timeToPay.figure);

  stopCharts.push(
    dayChart(perDay.plot, r.days.map((_, i) => i), r.days.map((d) => dayLabel(d.date)), DAY_SERIES.map((k, i) => ({ label: labels[i]!, color: SERIES_COLORS[k], values: r.days.map((d) => d[k]) }))),
    barChart(byMethod.plot, methods.map((m) => m.name), methods.map((m) => (m.created ? Math.round((m.paid / m.created) * 1000) / 10 : 0)), SERIES_COLORS.paid, { max: 100, suffix: '%' }),
    barChart(byBank.plot, banks.map((b) => b.name), banks.map((b) => (b.created ? Math.round((b.paid / b.created) * 1000) / 10 : 0)), SERIES_COLORS.created, { max: 100, suffix: '%' }),
    barChart(timeToPay.plot, buckets.map((b) => b.label.replace('≤ ', '')), buckets.map((b) => b.count), SERIES_COLORS.late),
  );
}
