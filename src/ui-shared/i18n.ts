/**
 * Languages, themes and texts of the console's pages and the demo's. Each page has a typed table per language (English
 * is the source of the keys; the Russian table must have every key, or the type check fails), and
 * elements of the HTML carry `data-i18n="key"` (text) or `data-i18n-aria="key"` (aria-label).
 */
export const LANGS = ['en', 'ru'] as const;
export type Lang = (typeof LANGS)[number];
export const THEMES = ['light', 'dark'] as const;
export type Theme = (typeof THEMES)[number];

/** Values put into `{name}` placeholders. */
export type Values = Readonly<Record<string, string | number>>;

export interface Texts<K extends string> {
  /** The text of `key` in the current language, placeholders filled. */
  (key: K, values?: Values): string;
  readonly lang: Lang;
  /** True when `key` names a text of this table (for keys read from HTML). */
  has(key: string): key is K;
}

export type Tables<K extends string> = { readonly [L in Lang]: Readonly<Record<K, string>> };

export function texts<K extends string>(tables: Tables<K>, lang: Lang): Texts<K> {
  const table = tables[lang];
  const t = (key: K, values: Values = {}) => fill(table[key] ?? tables.en[key] ?? key, values);
  return Object.assign(t, { lang, has: (key: string): key is K => Object.hasOwn(tables.en, key) });
}

function fill(text: string, values: Values): string {
  return text.replace(/\{(\w+)\}/g, (m, name: string) => (Object.hasOwn(values, name) ? String(values[name]) : m));
}

/** Fills every `[data-i18n]` and `[data-i18n-aria]` below `root` and sets the page language. */
export function applyTexts<K extends string>(t: Texts<K>, root: ParentNode = document): void {
  for (const node of root.querySelectorAll<HTMLElement>('[data-i18n]')) {
    const key = node.dataset.i18n ?? '';
    if (t.has(key)) node.textContent = t(key);
  }
  for (const node of root.querySelectorAll<HTMLElement>('[data-i18n-aria]')) {
    const key = node.dataset.i18nAria ?? '';
    if (t.has(key)) node.setAttribute('aria-label', t(key));
  }
  document.documentElement.lang = t.lang;
}

const STORAGE_PREFIX = 'obzharka:';

function saved(name: 'lang' | 'theme'): string | null {
  try {
    return localStorage.getItem(`${STORAGE_PREFIX}${name}`);
  } catch {
    return null; // storage may be unavailable
  }
}

export function remember(name: 'lang' | 'theme', value: string): void {
  try {
    localStorage.setItem(`${STORAGE_PREFIX}${name}`, value);
  } catch {
    // storage may be unavailable
  }
}

const isLang = (v: unknown): v is Lang => LANGS.includes(v as Lang);
const isTheme = (v: unknown): v is Theme => THEMES.includes(v as Theme);

/** The page language: `?lang=`, then the saved choice, then the browser's. */
export function initialLang(): Lang {
  const fromUrl = new URLSearchParams(location.search).get('lang');
  if (isLang(fromUrl)) return fromUrl;
  const stored = saved('lang');
  if (isLang(stored)) return stored;
  return navigator.language?.toLowerCase().startsWith('ru') ? 'ru' : 'en';
}

/** The page theme: `?theme=`, then the saved choice, then the system's. */
export function initialTheme(): Theme {
  const fromUrl = new URLSearchParams(location.search).get('theme');
  if (isTheme(fromUrl)) return fromUrl;
  const stored = saved('theme');
  if (isTheme(stored)) return stored;
  return matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}

export function setTheme(theme: Theme): void {
  document.documentElement.dataset.theme = theme;
}

/**
 * The header's language and theme switches (radio groups `lang` and `theme`): checked as the page
 * starts, remembered when changed, and reported to the page.
 */
export function bindPreferences(current: { lang: Lang; theme: Theme }, on: { lang(lang: Lang): void; theme(theme: Theme): void }): void {
  for (const input of document.querySelectorAll<HTMLInputElement>('input[name="lang"], input[name="theme"]')) {
    input.checked = input.value === current[input.name as 'lang' | 'theme'];
    input.addEventListener('change', () => {
      if (!input.checked) return;
      if (input.name === 'lang' && isLang(input.value)) {
        remember('lang', input.value);
        on.lang(input.value);
      } else if (input.name === 'theme' && isTheme(input.value)) {
        remember('theme', input.value);
        setTheme(input.value);
        on.theme(input.value);
      }
    });
  }
}
