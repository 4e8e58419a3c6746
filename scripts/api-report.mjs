#!/usr/bin/env node
/**
 * The public surface of every entry of package.json "exports" (paydesk, paydesk/element, …), as
 * API Extractor reports it from the built declarations (dist/**\/*.d.ts), kept in api/*.api.md so a
 * change of the public surface is a reviewed diff.
 *
 *   node scripts/api-report.mjs            check (npm test): fails when a report differs from dist/
 *   node scripts/api-report.mjs --update   rewrite api/*.api.md (`npm run api:report` builds first)
 *
 * Also fails when a published declaration carries `@internal` (tsconfig.build's stripInternal keeps
 * such members out). Needs dist/ (node scripts/build.mjs). Offline; no terminal needed.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CompilerState, Extractor, ExtractorConfig, ExtractorLogLevel } from '@microsoft/api-extractor';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const update = process.argv.includes('--update');
const reportFolder = join(root, 'api');
const UPDATE_COMMAND = 'npm run api:report';

const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

/** `.` → `paydesk`, `./element` → `paydesk/element`, with its declaration file; exports without types are not API. */
function entries() {
  const out = [];
  for (const [subpath, target] of Object.entries(pkg.exports)) {
    const types = typeof target === 'object' && target !== null ? target.types : undefined;
    if (!types) continue;
    const name = subpath === '.' ? pkg.name : `${pkg.name}/${subpath.slice(2)}`;
    out.push({ name, types: join(root, types), report: `${name.replace(/\//g, '-')}.api.md` });
  }
  return out;
}

function declarations(dir) {
  const out = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...declarations(path));
    else if (entry.name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

const fail = (message) => {
  console.error(message);
  process.exit(1);
};

if (!existsSync(join(root, 'dist', 'index.d.ts'))) fail('api report: dist/ is missing: run `node scripts/build.mjs` first');

const internal = declarations(join(root, 'dist')).filter((f) => readFileSync(f, 'utf8').includes('@internal'));
if (internal.length > 0) {
  fail(`api report: published declarations carry @internal (stripInternal should drop them):\n  ${internal.map((f) => relative(root, f)).join('\n  ')}`);
}

if (update) mkdirSync(reportFolder, { recursive: true });
const temp = mkdtempSync(join(tmpdir(), 'paydesk-api-'));
const changed = [];
const problems = [];
/** The lines a changed report lost (-) and gained (+), at most 40: enough to see what moved. */
function printChange(entry) {
  const committedPath = join(reportFolder, entry.report);
  const before = existsSync(committedPath) ? readFileSync(committedPath, 'utf8').split('\n') : [];
  const after = readFileSync(join(temp, entry.report), 'utf8').split('\n');
  const had = new Set(before);
  const has = new Set(after);
  const lines = [...before.filter((l) => !has.has(l)).map((l) => `- ${l}`), ...after.filter((l) => !had.has(l)).map((l) => `+ ${l}`)];
  console.error(`\napi/${entry.report} (committed) vs dist/ now:\n${lines.slice(0, 40).join('\n')}${lines.length > 40 ? `\n… ${lines.length - 40} more lines` : ''}`);
}

/** API Extractor's settings for one entry. */
function configOf(entry) {
  return ExtractorConfig.prepare({
    configObject: {
      projectFolder: root,
      mainEntryPointFilePath: entry.types,
      compiler: {
        overrideTsconfig: {
          compilerOptions: {
            target: 'ES2022',
            module: 'NodeNext',
            moduleResolution: 'NodeNext',
            lib: ['ES2023', 'DOM', 'DOM.Iterable'],
            types: ['node'],
            strict: true,
            skipLibCheck: true,
            jsx: 'react-jsx',
          },
          files: [entry.types],
        },
      },
      apiReport: {
        enabled: true,
        reportFolder,
        reportTempFolder: temp,
        reportFileName: entry.report,
        // A type the entry uses but does not export is shown in the report too (and flagged).
        includeForgottenExports: true,
      },
      docModel: { enabled: false },
      dtsRollup: { enabled: false },
      tsdocMetadata: { enabled: false },
      newlineKind: 'lf',
      messages: {
        compilerMessageReporting: { default: { logLevel: 'warning' } },
        extractorMessageReporting: {
          default: { logLevel: 'warning', addToApiReportFile: true },
          // This package does not use release tags (@public, @beta): every exported name is public.
          'ae-missing-release-tag': { logLevel: 'none', addToApiReportFile: false },
          'ae-forgotten-export': { logLevel: 'none', addToApiReportFile: true },
          // A doc comment's {@link} to a name of another entry is a documentation matter, not surface.
          'ae-unresolved-link': { logLevel: 'none', addToApiReportFile: false },
        },
        // Doc comment syntax is not part of the surface.
        tsdocMessageReporting: { default: { logLevel: 'none', addToApiReportFile: false } },
      },
    },
    configObjectFullPath: join(root, 'api', 'api-extractor.json'),
    packageJsonFullPath: join(root, 'package.json'),
  });
}

try {
  const built = entries().filter((entry) => {
    if (existsSync(entry.types)) return true;
    problems.push(`${entry.name}: ${relative(root, entry.types)} was not built`);
    return false;
  });
  const configs = built.map(configOf);
  // One TypeScript program for all entries (they share most declarations).
  const compilerState = CompilerState.create(configs[0], { additionalEntryPoints: built.map((e) => e.types) });
  for (const [i, entry] of built.entries()) {
    const result = Extractor.invoke(configs[i], {
      compilerState,
      localBuild: update,
      showVerboseMessages: false,
      messageCallback(message) {
        // The notes about API Extractor's own TypeScript version (it may be older than the project's) are not failures.
        if ((message.category === 'console' && message.logLevel !== ExtractorLogLevel.Error) || message.logLevel === ExtractorLogLevel.Info || message.logLevel === ExtractorLogLevel.Verbose) {
          message.logLevel = ExtractorLogLevel.None;
          message.handled = true;
        }
      },
    });
    if (result.errorCount > 0) problems.push(`${entry.name}: API Extractor reported ${result.errorCount} error(s) (above)`);
    if (result.apiReportChanged) {
      changed.push(entry);
      if (!update) printChange(entry);
    }
    const reportPath = update ? join(reportFolder, entry.report) : join(temp, entry.report);
    if (!existsSync(reportPath)) problems.push(`${entry.name}: no report was written${update ? '' : ` (is api/${entry.report} committed? ${UPDATE_COMMAND} writes it)`}`);
    else if (/\/\/ @internal/.test(readFileSync(reportPath, 'utf8'))) problems.push(`${entry.name}: the report lists an @internal item`);
  }
} finally {
  rmSync(temp, { recursive: true, force: true });
}

if (problems.length > 0) fail(`api report failed:\n  ${problems.join('\n  ')}`);
if (update) {
  console.log(changed.length ? `api report: updated ${changed.map((e) => `api/${e.report}`).join(', ')}` : 'api report: api/*.api.md unchanged');
} else if (changed.length > 0) {
  fail(
    `api report: the public surface differs from the committed report for ${changed.map((e) => e.name).join(', ')}.\n` +
      `If the change is meant, update the reports and commit them with it:\n  ${UPDATE_COMMAND}\n` +
      `(then review \`git diff api/\`).`,
  );
} else {
  console.log(`api report: ${entries().length} entries match api/*.api.md`);
}
