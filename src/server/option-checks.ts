/** Checks of single option values for resolveOptions: each bad value is a `TypeError` naming the option. */

export function positive(value: number | undefined, fallback: number, name: string): number {
  const v = value ?? fallback;
  if (typeof v !== 'number' || !Number.isFinite(v) || v <= 0) throw new TypeError(`paydesk/server: ${name} must be a positive number`);
  return v;
}

export function nonNegative(value: number | undefined, fallback: number, name: string): number {
  const v = value ?? fallback;
  if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) throw new TypeError(`paydesk/server: ${name} must be 0 or a positive number`);
  return v;
}

/** `disputeGraceSeconds`: 0 or more (default 600), and no longer than the late window it is part of. */
export function disputeGrace(value: number | undefined, lateWindowSeconds: number): number {
  const v = nonNegative(value, Math.min(600, lateWindowSeconds), 'disputeGraceSeconds');
  if (v > lateWindowSeconds) throw new TypeError('paydesk/server: disputeGraceSeconds must not be longer than lateWindowSeconds');
  return v;
}

export function feePayerOption(value: unknown): 'merchant' | 'shopper' {
  if (value === undefined || value === 'merchant' || value === 'shopper') return value ?? 'merchant';
  throw new TypeError(`paydesk/server: feePayer must be 'merchant' or 'shopper', got ${JSON.stringify(value)}`);
}
