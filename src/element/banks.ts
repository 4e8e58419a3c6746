/**
 * The bank sheet ("Pay in bank app" on a phone, "Pay in your online bank" on a desktop), as a reactive
 * controller and its template: a modal `<dialog>` (focus kept inside, Escape closes, the focus goes
 * back to the button that opened it) listing the banks, the last one used first, then the most used,
 * then the rest; a search by Russian or Latin name, the bank named first; monograms, no third-party
 * logos. Every SBP bank is there (the table, loaded only now: bank-table.ts): for an SBP link each opens
 * the payment; for a transfer by phone, card or account number each opens the shopper's own bank app,
 * with the details filled in where a link template is known (marked), else empty (the sheet says so).
 *
 * On iOS a bank's scheme may open nothing (the app is not installed): if the page is still in front
 * after {@link FALLBACK_MS}, the https payment link opens instead. Android's intent URLs carry their
 * own fallback.
 */
import { css, html, nothing, svg, type ReactiveController, type TemplateResult } from 'lit';
import { bankByButtonName, bankByMemberId } from '../provider/facts.js';
import { emit } from './events.js';
import { findBanks, normalise, parseBanks, type SbpBank } from '../banks/names.js';
import { bankLinks, memberIdOf, type BankLink } from './bank-links.js';
import type { SheetHost } from './hosts.js';
import { fill } from './i18n/text.js';
import { safeIntl } from './i18n/intl.js';
import { center, spinner } from './parts.js';
import { platformOf } from './platform.js';
import { nameIn, viewStyles } from './views.js';
import { paymentLinkOf } from './requisites.js';

/** How long an iOS bank scheme gets to take the shopper away before the https link is opened. */
export const FALLBACK_MS = 1500;
/** Where the last bank used is kept (its member id). */
export const LAST_BANK_KEY = 'paydesk:bank';
/** Above this many banks the sheet offers a search. */
const SEARCH_FROM = 8;

export const styles = [viewStyles, css`
.sheet{box-sizing:border-box;width:100%;max-width:480px;max-height:88vh;max-height:min(88dvh,calc(var(--_vvh,100dvh) - 8px));margin:auto auto 0;bottom:var(--_kb,0px);padding:0;border:0;border-radius:16px 16px 0 0;background:var(--_f);color:var(--_t);box-shadow:0 -8px 32px #0003}
.sheet[open]{display:grid;grid-template-rows:auto auto minmax(0,1fr) auto}
.sheet::backdrop{background:#0009}
@media (min-width:600px){.sheet{margin:auto;border-radius:var(--_r)}}
.sheet-top{display:flex;align-items:center;justify-content:space-between;gap:var(--_s);padding:calc(var(--_s)*2) calc(var(--_s)*2) var(--_s)}
.sheet-top h3{font-size:18px}
.x{min-width:44px;padding:0}
.search{display:grid;gap:4px;padding:0 calc(var(--_s)*2) var(--_s);font-size:13px;color:var(--_m)}
.search .search{padding:0}
.search p{margin:0 0 4px;color:var(--_t)}
.search input{min-height:44px;padding:8px 12px;border:var(--_b);border-radius:calc(var(--_r) - 4px);background:var(--_f);color:var(--_t);font:inherit;font-size:16px}
.list{overflow-y:auto;padding:0 calc(var(--_s)*2);gap:2px}
.list li{display:flex;align-items:center;gap:var(--_s)}
.bank{flex:1;display:flex;align-items:center;gap:12px;min-height:52px;min-width:0;padding:6px 8px;border-radius:10px;color:var(--_t);font-weight:500;text-decoration:none}
.bank:hover{background:var(--_u)}
.bank span{overflow-wrap:anywhere;min-width:0}
.mono{display:grid;place-items:center;flex:none;width:36px;height:36px;border-radius:50%;color:#fff;font-weight:700}
.c0{background:#2b55c9}.c1{background:#15703f}.c2{background:#8a3ab9}.c3{background:#b3261e}.c4{background:#00677f}.c5{background:#6d4c00}
.tag{margin-inline-start:auto;font-size:12px;color:var(--_m)}
.tag+.tag{margin-inline-start:8px}
.web{flex:none;font-size:13px}
.foot{padding:var(--_s) calc(var(--_s)*2) calc(var(--_s)*2)}
`];

