import type { CommandInfo, FlagSpec } from '../cli/command-line/command-spec.js';
import { cell } from './docs-interfaces.js';

/**
 * docs/reference/cli.md from the CLI's command table (cli/commands/command-table.ts), the way `oclif readme` writes a
 * CLI's reference: the same declarations the parser and every `--help` come from, so a flag added there is here at the
 * next `npm run docs`, in the words its `--help` uses.
 */

/** `--table T`, `-h, --help`, `--mode put|insert`, `--attr NAME=TEMPLATE (repeatable)`: the label its --help shows. */
function flagName(name: string, spec: FlagSpec): string {
  const short = spec.short ? `-${spec.short}, ` : '';
  const value = spec.type === 'string' ? ` ${spec.value ?? spec.choices?.join('|') ?? 'VALUE'}` : '';
  return `\`${short}--${name}${value}\`${spec.multiple ? ' (repeatable)' : ''}`;
}

/** The anchor GitHub gives a `## s3-ddb-import local watch` heading. */
export function commandAnchor(name: string): string {
  return `s3-ddb-import-${name.replace(/ /g, '-')}`;
}

function commandSection(command: CommandInfo): string[] {
  const positionals = command.positionals.map((p) => ` <${p.name}>`).join('');
  const lines = [`## s3-ddb-import ${command.name}`, '', command.summary, ''];
  lines.push('```', `s3-ddb-import ${command.name}${positionals} [flags]`, '```', '');
  for (const detail of command.details ?? []) lines.push(detail, '');
  if (command.positionals.length > 0) {
    lines.push('| argument | description |', '| --- | --- |');
    for (const p of command.positionals) lines.push(`| \`<${p.name}>\` | ${cell(p.description)} |`);
    lines.push('');
  }
  lines.push('| flag | default | description |', '| --- | --- | --- |');
  for (const [name, spec] of Object.entries(command.flags)) {
    const fallback = spec.default === undefined ? '' : `\`${spec.default}\``;
    lines.push(`| ${cell(flagName(name, spec))} | ${fallback} | ${cell(spec.description)} |`);
  }
  return [...lines, ''];
}

/** The page: a table of every command linking to its section, then one section per command. */
export function cliReference(commands: readonly CommandInfo[]): string[] {
  const index = commands.map(
    (command) => `| [\`${command.name}\`](#${commandAnchor(command.name)}) | ${cell(command.summary)} |`,
  );
  return [
    '## Commands',
    '',
    '| command | what it does |',
    '| --- | --- |',
    ...index,
    '',
    'Exit codes of every command that runs or follows an import: 0 all rows landed, 2 some rows were rejected ' +
      '(the import itself succeeded), 1 it failed (or a usage error). With `--json`, the last line on stdout is ' +
      'one JSON object whose fields are named as in the execution summary ([request.md](request.md#the-summary)), ' +
      "with the command's own beside them (`durationMs`; `rejectsDir`, `executionArn`, `servicesReadyMs` where " +
      'they apply).',
    '',
    ...commands.flatMap(commandSection),
  ];
}
