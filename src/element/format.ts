/**
 * Pure formatting of the countdown (amounts: src/money `formatMoney`, loaded with the views, not the
 * element; requisites: requisites.ts).
 */

/** `mm:ss` below an hour, `h:mm:ss` above; negative values read `0:00`. Rounds up to whole seconds. */
export function formatCountdown(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const pad = (n: number) => String(n).padStart(2, '0');
  const h = Math.floor(total / 3600);
  const m = Math.floor(total / 60) % 60;
  return `${h ? `${h}:${pad(m)}` : m}:${pad(total % 60)}`;
}
