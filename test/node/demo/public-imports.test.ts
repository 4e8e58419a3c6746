/**
 * The demo is built on paydesk's public entries only, as a merchant's code would be: every import of
 * a demo file (server and pages) that reaches into src/ names an entry's index (`src/<entry>/index.ts`,
 * `src/index.ts`) or the element's public event types (`src/element/events.ts`, which types the
 * element's events on every element), never a module behind an entry.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const SRC = join(ROOT, 'src');
const ALLOWED_FILES = new Set(['src/index.ts', 'src/element/events.ts']);

/** Every module specifier of a source text: imports, re-exports, `import()` and `import type`. */
function specifiers(fileName: string, text: string): string[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const out: string[] = [];
  const visit = (node: ts.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      out.push(node.moduleSpecifier.text);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments[0] && ts.isStringLiteralLike(node.arguments[0])) {
      out.push(node.arguments[0].text);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      out.push(node.argument.literal.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

/** The imports of `file` (absolute) that reach a module of src/ behind an entry, as `specifier → src/…`. */
export function nonEntryImports(file: string, text: string): string[] {
  const bad: string[] = [];
  for (const spec of specifiers(file, text)) {
    if (!spec.startsWith('.')) continue;
    const target = resolve(dirname(file), spec).replace(/\.js$/, '.ts');
    if (!target.startsWith(SRC + sep)) continue;
    const path = relative(ROOT, target).split(sep).join('/');
    const isEntry = /^src\/[a-z-]+\/index\.ts$/.test(path) || ALLOWED_FILES.has(path);
    if (!isEntry) bad.push(`${spec} → ${path}`);
  }
  return bad;
}

function demoFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'dist' || entry.name === 'node_modules') continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...demoFiles(path));
    else if (/\.(ts|tsx|mts)$/.test(entry.name) && !entry.name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

describe('the demo imports only public entries of paydesk', () => {
  test('the check finds an import behind an entry, in every form of import', () => {
    const file = join(ROOT, 'demo', 'example.ts');
    const text = [
      "import type { HookState } from '../src/server/sessions.js';",
      "export { createOnce } from '../src/server/checkout/create-once.js';",
      "const m = await import('../src/provider/facts.js');",
      "type T = import('../src/sandbox/receipts.js').UploadProblem;",
      "import { createCheckoutHandler } from '../src/server/index.js';",
      "import { z } from 'zod';",
    ].join('\n');
    assert.deepEqual(nonEntryImports(file, text), [
      '../src/server/sessions.js → src/server/sessions.ts',
      '../src/server/checkout/create-once.js → src/server/checkout/create-once.ts',
      '../src/provider/facts.js → src/provider/facts.ts',
      '../src/sandbox/receipts.js → src/sandbox/receipts.ts',
    ]);
  });

  test('no demo file (server or pages) imports a module of src/ other than an entry', () => {
    const files = demoFiles(join(ROOT, 'demo'));
    assert.ok(files.length > 20, `found only ${files.length} demo files`);
    const found = files.flatMap((f) => nonEntryImports(f, readFileSync(f, 'utf8')).map((b) => `${relative(ROOT, f)}: ${b}`));
    assert.deepEqual(found, []);
  });
});
