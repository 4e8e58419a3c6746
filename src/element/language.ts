/**
 * The element's language (the steps controller calls `refresh()` before each render): which language the shopper reads (`locale`, else
 * the nearest `lang`, else the browser's), loading its tables on demand, and holding the text while
 * they arrive so a shopper never sees English flash before their language: at most
 * {@link LANGUAGE_WAIT_MS}. Past that, English stands in where it is at hand (the CDN files carry it);
 * otherwise the steps that need only the offline messages (idle, loading, error) show them, the
 * others a spinner until the text is there, or the network error with "try again" when it cannot be
 * loaded.
 */
import type { LanguageHost } from './hosts.js';
import type { MessageOverrides } from './i18n/index.js';
import { messagesFor, missingTables, nearestLang, resolveLanguage, type Messages } from './i18n/index.js';
import { loadLanguage } from './i18n/load.js';

/** How long the text waits for the shopper's language table before showing the fallback. */
export const LANGUAGE_WAIT_MS = 3000;

export class LanguageController {
  /** The language asked for (`locale`, else the nearest `lang`, else the browser's). */
  tag = 'en';
  /** The tag used with `Intl` (the asked one when its table is there, else the table's language). */
  lang = 'en';
  /** The merged messages. */
  m: Messages = messagesFor('en');
  /** The language whose table is on its way while the text waits for it, or ''. */
  hold = '';
  private readonly asked = new Set<string>();
  private readonly failed = new Set<string>();
  /** Counts tables that arrived, so the messages are merged again. */
  private tick = 0;
  private key?: string;
  private overrides?: MessageOverrides | null;

  constructor(private readonly host: LanguageHost) {}

  /** Before each render (the host calls it first): the language of now, its tables asked for, the messages merged. */
  refresh(): void {
    const h = this.host.el;
    const tag = (this.tag = h.locale || nearestLang(h) || navigator.language || 'en');
    const table = resolveLanguage(tag);
    this.lang = tag.toLowerCase().startsWith(table) ? tag : table;
    this.load(tag);
    const key = `${tag}|${this.tick}`;
    if (key !== this.key || h.messages !== this.overrides) {
      this.key = key;
      this.overrides = h.messages;
      this.m = messagesFor(tag, h.messages);
    }
  }

  /** True when the steps can speak: the language's tables are at hand, or (after the wait) complete English. */
  get ready(): boolean {
    return missingTables(this.tag).length === 0 || (this.hold !== this.tag && missingTables('en').length === 0);
  }

  /** The table of the language could not be loaded (and English does not stand in). */
  get broken(): boolean {
    return !this.ready && this.failed.has(this.tag);
  }

  /** Asks for the language's tables again ("try again"). */
  retry(): void {
    this.failed.delete(this.tag);
    this.asked.delete(this.tag);
  }

  private load(tag: string): void {
    if (this.asked.has(tag) || missingTables(tag).length === 0) return;
    this.asked.add(tag);
    this.hold = tag;
    const { clock } = this.host.env$;
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = () => {
        clock.clearTimeout(timer);
        if (this.hold === tag) this.hold = '';
        this.tick++;
        this.host.el.requestUpdate();
        resolve();
      };
    });
    const timer = clock.setTimeout(release, LANGUAGE_WAIT_MS);
    void loadLanguage(tag).then(() => {
      if (missingTables(tag).length > 0) this.failed.add(tag);
      release();
    });
    this.host.wait(released);
  }
}
