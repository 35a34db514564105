import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * Every relative link of the README and docs/ leads somewhere: the file exists, and a `#anchor` is a heading of the
 * page it names (as GitHub makes anchors). Moving a section between pages breaks the links to it; this finds them.
 */
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/**
 * Pages other work adds, which the docs already link to: the guide the first-ten work writes, and the jsii API
 * reference (jsii-docgen). A link to one is allowed while it is missing; drop the entry once the page lands.
 */
const PENDING_PAGES = new Set(['docs/guides/rehearse-locally.md']);

const PAGES = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'), { recursive: true, encoding: 'utf8' })
    .filter((path) => path.endsWith('.md'))
    .map((path) => join('docs', path)),
];

/** The page without its fenced blocks, where a `# x` is not a heading. */
function withoutFences(page: string): string {
  return page.replace(/^(`{3,})[^\n]*\n[\s\S]*?^\1$/gm, '');
}

/** The page without its fenced blocks and code spans, where a `[x](y)` is text, not a link. */
function prose(page: string): string {
  return withoutFences(page).replace(/`[^`\n]*`/g, '');
}

/** The anchors GitHub gives a page's headings: lower case, punctuation dropped, spaces to `-`, repeats numbered. */
function anchors(page: string): Set<string> {
  const seen = new Map<string, number>();
  const result = new Set<string>();
  for (const [, heading] of withoutFences(page).matchAll(/^#{1,6} (.+)$/gm)) {
    const slug = (heading as string)
      .replace(/`/g, '')
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    result.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return result;
}

/** What is wrong with each relative link of `path` (a repository-relative page). */
function brokenLinks(path: string): string[] {
  const page = readFileSync(join(ROOT, path), 'utf8');
  const problems: string[] = [];
  for (const [, target] of prose(page).matchAll(/\]\(([^)\s]+)\)/g)) {
    if (/^[a-z]+:/i.test(target as string)) continue; // https:, mailto:
    const [file, anchor] = (target as string).split('#') as [string, string | undefined];
    const resolved = file === '' ? path : relative(ROOT, join(ROOT, dirname(path), file));
    if (PENDING_PAGES.has(resolved)) continue;
    if (!existsSync(join(ROOT, resolved))) problems.push(`${target}: no file ${resolved}`);
    else if (anchor && resolved.endsWith('.md') && !anchors(readFileSync(join(ROOT, resolved), 'utf8')).has(anchor))
      problems.push(`${target}: no heading #${anchor} in ${resolved}`);
  }
  return problems;
}

describe('links in the README and docs/', () => {
  it.each(PAGES)('%s: every relative link leads to a file and heading that exist', (path) => {
    expect(brokenLinks(path)).toEqual([]);
  });

  it('finds a broken link: a heading that is not there', () => {
    expect(anchors('# A `code` heading: with, punctuation\n## Two\n## Two\n')).toEqual(
      new Set(['a-code-heading-with-punctuation', 'two', 'two-1']),
    );
  });
});
