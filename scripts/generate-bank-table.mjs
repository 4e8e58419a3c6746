#!/usr/bin/env node
/**
 * Builds src/banks/bank-table.ts, the SBP bank table (`<paydesk-checkout>`'s bank sheet loads it on
 * demand; paydesk/provider names a recipient's bank by it: a low module both import), from
 * NSPK's member list as shared/data/sbp-banks.json keeps it (NSPK's c2bmembers.json normalised by
 * the public repository eav93/sbp, MIT).
 *
 *   node scripts/generate-bank-table.mjs [path/to/sbp-banks.json]     write the module
 *   node scripts/generate-bank-table.mjs --check [path]                exit 1 when the module is stale
 *
 * Default source: ../shared/data/sbp-banks.json beside the repository. The module keeps only what the
 * widget needs, one bank a line in one string (ids, names, scheme, Android package, web client), and
 * the snapshot's date, shown under the list so a stale table is noticed. Logos are left out on
 * purpose: NSPK's logo host is a third party (it would break a strict CSP and learn of the visit); the
 * sheet draws monograms instead.
 *
 * Order: the most used banks first (POPULAR, by how many people bank with them), then the others by
 * their Russian name, legal prefixes (АКБ, КБ, Банк…) aside. Names: NSPK's Russian name, a shorter one
 * for the well-known banks (CURATED), and a Latin one (curated, else transliterated) for shoppers who
 * read Latin or type it.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
export const OUTPUT = join(root, 'src', 'banks', 'bank-table.ts');
export const DEFAULT_SOURCE = resolve(root, '..', 'shared', 'data', 'sbp-banks.json');

/**
 * Well-known banks: a short Russian name, the Latin name they use, and other names people search by
 * (phrases separated by commas).
 * Keys are NSPK member ids as the list writes them (VTB's is 110000000005 there).
 */
export const CURATED = {
  100000000111: ['Сбербанк', 'Sber', 'сбер, sberbank, сбербанк онлайн, sberbank online'],
  100000000004: ['Т-Банк', 'T-Bank', 'тинькофф, tinkoff, тбанк, tbank, т банк, t bank'],
  110000000005: ['ВТБ', 'VTB', 'втб24, vtb24'],
  100000000008: ['Альфа-Банк', 'Alfa-Bank', 'альфа, alfa, alfabank, альфабанк'],
  100000000273: ['Озон Банк', 'Ozon Bank', 'озон, ozon'],
  100000000150: ['Яндекс Банк', 'Yandex Bank', 'яндекс, yandex'],
  100000000001: ['Газпромбанк', 'Gazprombank', 'гпб, gpb'],
  100000000013: ['Совкомбанк', 'Sovcombank', 'халва, halva'],
  100000000007: ['Райффайзенбанк', 'Raiffeisenbank', 'райффайзен, raiffeisen'],
  100000000010: ['ПСБ', 'PSB', 'промсвязьбанк, promsvyazbank'],
  100000000016: ['Почта Банк', 'Pochta Bank', 'почта, pochta'],
  100000000017: ['МТС Банк', 'MTS Bank', 'мтс, mts'],
  100000000259: ['Вайлдберриз Банк', 'Wildberries Bank', 'вб, wb, wildberries, вайлдберриз'],
  100000000020: ['Россельхозбанк', 'Rosselkhozbank', 'рсхб, rshb'],
  100000000014: ['Банк Русский Стандарт', 'Russian Standard Bank', 'русский стандарт, russian standard'],
  100000000026: ['Уралсиб', 'Uralsib', ''],
  100000000025: ['МКБ', 'MKB', 'московский кредитный банк, credit bank of moscow'],
  100000000006: ['Ак Барс Банк', 'Ak Bars Bank', ''],
  100000000031: ['УБРиР', 'UBRD', 'уральский банк реконструкции и развития'],
  100000000082: ['Банк ДОМ.РФ', 'Dom.RF Bank', 'дом рф, domrf'],
  100000000029: ['Банк Санкт-Петербург', 'Bank Saint Petersburg', 'бсп, bspb'],
  100000000022: ['ЮMoney', 'YooMoney', 'юмани, yoomoney, юмоней'],
  100000000018: ['ОТП Банк', 'OTP Bank', ''],
  100000000032: ['Ренессанс Банк', 'Renaissance Bank', 'ренессанс кредит'],
  100000000284: ['Точка', 'Tochka', 'tochka bank'],
  100000000045: ['Банк Зенит', 'Zenit Bank', ''],
  100000000030: ['ЮниКредит Банк', 'UniCredit Bank', ''],
  100000000041: ['БКС Банк', 'BCS Bank', ''],
  100000000289: ['МТС Деньги', 'MTS Dengi', 'экси банк'],
};

