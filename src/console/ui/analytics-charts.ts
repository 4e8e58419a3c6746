/**
 * The analytics page's charts, drawn by uPlot (canvas; about 50 KB minified, 22 KB gzip, no
 * dependencies, loaded only with this page): lines per day, and bars for conversion and the
 * time-to-pay histogram. Colours come from the page's theme (CSS custom properties) when a chart is
 * made, so a change of theme redraws them; the canvas is hidden from screen readers (each chart's
 * numbers are a table beside it). A chart follows its box's width (phones included).
 */
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { categoryAxis as fitCategories } from './analytics-axis.js';

/** Series colours that read on both themes. */
export const SERIES_COLORS = {
  created: '#5b7cfa',
  paid: '#22a565',
  expired: '#8c939c',
  late: '#e0a100',
  disputed: '#e0524a',
} as const;

const css = (name: string) => getComputedStyle(document.documentElement).getPropertyValue(name).trim() || '#888';

function axes(xValues?: (u: uPlot, splits: number[]) => string[]): uPlot.Axis[] {
  const stroke = css('--muted');
  const grid = { stroke: css('--border'), width: 1 };
  return [
    { stroke, grid: { show: false }, ticks: { stroke: grid.stroke }, ...(xValues && { values: xValues }) },
    { stroke, grid, ticks: { stroke: grid.stroke }, size: 52 },
  ];
}

/**
 * A chart in `box` that keeps to the box's width; returns what stops it (before the box goes). When
 * `layoutOf` gives another answer for the new width (its labels turned another way), the chart is made again.
 */
function mount(box: HTMLElement, make: (width: number) => uPlot, layoutOf: (width: number) => string = () => ''): () => void {
  const width = () => Math.max(240, Math.floor(box.clientWidth));
  let chart = make(width());
  let layout = layoutOf(chart.width);
  const resized = new ResizeObserver(() => {
    const w = width();
    if (Math.abs(w - chart.width) <= 2) return;
    if (layoutOf(w) === layout) return chart.setSize({ width: w, height: chart.height });
    chart.destroy();
    chart = make(w);
    layout = layoutOf(w);
  });
  resized.observe(box);
  return () => {
    resized.disconnect();
    chart.destroy();
    chart = undefined as unknown as uPlot;
  };
}

export interface LineSeries {
  label: string;
  color: string;
  values: number[];
}

/** Lines over days: `days` are the local midnights (seconds), `labels` their short names. */
export function dayChart(box: HTMLElement, days: number[], labels: string[], series: LineSeries[]): () => void {
  return mount(
    box,
    (width) =>
      new uPlot(
        {
          width,
          height: 240,
          legend: { show: true, live: false },
          cursor: { drag: { x: false, y: false }, points: { size: 6 } },
          scales: { x: { time: false }, y: { range: (_u, _min, max) => [0, Math.max(4, Math.ceil(max * 1.1))] } },
          axes: axes((_u, splits) => splits.map((s) => labels[Math.round(s)] ?? '')),
          series: [{}, ...series.map((s) => ({ label: s.label, stroke: s.color, width: 2, points: { show: days.length <= 45, size: 5, fill: s.color } }))],
        },
        [days.map((_, i) => i), ...series.map((s) => s.values)],
        box,
      ),
  );
}

/** uPlot's axis font, for measuring the categories' names. */
const AXIS_FONT = '12px system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif';
let measurer: CanvasRenderingContext2D | null = null;
function textWidth(text: string): number {
  measurer ??= document.createElement('canvas').getContext('2d');
  if (!measurer) return text.length * 7;
  measurer.font = AXIS_FONT;
  return measurer.measureText(text).width;
}
const categoryAxis = (labels: readonly string[], width: number) => fitCategories(labels, width, textWidth);

/** Bars over categories (`labels`), values `values` (e.g. conversion in %), coloured `color`. */
export function barChart(box: HTMLElement, labels: string[], values: number[], color: string, o: { max?: number; suffix?: string } = {}): () => void {
  const bars = uPlot.paths.bars!({ size: [0.6, 64], align: 0 });
  return mount(
    box,
    (width) => {
      const axis = categoryAxis(labels, width);
      return new uPlot(
        {
          width,
          height: 180 + axis.size,
          padding: [10, 16, 0, 4],
          legend: { show: false },
          cursor: { show: false },
          scales: { x: { time: false, range: [-0.5, labels.length - 0.5] }, y: { range: [0, o.max ?? Math.max(4, Math.ceil(Math.max(0, ...values) * 1.1))] } },
          axes: [
            { ...axes()[0]!, font: AXIS_FONT, splits: () => labels.map((_, i) => i), values: (_u, splits) => splits.map((s) => axis.names[s] ?? ''), rotate: axis.rotate, size: axis.size },
            { ...axes()[1]!, values: (_u, splits) => splits.map((s) => `${s}${o.suffix ?? ''}`) },
          ],
          series: [{}, { label: '', fill: color, stroke: color, paths: bars, points: { show: false } }],
        },
        [labels.map((_, i) => i), values],
        box,
      );
    },
    (width) => String(categoryAxis(labels, width).rotate),
  );
}