const close = html`<svg viewBox="0 0 24 24" aria-hidden="true">${svg`<path d="M6 6l12 12M18 6L6 18"/>`}</svg>`;

/** The first letter of a bank's name, its legal prefixes aside (АКБ, КБ, Банк…). */
export function monogram(name: string): string {
  const bare = name.replace(/^(?:(?:АКБ|КБ|АБ|АИКБ|УКБ|ИКБР|НКО|ПНКО|СКБ|КБЭР|AKB|KB|AB|AIKB|UKB|IKBR|NKO|PNKO|SKB|KBER|Bank|Банк|БАНК|банк)\s+)+/u, '');
  return ([...bare].find((ch) => /\p{L}|\p{N}/u.test(ch)) ?? '•').toUpperCase();
}

const colour = (id: string) => `c${[...id].reduce((n, d) => n + Number(d), 0) % 6}`;

export class BankSheetController implements ReactiveController {
  isOpen = false;
  private query = '';
  private table: { banks: SbpBank[]; snapshot: string } | null = null;
  private failed = false;
  private opener: HTMLElement | null = null;
  private timer: unknown = null;
  private focused = false;

  constructor(private readonly host: SheetHost) {
    host.el.addController(this);
  }

  hostConnected(): void {}

  hostDisconnected(): void {
    this.cancelFallback();
    this.follow(false);
  }

  /**
   * While the sheet is open, it keeps to the visual viewport: an on-screen keyboard (the search) or
   * Safari's toolbars cover the bottom of the layout viewport, where the sheet sits, without resizing
   * it (iOS; Chrome on Android by default). The part covered lifts the sheet (`--_kb`) and the visible
   * height caps it (`--_vvh`), so the search field and the list stay in sight above the keyboard.
   */
  private readonly fit = (): void => {
    const vv = globalThis.visualViewport;
    const dialog = this.dialog;
    if (!vv || !dialog) return;
    const layout = globalThis.document.documentElement.clientHeight;
    dialog.style.setProperty('--_kb', `${Math.max(0, Math.round(layout - vv.offsetTop - vv.height))}px`);
    dialog.style.setProperty('--_vvh', `${Math.round(vv.height)}px`);
  };

  private following = false;

  private follow(on: boolean): void {
    const vv = globalThis.visualViewport;
    if (!vv || on === this.following) return;
    this.following = on;
    for (const type of ['resize', 'scroll']) vv[on ? 'addEventListener' : 'removeEventListener'](type, this.fit);
  }

  /**
   * After each render: show the dialog as a modal once it is in the DOM; put the focus on the search
   * (or the first bank) once the list is there (the close button has it while the table loads).
   */
  hostUpdated(): void {
    const dialog = this.dialog;
    if (!this.isOpen || !dialog) return;
    if (!dialog.open) dialog.showModal();
    this.follow(true);
    this.fit();
    if (this.focused) return;
    const target = dialog.querySelector<HTMLElement>('input') ?? dialog.querySelector<HTMLElement>('.bank');
    if (target) {
      this.focused = true;
      target.focus();
    }
  }

  private get dialog(): HTMLDialogElement | null {
    return this.host.el.renderRoot.querySelector('dialog');
  }

  /** Opens the sheet (loading the bank table for an SBP link). */
  open(opener: HTMLElement | null): void {
    this.opener = opener;
    this.isOpen = true;
    this.focused = false;
    this.query = '';
    this.lastId = this.readLast();
    if (!this.table) this.load();
    this.host.el.requestUpdate();
  }

  close(): void {
    const dialog = this.dialog;
    if (dialog?.open) dialog.close();
    this.closed();
  }

  private load(): void {
    this.failed = false;
    this.host.wait(
      import('../banks/bank-table.js').then(
        (t) => void (this.table = { banks: parseBanks(t.BANKS, t.POPULAR_COUNT), snapshot: t.SNAPSHOT }),
        () => void (this.failed = true),
      ).then(() => this.host.el.requestUpdate()),
    );
  }

  /**
   * The dialog's `close` event (Escape, or `close()`): queued, so it may arrive after the sheet was
   * opened again (on this dialog, or on a new one rendered meanwhile); then it is ignored.
   */
  private readonly onClose = (e: Event): void => {
    const dialog = e.target as HTMLDialogElement;
    if (!dialog.open && dialog === this.dialog) this.closed();
  };

