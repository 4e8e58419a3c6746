// node scripts/require-engine.mjs ENGINE: exits 1 with what to install when ENGINE (chromium,
// firefox, webkit) cannot run on this machine.
import { missingEngine } from './wtr/engines.mjs';

const engine = process.argv[2] ?? 'chromium';
const missing = missingEngine(engine);
if (missing) {
  console.error(missing);
  if (engine !== 'chromium') {
    const others = ['chromium', 'firefox', 'webkit'].filter((e) => e !== engine).join(' ');
    console.error(`  or, until then, run the other engines only:   PAYDESK_BROWSERS="${others}" npm test   (CI runs all three)`);
  }
  process.exit(1);
}
