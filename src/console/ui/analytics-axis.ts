/**
 * How a bar chart's category names stand under its bars (analytics-charts.ts): level when they fit,
 * upright when they would overlap (a by-method chart on a 390 px phone), never cut by the chart's sides.
 * No DOM here: the width of a name is measured by the caller (a canvas), so a test can measure it too.
 */

/** The y axis (52 px) and the chart's side padding (4 + 16 px) with a little air: what the bars do not get. */
const NOT_BARS = 84;

/** The longest a category's name may be when it stands upright (longer ones end in "…"). */
const UPRIGHT_MAX = 150;
/**
 * How the categories' names stand under the bars at `width`: level when each fits its bar's share of
 * the width, else upright (turned a quarter: names never overlap, none runs off the chart's sides;
 * a name longer than {@link UPRIGHT_MAX} px is shortened with "…" — the table below has it whole).
 */
export function categoryAxis(labels: readonly string[], width: number, measure: (text: string) => number): { rotate: number; size: number; names: string[] } {
  const slot = (width - NOT_BARS) / Math.max(1, labels.length);
  const widths = labels.map(measure);
  if (widths.every((w) => w + 8 <= slot)) return { rotate: 0, size: 40, names: [...labels] };
  const names = labels.map((l, i) => {
    if (widths[i]! <= UPRIGHT_MAX) return l;
    let cut = l;
    while (cut.length > 1 && measure(`${cut}…`) > UPRIGHT_MAX) cut = cut.slice(0, -1);
    return `${cut.trimEnd()}…`;
  });
  return { rotate: -90, size: Math.ceil(Math.max(0, ...names.map(measure))) + 16, names };
}

