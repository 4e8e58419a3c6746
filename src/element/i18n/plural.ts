/**
 * Plural forms. Kept apart from index.ts: only the views and the live status (loaded on demand) need
 * them, never the element's own module (nor the requisites a first paint draws: `safeIntl` is intl.ts's).
 */
import { safeIntl } from './intl.js';
import { fill } from './text.js';
import type { Plural } from './types.js';

const pluralRules = new Map<string, Intl.PluralRules>();

/** Picks the plural form for `n` with `Intl.PluralRules` and fills `{n}` (formatted with `Intl`). */
export function plural(locale: string, forms: Plural | string, n: number): string {
  let rules = pluralRules.get(locale);
  if (!rules) {
    rules = safeIntl(() => new Intl.PluralRules(locale), () => new Intl.PluralRules('en'));
    pluralRules.set(locale, rules);
  }
  // A table that is not there yet (see messagesFor) gives no forms: nothing to say.
  if (!forms) return '';
  const form = typeof forms === 'string' ? forms : (forms[rules.select(n)] ?? forms.other);
  return fill(form, { n: new Intl.NumberFormat(rules.resolvedOptions().locale).format(n) });
}