  /**
   * Escape closes the sheet from anywhere in it: WebKit (2.50) sends a modal dialog no `cancel` when
   * the focus is in its search field, so the dialog's own Escape never comes there. Tab from the
   * sheet's last control goes to its first, Shift+Tab from the first to the last: the focus never
   * leaves an open sheet for the page's body or the browser's toolbar (a modal dialog alone lets it,
   * and WebKit then loses it).
   */
  private readonly onKey = (e: KeyboardEvent): void => {
    if (e.key === 'Escape' && !e.defaultPrevented) {
      e.preventDefault();
      this.close();
      return;
    }
    if (e.key !== 'Tab' || e.altKey || e.ctrlKey || e.metaKey) return;
    const dialog = e.currentTarget as HTMLDialogElement;
    const all = [...dialog.querySelectorAll<HTMLElement>('button:not([disabled]),input:not([disabled]),a[href]')];
    const active = (this.host.el.renderRoot as ShadowRoot).activeElement;
    const to = e.shiftKey ? (active === all[0] || !active ? all.at(-1) : null) : active === all.at(-1) || !active ? all[0] : null;
    if (!to) return;
    e.preventDefault();
    to.focus();
  };

  private readonly closed = (): void => {
    if (!this.isOpen) return;
    this.isOpen = false;
    this.follow(false);
    this.host.el.requestUpdate();
    this.opener?.focus();
  };

  /** The member id of the last bank used here (read from storage when the sheet opens). */
  private lastId: string | null = null;
  /** The entries and the snapshot's date, kept between renders (the countdown renders every second). */
  private memo: { deps: readonly unknown[]; entries: (BankLink & { search: string })[]; date: string } | null = null;

  private readLast(): string | null {
    try {
      const id = this.host.env$.storage?.getItem(LAST_BANK_KEY);
      return id && /^\d{12}$/.test(id) ? id : null;
    } catch {
      return null;
    }
  }

  private remember(id: string): void {
    this.lastId = id;
    try {
      this.host.env$.storage?.setItem(LAST_BANK_KEY, id);
    } catch {
      // Remembering is a convenience.
    }
  }

  /** The sheet's entries and the table's date, computed again only when what they come from changed. */
  private memoised(): { entries: (BankLink & { search: string })[]; date: string } {
    const h = this.host;
    const deps = [h.machine.order, this.table, platformOf(h.env$), h.el.bank, h.el.buttonName, this.lastId, h.language];
    if (!this.memo || deps.some((d, i) => d !== this.memo!.deps[i])) {
      const table = this.table;
      const date = table
        ? safeIntl(
            () => new Intl.DateTimeFormat(h.language, { dateStyle: 'long', timeZone: 'UTC' }),
            () => new Intl.DateTimeFormat('en', { dateStyle: 'long', timeZone: 'UTC' }),
          ).format(Date.parse(table.snapshot))
        : '';
      this.memo = { deps, entries: this.entries(), date };
    }
    return this.memo;
  }

  /** The sheet's entries: the last bank used first, then the table's order (the most used first). */
  private entries(): (BankLink & { search: string })[] {
    const h = this.host;
    const order = h.machine.order;
    if (!order) return [];
    const only = paymentLinkOf(order) ? (memberIdOf(h.el.bank) ?? bankByButtonName(h.el.buttonName)?.memberId ?? null) : null;
    const links = bankLinks(order, platformOf(h.env$), this.table?.banks ?? [], only);
    const search = new Map((this.table?.banks ?? []).map((b) => [b.id, b.search]));
    const last = this.lastId;
    const out = links.map((l) => ({ ...l, search: search.get(l.id) ?? [l.name.ru, l.name.en].map(normalise).join(' ') }));
    const i = out.findIndex((l) => l.id === last);
    if (i > 0) out.unshift(...out.splice(i, 1));
    return out;
  }

  /** A bank opened from the sheet: the shop's analytics hear of it (`paydesk-bank-app`). */
  private opened(link: BankLink): void {
    const h = this.host;
    emit(h.el, 'paydesk-bank-app', { bank: { name: link.name.ru, nspk_code: `bank${bankByMemberId(link.id)?.memberId ?? link.id}` }, order: h.machine.order });
  }

