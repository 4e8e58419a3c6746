/**
 * Requests are checked before anything is sent: a violation throws `invalid_request` naming the
 * field (and, for a create, `outcome: 'not_created'`).
 */
import type { z } from 'zod';
import { ProviderError } from './errors.js';
import type { RuleViolation } from './schemas.js';
import type { CreateOutcome } from './types.js';

/**
 * Money is sent as a decimal string only: a number (`100.5`) is refused before anything is sent, with
 * a message that says so (the types already refuse it; this guards JavaScript callers and casts).
 */
export function refuseNumberAmount(value: unknown, field: string): void {
  if (typeof value !== 'number') return;
  throw new ProviderError({
    code: 'invalid_request',
    message: `invalid request: ${field}: must be a decimal string such as "1500.00", not the number ${String(value)} (a float cannot carry money exactly)`,
    field,
    outcome: 'not_created',
  });
}

/** Checks a request; a create's refusal says nothing was created (`outcome`). */
export function check(schema: z.ZodType, value: unknown, what: string, outcome?: CreateOutcome): unknown {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const { issue, path } = mostTellingIssue(parsed.error.issues[0]!);
  if (issue.code === 'unrecognized_keys') path.push(String(issue.keys[0]));
  const field = path.join('.') || what;
  const message = issue.code === 'unrecognized_keys' ? 'is not a field of this request' : issue.message;
  throw new ProviderError({ code: 'invalid_request', message: `invalid request: ${field}: ${message}`, field, ...(outcome && { outcome }) });
}

/**
 * For a union (e.g. an amount as string or number), the issue of the arm that got furthest: a failed
 * rule ("must be greater than zero") says more than "expected number".
 */
function mostTellingIssue(issue: z.core.$ZodIssue): { issue: z.core.$ZodIssue; path: string[] } {
  const path = issue.path.map(String);
  if (issue.code !== 'invalid_union' || issue.errors.length === 0) return { issue, path };
  const inner = issue.errors.flat();
  const best = inner.find((i) => i.code !== 'invalid_type') ?? inner[0];
  if (!best) return { issue, path };
  const deeper = mostTellingIssue(best);
  return { issue: deeper.issue, path: [...path, ...deeper.path] };
}

/** Throws the first violation of a rule the schema cannot express (e.g. `customer_account` for Sell). */
export function throwViolations(violations: RuleViolation[], outcome?: CreateOutcome): void {
  const first = violations[0];
  if (first) {
    throw new ProviderError({ code: 'invalid_request', message: `invalid request: ${first.field}: ${first.message}`, field: first.field, ...(outcome && { outcome }) });
  }
}

/** A list query, checked, as query parameters: only what the caller gave (undefined and null are left out). */
export function queryOf(schema: z.ZodType, input: object | undefined, what: string): URLSearchParams {
  const given = Object.fromEntries(Object.entries(input ?? {}).filter(([, v]) => v !== undefined && v !== null));
  const data = check(schema, given, what) as Record<string, unknown>;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(data)) {
    if (value === undefined || value === null) continue;
    for (const item of Array.isArray(value) ? value : [value]) params.append(key, String(item));
  }
  return params;
}
