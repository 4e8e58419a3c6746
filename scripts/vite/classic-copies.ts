/**
 * The classic script's copies of the ES chunks (scripts/vite/classic.ts): which chunks it loads as they
 * are, which from a copy in classic/chunks/, and the digests each of its files carries.
 *
 * A chunk is loaded as it is (from chunks/, as the ES module does) unless it imports the entry, or
 * carries digests (src/element/integrity.ts: those of the ES files), or imports a chunk that is
 * copied. Its copy in classic/chunks/ differs from it in three places only:
 *   - its `import { a as b } from "../paydesk.js"` becomes
 *     `const { a: b } = globalThis[Symbol.for("paydesk.classic.<hash of paydesk.js>")]`: the classic
 *     script's own modules, which it leaves there (one Lit, one element, one set of tables for both);
 *     no module of its own hands them out, so no file more on the first paint's path;
 *   - what it imports from another copy is imported from that copy;
 *   - its digests are those of the files the classic script loads (copies, and the ES chunks loaded
 *     as they are), each with the chunk it stands for (`urls`).
 * A copy is named after a hash of its text, digests included: a long cache never mixes two builds.
 */
import { createHash } from 'node:crypto';
import { posix } from 'node:path';
import { CHUNK_TABLE, sri, withTable } from './integrity.js';
import { CLASSIC_DIR, type Node } from './shared.js';
import { editWithMap } from './source-map-edit.js';

/** What the copies need of the build: the ES chunks' texts and maps, a parser, the shared modules' expression. */
export interface CopyInputs {
  /** An ES chunk (`chunks/x-<hash>.js`): its text, and its source map when asked for. */
  chunk(name: string): { text: string; map(): string | null };
  parse(text: string): unknown;
  /** The expression that gives the classic script's modules (`globalThis[Symbol.for(…)]`). */
  shared: string;
  error(message: string): never;
}

/** A file the classic script loads for an ES chunk: the copy or the chunk itself, its digest and what it imports (ES names). */
interface Loaded {
  file: string;
  digest: string;
  deps: string[];
}

/** `./x.js` for a path relative to the directory of `from` (output file names). */
function relativeSpecifier(from: string, to: string): string {
  const rel = posix.relative(posix.dirname(from), to);
  return rel.startsWith('.') ? rel : `./${rel}`;
}

/** The hash in a content-hashed name: 8 hex digits of sha256, as the ES build's `[hash:8]` (hex). */
const nameHash = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 8);

type ImportNode = Node & { source?: Node & { value: string }; specifiers?: (Node & { local: { name: string }; imported?: { name?: string; value?: string } })[] };

/** The statements of a parsed module that import from another (static imports and re-exports). */
const importStatements = (program: unknown): ImportNode[] =>
  ((program as { body: ImportNode[] }).body ?? []).filter((n) => ['ImportDeclaration', 'ExportNamedDeclaration', 'ExportAllDeclaration'].includes(n.type) && n.source);

/** `const { a: b } = shared;` for an import from the entry. */
function fromShared(n: ImportNode, shared: string, error: (m: string) => never): string {
  if (n.type !== 'ImportDeclaration') error('paydesk: a chunk re-exports from paydesk.js; the classic copies cannot');
  const names: string[] = [];
  let out = '';
  for (const sp of n.specifiers ?? []) {
    if (sp.type === 'ImportNamespaceSpecifier') out += `const ${sp.local.name}=${shared};`;
    else {
      const imported = sp.type === 'ImportDefaultSpecifier' ? 'default' : (sp.imported?.name ?? sp.imported?.value ?? '');
      const key = /^[A-Za-z_$][\w$]*$/.test(imported) ? imported : JSON.stringify(imported);
      names.push(imported === sp.local.name ? imported : `${key}:${sp.local.name}`);
    }
  }
  return `${names.length > 0 ? `const{${names.join(',')}}=${shared};` : ''}${out}`;
}

