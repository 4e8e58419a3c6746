/**
 * README.md and the guides under docs/ link to each other, to pictures and to files of the repository.
 * Every relative link and image must name a file that exists, and every `#anchor` a heading of the
 * file it points into (GitHub's slugs: lower case, punctuation dropped, spaces to hyphens), so a
 * guide that moves or a heading that is renamed fails here rather than in a reader's browser.
 * Absolute URLs (https:, mailto:) are not followed: the network is not ours to test. The pages
 * TypeDoc generates under docs/reference/ are checked for their files only: their anchors are
 * TypeDoc's (it numbers a name's second declaration even where the page has one heading of it).
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

/** README.md and every markdown file under docs/, as paths from the repository's root. */
export function markdownFiles(): string[] {
  const out = ['README.md'];
  const walk = (dir: string) => {
    for (const entry of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.md')) out.push(path);
    }
  };
  walk('docs');
  return out;
}

/** Markdown without its fenced code blocks (whose `#` lines are no headings). */
function withoutBlocks(markdown: string): string {
  // Blocks keep their line breaks, so the lines of what follows stay the file's own.
  return markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[ \t]*$/gm, (block) => block.replace(/[^\n]/g, ''));
}

/** Markdown without its code blocks and inline code, where brackets are code, not links. */
function prose(markdown: string): string {
  return withoutBlocks(markdown).replace(/`[^`\n]*`/g, '');
}

/** GitHub's anchor of a heading: lower case, markup and punctuation dropped, spaces to hyphens. */
export function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/`/g, '')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** The anchors of a markdown file's headings, numbered as GitHub numbers repeats (`x`, `x-1`, …). */
export function anchors(markdown: string): Set<string> {
  const out = new Set<string>();
  const seen = new Map<string, number>();
  for (const m of withoutBlocks(markdown).matchAll(/^#{1,6}[ \t]+(.+?)[ \t#]*$/gm)) {
    const base = slug(m[1]!);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

/** Each `[text](target)` and `![alt](target)` of a markdown file's prose, with its line. */
export function links(markdown: string): Array<{ target: string; line: number }> {
  const text = prose(markdown);
  const out: Array<{ target: string; line: number }> = [];
  for (const m of text.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
    out.push({ target: m[1]!, line: text.slice(0, m.index).split('\n').length });
  }
  return out;
}

/** What is wrong with one link of `file` (a path from the root), or null when it resolves. */
function check(file: string, target: string): string | null {
  if (/^[a-z][a-z0-9+.-]*:/i.test(target)) return null; // https:, mailto: …
  const [path, anchor] = target.split('#', 2) as [string, string | undefined];
  const into = path === '' ? file : relative(ROOT, resolve(ROOT, dirname(file), decodeURI(path)));
  if (into.startsWith('..')) return `${target} leaves the repository`;
  const full = join(ROOT, into);
  if (!existsSync(full)) return `${target}: ${into} does not exist`;
  if (anchor === undefined || file.startsWith('docs/reference/')) return null;
  if (statSync(full).isDirectory() || !into.endsWith('.md')) return `${target}: an anchor into a file that is not markdown`;
  return anchors(readFileSync(full, 'utf8')).has(anchor) ? null : `${target}: ${into} has no heading #${anchor}`;
}

test('every relative link and anchor of README.md and docs/ resolves', () => {
  const broken: string[] = [];
  let count = 0;
  for (const file of markdownFiles()) {
    for (const { target, line } of links(readFileSync(join(ROOT, file), 'utf8'))) {
      count++;
      const problem = check(file, target);
      if (problem) broken.push(`${file}:${line} ${problem}`);
    }
  }
  assert.ok(count > 50, `links were found (${count})`);
  assert.deepEqual(broken, [], `broken links:\n${broken.join('\n')}`);
});

test('every guide README links to exists, and every guide is linked from README', () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const linked = new Set(links(readme).map((l) => l.target.split('#')[0] ?? '').filter((t) => t.startsWith('docs/') && t.endsWith('.md')));
  const guides = markdownFiles().filter((f) => /^docs\/[^/]+\.md$/.test(f));
  const unlinked = guides.filter((g) => !linked.has(g));
  assert.deepEqual(unlinked, [], 'guides README does not link to');
});

test('the check catches what it is for: a missing file, a missing heading, a link into code ignored', () => {
  const md = '# A title\n## Second `code` part\n[ok](#a-title) [ok2](#second-code-part) `[not](nowhere.md)`\n';
  assert.deepEqual([...anchors(md)], ['a-title', 'second-code-part']);
  assert.deepEqual(links(md).map((l) => l.target), ['#a-title', '#second-code-part']);
  assert.equal(check('README.md', 'docs/no-such-guide.md'), 'docs/no-such-guide.md: docs/no-such-guide.md does not exist');
  assert.match(check('README.md', '#no-such-heading') ?? '', /has no heading #no-such-heading/);
  assert.equal(slug('Quick start: one block'), 'quick-start-one-block');
  assert.equal(slug('Webhooks and how fast "paid" arrives'), 'webhooks-and-how-fast-paid-arrives');
});
