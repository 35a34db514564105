import { extname } from 'node:path';

/**
 * Regions of a hand-written page that `npm run docs` fills from the code, so the page cannot drift from it:
 *
 * - `<!-- include: examples/python/app.py -->` … `<!-- /include -->`: the file, fenced, in its language;
 * - `<!-- generated: commands -->` … `<!-- /generated -->`: what the named generator writes.
 *
 * Everything outside the markers is left byte for byte. A region whose source is missing (a file not there yet, a
 * generator this build does not know) is left as it is, so a page may point at an example before it lands.
 *
 * @example
 * fillRegions('<!-- include: a.py -->\n<!-- /include -->', { include: () => 'x = 1\n', generated: () => undefined })
 * // '<!-- include: a.py -->\n```python\nx = 1\n```\n<!-- /include -->'
 */
export interface RegionSources {
  /** The text of a repository file, or undefined when it does not exist. */
  include(path: string): string | undefined;
  /** The body of a generated region, or undefined for a name no generator has. */
  generated(name: string): string | undefined;
}

/** The fence language of an included file, from its extension (GitHub's names). */
const FENCE_LANGUAGES: Readonly<Record<string, string>> = {
  '.py': 'python',
  '.java': 'java',
  '.ts': 'ts',
  '.cs': 'csharp',
  '.go': 'go',
  '.json': 'json',
  '.sh': 'sh',
};

/** One region: its opening marker's kind and argument, and the closing marker the kind takes. */
const REGION = /^<!-- (include|generated): (\S+) -->\n[\s\S]*?^<!-- \/\1 -->$/gm;

/** `text` fenced as the file `path`'s language, with a fence longer than any run of backticks inside it. */
export function fenced(path: string, text: string): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((run) => run[0].length));
  const fence = '`'.repeat(longest + 1);
  const body = text.endsWith('\n') ? text : `${text}\n`;
  return `${fence}${FENCE_LANGUAGES[extname(path)] ?? ''}\n${body}${fence}`;
}

/** `page` with every region it holds filled from `sources`. */
export function fillRegions(page: string, sources: RegionSources): string {
  return page.replace(REGION, (whole, kind: 'include' | 'generated', argument: string) => {
    const body =
      kind === 'include'
        ? mapDefined(sources.include(argument), (text) => fenced(argument, text))
        : sources.generated(argument);
    if (body === undefined) return whole;
    return `<!-- ${kind}: ${argument} -->\n${body.replace(/\n$/, '')}\n<!-- /${kind} -->`;
  });
}

/** The regions `page` holds, in order: what `npm run docs` will fill there. */
export function listRegions(page: string): { kind: string; argument: string }[] {
  return [...page.matchAll(REGION)].map((match) => ({ kind: match[1] as string, argument: match[2] as string }));
}

function mapDefined<T, U>(value: T | undefined, map: (value: T) => U): U | undefined {
  return value === undefined ? undefined : map(value);
}
