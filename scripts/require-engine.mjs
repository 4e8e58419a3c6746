// node scripts/require-engine.mjs ENGINE: exits 1 with what to install when ENGINE (chromium,
// firefox, webkit) cannot run on this machine.
import { missingEngine } from './wtr/engines.mjs';

const engine = process.argv[2] ?? 'chromium';
const missing = missingEngine(engine);
if (missing) {
  console.error(missing);
  process.exit(1);
}
