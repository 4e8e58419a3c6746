/** What the console's views share: language, texts, the server's facts, and the page's services. */
import type { BalanceView } from '../contract.js';
import type { Lang, Texts } from '../../ui-shared/i18n.js';
import type { ConsoleKey } from './texts.js';

/** `GET /console/api/meta`. */
export interface Meta {
  order_statuses: string[];
  form_session_states: string[];
  method_types: string[];
  transaction_types: string[];
  /** Results a webhook can have in the log. */
  webhook_outcomes: string[];
  /** The shop's token endpoints (mount paths), the console's own terminal first. */
  endpoints: string[];
  /** False with a real provider: dispute receipts are not available. */
  receipts: boolean;
  /** True when the demo runs against the sandbox (payouts can be completed from the console). */
  sandbox: boolean;
}

export interface ConsoleContext {
  readonly lang: Lang;
  readonly t: Texts<ConsoleKey>;
  readonly meta: Meta;
  /** The last balance read, or null. */
  readonly balance: BalanceView | null;
  /** Money in the page's language (`currency` defaults to the terminal's). */
  money(amount: string | number | null | undefined, currency?: string): string;
  /** Reads the balance again (after a payout). */
  refreshBalance(): Promise<void>;
  /** Goes to a console address (pushState unless `replace`), keeping the page settings. */
  navigate(path: string, filters?: URLSearchParams, options?: { replace?: boolean }): void;
  /** The login ended: back to the login form. */
  loggedOut(): void;
  /** A short message at the bottom of the page. */
  toast(message: string, kind?: 'info' | 'error'): void;
  /** The sentence for an API error in the page's language. */
  errorText(err: unknown): string;
}

/** A console page beyond the built-in views (pages.ts lists them). */
export interface ConsolePage {
  /** Its address under the console: `refunds` is `{basePath}/refunds`. */
  path: string;
  /** The text of its link and its title. */
  title: ConsoleKey;
  /** Draws the page into `root` (emptied first): on every visit, a change of language and Refresh. */
  show(ctx: ConsoleContext, root: HTMLElement): void | Promise<void>;
}
