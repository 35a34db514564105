import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../../lib/package-root.js';
import type { Command } from '../command-line/parse-command-line.js';
import { commandHelp, mainHelp } from '../command-line/help.js';
import { suggestion } from '../command-line/did-you-mean.js';
import { PROGRAM } from '../command-line/help.js';
import { isUsageError } from '../command-line/usage-error.js';
import { printUsageError } from '../output/failure.js';
import { EXIT_FAILED, EXIT_OK, type Output } from '../output/summary.js';
import { COMMANDS, findCommand } from './command-table.js';

/** The package's version, as package.json states it (`--version`). */
export function packageVersion(root = packageRoot()): string {
  return (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version;
}

/**
 * The CLI: `--version`, `--help` (the commands, one line each), or the command `argv` names, run to its exit
 * code. No command prints the commands on stderr; an unknown one, one line with the nearest command (exit 1).
 */
export async function runCli(argv: readonly string[], output: Output): Promise<number> {
  const first = argv[0];
  if (first === '--version') {
    output.out(packageVersion());
    return EXIT_OK;
  }
  if (first === '--help' || first === '-h') {
    output.out(mainHelp(COMMANDS));
    return EXIT_OK;
  }
  if (first === undefined) {
    output.err(mainHelp(COMMANDS));
    return EXIT_FAILED;
  }
  const found = findCommand(argv);
  if (!found) {
    const names = [...new Set(COMMANDS.map((c) => c.name.split(' ')[0]))];
    const what = first.startsWith('-') ? 'flag' : 'command';
    return printUsageError(`unknown ${what} ${JSON.stringify(first)}${suggestion(first, names)}`, PROGRAM, output);
  }
  return runCommand(found.command, found.args, output);
}

/**
 * Runs one command: --help (or -h) anywhere prints its help on stdout (exit 0); a wrong flag or argument prints
 * one line saying what is wrong and one pointing at its --help, on stderr (exit 1); anything else is the
 * command's own (its exit code, its failures).
 */
export async function runCommand(command: Command, args: readonly string[], output: Output): Promise<number> {
  if (args.includes('--help') || args.includes('-h')) {
    output.out(commandHelp(command));
    return EXIT_OK;
  }
  try {
    return await command.execute(args, output);
  } catch (error) {
    if (!isUsageError(error)) throw error;
    return printUsageError(error.message, `${PROGRAM} ${command.name}`, output);
  }
}
