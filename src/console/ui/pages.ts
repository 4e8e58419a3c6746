/**
 * The console's pages beyond its built-in views (the lists, an order, the payout form): each has an
 * address under the console, a link in the section navigation and a function that draws it. Adding a
 * page is one line in {@link PAGES} (and its import): main.ts makes its link, its address and its title.
 */
import type { ConsolePage } from './context.js';
import { refundsDuePage } from './refunds-due.js';
import { CONSOLE_ROOT } from './url.js';

export type { ConsolePage } from './context.js';

/** The pages, in the order of their links (after the built-in lists). */
export const PAGES: readonly ConsolePage[] = [
  refundsDuePage,
  // Its charts (uPlot) load with the page, not with the console.
  { path: 'analytics', title: 'a.title', show: async (ctx, root) => (await import('./analytics-page.js')).showAnalytics(ctx, root) },
];

/** The page at an address, or null. */
export function pageAt(pathname: string): ConsolePage | null {
  const rest = pathname.replace(/\/+$/, '').slice(CONSOLE_ROOT.length).replace(/^\//, '');
  return PAGES.find((p) => p.path === rest) ?? null;
}

export const pagePath = (page: ConsolePage) => `${CONSOLE_ROOT}/${page.path}`;
