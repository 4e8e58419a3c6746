/**
 * The shape of the house (issue 22), measured by scripts/structure.ts (`npm run lint:structure` prints
 * the same figures): no module over 400 lines (tables aside), no function over 120 lines, no import
 * cycle (type-only and `import()` included), a host class of at most 300 lines with no `@internal`
 * member, at most 60 names from `paydesk/provider`, one module that frames server-sent events, and no
 * `@internal` in the published types. A failure names the file, the function or the cycle.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { GOALS, measure } from '../../../scripts/structure.js';

const s = measure();

test('no source module is over 400 lines (tables aside)', () => {
  assert.deepEqual(s.longFiles, [], `modules over ${GOALS.fileLines} lines:\n${s.longFiles.join('\n')}`);
});

test('no function is over 120 lines', () => {
  assert.deepEqual(s.longFunctions, [], `functions over ${GOALS.functionLines} lines:\n${s.longFunctions.join('\n')}`);
});

test('no import cycle among the modules (type-only imports and import() included)', () => {
  assert.deepEqual(s.cycles, [], `import cycles:\n${s.cycles.map((c) => c.join(' ↔ ')).join('\n')}`);
});

test('the ground floor (money, protocol, banks, provider, server) imports nothing from the element', () => {
  assert.deepEqual(s.upwardImports, [], `arrows that run up:\n${s.upwardImports.join('\n')}`);
});

test('the element host class renders and wires: at most 300 lines, no @internal member', () => {
  assert.ok(s.hostClassLines <= GOALS.hostClassLines, `${s.hostClassLines} lines`);
  assert.equal(s.hostInternals, 0);
});

test('paydesk/provider exports at most 60 names (values and types), chosen', () => {
  assert.ok(s.providerNames <= GOALS.providerNames, `${s.providerNames} names`);
});

test('one module frames server-sent events (src/protocol/sse.ts), for the server and the sandbox', () => {
  assert.deepEqual(s.sseWriters, ['src/protocol/sse.ts']);
});

test('no @internal in the published types (after a build)', (t) => {
  if (s.publishedInternals === null) return t.diagnostic('dist/ not built: checked by npm test after its build step');
  assert.equal(s.publishedInternals, 0);
});
