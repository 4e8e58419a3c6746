/**
 * Checks of the `<paydesk-checkout>` message tables against the English one: every key, no extra key,
 * the same `{placeholders}`, the plural forms `Intl.PluralRules` asks for, nothing left in English
 * (or copied from Russian), the right alphabet, and the lazy loader serving each table whole.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import en from '../../../src/element/i18n/en.js';
import ru from '../../../src/element/i18n/ru.js';
import kk from '../../../src/element/i18n/kk.js';
import uz from '../../../src/element/i18n/uz.js';
import hy from '../../../src/element/i18n/hy.js';
import az from '../../../src/element/i18n/az.js';
import ky from '../../../src/element/i18n/ky.js';
import be from '../../../src/element/i18n/be.js';
import uk from '../../../src/element/i18n/uk.js';
import tg from '../../../src/element/i18n/tg.js';
import { LANGUAGES, messagesFor } from '../../../src/element/i18n/index.js';
import { LAZY, loadLanguage } from '../../../src/element/i18n/load.js';
import { plural } from '../../../src/element/i18n/plural.js';
import type { Messages } from '../../../src/element/i18n/types.js';

/** The languages loaded on demand (`LAZY` in `load.ts`). */
const LAZY_TABLES: Readonly<Record<string, Messages>> = { kk, uz, hy, az, ky, be, uk, tg };
/** Every table checked against English: the lazy ones and the bundled Russian one. */
const ALL_TABLES: Readonly<Record<string, Messages>> = { ...LAZY_TABLES, ru };

/**
 * Strings that may equal the English ones because they are the same word in that language
 * (brand names and "QR" never stand alone in a table, so only these remain).
 */
const SHARED_WITH_ENGLISH: Readonly<Record<string, readonly string[]>> = {
  uz: ['bankLabel'], // "Bank"
  az: ['bankLabel'], // "Bank"
};

/** Strings that may equal the Russian ones because the word is the same in that language. */
const SHARED_WITH_RUSSIAN: Readonly<Record<string, readonly string[]>> = {
  kk: ['bankLabel'], // "Банк"
  ky: ['bankLabel'],
  be: ['bankLabel'],
  uk: ['bankLabel', 'region'], // "Банк", "Оплата"
};

type Script = 'Cyrillic' | 'Latin' | 'Armenian';
const SCRIPT: Readonly<Record<string, Script>> = {
  kk: 'Cyrillic',
  ky: 'Cyrillic',
  be: 'Cyrillic',
  uk: 'Cyrillic',
  tg: 'Cyrillic',
  ru: 'Cyrillic',
  uz: 'Latin',
  az: 'Latin',
  hy: 'Armenian',
};
const SCRIPT_RE: Readonly<Record<Script, RegExp>> = {
  Cyrillic: /\p{Script=Cyrillic}/u,
  Latin: /\p{Script=Latin}/u,
  Armenian: /\p{Script=Armenian}/u,
};
/** Letters outside the language's script that belong to its orthography (Uzbek oʻ, gʻ and the tutuq belgisi). */
const EXTRA_LETTERS: Readonly<Record<string, string>> = { uz: '\u02bb\u02bc' };
/** Latin tokens allowed in any script: the QR code, the SBP abbreviation and the names of file formats. */
const LATIN_TOKENS = /QR|SBP|JPEG|PNG|WebP|HEIC|PDF/g;

/**
 * Letters (or spellings) of a neighbouring language that must not appear: they mean a word was
 * taken from the wrong alphabet (Russian ы in Ukrainian, Kazakh қ in Kyrgyz, an ASCII apostrophe
 * for Uzbek oʻ, …).
 */
