/**
 * The console's pages beyond its built-in views (the lists, an order, the payout form): each has an
 * address under the console, a link in the section navigation and a function that draws it. Adding a
 * page is one line in {@link PAGES} (and its import): main.ts makes its link, its address and its title.
 */
import type { ConsoleContext } from './context.js';
import type { ConsoleKey } from './texts.js';
import { CONSOLE_ROOT } from './url.js';

export interface ConsolePage {
  /** Its address under the console: `refunds` is `{basePath}/refunds`. */
  path: string;
  /** The text of its link and its title. */
  title: ConsoleKey;
  /** Draws the page into `root` (emptied first): on every visit, a change of language and Refresh. */
  show(ctx: ConsoleContext, root: HTMLElement): void | Promise<void>;
}

/** The pages, in the order of their links (after the built-in lists). */
export const PAGES: readonly ConsolePage[] = [
  // Its charts (uPlot) load with the page, not with the console.
  { path: 'analytics', title: 'a.title', show: async (ctx, root) => (await import('./analytics-page.js')).showAnalytics(ctx, root) },
];

/** The page at an address, or null. */
export function pageAt(pathname: string): ConsolePage | null {
  const rest = pathname.replace(/\/+$/, '').slice(CONSOLE_ROOT.length).replace(/^\//, '');
  return PAGES.find((p) => p.path === rest) ?? null;
}

export const pagePath = (page: ConsolePage) => `${CONSOLE_ROOT}/${page.path}`;
