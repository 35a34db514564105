import type { CommandInfo, FlagSpec } from './command-spec.js';
import { HELP_FLAG } from './parse-command-line.js';

/** The program's name in usage lines. */
export const PROGRAM = 's3-ddb-import';
/** Help lines wrap here: the house's code width, and a common terminal's. */
const WIDTH = 118;
/** A label longer than this does not push every description of its command to the right. */
const MAX_LABEL = 32;

/** `local <file>`: the command's name and its positionals, as usage lines and the command list show it. */
export function synopsis(command: CommandInfo): string {
  return [command.name, ...command.positionals.map((p) => `<${p.name}>`)].join(' ');
}

/**
 * A command's --help, generated from its table entry: the usage line, the summary and details, then every
 * positional and every flag with its value name, description and default. Nothing here is written by hand, so
 * a flag the command takes is a flag its help shows.
 */
export function commandHelp(command: CommandInfo): string {
  const rows: [string, string][] = [
    ...command.positionals.map((p): [string, string] => [`<${p.name}>`, p.description]),
    ...Object.entries(command.flags).map(([name, flag]): [string, string] => [flagLabel(name, flag), describe(flag)]),
    [flagLabel('help', HELP_FLAG), HELP_FLAG.description],
  ];
  return [
    `usage: ${PROGRAM} ${synopsis(command)} [flags]`,
    ...wrap(command.summary, '  ', '  '),
    ...(command.details ?? []).flatMap((line) => wrap(line, '  ', '  ')),
    '',
    ...table(rows),
  ].join('\n');
}

/**
 * The top-level --help: the usage line and every command with its summary, then the global flags; each
 * command's flags are in its own --help (`s3-ddb-import local --help`), so this fits on one screen.
 */
export function mainHelp(commands: readonly CommandInfo[]): string {
  const list = table([
    ...commands.map((c): [string, string] => [synopsis(c), c.summary]),
    ['--version', 'print the version (package.json) and exit 0'],
    [flagLabel('help', HELP_FLAG), HELP_FLAG.description],
  ]);
  return [
    `usage: ${PROGRAM} <command> [arguments] [flags]`,
    '',
    ...list,
    '',
    `${PROGRAM} <command> --help: that command's arguments, flags and exit codes`,
  ].join('\n');
}

/** `--table T`, `-h, --help`, `--attr NAME=TEMPLATE ...` (repeatable). */
export function flagLabel(name: string, flag: FlagSpec): string {
  const short = flag.short ? `-${flag.short}, ` : '';
  const value = flag.type === 'string' ? ` ${flag.value ?? flag.choices?.join('|') ?? 'V'}` : '';
  return `${short}--${name}${value}${flag.multiple ? ' ...' : ''}`;
}

function describe(flag: FlagSpec): string {
  return flag.default === undefined ? flag.description : `${flag.description}; default ${flag.default}`;
}

/** Two columns: labels, then descriptions wrapped under their own column. */
function table(rows: readonly [string, string][]): string[] {
  const column = Math.min(MAX_LABEL, Math.max(...rows.map(([label]) => label.length))) + 4;
  return rows.flatMap(([label, text]) => {
    const head = `  ${label}`;
    if (head.length + 2 > column) return [head, ...wrap(text, ' '.repeat(column), ' '.repeat(column))];
    return wrap(text, head.padEnd(column), ' '.repeat(column));
  });
}

/** Words of `text` in lines of at most WIDTH characters, the first after `first`, the others after `rest`. */
function wrap(text: string, first: string, rest: string): string[] {
  const lines: string[] = [];
  let line = first;
  for (const word of text.split(' ')) {
    const fresh = line === first || line === rest;
    if (!fresh && line.length + 1 + word.length > WIDTH) {
      lines.push(line);
      line = rest + word;
    } else line = fresh ? line + word : `${line} ${word}`;
  }
  lines.push(line);
  return lines;
}
