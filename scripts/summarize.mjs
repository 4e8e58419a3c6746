// Prints one line "N passed, N failed" summing every suite that ran (node, browser, e2e).
import { existsSync, readFileSync, readdirSync } from 'node:fs';

let passed = 0;
let failed = 0;
const dir = 'test-output';
if (existsSync(dir)) {
  for (const name of readdirSync(dir)) {
    const path = `${dir}/${name}`;
    if (name.endsWith('.tap')) {
      const text = readFileSync(path, 'utf8');
      // The TAP reporter ends with "# pass N" and "# fail N" totals.
      const pass = /^# pass (\d+)$/m.exec(text);
      const fail = /^# fail (\d+)$/m.exec(text);
      passed += pass ? Number(pass[1]) : 0;
      failed += fail ? Number(fail[1]) : 0;
      if (!pass && !fail) failed += 1; // a runner that died before its totals
    } else if (name.endsWith('.json') && name !== 'sizes.json') {
      try {
        const counts = JSON.parse(readFileSync(path, 'utf8'));
        if (typeof counts.passed === 'number' && typeof counts.failed === 'number') {
          passed += counts.passed;
          failed += counts.failed;
        }
      } catch {
        failed += 1;
      }
    }
  }
}
console.log(`${passed} passed, ${failed} failed`);
