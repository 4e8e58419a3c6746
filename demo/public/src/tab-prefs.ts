/**
 * The storefront's language and theme for this tab (sessionStorage), so the pages a purchase leads to
 * (the thanks page at redirect_url, "/" again) keep what the shopper saw, also when it came from the
 * URL (`?lang=ru&theme=dark`), which is not saved for later visits. `?lang=` / `?theme=` win.
 */
import type { Lang, Theme } from '../../../src/ui-shared/i18n.js';

const KEY = 'obzharka:tab-prefs';
const VALUES = { lang: ['en', 'ru'], theme: ['light', 'dark'] } as const;

export function rememberForTab(prefs: { lang: Lang; theme: Theme }): void {
  try {
    sessionStorage.setItem(KEY, JSON.stringify(prefs));
  } catch {
    // storage may be unavailable
  }
}

/** This tab's choice, unless the URL names one (then the caller's own reading applies). */
export function tabPreference<N extends 'lang' | 'theme'>(name: N): (N extends 'lang' ? Lang : Theme) | null {
  if (new URLSearchParams(location.search).has(name)) return null;
  try {
    const value = (JSON.parse(sessionStorage.getItem(KEY) ?? 'null') as Record<string, unknown> | null)?.[name];
    return (VALUES[name] as readonly unknown[]).includes(value) ? (value as N extends 'lang' ? Lang : Theme) : null;
  } catch {
    return null;
  }
}
