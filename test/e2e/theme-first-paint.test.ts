/**
 * The demo's pages paint in their theme from the first frame: a page opened dark (`?theme=dark`, or
 * this tab's choice that the storefront keeps for the thanks page it leads to) is never painted light
 * first, and no colour fades from light to dark as the page starts (the buttons' 0.15 s transition).
 *
 * How it is seen: a script added before any of the page's own records, at every animation frame, the
 * theme on <html> and the computed backgrounds of the body and the first button, and how many
 * animations (transitions included) run. A frame's callbacks run just before that frame is painted,
 * and none runs while the page is still blocked from rendering, so the first record is what the first
 * paint shows. Every script of the page is answered 300 ms late, as on a slow network: the page's
 * HTML and stylesheet are there long before its module script runs, which is when the theme used to be
 * set (a module script is deferred: the page may paint before it runs).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { storefrontSuite, storeUrl, waitUntil, type Shopper, type TestDemo } from './helpers.js';

interface Frame {
  theme: string | null;
  body: string;
  button: string | null;
  animations: number;
}

const FRAMES = 40;

/**
 * Records the first FRAMES frames that have a body into `window.__frames` (see the file comment). A
 * string: tsx names the functions of a test's source with a helper the page does not have.
 */
const RECORD_FRAMES = `
  const frames = (window.__frames = []);
  const tick = () => {
    if (document.body) {
      const button = document.querySelector('main .btn');
      frames.push({
        theme: document.documentElement.dataset.theme ?? null,
        body: getComputedStyle(document.body).backgroundColor,
        button: button ? getComputedStyle(button).backgroundColor : null,
        animations: document.getAnimations().length,
      });
    }
    if (frames.length < ${FRAMES}) requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
`;

async function slowShopper(shopper: () => Promise<Shopper>, colorScheme: 'light' | 'dark'): Promise<Shopper> {
  const s = await shopper();
  await s.page.emulateMedia({ colorScheme });
  await s.context.addInitScript({ content: RECORD_FRAMES });
  await s.page.route(/\.(js|ts)(\?|$)/, async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 300));
    await route.continue();
  });
  return s;
}

/** The frames recorded since the page was opened, once there are FRAMES of them and the page's theme is `theme`. */
async function framesOf(page: Page, theme: string): Promise<Frame[]> {
  await waitUntil(
    () => page.evaluate(([count, t]) => ((window as unknown as { __frames?: Frame[] }).__frames ?? []).length >= count && document.documentElement.dataset.theme === t, [FRAMES, theme] as const),
    `the page recorded ${FRAMES} frames and is ${theme}`,
  );
  await waitUntil(() => page.evaluate(() => document.getAnimations().length === 0), 'nothing animates any more');
  return page.evaluate(() => (window as unknown as { __frames: Frame[] }).__frames);
}

/**
 * Every recorded frame shows the page as it ends up: its theme and body colour; with `button`, also its
 * first button's colour and no animation at all (the small pages: nothing of theirs moves once painted).
 */
async function assertPaintedAsSettled(page: Page, theme: 'light' | 'dark', what: string, options: { button: boolean }): Promise<void> {
  const frames = await framesOf(page, theme);
  const settled = await page.evaluate(() => {
    const button = document.querySelector('main .btn');
    return {
      theme: document.documentElement.dataset.theme ?? null,
      body: getComputedStyle(document.body).backgroundColor,
      button: button ? getComputedStyle(button).backgroundColor : null,
      animations: 0,
    };
  });
  assert.equal(settled.theme, theme, `${what}: the page ends ${theme}`);
  assert.ok(frames.length >= FRAMES, `${what}: ${frames.length} frames recorded`);
  const off = frames
    .map((f, i) => ({ frame: i, ...f }))
    .filter((f) => f.theme !== settled.theme || f.body !== settled.body || (options.button && (f.button !== settled.button || f.animations !== 0)));
  assert.equal(off.length, 0, `${what}: ${off.length} of ${frames.length} frames painted otherwise than the settled page ${JSON.stringify(settled)}; the first: ${JSON.stringify(off[0])}`);
}

describe('the demo pages are painted in their theme from the first frame', () => {
  let demo: TestDemo;
  const shopper = storefrontSuite((d) => (demo = d));

  for (const path of ['/thanks?ref=coffee-beans&', '/support?']) {
    test(`${path.slice(0, -1)} opened with ?theme=dark (the system light): dark from the first frame`, async () => {
      const { page, cspViolations, errors } = await slowShopper(shopper, 'light');
      await page.goto(`${demo.merchantUrl}${path}theme=dark`);
      await assertPaintedAsSettled(page, 'dark', path, { button: true });
      assert.deepEqual([cspViolations, errors], [[], []]);
    });
  }

  test('/support opened with ?theme=light while the system is dark: light from the first frame', async () => {
    const { page, cspViolations, errors } = await slowShopper(shopper, 'dark');
    await page.goto(`${demo.merchantUrl}/support?theme=light`);
    await assertPaintedAsSettled(page, 'light', '/support?theme=light', { button: true });
    assert.deepEqual([cspViolations, errors], [[], []]);
  });

  test('the thanks page a dark purchase leads to (this tab\'s choice, not in its address): dark from the first frame', async () => {
    const { page, cspViolations, errors } = await slowShopper(shopper, 'light');
    await page.goto(storeUrl(demo, { theme: 'dark', lang: 'ru' }));
    await waitUntil(() => page.evaluate(() => sessionStorage.getItem('obzharka:tab-prefs')?.includes('"dark"') === true), 'the storefront kept the tab\'s theme');
    await page.goto(`${demo.merchantUrl}/thanks?ref=coffee-beans`);
    await assertPaintedAsSettled(page, 'dark', '/thanks after a dark purchase', { button: true });
    assert.deepEqual([cspViolations, errors], [[], []]);
  });

  test('the storefront opened with ?theme=dark: dark from the first frame', async () => {
    const { page, cspViolations, errors } = await slowShopper(shopper, 'light');
    await page.goto(storeUrl(demo, { theme: 'dark' }));
    // Its buttons are drawn by its script (the products, the widget), after the first frame: the theme and the page's colour are checked.
    await assertPaintedAsSettled(page, 'dark', 'the storefront', { button: false });
    assert.deepEqual([cspViolations, errors], [[], []]);
  });
});
