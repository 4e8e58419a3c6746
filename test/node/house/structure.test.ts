/**
 * The shape of the house (issue 22), measured with the TypeScript compiler API on every source file
 * of the package and the demo: no module over 400 lines, no function over 120 lines, no import cycle
 * (type-only imports included). Tables are exempt from the line rule: translation tables, the
 * provider's response schemas. A failure names the file, the function or the cycle.
 */
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const MAX_FILE_LINES = 400;
const MAX_FUNCTION_LINES = 120;
/** Tables, not logic: their length is their content. */
const TABLES = [/^src\/element\/i18n\//, /^demo\/public\/src\/texts\//, /^src\/provider\/schemas\.ts$/];

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(join(root, dir))) {
    const rel = `${dir}/${name}`;
    if (name === 'node_modules' || name === 'dist' || name.startsWith('.')) continue;
    if (statSync(join(root, rel)).isDirectory()) out.push(...sources(rel));
    else if (/\.tsx?$/.test(name) && !name.endsWith('.d.ts')) out.push(rel);
  }
  return out;
}

const files = [...sources('src'), ...sources('demo')].sort();
const parsed = new Map(files.map((f) => [f, ts.createSourceFile(f, readFileSync(join(root, f), 'utf8'), ts.ScriptTarget.Latest, true)]));

const lineOf = (sf: ts.SourceFile, pos: number) => sf.getLineAndCharacterOfPosition(pos).line + 1;

function functionName(node: ts.Node): string {
  if ((ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node) || ts.isGetAccessor(node) || ts.isSetAccessor(node)) && node.name) {
    return node.name.getText();
  }
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  const parent = node.parent;
  if (parent && (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent))) return parent.name.getText();
  return '(anonymous)';
}

test('no source module is over 400 lines (tables aside)', () => {
  const long = files
    .filter((f) => !TABLES.some((t) => t.test(f)))
    .map((f) => ({ f, lines: parsed.get(f)!.text.replace(/\n$/, '').split('\n').length }))
    .filter(({ lines }) => lines > MAX_FILE_LINES)
    .map(({ f, lines }) => `${f}: ${lines} lines`);
  assert.deepEqual(long, [], `modules over ${MAX_FILE_LINES} lines:\n${long.join('\n')}`);
});

test('no function is over 120 lines', () => {
  const long: string[] = [];
  for (const [f, sf] of parsed) {
    const visit = (node: ts.Node) => {
      if (ts.isFunctionLike(node) && 'body' in node && node.body) {
        const lines = lineOf(sf, node.getEnd()) - lineOf(sf, node.getStart(sf)) + 1;
        if (lines > MAX_FUNCTION_LINES) long.push(`${f}:${lineOf(sf, node.getStart(sf))} ${functionName(node)}: ${lines} lines`);
      }
      ts.forEachChild(node, visit);
    };
    visit(sf);
  }
  assert.deepEqual(long, [], `functions over ${MAX_FUNCTION_LINES} lines:\n${long.join('\n')}`);
});

/** The modules a file imports or re-exports by a relative path (type-only included), as repo paths. */
function importsOf(f: string, sf: ts.SourceFile): string[] {
  const out: string[] = [];
  const add = (spec: string) => {
    if (!spec.startsWith('.')) return;
    const base = relative(root, resolve(root, dirname(f), spec)).replace(/\.js$/, '');
    const hit = [`${base}.ts`, `${base}.tsx`, `${base}/index.ts`].find((c) => parsed.has(c));
    if (hit) out.push(hit);
  };
  const visit = (node: ts.Node) => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      add(node.moduleSpecifier.text);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      add(node.argument.literal.text);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [arg] = node.arguments;
      if (arg && ts.isStringLiteral(arg)) add(arg.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

test('no import cycle among the modules (type-only imports and import() included)', () => {
  const graph = new Map([...parsed].map(([f, sf]) => [f, importsOf(f, sf)]));
  // Tarjan's strongly connected components: every component of more than one module is a cycle.
  let index = 0;
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const connect = (v: string) => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!idx.has(w)) {
        connect(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!));
    }
    if (low.get(v) === idx.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || graph.get(v)!.includes(v)) cycles.push(component.sort());
    }
  };
  for (const f of graph.keys()) if (!idx.has(f)) connect(f);
  assert.deepEqual(cycles, [], `import cycles:\n${cycles.map((c) => c.join(' ↔ ')).join('\n')}`);
});
