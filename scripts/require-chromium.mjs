import { findChromium, NO_CHROMIUM_MESSAGE } from './chromium.mjs';

if (!findChromium()) {
  console.error(NO_CHROMIUM_MESSAGE);
  process.exit(1);
}
