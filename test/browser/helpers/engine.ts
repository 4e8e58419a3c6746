/**
 * The engine running the tests (scripts/test.sh runs them in all three), read from the real user
 * agent when this module loads, before any test stands in a phone's. For the few checks where the
 * engines measurably differ; each use says how.
 */
export type Engine = 'chromium' | 'firefox' | 'webkit';

export const engine: Engine = /\bFirefox\//.test(navigator.userAgent)
  ? 'firefox'
  : /\b(Chrome|Chromium|HeadlessChrome)\//.test(navigator.userAgent)
    ? 'chromium'
    : 'webkit';
