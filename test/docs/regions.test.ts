import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../cli/commands/command-table.js';
import { LAMBDAS_LAYERS } from '../../lint/import-zones.mjs';
import { handwrittenPages, HANDWRITTEN_PAGES, repositorySources } from '../../bin/docs-handwritten.js';
import { workflowDiagram } from '../../bin/docs-diagram.js';
import { fillRegions, listRegions } from '../../bin/docs-regions.js';
import { layerTable } from '../../bin/docs-tables.js';

/**
 * The generated regions of the hand-written pages (bin/docs-regions.ts): an included example, the README's table of
 * commands, the workflow diagram, the layers. A page whose region differs from what `npm run docs` writes fails here.
 */
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const FIXTURE = join(ROOT, 'test/fixtures/docs');
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');
const pages = handwrittenPages(ROOT);

describe('fillRegions, on a fixture page', () => {
  const fixtureSources = {
    include: (path: string) => repositorySources(FIXTURE, 'page.md').include(path),
    generated: (name: string) => (name === 'greeting' ? 'hello, page\n' : undefined),
  };

  it('fences an included file in its language, fills a known generator, leaves the rest byte for byte', () => {
    const page = readFileSync(join(FIXTURE, 'page.md'), 'utf8');
    // The included file holds ``` itself, so its fence is four backticks; the missing file and the unknown
    // generator keep their old text (an example that has not landed yet stays as the page says).
    expect(fillRegions(page, fixtureSources)).toBe(readFileSync(join(FIXTURE, 'expected.md'), 'utf8'));
  });

  it('is idempotent: a filled page filled again is unchanged', () => {
    const once = readFileSync(join(FIXTURE, 'expected.md'), 'utf8');
    expect(fillRegions(once, fixtureSources)).toBe(once);
  });
});

describe('the generators', () => {
  it('draws a workflow: a Choice as a rhombus, a Map with its items in a box, a Catch as a dotted error arrow', () => {
    const items = { StartAt: 'Item', States: { Item: { Type: 'Task', End: true } } };
    const machine = {
      StartAt: 'Go?',
      States: {
        'Go?': { Type: 'Choice', Choices: [{ Next: 'Each' }], Default: 'Failed' },
        Each: { Type: 'Map', ItemProcessor: items, Catch: [{ Next: 'Failed' }], End: true },
        Failed: { Type: 'Fail' },
      },
    };
    expect(workflowDiagram(machine).split('\n')).toEqual([
      '```mermaid',
      'flowchart TD',
      '  start(("start")) --> s0',
      '  s0{"Go?"}',
      '  s0 --> s1',
      '  s0 --> s2',
      '  s1[["Each"]]',
      '  subgraph s1_box ["Each: each item, its own child execution"]',
      '    s1_0["Item"]',
      '  end',
      '  s1 -.-> s1_0',
      '  s1 -. error .-> s2',
      '  s2(["Failed"])',
      '```',
    ]);
  });

  it('lists the layers top floor first, the ground floor named', () => {
    expect(
      layerTable('lambdas', [['contract'], ['retry', 'write']])
        .split('\n')
        .slice(2),
    ).toEqual(['| 2 | `lambdas/retry/`, `lambdas/write/` |', '| 1 (ground) | `lambdas/contract/` |']);
  });
});

describe('the hand-written pages', () => {
  it.each(HANDWRITTEN_PAGES)('%s holds what `npm run docs` writes in its regions', (page) => {
    expect(read(page), `${page} is stale: run \`npm run docs\` and commit it`).toBe(pages[page]);
  });

  it('README.md is at most 300 lines and lists every command, each linking to its reference', () => {
    const readme = read('README.md');
    expect(readme.split('\n').length).toBeLessThanOrEqual(300);
    for (const command of COMMANDS) expect(readme).toContain(`| [\`${command.name}\`](docs/reference/cli.md#`);
  });

  it('README.md takes its Python and Java examples from examples/, the files the jsii tests synthesize', () => {
    const includes = listRegions(read('README.md')).filter((region) => region.kind === 'include');
    expect(includes.map((region) => region.argument)).toEqual([
      expect.stringMatching(/^examples\/python\/.*\.py$/),
      expect.stringMatching(/^examples\/java\/.*\.java$/),
    ]);
  });

  it('docs/how-it-works.md draws every state of the workflow file, Map items included', () => {
    const names = (machine: { States: Record<string, { ItemProcessor?: never }> }): string[] =>
      Object.entries(machine.States).flatMap(([name, state]) => [
        name,
        ...(state.ItemProcessor ? names(state.ItemProcessor) : []),
      ]);
    const diagram = read('docs/how-it-works.md').split('<!-- generated: workflow -->')[1] ?? '';
    for (const state of names(JSON.parse(read('statemachine/import.asl.json'))))
      expect(diagram).toContain(`"${state}"`);
  });

  it("docs/developing.md's layer table names every concept folder the lint rule knows", () => {
    const developing = read('docs/developing.md');
    for (const folder of LAMBDAS_LAYERS.flat()) expect(developing).toContain(`\`lambdas/${folder}/\``);
  });
});
