/**
 * Hops of a payment through our own code, followed from captured stacks (issue 22: "webhook → paid
 * on screen"). Used by test/node/path/paid-path.test.ts (the server: webhook → the paid event's bytes
 * on the shopper's stream) and test/browser/paid-path.test.ts (the element: the stream's message →
 * the paid step committed and rendered).
 *
 * How hops are counted:
 * - A hop is a frame of our own code (a file under src/) on the way: a function the paid status is
 *   in while it travels. Helpers that return before it moves on (verification, parsing, the pure
 *   state machine, logging) are work done inside a hop, not hops: a stack taken later cannot see them.
 * - Stacks are taken at probes: where the status leaves our code (the end), and at the calls our code
 *   makes to the outside on the way (the provider, the store, queued microtasks).
 * - The path is followed backwards from the end. An async continuation whose caller a stack cannot
 *   show (a promise handed on with `.then` or returned without `await`) is joined to an earlier probe
 *   in which the same function is on the stack with its callers: the same activation, no extra hop.
 *   Where no earlier stack shares a frame (the status went through a queued microtask, a pub/sub
 *   message or the browser's scheduler), the path continues at the probe that handed it on, and that
 *   crossing counts as one hop.
 */

export interface Frame {
  /** Function name as the engine prints it (`Class.method`, `<anonymous>`), without `async`. */
  fn: string;
  /** Path under the repository (`src/server/sse.ts`). */
  file: string;
  line: number;
}

export interface Probe {
  label: string;
  /** Our frames, outermost (oldest) first. */
  frames: Frame[];
  /** The probe that queued the task this one ran in (a microtask handed on), when known. */
  origin?: number;
}

const LINE = /^\s*at (?:async )?(?:(.*?) \()?(?:.*?)(\/src\/[^?:)]+)[^:)]*:(\d+):\d+\)?\s*$/;

/** Our frames (files under src/) of a stack, outermost first. */
export function framesOf(stack: string): Frame[] {
  const out: Frame[] = [];
  for (const line of stack.split('\n')) {
    const m = LINE.exec(line);
    if (!m) continue;
    const fn = (m[1] ?? '<anonymous>').replace(/^async /, '').replace(/^Object\./, '');
    out.push({ fn: fn || '<anonymous>', file: m[2]!.slice(1), line: Number(m[3]) });
  }
  return out.reverse();
}

const same = (a: Frame, b: Frame) => a.fn === b.fn && a.file === b.file;

export interface Path {
  frames: Frame[];
  /** Crossings no stack shows (each one hop): `from ⇢ to`. */
  cuts: string[];
  hops: number;
  files: string[];
}

/**
 * Follows the path that ends at `probes[end]` back to the first frame `from` matches (a function name), stitching
 * earlier probes as described above. `handoff(i)`: the probe that handed the status on when the
 * stack at `i` starts in a task no earlier stack shows (default: the probe's recorded `origin`).
 */
export function followPath(
  probes: Probe[],
  end: number,
  from: string | ((f: Frame) => boolean),
  handoff: (i: number) => number | undefined = (i) => probes[i]!.origin,
): Path {
  const start = typeof from === 'string' ? (f: Frame) => f.fn === from : from;
  let path = [...probes[end]!.frames];
  const cuts: string[] = [];
  let at = end;
  while (!path.some(start)) {
    const head = path[0];
    let joined = false;
    if (head) {
      for (let j = at - 1; j >= 0 && !joined; j--) {
        const k = probes[j]!.frames.findIndex((f) => same(f, head));
        if (k > 0) {
          path = [...probes[j]!.frames.slice(0, k), ...path];
          at = j;
          joined = true;
        }
      }
    }
    if (joined) continue;
    const j = handoff(at);
    if (j === undefined || j >= at) throw new Error(`the path breaks at ${head ? `${head.fn} (${head.file})` : `probe ${probes[at]!.label}`}: no earlier stack shows how it got there`);
    const before = probes[j]!.frames;
    cuts.push(`${before.at(-1)?.fn ?? probes[j]!.label} ⇢ ${head?.fn ?? probes[at]!.label}`);
    path = [...before, ...path];
    at = j;
  }
  const frames = path.slice(path.findIndex(start));
  return { frames, cuts, hops: frames.length + cuts.length, files: [...new Set(frames.map((f) => f.file))] };
}

/** The path, one hop a line, for a test's diagnostics. */
export function describePath(p: Path): string {
  return `${p.hops} hops (${p.frames.length} frames + ${p.cuts.length} crossings no stack shows) in ${p.files.length} files\n${p.frames
    .map((f, i) => `  ${i + 1}. ${f.fn}  ${f.file}:${f.line}`)
    .join('\n')}${p.cuts.map((c) => `\n  + ${c}`).join('')}`;
}
