/**
 * `Intl` constructors that may refuse a locale. A module of its own: the views, the bank sheet and the
 * receipt need it (the requisites' pay-by time among them, on a first paint's path), the element's own
 * module and plural forms (plural.ts) never before a view.
 */

/** Runs an `Intl` constructor, falling back when the locale tag is malformed. */
export function safeIntl<T>(make: () => T, fallback: () => T): T {
  try {
    return make();
  } catch {
    return fallback();
  }
}
