/**
 * The demo is built on paydesk's public entries only, as a merchant's code would be: every import of
 * a demo file (server and pages) that reaches into src/ names an entry's index (`src/<entry>/index.ts`,
 * `src/index.ts`) or the element's public event types (`src/element/events.ts`, which types the
 * element's events on every element), never a module behind an entry.
 *
 * One folder besides: src/ui-shared/, the browser modules and base stylesheet of the console's pages
 * (src/console/ui, built into dist/console/ui and served by paydesk/console) and of the demo's pages.
 * It is neither a public entry (no merchant imports it; the npm build leaves it out, the console's
 * pages carry it inside their own build) nor the demo's: it is the one copy that both builds take, where
 * before each had its own and they drifted apart. The demo's pages may import its modules; the folder
 * itself imports nothing but entries (checked below), so it opens no way behind an entry.
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
/** The pages' shared modules (see the file comment): any module of this folder, none below another. */
const SHARED_UI = 'src/ui-shared/';

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
    const isEntry = /^src\/[a-z-]+\/index\.ts$/.test(path) || ALLOWED_FILES.has(path) || (path.startsWith(SHARED_UI) && !path.slice(SHARED_UI.length).includes('/'));
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
      "import { el } from '../src/ui-shared/dom.js';",
      "import { texts } from '../src/console/ui/texts.js';",
      "import { x } from '../src/ui-shared/more/x.js';",
    ].join('\n');
    assert.deepEqual(nonEntryImports(file, text), [
      '../src/server/sessions.js → src/server/sessions.ts',
      '../src/server/checkout/create-once.js → src/server/checkout/create-once.ts',
      '../src/provider/facts.js → src/provider/facts.ts',
      '../src/sandbox/receipts.js → src/sandbox/receipts.ts',
      '../src/console/ui/texts.js → src/console/ui/texts.ts',
      '../src/ui-shared/more/x.js → src/ui-shared/more/x.ts',
    ]);
  });

  test('no demo file (server or pages) imports a module of src/ other than an entry', () => {
    const files = demoFiles(join(ROOT, 'demo'));
    assert.ok(files.length > 20, `found only ${files.length} demo files`);
    const found = files.flatMap((f) => nonEntryImports(f, readFileSync(f, 'utf8')).map((b) => `${relative(ROOT, f)}: ${b}`));
    assert.deepEqual(found, []);
  });

  test('the shared UI folder (src/ui-shared) imports only entries and its own modules, nothing of the demo or the console', () => {
    const dir = join(ROOT, ...SHARED_UI.split('/'));
    const files = readdirSync(dir).filter((name) => /\.ts$/.test(name)).map((name) => join(dir, name));
    assert.ok(files.length >= 5, `found only ${files.length} modules in ${SHARED_UI}`);
    const found: string[] = [];
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      const outside = specifiers(file, text).filter((spec) => spec.startsWith('.') && !resolve(dirname(file), spec).startsWith(SRC + sep));
      found.push(...nonEntryImports(file, text).filter((b) => !b.includes(` → ${SHARED_UI}`)), ...outside);
    }
    assert.deepEqual(found, []);
  });
});