  private go(e: Event, link: BankLink): void {
    const h = this.host;
    this.opened(link);
    this.remember(link.id);
    if (platformOf(h.env$) === 'desktop') return; // a web client, in a new tab (the link's own target)
    e.preventDefault();
    this.cancelFallback();
    h.env$.navigate(link.href);
    if (link.fallback) this.fallback(link.fallback);
    this.close();
  }

  /** iOS: opens `url` unless the page went to the background (the app opened) within {@link FALLBACK_MS}. */
  private fallback(url: string): void {
    const { clock, document: page = globalThis.document as EventTarget & { hidden: boolean }, window: win = globalThis.window } = this.host.env$;
    const away = () => this.cancelFallback();
    const listen = (on: boolean) => {
      page?.[on ? 'addEventListener' : 'removeEventListener']('visibilitychange', away);
      win?.[on ? 'addEventListener' : 'removeEventListener']('pagehide', away);
      win?.[on ? 'addEventListener' : 'removeEventListener']('blur', away);
    };
    listen(true);
    this.timer = clock.setTimeout(() => {
      this.timer = null;
      listen(false);
      if (!page?.hidden) this.host.env$.navigate(url);
    }, FALLBACK_MS);
    this.unlisten = () => listen(false);
  }

  private unlisten: () => void = () => {};

  private cancelFallback(): void {
    this.host.env$.clock.clearTimeout(this.timer);
    this.timer = null;
    this.unlisten();
    this.unlisten = () => {};
  }

  render(): TemplateResult | typeof nothing {
    if (!this.isOpen) return nothing;
    const h = this.host;
    const m = h.m;
    const order = h.machine.order;
    const sbp = !!order && !!paymentLinkOf(order);
    const loading = !this.table;
    const { entries, date } = this.memoised();
    const all = loading ? [] : entries;
    const shown = findBanks(all, this.query);
    const last = this.lastId;
    const desktop = platformOf(h.env$) === 'desktop';
    return html`<dialog part="sheet" class="sheet" aria-labelledby="sheet-title" @close=${this.onClose} @keydown=${this.onKey}><div class="sheet-top"><h3 id="sheet-title">${
      desktop ? m.payOnline : m.sheetTitle
    }</h3><button class="x" aria-label=${m.close} @click=${() => this.close()}>${close}</button></div><div class="search">${
      // A transfer: say plainly that most apps open without the details (no link fills them in).
      !sbp && all.some((b) => !b.filled) ? html`<p class="sheet-note">${m.appsNotFilled}</p>` : nothing
    }${
      all.length >= SEARCH_FROM
        ? html`<label class="search">${m.searchLabel}<input type="search" autocomplete="off" spellcheck="false" .value=${this.query} @input=${(e: Event) => {
            this.query = (e.target as HTMLInputElement).value;
            h.el.requestUpdate();
          }}></label>`
        : nothing
    }</div>${
      loading
        ? this.failed
          ? html`<p class="foot">${m.errors.network} <button @click=${() => this.load()}>${m.retry}</button></p>`
          : center(spinner)
        : html`<ul part="banks" class="list">${shown.map((b) => {
            const name = nameIn(h.language, b.name);
            return html`<li><a class="bank" href=${b.href} target=${desktop ? '_blank' : nothing} rel="noopener noreferrer" @click=${(e: Event) =>
              this.go(e, b)}><span class="mono ${colour(b.id)}" aria-hidden="true">${monogram(name)}</span><span>${name}</span>${
              b.id === last ? html`<span class="tag">${m.lastUsed}</span>` : nothing
            }${b.filled ? html`<span class="tag">${m.filledIn}</span>` : nothing}</a>${b.web ? html`<a class="web" href=${b.web} target="_blank" rel="noopener noreferrer" aria-label="${m.onlineBank}: ${name}" @click=${() => this.opened(b)}>${m.onlineBank}</a>` : nothing}</li>`;
          })}</ul>`
    }<div class="foot"><p class="muted" role="status">${!loading && shown.length === 0 ? m.noBanks : ''}</p>${
      date ? html`<p class="muted">${fill(m.listDate, { date })}</p>` : nothing
    }</div></dialog>`;
  }
}
