/**
 * The frame every engines spec (test/engines/*.test.ts) puts around its tests in each engine's
 * `describe`: the browser launched once before the tests and closed after them, and each test's
 * pages closed after that test (WebKitWebDriver holds one session at a time, so a page left open
 * would stall the next test).
 *
 *   for (const name of enginesToRun()) {
 *     describe(name, () => {
 *       const { open } = engineSpec(name);
 *       test(`${name}: …`, async () => {
 *         const page = await open();
 *         …
 *       });
 *     });
 *   }
 */
import { after, afterEach, before } from 'node:test';
import { launchEngine, type Engine, type EngineName, type EnginePage, type LaunchOptions, type PageOptions } from './driver.js';

/** A desktop window: what the specs open unless they say otherwise. */
export const DESKTOP: PageOptions = { width: 1280, height: 900 };

export interface EngineSpec {
  /** The engine's browser (launched by the spec's `before`: read it inside a test or a later hook). */
  readonly engine: Engine;
  /** A fresh page (a profile of its own), `options` or the spec's default window; closed after the test. */
  open(options?: PageOptions): Promise<EnginePage>;
}

export interface EngineSpecOptions {
  /** The window `open()` gives when not told (default {@link DESKTOP}). */
  page?: PageOptions;
  /** How the browser is launched (e.g. `networkSwitch` for WebKit's offline switch). */
  launch?: LaunchOptions;
}

/**
 * Registers, in the current `describe`, the hooks of one engine's browser: launched before the
 * tests, each test's pages closed after it, the browser closed after all of them.
 */
export function engineSpec(name: EngineName, options: EngineSpecOptions = {}): EngineSpec {
  let engine: Engine | undefined;
  const pages: EnginePage[] = [];
  before(async () => {
    engine = await launchEngine(name, options.launch);
  });
  afterEach(async () => {
    for (const p of pages.splice(0)) await p.close().catch(() => undefined);
  });
  after(async () => {
    await engine?.close();
  });
  const launched = (): Engine => {
    if (!engine) throw new Error(`${name}: the browser is not launched yet (read spec.engine inside a test)`);
    return engine;
  };
  return {
    get engine() {
      return launched();
    },
    // A closure, not a method: specs take it apart (`const { open } = engineSpec(name)`).
    open: async (page = options.page ?? DESKTOP) => {
      const opened = await launched().newPage(page);
      pages.push(opened);
      return opened;
    },
  };
}
