import { posix } from 'node:path';
import type { Plugin } from 'vite';

/** The runtime helper that makes a module's namespace object (`import()` of a module inside a chunk of several). */
const HELPER = '__exportAll';
/** Its import, as Rolldown writes it before minifying: `import { n as __exportAll } from "./rolldown-runtime-….js";`. */
const IMPORT = /^import \{ \w+ as __exportAll \} from "(\.\/rolldown-runtime-[^"]+\.js)";\n/m;
/** The first paint's module, which hands itself over as it runs. */
const PAINT = /[\\/]src[\\/]element[\\/]paint\.ts$/;
/** A namespace object of a module that exports nothing. */
const EMPTY = /(?:\/\* @__PURE__ \*\/ )?__exportAll\(\{\}\)/g;

/**
 * ES build: a chunk whose only use of the bundler's runtime chunk is the namespace object of a module
 * that exports nothing gets a plain `{}` instead, and no import of the runtime chunk.
 *
 * The first paint's module (src/element/paint.ts) shares its chunk with the pay view (one file on the
 * first paint's path, not two: gzip is per file, and every request costs headers both ways). Rolldown
 * makes a namespace object for any `import()` of a module inside a chunk of several, with its runtime
 * helper, which lives in a chunk of its own (0.46 KB gzip and a request on the path). paint.ts exports
 * nothing (it hands itself to the entry as it runs, first.ts `registerPainter`) and src/cdn.ts reads
 * nothing of what its `import()` resolves to: its namespace is `{}`.
 */
export function emptyNamespaces(): Plugin {
  /** Chunks that no longer import the runtime chunk (names with Rolldown's placeholders resolved in generateBundle). */
  const freed = new Set<string>();
  return {
    name: 'paydesk-empty-namespaces',
    // paint.ts runs for what it does, not what it exports (package.json `sideEffects` leaves it out: to
    // the npm build it is a module like any other, which nothing imports).
    transform(code, id) {
      return PAINT.test(id) ? { code, map: null, moduleSideEffects: true } : null;
    },
    renderChunk(code, chunk, _options, meta) {
      const imp = IMPORT.exec(code);
      if (!imp) return null;
      const uses = code.split(HELPER).length - 1;
      const empty = [...code.matchAll(EMPTY)];
      // The import names it once; any other use is a namespace with exports (left as it is).
      if (empty.length === 0 || uses !== empty.length + 1) return null;
      const out = meta.magicString!;
      out.remove(imp.index, imp.index + imp[0].length);
      for (const m of empty) out.update(m.index, m.index + m[0].length, '{}');
      freed.add(chunk.name);
      return out;
    },
    generateBundle(_options, bundle) {
      for (const c of Object.values(bundle)) {
        if (c.type !== 'chunk' || !freed.has(c.name)) continue;
        // What the loader asks for before the chunk (scripts/vite/integrity.ts reads `imports`).
        c.imports = c.imports.filter((f) => !/(^|\/)rolldown-runtime-[0-9a-f]+\.js$/.test(f) || c.code.includes(posix.basename(f)));
      }
    },
  };
}
