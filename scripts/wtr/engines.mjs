// The three engines the browser tests run in, where each is found, and what to install when one is
// missing. Chromium is found by scripts/chromium.mjs; Firefox ESR and WebKitGTK by their Debian paths,
// or by FIREFOX_PATH, WEBKIT_WEBDRIVER_PATH / WEBKIT_MINIBROWSER_PATH, XVFB_PATH.
import { existsSync } from 'node:fs';
import { findChromium, NO_CHROMIUM_MESSAGE } from '../chromium.mjs';

export const ENGINES = ['chromium', 'firefox', 'webkit'];

function first(envName, candidates) {
  const fromEnv = process.env[envName];
  if (fromEnv) return existsSync(fromEnv) ? fromEnv : null;
  return candidates.find((p) => existsSync(p)) ?? null;
}

export function findFirefox() {
  return first('FIREFOX_PATH', ['/usr/bin/firefox-esr', '/usr/bin/firefox']);
}

/** WebKitWebDriver, the MiniBrowser it drives, and the Xvfb it runs in; null where one is missing. */
export function findWebKit() {
  return {
    driverPath: first('WEBKIT_WEBDRIVER_PATH', ['/usr/bin/WebKitWebDriver']),
    miniBrowserPath: first('WEBKIT_MINIBROWSER_PATH', [
      '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser',
      '/usr/lib/aarch64-linux-gnu/webkit2gtk-4.1/MiniBrowser',
      '/usr/libexec/webkit2gtk-4.1/MiniBrowser',
    ]),
    xvfbPath: first('XVFB_PATH', ['/usr/bin/Xvfb']),
  };
}

const NO_FIREFOX_MESSAGE = `No Firefox found for the browser tests in Gecko.
  Install one:   sudo apt-get install -y firefox-esr      (Debian/Ubuntu; gives /usr/bin/firefox-esr)
  or point to an existing Firefox:   FIREFOX_PATH=/path/to/firefox npm test`;

/** Why an engine cannot run here, with what to install; null when it can. */
export function missingEngine(engine) {
  if (engine === 'chromium') return findChromium() ? null : NO_CHROMIUM_MESSAGE;
  if (engine === 'firefox') return findFirefox() ? null : NO_FIREFOX_MESSAGE;
  if (engine === 'webkit') {
    const w = findWebKit();
    const lacking = [
      !w.driverPath && 'WebKitWebDriver (WEBKIT_WEBDRIVER_PATH)',
      !w.miniBrowserPath && 'WebKitGTK MiniBrowser (WEBKIT_MINIBROWSER_PATH)',
      !w.xvfbPath && 'Xvfb (XVFB_PATH)',
    ].filter(Boolean);
    if (lacking.length === 0) return null;
    return `No WebKit for the browser tests: missing ${lacking.join(', ')}.
  Install them:   sudo apt-get install -y webkit2gtk-driver xvfb      (Debian/Ubuntu; WebKitWebDriver,
                  and the MiniBrowser of libwebkit2gtk-4.1-0 it drives, in a virtual X display)
  or point to existing ones with the variables above.`;
  }
  return `Unknown engine "${engine}": one of ${ENGINES.join(', ')}`;
}
