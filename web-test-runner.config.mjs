import { createHash } from 'node:crypto';
import { esbuildPlugin } from '@web/dev-server-esbuild';
import { fromRollup } from '@web/dev-server-rollup';
import rollupCommonjs from '@rollup/plugin-commonjs';
import { chromeLauncher } from '@web/test-runner-chrome';
import { defaultReporter, summaryReporter } from '@web/test-runner';
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { findChromium, CHROMIUM_ARGS } from './scripts/chromium.mjs';
import { ENGINES, findFirefox, findWebKit } from './scripts/wtr/engines.mjs';
import { firefoxLauncher } from './scripts/wtr/firefox-launcher.mjs';
import { webkitLauncher } from './scripts/wtr/webkit-launcher.mjs';
import { fakeEndpoint } from './test/browser/fake-endpoint.mjs';

// `qrcode` (with `dijkstrajs`) and `jsqr` are CommonJS; the dev server serves ES modules.
// `strictRequires: false`: emit plain `export default` instead of lazy `require` wrappers that only a
// full Rollup build links up. `requireReturnsDefault: true`: a `require()` of another converted file
// gets its `module.exports` (the dev server cannot tell the plugin that file is CommonJS, so it
// would otherwise hand over an ES namespace without the exports).
const commonjs = fromRollup(rollupCommonjs);

/** The engine this run tests in: PAYDESK_BROWSER=chromium (default), firefox or webkit. */
const engine = process.env.PAYDESK_BROWSER ?? 'chromium';
if (!ENGINES.includes(engine)) throw new Error(`PAYDESK_BROWSER=${engine}: one of ${ENGINES.join(', ')}`);

/**
 * Test files an engine cannot run, each with why (docs/browsers.md lists them too). Every other
 * browser test runs in all three engines.
 */
const V8_STACKS = [
  // Counts the hops of our code from V8's async stack traces (Error.stackTraceLimit, "at" frames
  // across awaits, test/hop-path.ts). SpiderMonkey and JavaScriptCore keep no stack across an await.
  '!test/browser/paid-path.test.ts',
];
const NOT_IN = {
  firefox: V8_STACKS,
  webkit: [
    ...V8_STACKS,
    // Changes prefers-color-scheme and prefers-reduced-motion with emulateMedia: classic WebDriver
    // has no command for either and MiniBrowser no flag (Chromium: CDP; Firefox: its preferences).
    '!test/browser/media-features.test.ts',
  ],
};

/**
 * The launcher of each engine. Firefox and WebKit run one test file at a time: their windows have one
 * focused document at a time, and the keyboard tests (a11y, bank sheet, receipt) need the focus.
 */
function launcher() {
  if (engine === 'firefox') return firefoxLauncher({ executablePath: findFirefox() ?? undefined, concurrency: 1 });
  if (engine === 'webkit') return webkitLauncher(findWebKit());
  return chromeLauncher({ launchOptions: { executablePath: findChromium() ?? undefined, args: CHROMIUM_ARGS } });
}

/** Writes pass/fail totals and the run's seconds to test-output/browser-<engine>.json (scripts/summarize.mjs). */
function countingReporter() {
  let started = Date.now();
  return {
    start() {
      started = Date.now();
    },
    onTestRunFinished({ sessions }) {
      let passed = 0;
      let failed = 0;
      const walk = (suite) => {
        if (!suite) return;
        for (const t of suite.tests ?? []) {
          if (t.skipped) continue;
          if (t.passed) passed++;
          else failed++;
        }
        for (const s of suite.suites ?? []) walk(s);
      };
      for (const session of sessions) {
        walk(session.testResults);
        // A file that failed to load counts as a failure even though it ran no test.
        if (!session.passed && (session.errors?.length ?? 0) > 0) failed++;
      }
      mkdirSync('test-output', { recursive: true });
      writeFileSync(`test-output/browser-${engine}.json`, JSON.stringify({ passed, failed, seconds: Math.round((Date.now() - started) / 1000) }));
    },
  };
}

/** Marker of the test page that is served under a strict Content Security Policy. */
const CSP_MARKER = 'data-paydesk-csp';

/**
 * Sets a strict CSP (no 'unsafe-inline', no 'unsafe-eval') on the CSP group's test page. The test
 * runner's own inline bootstrap scripts are allowed by their sha256 hashes only.
 */
function strictCspMiddleware() {
  return async function strictCsp(ctx, next) {
    await next();
    if (ctx.path !== '/' || !ctx.response.is('html')) return;
    const body = typeof ctx.body === 'string' ? ctx.body : Buffer.isBuffer(ctx.body) ? ctx.body.toString('utf8') : null;
    if (!body || !body.includes(CSP_MARKER)) return;
    const hashes = [...body.matchAll(/<script(?![^>]*\ssrc=)[^>]*>([\s\S]*?)<\/script>/g)].map(
      (m) => `'sha256-${createHash('sha256').update(m[1]).digest('base64')}'`,
    );
    ctx.set(
      'Content-Security-Policy',
      [
        "default-src 'none'",
        `script-src 'self' ${hashes.join(' ')}`,
        "style-src 'self'",
        "connect-src 'self'",
        "img-src 'self'",
        "base-uri 'none'",
        "form-action 'none'",
        // WebKit's test files run in frames of the runner's own page (scripts/wtr/webkit-launcher.mjs):
        // there the page may be framed by its own origin. The policy the widget meets is otherwise the same.
        engine === 'webkit' ? "frame-ancestors 'self'" : "frame-ancestors 'none'",
      ].join('; '),
    );
  };
}

export default {
  files: ['test/browser/**/*.test.ts', '!test/browser/csp/**', ...(NOT_IN[engine] ?? [])],
  nodeResolve: { exportConditions: ['browser'] },
  concurrency: 2,
  testFramework: { config: { timeout: 10000 } },
  testsFinishTimeout: 300000,
  browsers: [launcher()],
  groups: [
    {
      name: 'strict-csp',
      files: ['test/browser/csp/**/*.test.ts'],
      testRunnerHtml: (testFramework) =>
        `<!DOCTYPE html><html lang="en" ${CSP_MARKER}><head><title>paydesk under a strict CSP</title></head><body><script type="module" src="${testFramework}"></script></body></html>`,
    },
  ],
  middleware: [strictCspMiddleware(), fakeEndpoint()],
  plugins: [
    commonjs({
      include: [
        '**/node_modules/qrcode/**',
        '**/node_modules/dijkstrajs/**',
        '**/node_modules/jsqr/**',
        // React 19 is CommonJS only (test/browser/react.test.ts renders paydesk/react).
        '**/node_modules/react/**',
        '**/node_modules/react-dom/**',
        '**/node_modules/scheduler/**',
      ],
      strictRequires: false,
      requireReturnsDefault: true,
    }),
    esbuildPlugin({
      ts: true,
      target: 'es2022',
      tsconfig: fileURLToPath(new URL('./tsconfig.json', import.meta.url)),
    }),
  ],
  reporters: [defaultReporter(), summaryReporter({ flatten: false }), countingReporter()],
};
