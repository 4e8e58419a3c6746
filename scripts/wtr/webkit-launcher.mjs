// web-test-runner launcher for WebKit: WebKitGTK's MiniBrowser driven by WebKitWebDriver (classic
// WebDriver over HTTP, spoken here with fetch), on an Xvfb display of its own. Debian's
// webkit2gtk-driver and xvfb packages; nothing is downloaded.
//
// How it runs a test file: the MiniBrowser window holds the runner's own iframe page
// (`/?mode=iframe`, as @web/test-runner-webdriver does) and each test file runs in an iframe of it,
// sized like a viewport (800×600 by default, as the Chromium launcher's pages). `setViewport` resizes
// that iframe: MiniBrowser's window will not go below 447×806, an iframe gives a test a 320–414 px
// phone. One file at a time (concurrency 1): a window has one focused frame, and the keyboard tests
// need it. A new *tab* under WebDriver hangs MiniBrowser, so none is opened.
//
// The commands of @web/test-runner-commands (setViewport, sendKeys, sendMouse, emulateMedia) pick their code by
// the launcher's `type`; this launcher gives `getPage()` an object with the Playwright page methods
// those commands call, so it says `type: 'playwright'`. WebDriver has no way to change
// prefers-color-scheme or prefers-reduced-motion: emulateMedia fails with a message saying so.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';

/** WebDriver's key codes for the key names tests press (W3C WebDriver, "Keyboard actions"). */
const KEYS = {
  Backspace: '\uE003',
  Tab: '\uE004',
  Enter: '\uE007',
  Shift: '\uE008',
  Control: '\uE009',
  Alt: '\uE00A',
  Escape: '\uE00C',
  Space: '\uE00D',
  ' ': '\uE00D',
  PageUp: '\uE00E',
  PageDown: '\uE00F',
  End: '\uE010',
  Home: '\uE011',
  ArrowLeft: '\uE012',
  ArrowUp: '\uE013',
  ArrowRight: '\uE014',
  ArrowDown: '\uE015',
  Delete: '\uE017',
  Meta: '\uE03D',
};

const BUTTONS = { left: 0, middle: 1, right: 2 };

