/**
 * The digest chain of the CDN files (scripts/vite/chain.ts, issue 33): which file carries which
 * chunk's digest, the order their texts are made in, and how a cycle is broken. Pure: no build.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { planChain, type ChainChunk } from '../../../scripts/vite/chain.js';

const c = (imports: string[] = [], loads: string[] = []): ChainChunk => ({ imports, loads });

/** A CDN build's shape (an earlier release's, with the paint in chunks of its own): the paint's chunks and the element's, which loads the views and tables. */
const BUILD: Record<string, ChainChunk> = {
  lit: c(),
  runtime: c(),
  'ru-first': c(),
  'pay-view': c(['runtime', 'lit'], ['qr']),
  qr: c(['runtime', 'lit']),
  'cdn-element': c(['lit'], ['choose-view', 'banks', 'ru', 'qr']),
  'choose-view': c(['lit', 'pay-view', 'facts']),
  facts: c(),
  banks: c(['lit', 'facts', 'pay-view'], ['bank-table']),
  'bank-table': c(),
  ru: c(),
};

describe('the digest chain', () => {
  test('the entry carries what it loads itself and what those import; nothing the element alone loads', () => {
    const plan = planChain(['pay-view', 'ru-first', 'cdn-element'], BUILD);
    assert.deepEqual(plan.entry, ['cdn-element', 'lit', 'pay-view', 'ru-first', 'runtime']);
    assert.deepEqual(plan.moved, []);
  });

  test('a chunk carries the digests of what it loads and what those import, less what the loader holds when it runs', () => {
    const plan = planChain(['pay-view', 'ru-first', 'cdn-element'], BUILD);
    // lit and pay-view: the entry's; the element's own imports: held before it runs.
    assert.deepEqual(plan.carries.get('cdn-element'), ['banks', 'choose-view', 'facts', 'qr', 'ru']);
    assert.deepEqual(plan.carries.get('pay-view'), ['qr']);
    assert.deepEqual(plan.carries.get('banks'), ['bank-table']);
    assert.equal(plan.carries.has('choose-view'), false, 'a chunk that loads nothing carries nothing');
  });

  test('a chunk is made after every chunk whose digest it carries and every chunk it imports', () => {
    const plan = planChain(['pay-view', 'ru-first', 'cdn-element'], BUILD);
    assert.deepEqual([...plan.order].sort(), Object.keys(BUILD).sort(), 'every chunk once');
    const at = (n: string) => plan.order.indexOf(n);
    for (const [name, chunk] of Object.entries(BUILD)) {
      for (const dep of [...chunk.imports, ...(plan.carries.get(name) ?? [])]) assert.ok(at(dep) < at(name), `${dep} before ${name}`);
    }
  });

  test('two chunks that load each other: the digest that closes the cycle goes to the entry', () => {
    const plan = planChain(['x'], { x: c([], ['a']), a: c([], ['b']), b: c([], ['a']) });
    assert.deepEqual(plan.moved.length, 1);
    const [moved] = plan.moved;
    assert.ok(plan.entry.includes(moved!), 'the entry carries it');
    for (const [name, carried] of plan.carries) assert.ok(!carried.includes(moved!), `${name} no longer carries ${moved}`);
    // Every chunk still has its digest somewhere the loader holds it before it is asked for.
    const held = new Set([...plan.entry, ...[...plan.carries.values()].flat()]);
    assert.deepEqual([...held].sort(), ['a', 'b', 'x']);
  });

  test('a chunk that loads a chunk importing it (the classic copies name what they import by a hash of it): broken the same way', () => {
    // d imports x, so x is held when d runs; but x's text would carry d's digest and d's copy names x's copy.
    const plan = planChain(['x'], { x: c([], ['d']), d: c(['x']) });
    assert.deepEqual(plan.moved, ['d']);
    assert.deepEqual(plan.entry, ['d', 'x']);
    assert.equal(plan.carries.has('x'), false);
    assert.ok(plan.order.indexOf('x') < plan.order.indexOf('d'));
  });

  test('chunks that import each other in a cycle are refused: the loader runs a chunk after its imports', () => {
    assert.throws(() => planChain(['a'], { a: c(['b']), b: c(['a']) }), /import each other in a cycle \(a → b → a\)/);
  });

  test('a load of something that is not a chunk of the build is refused', () => {
    assert.throws(() => planChain(['a'], { a: c([], ['gone']) }), /gone is loaded or imported but is not a chunk/);
  });
});
