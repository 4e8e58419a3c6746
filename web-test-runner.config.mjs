import { esbuildPlugin } from '@web/dev-server-esbuild';
import { chromeLauncher } from '@web/test-runner-chrome';
import { defaultReporter, summaryReporter } from '@web/test-runner';
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { findChromium, CHROMIUM_ARGS } from './scripts/chromium.mjs';

/** Writes pass/fail totals to test-output/browser.json for the CI summary line. */
function countingReporter() {
  return {
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
      writeFileSync('test-output/browser.json', JSON.stringify({ passed, failed }));
    },
  };
}

export default {
  files: ['test/browser/**/*.test.ts'],
  nodeResolve: { exportConditions: ['browser'] },
  concurrency: 2,
  testFramework: { config: { timeout: 10000 } },
  testsFinishTimeout: 300000,
  browsers: [
    chromeLauncher({
      launchOptions: { executablePath: findChromium() ?? undefined, args: CHROMIUM_ARGS },
    }),
  ],
  plugins: [
    esbuildPlugin({
      ts: true,
      target: 'es2022',
      tsconfig: fileURLToPath(new URL('./tsconfig.json', import.meta.url)),
    }),
  ],
  reporters: [defaultReporter(), summaryReporter({ flatten: false }), countingReporter()],
};
