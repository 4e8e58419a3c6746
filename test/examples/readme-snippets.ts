/**
 * The documentation's code as a user copies it: the ```ts / ```tsx snippets of README.md and of the
 * guides under docs/, each named by its first line (`// paydesk.ts …`), and README's quick start: the
 * one ```sh block under "### Quick start", whose `cat > FILE <<'EOF'` documents are files too (its
 * TypeScript is compiled like the snippets).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface Snippet {
  /** 1-based position among the README's snippets. */
  index: number;
  /** The markdown file it is in, from the repository's root (`README.md`, `docs/server-handler.md`). */
  source: string;
  /** Line in that file where the code starts. */
  line: number;
  file: string;
  code: string;
  project: 'node' | 'bundler';
}

/** Files for a bundler (`.tsx`, `vite.config.ts`, `src/…`, Next's `app/…`); the rest as Node runs them. */
function projectOf(file: string): Snippet['project'] {
  return file.endsWith('.tsx') || /^vite\.config\./.test(file) || /^(src|app|pages)\//.test(file) ? 'bundler' : 'node';
}

const lineAt = (markdown: string, offset: number) => markdown.slice(0, offset).split('\n').length;

/**
 * A block the line before marks as not a file of its own: `<!-- fragment: … -->` (an excerpt of a call,
 * whose context the text around it gives) or `<!-- snippet: NAME (run by …) -->` (a test of its own
 * runs it, with what it needs).
 */
const MARKED = /<!--\s*(fragment|snippet)\b[^>]*-->\s*$/;

/** The ts/tsx snippets of a markdown text, each with its file name from its first line (or a generated one). */
export function extractSnippets(markdown: string, source = 'README.md', firstIndex = 1): Snippet[] {
  const out: Snippet[] = [];
  for (const m of markdown.matchAll(/^```(tsx?)[ \t]*\n([\s\S]*?)^```[ \t]*$/gm)) {
    if (MARKED.test(markdown.slice(Math.max(0, m.index - 200), m.index).trimEnd())) continue;
    const lang = m[1] as 'ts' | 'tsx';
    const code = m[2]!;
    const index = firstIndex + out.length;
    const named = /^\/\/\s*([\w./[\]-]+\.tsx?)\b/.exec(code)?.[1];
    const file = named ?? `readme-snippet-${index}.${lang}`;
    out.push({ index, source, line: lineAt(markdown, m.index) + 1, file, code, project: projectOf(file) });
  }
  return out;
}

/** The snippets of README.md, then of each guide under docs/ (by name), numbered across them all. */
export function documentationSnippets(root: string): Snippet[] {
  const sources = ['README.md', ...readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.md')).sort().map((f) => `docs/${f}`)];
  const out: Snippet[] = [];
  for (const source of sources) out.push(...extractSnippets(readFileSync(join(root, source), 'utf8'), source, out.length + 1));
  return out;
}

/** The quick start: the first ```sh block after the "### Quick start" heading, and the README line it starts on. */
export function quickStart(markdown: string): { script: string; line: number } {
  const heading = markdown.search(/^### Quick start\b/m);
  if (heading < 0) throw new Error('README.md has no "### Quick start" heading');
  const m = /^```sh[ \t]*\n([\s\S]*?)^```[ \t]*$/m.exec(markdown.slice(heading));
  if (!m) throw new Error('README.md has no ```sh block under "### Quick start"');
  return { script: m[1]!, line: lineAt(markdown, heading + m.index) + 1 };
}

/** The TypeScript files the quick start writes (`cat > server.ts <<'EOF'`), under `quickstart/`, as snippets. */
export function quickStartFiles(markdown: string, firstIndex: number): Snippet[] {
  const { script, line } = quickStart(markdown);
  const out: Snippet[] = [];
  for (const m of script.matchAll(/^cat > ([\w./-]+\.tsx?) <<'(\w+)'\n([\s\S]*?)^\2$/gm)) {
    const file = `quickstart/${m[1]!}`;
    const at = line + lineAt(script, m.index);
    out.push({ index: firstIndex + out.length, source: 'README.md', line: at, file, code: m[3]!, project: projectOf(m[1]!) });
  }
  return out;
}