/** The files the classic script loads instead of the ES chunks, and the digests each carries. */
export function classicCopies(inputs: CopyInputs) {
  const { error } = inputs;
  /** File → text of every copy and its map. */
  const files = new Map<string, string>();
  const made = new Map<string, Loaded>();
  const making = new Set<string>();

  /** `files:{…},urls:{…}` of a file carrying the digests of `names` (ES chunk names). */
  const table = (names: readonly string[]): string => {
    const digests: Record<string, string[]> = {};
    const urls: Record<string, string> = {};
    for (const name of names) {
      const loaded = make(name);
      digests[name] = [loaded.digest, ...loaded.deps];
      if (loaded.file !== name) urls[name] = loaded.file;
    }
    return `files:${JSON.stringify(digests)}${Object.keys(urls).length > 0 ? `,urls:${JSON.stringify(urls)}` : ''}`;
  };

  const make = (name: string): Loaded => {
    const done = made.get(name);
    if (done) return done;
    if (making.has(name)) error(`paydesk: ${name} needs its own digest through what it imports or carries (scripts/vite/chain.ts breaks such cycles)`);
    making.add(name);
    const { text, map } = inputs.chunk(name);
    const carried = CHUNK_TABLE.exec(text);
    const body = carried ? text.slice(0, carried.index) : text;
    const statements = importStatements(inputs.parse(body));
    const deps = statements.filter((n) => n.source!.value !== '../paydesk.js').map((n) => posix.join(posix.dirname(name), n.source!.value));
    const depFiles = new Map(deps.map((d) => [d, make(d).file]));
    let loaded: Loaded;
    if (!carried && deps.length === statements.length && deps.every((d) => depFiles.get(d) === d)) {
      loaded = { file: name, digest: sri(text), deps };
    } else {
      const own = carried ? table(Object.keys(JSON.parse(carried[1]!) as Record<string, unknown>)) : null;
      const comment = /\n\/\/# sourceMappingURL=[^\n]*\n?$/.exec(body);
      const code = comment ? body.slice(0, comment.index) : body;
      // A chunk without a map (a first-paint table) has a copy without one.
      const original = map();
      const sourceMap = JSON.parse(original ?? '{"version":3,"sources":[],"names":[],"mappings":""}') as { sources: string[] };
      // One directory deeper than the original.
      sourceMap.sources = sourceMap.sources.map((s) => (/^[a-z]+:/i.test(s) || s.startsWith('/') ? s : `../${s}`));
      const base = `${CLASSIC_DIR}/${name.replace(/-[0-9a-f]{8}\.js$/, '')}`;
      const edits = statements.map((n) => {
        if (n.source!.value === '../paydesk.js') return { start: n.start, end: n.end, text: fromShared(n, inputs.shared, error) };
        const target = depFiles.get(posix.join(posix.dirname(name), n.source!.value))!;
        // The copy's own name is not known yet; it is in classic/chunks/ like every copy.
        return { start: n.source!.start, end: n.source!.end, text: JSON.stringify(relativeSpecifier(`${base}-x.js`, target)) };
      });
      const edited = editWithMap(code, JSON.stringify(sourceMap), edits);
      const file = `${base}-${nameHash(`${edited.code}${own ?? ''}`)}.js`;
      const withComment = original === null ? `${edited.code}\n` : `${edited.code}\n//# sourceMappingURL=${posix.basename(file)}.map\n`;
      const copy = own === null ? withComment : withTable(withComment, own);
      files.set(file, copy);
      const copyMap = JSON.parse(edited.map) as { file?: string };
      copyMap.file = posix.basename(file);
      if (original !== null) files.set(`${file}.map`, JSON.stringify(copyMap));
      loaded = { file, digest: sri(copy), deps };
    }
    making.delete(name);
    made.set(name, loaded);
    return loaded;
  };

  return { files, table };
}