/** One key name ("Tab", "a", "Shift+Tab") as WebDriver key values, modifiers first. */
function keyValues(name) {
  const parts = name.length > 1 && name.includes('+') ? name.split('+') : [name];
  return parts.map((p) => {
    if (p in KEYS) return KEYS[p];
    if ([...p].length === 1) return p;
    throw new Error(`WebKit launcher: no WebDriver key code for "${p}" (known: ${Object.keys(KEYS).join(', ')})`);
  });
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Starts Xvfb on a display number it picks itself (-displayfd), so it never takes one in use. */
async function startXvfb(xvfbPath) {
  const child = spawn(xvfbPath, ['-displayfd', '3', '-screen', '0', '1600x1200x24', '-nolisten', 'tcp'], {
    stdio: ['ignore', 'ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const display = await new Promise((resolve, reject) => {
    let out = '';
    child.stdio[3].on('data', (d) => {
      out += d;
      if (out.includes('\n')) resolve(`:${out.trim()}`);
    });
    child.on('exit', (code) => reject(new Error(`Xvfb exited (${code}) before it had a display: ${stderr.trim()}`)));
    setTimeout(() => reject(new Error(`Xvfb gave no display in 20 s: ${stderr.trim()}`)), 20000).unref();
  });
  return { child, display };
}

/** A started WebKitWebDriver: its base URL, once /status answers. */
async function startDriver(driverPath, display) {
  const port = await freePort();
  const child = spawn(driverPath, [`--port=${port}`], {
    env: { ...process.env, DISPLAY: display },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 100; i++) {
    if (child.exitCode !== null) throw new Error(`WebKitWebDriver exited (${child.exitCode}): ${stderr.trim()}`);
    try {
      const r = await fetch(`${base}/status`);
      if (r.ok) return { child, base };
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  child.kill();
  throw new Error(`WebKitWebDriver did not answer on ${base} in 10 s: ${stderr.trim()}`);
}

async function stopChild(child) {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const exited = once(child, 'exit');
  const timer = sleep(5000).then(() => child.kill('SIGKILL'));
  await Promise.race([exited, timer]);
}

export class WebKitLauncher {
  /**
   * @param {{ driverPath: string, miniBrowserPath: string, xvfbPath: string }} options
   */
  constructor(options) {
    this.options = options;
    this.name = 'WebKit';
    this.type = 'playwright';
    this.concurrency = 1;
    /** @type {Map<string, { frameId: string, url: string }>} */
    this.sessions = new Map();
    this.freeFrames = [];
    this.frames = 0;
  }

  initialize(config) {
    this.config = config;
  }

  async wd(method, path, body) {
    const response = await fetch(`${this.driver.base}/session/${this.sessionId}${path}`, {
      method,
      headers: { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = await response.json().catch(() => ({}));
    if (!response.ok) {
      const v = json.value ?? {};
      throw new Error(`WebDriver ${method} ${path}: ${v.error ?? response.status} ${v.message ?? ''}`.trim());
    }
    return json.value;
  }

  execute(script, args = []) {
    return this.wd('POST', '/execute/sync', { script, args });
  }

  /** Xvfb, the driver, one MiniBrowser window on the runner's iframe page. Once. */
  start(origin) {
    this.starting ??= (async () => {
      this.xvfb = await startXvfb(this.options.xvfbPath);
      // Should the runner exit without stop() (a crash), the display and the driver go with it;
      // MiniBrowser, the driver's child, ends with its display.
      process.once('exit', () => {
        this.driver?.child.kill();
        this.xvfb?.child.kill();
      });
      this.driver = await startDriver(this.options.driverPath, this.xvfb.display);
      const response = await fetch(`${this.driver.base}/session`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          capabilities: {
            alwaysMatch: {
              'webkitgtk:browserOptions': { binary: this.options.miniBrowserPath, args: ['--automation'] },
            },
          },
        }),
      });
      const json = await response.json();
      if (!response.ok) throw new Error(`WebKitWebDriver refused a session: ${JSON.stringify(json.value)}`);
      this.sessionId = json.value.sessionId;
      this.name = `WebKit ${json.value.capabilities.browserVersion}`;
      await this.wd('POST', '/window/rect', { x: 0, y: 0, width: 1500, height: 1100 });
      await this.wd('POST', '/url', { url: `${origin}/?mode=iframe` });
    })();
    return this.starting;
  }

  async startSession(sessionId, url) {
    await this.start(new URL(url).origin);
    const frameId = this.freeFrames.pop() ?? `wtr-webkit-frame-${++this.frames}`;
    this.sessions.set(sessionId, { frameId, url });
    await this.execute(
      `const [id, url] = arguments;
       let frame = document.getElementById(id);
       if (!frame) {
         frame = document.createElement('iframe');
         frame.id = id;
         document.body.appendChild(frame);
       }
       frame.style.width = '800px';
       frame.style.height = '600px';
       frame.src = url;`,
      [frameId, url],
    );
  }

  isActive(sessionId) {
    return this.sessions.has(sessionId);
  }

  async getBrowserUrl(sessionId) {
    const session = this.sessions.get(sessionId);
    if (!session) return undefined;
    return this.execute(
      `try { return document.getElementById(arguments[0]).contentWindow.location.href; } catch (e) { return undefined; }`,
      [session.frameId],
    );
  }

  async stopSession(sessionId) {
    const session = this.sessions.get(sessionId);
    if (!session) throw new Error(`No WebKit frame for session ${sessionId}`);
    // Empty the frame (stops the file's timers and streams) and wait until it has.
    await this.wd('POST', '/execute/async', {
      script: `const [id, done] = arguments;
        const frame = document.getElementById(id);
        const loaded = () => { frame.removeEventListener('load', loaded); done(true); };
        frame.addEventListener('load', loaded);
        frame.src = 'about:blank';`,
      args: [session.frameId],
    });
    this.sessions.delete(sessionId);
    this.freeFrames.push(session.frameId);
    return {};
  }

  async startDebugSession() {
    throw new Error('The WebKit launcher has no debug mode: run MiniBrowser yourself on the printed URL.');
  }

  async stop() {
    try {
      if (this.sessionId) await fetch(`${this.driver.base}/session/${this.sessionId}`, { method: 'DELETE' });
    } catch {
      // the driver is gone already
    } finally {
      this.sessionId = undefined;
      await stopChild(this.driver?.child);
      await stopChild(this.xvfb?.child);
    }
  }

  /** Key actions go to the window's focused frame: the test's frame, which has the focus it gave. */
  async keys(values, { down = true, up = true } = {}) {
    const actions = [];
    if (down) for (const v of values) actions.push({ type: 'keyDown', value: v });
    if (up) for (const v of [...values].reverse()) actions.push({ type: 'keyUp', value: v });
    await this.wd('POST', '/actions', { actions: [{ type: 'key', id: 'keyboard', actions }] });
  }

  /**
   * Pointer actions at viewport coordinates. The test frame sits at the window's top left without a
   * border, so a point of the test's viewport is the same point of the window's.
   */
  async mouse(actions) {
    await this.wd('POST', '/actions', {
      actions: [{ type: 'pointer', id: 'mouse', parameters: { pointerType: 'mouse' }, actions }],
    });
  }

  /** The Playwright page methods that @web/test-runner-commands calls, for one test frame. */
  getPage(sessionId) {
    const session = this.sessions.get(sessionId);
    if (!session) throw new Error(`No WebKit frame for session ${sessionId}`);
    return {
      keyboard: {
        type: async (text) => {
          for (const ch of text) await this.keys(keyValues(ch));
        },
        press: (key) => this.keys(keyValues(key)),
        down: (key) => this.keys(keyValues(key), { up: false }),
        up: (key) => this.keys(keyValues(key), { down: false }),
      },
      mouse: {
        move: (x, y) => this.mouse([{ type: 'pointerMove', duration: 0, x: Math.round(x), y: Math.round(y) }]),
        click: (x, y, { button = 'left' } = {}) =>
          this.mouse([
            { type: 'pointerMove', duration: 0, x: Math.round(x), y: Math.round(y) },
            { type: 'pointerDown', button: BUTTONS[button] },
            { type: 'pointerUp', button: BUTTONS[button] },
          ]),
        down: ({ button = 'left' } = {}) => this.mouse([{ type: 'pointerDown', button: BUTTONS[button] }]),
        up: ({ button = 'left' } = {}) => this.mouse([{ type: 'pointerUp', button: BUTTONS[button] }]),
      },
      setViewportSize: ({ width, height }) =>
        this.execute(
          `const frame = document.getElementById(arguments[0]);
           frame.style.width = arguments[1] + 'px';
           frame.style.height = arguments[2] + 'px';
           return new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));`,
          [session.frameId, width, height],
        ),
      emulateMedia: async () => {
        throw new Error(
          'WebKit over WebDriver cannot emulate media features (prefers-color-scheme, prefers-reduced-motion): ' +
            'WebDriver has no command for them and MiniBrowser no flag.',
        );
      },
    };
  }
}

/** @param {{ driverPath: string, miniBrowserPath: string, xvfbPath: string }} options */
export function webkitLauncher(options) {
  return new WebKitLauncher(options);
}
