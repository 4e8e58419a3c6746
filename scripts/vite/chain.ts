/**
 * The digest chain of the CDN files (scripts/vite/integrity.ts; the loader, src/element/integrity.ts):
 * which file carries the sha384 digest of which chunk, and in what order their final texts are made.
 *
 * The entry carries the digests of the chunks it loads itself (and of what those import statically);
 * every other chunk that loads chunks carries theirs, appended to its own text, so its own digest
 * (carried by whoever loads it) covers them: a changed digest anywhere down the chain is a changed
 * chunk one step up, refused before it runs. A chunk leaves out what the loader already holds when
 * it runs: the digests the entry carries (read as the entry starts), its own and those of what it
 * imports (it was loaded with them).
 *
 * A chunk's text is final once the digests it carries are known, and (in the classic script, whose
 * copies are named after a hash of their final text) once the names of what it imports are: a cycle
 * of such needs (a chunk carrying the digest of a chunk that imports it, or carries its digest) has no
 * order. It is broken by moving the digest of the chunk the cycle reaches last through "carries" into
 * the entry, which has no digest (the page pins it) and is made last. Pure: tested without a build
 * (test/node/pack/chain.test.ts).
 */

/** A chunk as the plan sees it: output names, the entry left out. */
export interface ChainChunk {
  /** The chunks it imports statically (loaded, with their digests, before it runs). */
  imports: readonly string[];
  /** The chunks it loads with `import()`, through the loader. */
  loads: readonly string[];
}

export interface ChainPlan {
  /** The chunks whose digests the entry carries. */
  entry: string[];
  /** Chunk → the chunks whose digests it carries (only chunks that carry any). */
  carries: Map<string, string[]>;
  /** Every chunk, each after those whose digest it carries and those it imports: the order to make their final texts. */
  order: string[];
  /** Chunks whose digest went to the entry to break a cycle. */
  moved: string[];
}

/**
 * The plan for the chunks of one build. `entryLoads`: what the entry loads; `chunks`: every other
 * chunk. Throws when the chunks import each other in a cycle (the loader runs a chunk after its imports).
 */
export function planChain(entryLoads: readonly string[], chunks: Readonly<Record<string, ChainChunk>>): ChainPlan {
  const names = Object.keys(chunks).sort();
  const known = (name: string): ChainChunk => {
    const c = chunks[name];
    if (!c) throw new Error(`paydesk: ${name} is loaded or imported but is not a chunk of this build`);
    return c;
  };
  /** The chunks and everything they import statically. */
  const closure = (start: readonly string[]): Set<string> => {
    const out = new Set<string>();
    const visit = (n: string) => {
      if (out.has(n)) return;
      out.add(n);
      known(n).imports.forEach(visit);
    };
    start.forEach(visit);
    return out;
  };
  const entry = closure(entryLoads);
  const carries = new Map<string, Set<string>>();
  for (const name of names) {
    const held = closure([name]);
    const carried = [...closure(known(name).loads)].filter((n) => !held.has(n) && !entry.has(n));
    if (carried.length > 0) carries.set(name, new Set(carried));
  }
  const moved: string[] = [];
  for (let cycle = findCycle(names, chunks, carries); cycle; cycle = findCycle(names, chunks, carries)) {
    // The last step of the cycle that is a "carries" (a cycle of imports alone is refused in findCycle).
    const at = cycle.findLastIndex((n, i) => carries.get(n)?.has(cycle[(i + 1) % cycle.length]!));
    const target = cycle[(at + 1) % cycle.length]!;
    moved.push(target);
    for (const n of closure([target])) entry.add(n);
    for (const [name, set] of carries) {
      for (const n of entry) set.delete(n);
      if (set.size === 0) carries.delete(name);
    }
  }
  // Post-order: a chunk after what it carries and imports.
  const order: string[] = [];
  const done = new Set<string>();
  const visit = (n: string) => {
    if (done.has(n)) return;
    done.add(n);
    [...known(n).imports, ...(carries.get(n) ?? [])].sort().forEach(visit);
    order.push(n);
  };
  names.forEach(visit);
  return {
    entry: [...entry].sort(),
    carries: new Map([...carries].map(([k, v]) => [k, [...v].sort()])),
    order,
    moved,
  };
}

/** A cycle of "imports" and "carries" steps (its chunks in order), or null. */
function findCycle(names: readonly string[], chunks: Readonly<Record<string, ChainChunk>>, carries: ReadonlyMap<string, ReadonlySet<string>>): string[] | null {
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (n: string): string[] | null => {
    if (state.get(n) === 'done') return null;
    if (state.get(n) === 'open') return stack.slice(stack.indexOf(n));
    state.set(n, 'open');
    stack.push(n);
    for (const next of [...(chunks[n]?.imports ?? []), ...(carries.get(n) ?? [])].sort()) {
      const found = visit(next);
      if (found) return found;
    }
    stack.pop();
    state.set(n, 'done');
    return null;
  };
  for (const n of names) {
    const cycle = visit(n);
    if (!cycle) continue;
    if (!cycle.some((c, i) => carries.get(c)?.has(cycle[(i + 1) % cycle.length]!))) {
      throw new Error(`paydesk: the chunks import each other in a cycle (${[...cycle, cycle[0]].join(' → ')}); src/element/integrity.ts cannot order them`);
    }
    return cycle;
  }
  return null;
}
