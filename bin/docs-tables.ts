import type { CommandInfo } from '../cli/command-line/command-spec.js';
import { commandAnchor } from './docs-cli.js';
import { cell } from './docs-interfaces.js';

/**
 * Tables that hand-written pages hold between `<!-- generated: ... -->` markers (bin/docs-regions.ts): the README's
 * table of commands from the command table, and docs/developing.md's layers from lint/import-zones.mjs, the rows the
 * lint rule enforces.
 */

/**
 * One row per command, each linking to its section of docs/reference/cli.md (`reference` is that page's path from
 * the page holding the table).
 * @example commandTable(COMMANDS, 'docs/reference/cli.md')[2] // '| [`local`](docs/reference/cli.md#s3-ddb-import-local) | ... |'
 */
export function commandTable(commands: readonly CommandInfo[], reference: string): string {
  const rows = commands.map(
    (command) => `| [\`${command.name}\`](${reference}#${commandAnchor(command.name)}) | ${cell(command.summary)} |`,
  );
  return ['| command | what it does |', '| --- | --- |', ...rows].join('\n');
}

/**
 * The layers of one top folder, top floor first (as a building is drawn), each row naming its folders; `folder`
 * is `lambdas` or `cli`.
 * @example layerTable('lambdas', [['contract'], ['retry']]) // '| 2 | `lambdas/retry/` |\n| 1 (ground) | `lambdas/contract/` |'
 */
export function layerTable(folder: string, layers: readonly (readonly string[])[]): string {
  const rows = layers.map((names, i) => {
    const floor = i === 0 ? '1 (ground)' : String(i + 1);
    return `| ${floor} | ${names.map((name) => `\`${folder}/${name}/\``).join(', ')} |`;
  });
  return ['| floor | folders (each imports only folders of a lower floor) |', '| --- | --- |', ...rows.reverse()].join(
    '\n',
  );
}

/** The top-level folders, top first: `bin/ -> cli/ -> lib/ -> lambdas/`. */
export function topLayers(layers: readonly string[]): string {
  return `\`${[...layers].reverse().join('/` → `')}/\``;
}
