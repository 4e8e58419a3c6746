/**
 * The server's structure (issue 22), measured with the TypeScript compiler: no file over 400 lines,
 * no function over 120 lines, and no import cycle among its modules, type-only imports and
 * re-exports included.
 */
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const SERVER = join(ROOT, 'src/server');
const MAX_FILE_LINES = 400;
const MAX_FUNCTION_LINES = 120;

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sources(path);
    return e.name.endsWith('.ts') && !e.name.endsWith('.d.ts') ? [path] : [];
  });
}

const files = sources(SERVER).map((path) => {
  const text = readFileSync(path, 'utf8');
  return { path, name: relative(ROOT, path), text, sf: ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true) };
});

/** Every function-like node with its name and length in lines. */
function functionsOf(sf: ts.SourceFile): Array<{ name: string; lines: number }> {
  const out: Array<{ name: string; lines: number }> = [];
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const start = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line;
      const end = sf.getLineAndCharacterOfPosition(node.getEnd()).line;
      const named = (node as { name?: ts.Node }).name;
      const parent = node.parent;
      const name = named?.getText(sf) ?? (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) ? parent.name.getText(sf) : '(anonymous)');
      out.push({ name, lines: end - start + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

/** The server modules a file imports or re-exports from (type-only too), as absolute paths. */
function importsOf(file: (typeof files)[number]): string[] {
  const out: string[] = [];
  for (const st of file.sf.statements) {
    const spec = (ts.isImportDeclaration(st) || ts.isExportDeclaration(st)) && st.moduleSpecifier && ts.isStringLiteral(st.moduleSpecifier) ? st.moduleSpecifier.text : null;
    if (!spec?.startsWith('.')) continue;
    const target = resolve(dirname(file.path), spec.replace(/\.js$/, '.ts'));
    if (target.startsWith(SERVER)) out.push(target);
  }
  return out;
}

describe('src/server structure', () => {
  test(`no file over ${MAX_FILE_LINES} lines`, () => {
    const long = files.map((f) => ({ name: f.name, lines: f.text.split('\n').length - (f.text.endsWith('\n') ? 1 : 0) })).filter((f) => f.lines > MAX_FILE_LINES);
    assert.deepEqual(long, []);
  });

  test(`no function over ${MAX_FUNCTION_LINES} lines`, () => {
    const long = files.flatMap((f) => functionsOf(f.sf).filter((fn) => fn.lines > MAX_FUNCTION_LINES).map((fn) => `${f.name}: ${fn.name} ${fn.lines}`));
    assert.deepEqual(long, []);
  });

  test('no import cycle (type-only imports and re-exports included)', () => {
    const graph = new Map(files.map((f) => [f.path, importsOf(f)]));
    const state = new Map<string, 'open' | 'done'>();
    const cycles: string[] = [];
    const walk = (path: string, stack: string[]) => {
      if (state.get(path) === 'done') return;
      if (state.get(path) === 'open') {
        cycles.push([...stack.slice(stack.indexOf(path)), path].map((p) => relative(SERVER, p)).join(' → '));
        return;
      }
      state.set(path, 'open');
      for (const next of graph.get(path) ?? []) walk(next, [...stack, path]);
      state.set(path, 'done');
    };
    for (const path of graph.keys()) walk(path, []);
    assert.deepEqual(cycles, []);
  });

  test('the checker sees a cycle, a long file and a long function when there is one', () => {
    const fake = ts.createSourceFile('x.ts', `function f() {\n${'  g();\n'.repeat(130)}}\n`, ts.ScriptTarget.Latest, true);
    assert.deepEqual(functionsOf(fake), [{ name: 'f', lines: 132 }]);
    const a = { path: join(SERVER, 'a.ts'), name: 'a', text: '', sf: ts.createSourceFile('a.ts', "import type { B } from './b.js';", ts.ScriptTarget.Latest, true) };
    assert.deepEqual(importsOf(a), [join(SERVER, 'b.ts')], 'a type-only import is an edge');
  });
});
