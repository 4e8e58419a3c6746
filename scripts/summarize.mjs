// Prints each suite's totals, one line per suite (the browser tests one line per engine:
// test-output/browser-<engine>.json), then one last line "N passed, N failed" summing every suite.
import { existsSync, readFileSync, readdirSync } from 'node:fs';

/** Totals of one suite's output file, or null for a file that holds none. */
function totalsOf(path, name) {
  if (name.endsWith('.tap')) {
    const text = readFileSync(path, 'utf8');
    // The TAP reporter ends with "# pass N" and "# fail N" totals.
    const pass = /^# pass (\d+)$/m.exec(text);
    const fail = /^# fail (\d+)$/m.exec(text);
    // A runner that died before its totals counts as one failure.
    if (!pass && !fail) return { passed: 0, failed: 1, note: 'no totals: the runner stopped early' };
    return { passed: pass ? Number(pass[1]) : 0, failed: fail ? Number(fail[1]) : 0 };
  }
  if (name.endsWith('.json') && name !== 'sizes.json') {
    try {
      const counts = JSON.parse(readFileSync(path, 'utf8'));
      if (typeof counts.passed === 'number' && typeof counts.failed === 'number') {
        return { passed: counts.passed, failed: counts.failed, seconds: counts.seconds, note: counts.note };
      }
      return null;
    } catch {
      return { passed: 0, failed: 1, note: 'unreadable totals' };
    }
  }
  return null;
}

let passed = 0;
let failed = 0;
const dir = 'test-output';
if (existsSync(dir)) {
  for (const name of readdirSync(dir).sort()) {
    const totals = totalsOf(`${dir}/${name}`, name);
    if (!totals) continue;
    passed += totals.passed;
    failed += totals.failed;
    const suite = name.replace(/\.(tap|json)$/, '').replace(/^browser-(.+)$/, 'browser ($1)');
    const extra = [totals.seconds !== undefined ? `${totals.seconds} s` : '', totals.note ?? ''].filter(Boolean).join('; ');
    console.log(`  suite ${suite}: ${totals.passed} passed, ${totals.failed} failed${extra ? ` (${extra})` : ''}`);
  }
}
console.log(`${passed} passed, ${failed} failed`);
