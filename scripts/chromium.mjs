// Finds the Chromium used by browser and end-to-end tests: CHROME_PATH, else the usual Debian paths.
import { existsSync } from 'node:fs';

const CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome', '/usr/bin/google-chrome-stable'];

export function findChromium() {
  const fromEnv = process.env.CHROME_PATH;
  if (fromEnv) return existsSync(fromEnv) ? fromEnv : null;
  return CANDIDATES.find((p) => existsSync(p)) ?? null;
}

/** Flags for headless Chromium on this kind of machine (root, no GPU, closed network). */
export const CHROMIUM_ARGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-quic',
  '--no-first-run',
];

export const NO_CHROMIUM_MESSAGE = `No Chromium found for the browser tests.
  Install one:   sudo apt-get install -y chromium      (Debian/Ubuntu; gives /usr/bin/chromium)
  or point to an existing Chrome/Chromium:   CHROME_PATH=/path/to/chrome npm test`;
