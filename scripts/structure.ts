/**
 * The shape of the house (issue 22), measured with the TypeScript compiler API: modules over 400
 * lines (tables aside), functions over 120 lines, import cycles (type-only imports and `import()`
 * included), imports of the element by the ground floor (issue 32), the element's host class, the names `paydesk/provider` exports, the modules that frame
 * server-sent events and `@internal` in the published types. `npm run lint:structure` prints the
 * figures and exits non-zero when a goal does not hold; test/node/house/structure.test.ts asserts the
 * same figures in `npm test`.
 */
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

export const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const GOALS = { fileLines: 400, functionLines: 120, hostClassLines: 300, providerNames: 60 } as const;
/**
 * The ground floor: modules the server side (and the provider client) build on. None of them imports
 * the element (src/element/), which sits above them; what both need lives down here (e.g. src/banks/).
 */
const GROUND_FLOOR = /^src\/(money|protocol|banks|provider|server)\//;
/**
 * Arrows up that are known and left for their owner: the provider reads the bank table with the
 * element's parser (parseBanks, bankNamed in bank-links.ts). It moves down beside the table
 * (src/banks/) with the next change of src/element/; then this list is empty. A new arrow fails.
 */
const KNOWN_UPWARD = new Set<string>();
/** Tables, not logic: their length is their content. */
const TABLES = [/^src\/element\/i18n\//, /^demo\/public\/src\/texts\//, /^src\/console\/ui\/texts/, /^src\/provider\/schemas\.ts$/];

function sources(dir: string, ext = /\.tsx?$/): string[] {
  const out: string[] = [];
  if (!existsSync(join(root, dir))) return out;
  for (const name of readdirSync(join(root, dir))) {
    const rel = `${dir}/${name}`;
    if (name === 'node_modules' || name === 'dist' || name.startsWith('.')) continue;
    if (statSync(join(root, rel)).isDirectory()) out.push(...sources(rel, ext));
    else if (ext.test(name) && !name.endsWith('.d.ts')) out.push(rel);
  }
  return out;
}

const lineOf = (sf: ts.SourceFile, pos: number) => sf.getLineAndCharacterOfPosition(pos).line + 1;
const linesOf = (sf: ts.SourceFile) => sf.text.replace(/\n$/, '').split('\n').length;

function functionName(node: ts.Node): string {
  if ((ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node) || ts.isGetAccessor(node) || ts.isSetAccessor(node)) && node.name) {
    return node.name.getText();
  }
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  const parent = node.parent;
  if (parent && (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent))) return parent.name.getText();
  return '(anonymous)';
}

