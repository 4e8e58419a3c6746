/** Small statistics for the benchmarks: medians of runs, percentiles of samples, formatting. */

/** The p-th percentile (0–100) of samples, nearest-rank on sorted values. */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) throw new RangeError('no samples');
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))]!;
}

export const median = (values: readonly number[]): number => {
  if (values.length === 0) throw new RangeError('no values');
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

export const ms = (v: number, digits = 2) => `${v.toFixed(digits)} ms`;
export const ratio = (v: number) => `${v.toFixed(2)}×`;
export const perSecond = (v: number) => `${Math.round(v).toLocaleString('en-US')}/s`;
export const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;

/** Runs `fn` `runs` times in a row and returns the results. */
export async function repeat<T>(runs: number, fn: (run: number) => Promise<T>): Promise<T[]> {
  const out: T[] = [];
  for (let i = 0; i < runs; i++) out.push(await fn(i));
  return out;
}