/** The banks shown first, most used first (member ids). */
export const POPULAR = [
  '100000000111',
  '100000000004',
  '110000000005',
  '100000000008',
  '100000000273',
  '100000000150',
  '100000000001',
  '100000000013',
  '100000000007',
  '100000000010',
  '100000000016',
  '100000000017',
];

const LATIN = {
  а: 'a', б: 'b', в: 'v', г: 'g', д: 'd', е: 'e', ё: 'e', ж: 'zh', з: 'z', и: 'i', й: 'y', к: 'k', л: 'l', м: 'm',
  н: 'n', о: 'o', п: 'p', р: 'r', с: 's', т: 't', у: 'u', ф: 'f', х: 'kh', ц: 'ts', ч: 'ch', ш: 'sh', щ: 'shch',
  ъ: '', ы: 'y', ь: '', э: 'e', ю: 'yu', я: 'ya',
};

/** A Russian name in Latin letters (a plain transliteration); abbreviations stay upper case. */
export function transliterate(name) {
  return name
    .split(/(\s+)/)
    .map((word) => {
      const latin = (w) => [...w].map((ch) => LATIN[ch.toLowerCase()] ?? ch).join('');
      const letters = [...word].filter((ch) => /\p{L}/u.test(ch));
      if (letters.length > 0 && letters.every((ch) => ch !== ch.toLowerCase())) {
        // Capitals: an abbreviation (АКБ → AKB) when short, else a name set in capitals (МОСКОВСКИЙ → Moskovskiy).
        return word
          .split('-')
          .map((part) => {
            const out = latin(part.toLowerCase());
            const abbreviation = [...part].filter((ch) => /\p{L}/u.test(ch)).length <= 4 && part !== 'БАНК';
            return abbreviation ? out.toUpperCase() : out.charAt(0).toUpperCase() + out.slice(1);
          })
          .join('-');
      }
      return [...word].map((ch) => {
        const lower = ch.toLowerCase();
        const l = LATIN[lower];
        if (l === undefined) return ch;
        return ch === lower ? l : l.charAt(0).toUpperCase() + l.slice(1);
      }).join('');
    })
    .join('');
}

/** Legal prefixes that do not help to find or sort a bank. */
const PREFIX = /^(?:(?:АКБ|КБ|АБ|АИКБ|УКБ|ИКБР|НКО|ПНКО|СКБ|КБЭР|ББР|банк|Банк|БАНК)\s+)+/u;

/** Text to sort by: the name without its legal prefixes, lower case. */
export const sortKey = (name) => name.replace(PREFIX, '').toLowerCase() || name.toLowerCase();