const FOREIGN: Readonly<Record<string, RegExp>> = {
  uk: /[ыэъёў]/iu,
  be: /[ищъїєґ]/iu,
  kk: /[ӣӯҳҷў]/iu,
  ky: /[әғқұіһӣӯҳҷ]/iu,
  tg: /[әөүұңіһщцыь]/iu,
  uz: /[og]['‘’`]/iu,
  az: /[wäñ]/iu,
};

const PLACEHOLDER = /\{(\w+)\}/g;

function placeholders(s: string): string[] {
  return [...new Set([...s.matchAll(PLACEHOLDER)].map((m) => m[1]!))].sort();
}

function pluralCategories(lang: string): string[] {
  return [...new Intl.PluralRules(lang).resolvedOptions().pluralCategories].sort();
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Every string of a table with its path (`errors.network`, `minutesLeft.few`). */
function strings(table: unknown, prefix = ''): [string, string][] {
  if (typeof table === 'string') return [[prefix, table]];
  if (!isRecord(table)) return [];
  return Object.entries(table).flatMap(([k, v]) => strings(v, prefix ? `${prefix}.${k}` : k));
}

/** Problems of one string against the English string(s) it translates; none means fine. */
function stringProblems(path: string, value: unknown, english: readonly string[], shared: boolean): string[] {
  if (typeof value !== 'string') return [`${path}: not a string`];
  if (value.trim() === '') return [`${path}: empty`];
  const out: string[] = [];
  if (value !== value.trim()) out.push(`${path}: leading or trailing whitespace`);
  const want = placeholders(english[0]!);
  const got = placeholders(value);
  for (const name of want) if (!got.includes(name)) out.push(`${path}: placeholder {${name}} missing`);
  for (const name of got) if (!want.includes(name)) out.push(`${path}: unknown placeholder {${name}}`);
  if (/[{}]/.test(value.replace(PLACEHOLDER, ''))) out.push(`${path}: stray brace`);
  if (!shared && english.includes(value)) out.push(`${path}: identical to English`);
  return out;
}

/**
 * Everything wrong with a table, compared with English: missing, empty or extra keys (deep), placeholders,
 * plural forms other than the language's categories, and strings left in English.
 */
function tableProblems(lang: string, table: unknown, sharedWithEnglish: readonly string[] = []): string[] {
  if (!isRecord(table)) return ['table: not an object'];
  const out: string[] = [];
  const reference = en as unknown as Record<string, unknown>;
  for (const key of Object.keys(table)) if (!(key in reference)) out.push(`${key}: extra key`);
  for (const [key, english] of Object.entries(reference)) {
    const value = table[key];
    if (value === undefined) {
      out.push(`${key}: missing`);
    } else if (typeof english === 'string') {
      out.push(...stringProblems(key, value, [english], sharedWithEnglish.includes(key)));
    } else if (key === 'errors') {
      const englishErrors = english as Record<string, string>;
      if (!isRecord(value)) {
        out.push('errors: not an object');
        continue;
      }
      for (const code of Object.keys(value)) if (!(code in englishErrors)) out.push(`errors.${code}: extra key`);
      for (const [code, sentence] of Object.entries(englishErrors)) {
        const path = `errors.${code}`;
        if (value[code] === undefined) out.push(`${path}: missing`);
        else out.push(...stringProblems(path, value[code], [sentence], sharedWithEnglish.includes(path)));
      }
    } else {
      // A plural: its forms are the language's categories, each with the English placeholders.
      const englishForms = Object.values(english as Record<string, string>);
      if (!isRecord(value)) {
        out.push(`${key}: not a plural object`);
        continue;
      }
      const want = pluralCategories(lang);
      const got = Object.keys(value).sort();
      if (got.join() !== want.join()) out.push(`${key}: plural forms [${got.join(', ')}], ${lang} needs [${want.join(', ')}]`);
      for (const [form, text] of Object.entries(value)) {
        out.push(...stringProblems(`${key}.${form}`, text, englishForms, sharedWithEnglish.includes(key)));
      }
    }
  }
  return out;
}

/** Letters of a string outside the language's script (placeholders, QR and SBP aside). */
function foreignScriptLetters(lang: string, text: string): string[] {
  const script = SCRIPT_RE[SCRIPT[lang]!];
  const extra = EXTRA_LETTERS[lang] ?? '';
  const letters = text.replace(PLACEHOLDER, '').replace(LATIN_TOKENS, '').match(/\p{L}/gu) ?? [];
  return letters.filter((ch) => !script.test(ch) && !extra.includes(ch));
}

function clone(table: Messages): Record<string, unknown> {
  return structuredClone(table) as unknown as Record<string, unknown>;
}

describe('tableProblems (the checker itself)', () => {
  const cases: [string, (t: Record<string, unknown>) => void, RegExp][] = [
    ['a missing key', (t) => delete t.copy, /^copy: missing$/],
    ['a missing error sentence', (t) => delete (t.errors as Record<string, unknown>).timeout, /^errors\.timeout: missing$/],
    ['an extra key', (t) => (t.colour = 'Колір'), /^colour: extra key$/],
    ['an extra error code', (t) => ((t.errors as Record<string, unknown>).teapot = 'Чайник'), /^errors\.teapot: extra key$/],
    ['an empty string', (t) => (t.retry = '  '), /^retry: empty$/],
    ['a missing placeholder', (t) => (t.amountChanged = 'Надішліть рівно {amount}.'), /^amountChanged: placeholder \{requested\} missing$/],
    ['an unknown placeholder', (t) => (t.paidText = 'Отримано {sum}.'), /^paidText: unknown placeholder \{sum\}$/],
    ['a stray brace', (t) => (t.total = 'До сплати {total'), /^total: /],
    ['a missing plural form', (t) => delete (t.minutesLeft as Record<string, unknown>).few, /^minutesLeft: plural forms \[many, one, other\], uk needs \[few, many, one, other\]$/],
    ['an extra plural form', (t) => ((t.redirectIn as Record<string, unknown>).two = '{n} секунди'), /^redirectIn: plural forms/],
    ['a plural form without {n}', (t) => ((t.minutesLeft as Record<string, unknown>).one = 'Одна хвилина'), /^minutesLeft\.one: placeholder \{n\} missing$/],
    ['a string left in English', (t) => (t.copy = 'Copy'), /^copy: identical to English$/],
    ['an error sentence left in English', (t) => ((t.errors as Record<string, unknown>).network = en.errors.network), /^errors\.network: identical to English$/],
  ];
  for (const [name, mutate, expected] of cases) {
    test(`reports ${name}`, () => {
      const table = clone(uk);
      mutate(table);
      const problems = tableProblems('uk', table);
      assert.ok(problems.some((p) => expected.test(p)), `expected ${expected} among ${JSON.stringify(problems)}`);
    });
  }

  test('accepts a string shared with English only when it is listed', () => {
    const table = clone(az);
    assert.deepEqual(tableProblems('az', table, ['bankLabel']), []);
    assert.deepEqual(tableProblems('az', table), ['bankLabel: identical to English']);
  });
});

describe('the lazy loader', () => {
  test('offers English, Russian and the eight languages checked here', () => {
    assert.deepEqual(Object.keys(LAZY).sort(), ['en', 'ru', ...Object.keys(LAZY_TABLES)].sort());
    assert.deepEqual(Object.keys(LAZY).sort(), [...LANGUAGES].sort(), 'a loader for every language index.ts resolves to, and no other');
  });
});

for (const [lang, table] of Object.entries(ALL_TABLES)) {
  describe(`${lang} table`, () => {
    test('has every English key (deep), no extra key, matching placeholders and plural forms, nothing left in English', () => {
      assert.deepEqual(tableProblems(lang, table, SHARED_WITH_ENGLISH[lang]), []);
    });

    test(`has exactly the plural forms Intl.PluralRules('${lang}') selects`, () => {
      const want = pluralCategories(lang);
      assert.deepEqual(Object.keys(table.minutesLeft).sort(), want);
      assert.deepEqual(Object.keys(table.redirectIn).sort(), want);
    });

    test(`is written in the ${SCRIPT[lang]} script`, () => {
      const wrong = strings(table).flatMap(([path, text]) =>
        foreignScriptLetters(lang, text).length ? [`${path}: ${text}`] : [],
      );
      assert.deepEqual(wrong, []);
    });

    const foreign = FOREIGN[lang];
    if (foreign) {
      test('uses no letter or spelling of a neighbouring alphabet', () => {
        const wrong = strings(table).flatMap(([path, text]) =>
          foreign.test(text.replace(PLACEHOLDER, '').replace(LATIN_TOKENS, '')) ? [`${path}: ${text}`] : [],
        );
        assert.deepEqual(wrong, []);
      });
    }

    if (lang !== 'ru' && SCRIPT[lang] === 'Cyrillic') {
      test('copies no Russian string except the listed shared words', () => {
        const russian = new Map(strings(ru));
        const allowed = SHARED_WITH_RUSSIAN[lang] ?? [];
        const copied = strings(table)
          .filter(([path, text]) => russian.get(path) === text && !allowed.includes(path))
          .map(([path]) => path);
        assert.deepEqual(copied, []);
      });
    }

    if (lang in LAZY_TABLES) {
      test('loads through the lazy loader and replaces every English string', async () => {
        await loadLanguage(lang);
        assert.deepEqual(messagesFor(lang), table);
        assert.deepEqual(messagesFor(`${lang}-XX`), table);
      });
    }
  });
}

describe('plural forms pick the right word', () => {
  const cases: [string, Messages['minutesLeft'], number, string][] = [
    ['uk', uk.minutesLeft, 1, 'На оплату залишилася 1 хвилина'],
    ['uk', uk.minutesLeft, 3, 'На оплату залишилося 3 хвилини'],
    ['uk', uk.minutesLeft, 5, 'На оплату залишилося 5 хвилин'],
    ['uk', uk.minutesLeft, 11, 'На оплату залишилося 11 хвилин'],
    ['uk', uk.minutesLeft, 21, 'На оплату залишилася 21 хвилина'],
    ['uk', uk.redirectIn, 2, 'Повертаємося до магазину через 2 секунди'],
    ['be', be.minutesLeft, 1, 'На аплату засталася 1 хвіліна'],
    ['be', be.minutesLeft, 4, 'На аплату засталося 4 хвіліны'],
    ['be', be.minutesLeft, 12, 'На аплату засталося 12 хвілін'],
    ['be', be.redirectIn, 31, 'Вяртаемся ў краму праз 31 секунду'],
    ['kk', kk.minutesLeft, 5, 'Төлеуге 5 минут қалды'],
    ['ky', ky.redirectIn, 1, '1 секунддан кийин дүкөнгө кайтабыз'],
    ['uz', uz.minutesLeft, 2, 'Toʻlov uchun 2 daqiqa qoldi'],
    ['az', az.redirectIn, 10, '10 saniyədən sonra mağazaya qayıdırıq'],
    ['hy', hy.minutesLeft, 1, 'Վճարման համար մնացել է 1 րոպե'],
    ['tg', tg.minutesLeft, 3, 'Барои пардохт 3 дақиқа монд'],
  ];
  for (const [lang, forms, n, expected] of cases) {
    test(`${lang}, ${n}: ${expected}`, () => {
      assert.equal(plural(lang, forms, n), expected);
    });
  }
});
