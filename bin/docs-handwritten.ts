import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { COMMANDS } from '../cli/commands/command-table.js';
import { CLI_LAYERS, LAMBDAS_LAYERS, TOP_LAYERS } from '../lint/import-zones.mjs';
import { type AslMachine, workflowDiagram } from './docs-diagram.js';
import { fillRegions, type RegionSources } from './docs-regions.js';
import { commandTable, layerTable, topLayers } from './docs-tables.js';

/**
 * The hand-written pages that hold generated regions (bin/docs-regions.ts), and what fills each region: `npm run
 * docs` rewrites their regions and test/docs/ fails when one is stale. A page added here with a region gets it at
 * the next `npm run docs`.
 */
export const HANDWRITTEN_PAGES = ['README.md', 'docs/how-it-works.md', 'docs/developing.md'] as const;

/** The workflow file the diagram is drawn from. */
const WORKFLOW_FILE = 'statemachine/import.asl.json';

/** The body of the generated region `name` in the page `page` (links are relative to that page). */
export function generatedRegion(root: string, page: string, name: string): string | undefined {
  const link = (path: string) => relative(dirname(page), path);
  switch (name) {
    case 'commands':
      return commandTable(COMMANDS, link('docs/reference/cli.md'));
    case 'workflow':
      return workflowDiagram(JSON.parse(readFileSync(join(root, WORKFLOW_FILE), 'utf8')) as AslMachine);
    case 'layers-top':
      return topLayers(TOP_LAYERS);
    case 'layers-lambdas':
      return layerTable('lambdas', LAMBDAS_LAYERS);
    case 'layers-cli':
      return layerTable('cli', CLI_LAYERS);
    default:
      return undefined;
  }
}

/** What fills the regions of `page`: repository files (examples/ and the like) and the generators above. */
export function repositorySources(root: string, page: string): RegionSources {
  return {
    include: (path) => (existsSync(join(root, path)) ? readFileSync(join(root, path), 'utf8') : undefined),
    generated: (name) => generatedRegion(root, page, name),
  };
}

/** Each hand-written page as `npm run docs` leaves it: its regions filled, everything else as checked in. */
export function handwrittenPages(root: string): Record<string, string> {
  return Object.fromEntries(
    HANDWRITTEN_PAGES.map((page) => {
      const text = readFileSync(join(root, page), 'utf8');
      return [page, fillRegions(text, repositorySources(root, page))];
    }),
  );
}