const SAFE_ID = /^\d{12}$/;
const SAFE_SCHEME = /^[a-z][a-z0-9+.-]{0,40}$/;
const SAFE_PACKAGE = /^[A-Za-z][A-Za-z0-9_]*(\.[A-Za-z0-9_]+)+$/;
const SAFE_WEB = /^https?:\/\/[a-z0-9.-]+(:\d+)?(\/[A-Za-z0-9._~%!$&'()*+,;=:@/?#-]*)?$/i;

/** An http:// address as https:// (same host and path); https and '' as they are. */
export const upgradeToHttps = (url) => url.replace(/^http:\/\//i, 'https://');

/** One value of a row: the row format has no escaping, so `|` and line breaks may not occur. */
function field(value, what, id) {
  const s = String(value ?? '').trim();
  if (/[|\n\r]/.test(s)) throw new Error(`bank ${id}: ${what} contains | or a line break`);
  return s;
}

/**
 * The rows of the table from the source JSON (`{ updatedAt, banks: [...] }`): `id|ru|latin|scheme|package|web|aliases`,
 * scheme empty when it is `bank{id}`, package and web empty when there are none, web always https,
 * aliases: other names (phrases) separated by commas. Throws on anything
 * that does not look like the NSPK list, naming the bank.
 */
export function buildRows(source) {
  if (!source || !Array.isArray(source.banks)) throw new Error('the source has no "banks" array');
  const seen = new Set();
  const rows = source.banks.map((b) => {
    const id = String(b.id);
    if (!SAFE_ID.test(id)) throw new Error(`a bank id is not 12 digits: ${JSON.stringify(b.id)}`);
    if (seen.has(id)) throw new Error(`bank ${id} is listed twice`);
    seen.add(id);
    const listed = field(b.name, 'name', id).replace(/\s+/g, ' ');
    if (!listed) throw new Error(`bank ${id} has no name`);
    const [ru, latin, aliases] = CURATED[id] ?? [listed, transliterate(listed), ''];
    const scheme = field(b.schema, 'schema', id);
    if (!SAFE_SCHEME.test(scheme)) throw new Error(`bank ${id}: scheme ${JSON.stringify(b.schema)} is not a URL scheme`);
    const pkg = field(b.package, 'package', id);
    if (pkg && !SAFE_PACKAGE.test(pkg)) throw new Error(`bank ${id}: package ${JSON.stringify(b.package)} is not an Android package name`);
    const listedWeb = b.isWebClientActive === true ? field(b.webClientUrl, 'webClientUrl', id) : '';
    if (listedWeb && !SAFE_WEB.test(listedWeb)) throw new Error(`bank ${id}: web client ${JSON.stringify(b.webClientUrl)} is not an http(s) URL`);
    // A payment never goes over plain http: NSPK lists a few web clients as http://, kept as https://.
    const web = upgradeToHttps(listedWeb);
    // NSPK's own name (and its transliteration) stays searchable when a shorter one is shown.
    const names = [...aliases.split(','), ...(ru === listed ? [] : [listed, transliterate(listed)])];
    const also = [...new Set(names.map((n) => n.trim().replace(/\s+/g, ' ').toLowerCase()).filter(Boolean))].join(',');
    return { id, ru, sort: sortKey(ru), row: [id, ru, latin, scheme === `bank${id}` ? '' : scheme, pkg, web, also].map((v) => field(v, 'value', id)).join('|') };
  });
  const rank = (id) => {
    const i = POPULAR.indexOf(id);
    return i < 0 ? POPULAR.length : i;
  };
  const collator = new Intl.Collator('ru');
  rows.sort((a, b) => rank(a.id) - rank(b.id) || collator.compare(a.sort, b.sort) || a.id.localeCompare(b.id));
  return rows.map((r) => r.row);
}

/** The snapshot's day (`YYYY-MM-DD`) from `updatedAt`. */
export function snapshotDate(source) {
  const ms = Date.parse(source?.updatedAt ?? '');
  if (Number.isNaN(ms)) throw new Error('the source has no valid "updatedAt"');
  return new Date(ms).toISOString().slice(0, 10);
}

/** The text of src/element/bank-table.ts. */
export function buildModule(source) {
  const rows = buildRows(source);
  const popular = POPULAR.filter((id) => rows.some((r) => r.startsWith(`${id}|`))).length;
  return `// Generated by scripts/generate-bank-table.mjs from NSPK's SBP member list (c2bmembers.json as kept by
// eav93/sbp, MIT), snapshot of ${snapshotDate(source)}. Do not edit: run \`node scripts/generate-bank-table.mjs\`
// with a newer sbp-banks.json.
// Loaded on demand (its own chunk), only when a shopper opens the bank sheet.

/** The day of the NSPK list this table was made from; shown under the bank list. */
export const SNAPSHOT = '${snapshotDate(source)}';

/** How many banks at the top of the table are the most used ones. */
export const POPULAR_COUNT = ${popular};

/**
 * ${rows.length} banks, one a line: \`member id|Russian name|Latin name|iOS scheme ('' = bank{id})|Android package|https web client|other names, comma-separated\`.
 */
export const BANKS = \`${rows.join('\n')}\`;
`;
}

/**
 * The text of src/element/bank-names.ts: the Latin names of the well-known banks (CURATED) by the
 * Russian name the table shows, for the requisites' "Recipient's bank" in a language written in Latin
 * letters, without loading the whole table.
 */
export function buildNamesModule(source) {
  const listed = new Set(buildRows(source).map((r) => r.split('|')[0]));
  const lines = Object.entries(CURATED)
    .filter(([id]) => listed.has(id))
    .map(([, [ru, latin]]) => [ru, latin].map((v) => field(v, 'name', ru)).join('|'));
  return `// Generated by scripts/generate-bank-table.mjs (CURATED) with bank-table.ts, snapshot of ${snapshotDate(source)}. Do not edit.

/** The Latin name of each well-known bank, by the Russian name bank-table.ts shows: \`Russian|Latin\`, one a line. */
export const LATIN_NAMES = \`${lines.join('\n')}\`;
`;
}

export const NAMES_OUTPUT = join(root, 'src', 'element', 'bank-names.ts');

const isMain = process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
  const args = process.argv.slice(2);
  const check = args.includes('--check');
  const path = args.find((a) => !a.startsWith('--')) ?? DEFAULT_SOURCE;
  let source;
  try {
    source = JSON.parse(readFileSync(path, 'utf8'));
  } catch (e) {
    console.error(`cannot read the SBP bank list at ${path}: ${e.message}`);
    process.exit(1);
  }
  const outputs = [
    [OUTPUT, buildModule(source)],
    [NAMES_OUTPUT, buildNamesModule(source)],
  ];
  for (const [file, text] of outputs) {
    if (check) {
      let current = '';
      try {
        current = readFileSync(file, 'utf8');
      } catch {
        // missing: stale
      }
      if (current !== text) {
        console.error(`${file} is not what ${path} gives: run node scripts/generate-bank-table.mjs`);
        process.exit(1);
      }
      console.log(`${file} is up to date (${path})`);
    } else {
      writeFileSync(file, text);
      console.log(`wrote ${file} (${buildRows(source).length} banks, snapshot ${snapshotDate(source)})`);
    }
  }
}
