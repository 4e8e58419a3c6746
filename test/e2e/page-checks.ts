/**
 * Checks of a whole demo page in Chromium, shared by the console and storefront e2e files:
 * axe-core (WCAG 2.x A/AA) run in the page, and no horizontal scrolling of the document.
 *
 * axe is evaluated through the DevTools protocol (as page.evaluate does), so the page's strict CSP,
 * which forbids inline scripts, stays on and is not weakened for the test.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: Array<{ target: unknown[]; failureSummary?: string }>;
}

/** The axe violations of the page as it is now (WCAG 2.0/2.1/2.2 A and AA rules), one line each. */
export async function axeViolations(page: Page, options: { exclude?: string[] } = {}): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  // Colours are judged as the shopper sees them once still: a page whose theme is set by its script
  // (dark from the address) fades its buttons for 150 ms, and a contrast read mid-fade is a blend of
  // both themes (3.61:1 on /support in one CI run). Finite transitions and animations end first (a
  // spinner's endless one is left turning), at most 2 s.
  await page.evaluate(async () => {
    const ending = document.getAnimations().filter((a) => Number.isFinite(Number(a.effect?.getComputedTiming().endTime)));
    await Promise.race([Promise.all(ending.map((a) => a.finished.catch(() => undefined))), new Promise((r) => setTimeout(r, 2000))]);
  });
  const violations = await page.evaluate(async (exclude: string[]) => {
    const axe = (window as unknown as { axe: { run(context: unknown, options: unknown): Promise<{ violations: AxeViolation[] }> } }).axe;
    const result = await axe.run(
      { include: [document], exclude: exclude.map((s) => [s]) },
      { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'] }, resultTypes: ['violations'] },
    );
    return result.violations;
  }, options.exclude ?? []);
  return violations.flatMap((v) => v.nodes.map((n) => `${v.id} (${v.impact}): ${v.help} at ${JSON.stringify(n.target)}${n.failureSummary ? ` — ${n.failureSummary.replace(/\s+/g, ' ')}` : ''}`));
}

/** `[scrollWidth, clientWidth]` of the document: equal when nothing scrolls sideways. */
export function documentWidths(page: Page): Promise<[number, number]> {
  return page.evaluate(() => [document.scrollingElement!.scrollWidth, document.scrollingElement!.clientWidth] as [number, number]);
}

/** The elements that stick out of the viewport on the right (for a failure message). */
export function overflowing(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    return [...document.querySelectorAll('body *')]
      .filter((el) => el.getBoundingClientRect().right > width + 0.5 && el.getClientRects().length > 0)
      .slice(0, 8)
      .map((el) => `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}.${[...el.classList].join('.')} right=${Math.round(el.getBoundingClientRect().right)}`);
  });
}