/** The modules a file imports or re-exports by a relative path (type-only and `import()` included). */
function importsOf(f: string, sf: ts.SourceFile, known: Set<string>): string[] {
  const out: string[] = [];
  const add = (spec: string) => {
    if (!spec.startsWith('.')) return;
    const base = relative(root, resolve(root, dirname(f), spec)).replace(/\.js$/, '');
    const hit = [`${base}.ts`, `${base}.tsx`, `${base}/index.ts`].find((c) => known.has(c));
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

/** Strongly connected components of more than one module (Tarjan): each is an import cycle. */
function cyclesOf(graph: Map<string, string[]>): string[][] {
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
  return cycles;
}

/** Every name `src/provider/index.ts` exports (values and types), by the checker. */
function providerNames(): string[] {
  const entry = join(root, 'src/provider/index.ts');
  const program = ts.createProgram([entry], { module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, target: ts.ScriptTarget.ES2022, noEmit: true });
  const checker = program.getTypeChecker();
  const symbol = checker.getSymbolAtLocation(program.getSourceFile(entry)!)!;
  return checker.getExportsOfModule(symbol).map((s) => s.name).sort();
}

export interface Structure {
  longFiles: string[];
  longFunctions: string[];
  cycles: string[][];
  hostClassLines: number;
  hostInternals: number;
  providerNames: number;
  sseWriters: string[];
  /** `@internal` in dist/**\/*.d.ts; null without a build. */
  publishedInternals: number | null;
  /** `from → to` for each import of src/element/ by a ground-floor module (an arrow that runs up). */
  upwardImports: string[];
}

export function measure(): Structure {
  const files = [...sources('src'), ...sources('demo')].sort();
  const parsed = new Map(files.map((f) => [f, ts.createSourceFile(f, readFileSync(join(root, f), 'utf8'), ts.ScriptTarget.Latest, true)]));
  const longFiles = files
    .filter((f) => !TABLES.some((t) => t.test(f)) && linesOf(parsed.get(f)!) > GOALS.fileLines)
    .map((f) => `${f}: ${linesOf(parsed.get(f)!)} lines`);

  const longFunctions: string[] = [];
  for (const [f, sf] of parsed) {
    const visit = (node: ts.Node) => {
      if (ts.isFunctionLike(node) && 'body' in node && node.body) {
        const lines = lineOf(sf, node.getEnd()) - lineOf(sf, node.getStart(sf)) + 1;
        if (lines > GOALS.functionLines) longFunctions.push(`${f}:${lineOf(sf, node.getStart(sf))} ${functionName(node)}: ${lines} lines`);
      }
      ts.forEachChild(node, visit);
    };
    visit(sf);
  }

  const known = new Set(files);
  const graph = new Map([...parsed].map(([f, sf]) => [f, importsOf(f, sf, known)]));
  const cycles = cyclesOf(graph);
  const upwardImports = [...graph]
    .filter(([f]) => GROUND_FLOOR.test(f))
    .flatMap(([f, to]) => to.filter((t) => t.startsWith('src/element/')).map((t) => `${f} → ${t}`))
    .filter((arrow) => !KNOWN_UPWARD.has(arrow));

  const host = parsed.get('src/element/paydesk-checkout.ts')!;
  const hostClass = host.statements.find((s): s is ts.ClassDeclaration => ts.isClassDeclaration(s) && s.name?.text === 'PaydeskCheckout')!;
  const hostClassLines = lineOf(host, hostClass.getEnd()) - lineOf(host, hostClass.getStart(host)) + 1;
  const hostInternals = (hostClass.getFullText().match(/@internal/g) ?? []).length;

  const sseWriters = files.filter((f) => /`data: |'data: |"data: /.test(parsed.get(f)!.text));

  let publishedInternals: number | null = null;
  if (existsSync(join(root, 'dist'))) {
    const all = (dir: string): string[] =>
      readdirSync(join(root, dir)).flatMap((n) => (statSync(join(root, dir, n)).isDirectory() ? all(`${dir}/${n}`) : n.endsWith('.d.ts') ? [`${dir}/${n}`] : []));
    publishedInternals = all('dist').reduce((n, f) => n + (readFileSync(join(root, f), 'utf8').match(/@internal/g) ?? []).length, 0);
  }

  return { longFiles, longFunctions, cycles, hostClassLines, hostInternals, providerNames: providerNames().length, sseWriters, publishedInternals, upwardImports };
}

/** The figures, one line each, and the goals that do not hold. */
export function report(s: Structure): { lines: string[]; failures: string[] } {
  const lines = [
    `modules over ${GOALS.fileLines} lines (tables aside): ${s.longFiles.length}${s.longFiles.map((f) => `\n  ${f}`).join('')}`,
    `functions over ${GOALS.functionLines} lines: ${s.longFunctions.length}${s.longFunctions.map((f) => `\n  ${f}`).join('')}`,
    `import cycles (type-only and import() included): ${s.cycles.length}${s.cycles.map((c) => `\n  ${c.join(' ↔ ')}`).join('')}`,
    `imports of src/element/ by the ground floor (money, protocol, banks, provider, server): ${s.upwardImports.length}${s.upwardImports.map((f) => `\n  ${f}`).join('')}`,
    `element host class: ${s.hostClassLines} lines, ${s.hostInternals} @internal members`,
    `names exported by paydesk/provider: ${s.providerNames}`,
    `modules that frame server-sent events: ${s.sseWriters.length} (${s.sseWriters.join(', ')})`,
    `@internal in published .d.ts: ${s.publishedInternals ?? 'not built (npm run build)'}`,
    'webhook → paid on screen: measured by running code, not here: test/node/path/paid-path.test.ts (server) and test/browser/paid-path.test.ts (element) print the hops; how they are counted: test/hop-path.ts',
  ];
  const failures = [
    s.longFiles.length > 0 && 'modules over the line limit',
    s.longFunctions.length > 0 && 'functions over the line limit',
    s.cycles.length > 0 && 'import cycles',
    s.upwardImports.length > 0 && 'the ground floor imports the element',
    s.hostClassLines > GOALS.hostClassLines && `the host class is over ${GOALS.hostClassLines} lines`,
    s.hostInternals > 0 && '@internal members on the host class',
    s.providerNames > GOALS.providerNames && `paydesk/provider exports more than ${GOALS.providerNames} names`,
    s.sseWriters.length !== 1 && 'not exactly one server-sent-events writer',
    (s.publishedInternals ?? 0) > 0 && '@internal in the published types',
  ].filter((x): x is string => typeof x === 'string');
  return { lines, failures };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { lines, failures } = report(measure());
  console.log(lines.join('\n'));
  if (failures.length > 0) {
    console.error(`\nnot held: ${failures.join('; ')}`);
    process.exit(1);
  }
}
