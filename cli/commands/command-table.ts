import type { Command } from '../command-line/parse-command-line.js';
import { ESTIMATE } from './estimate.js';
import { liveCommand } from './live-commands.js';
import { LOCAL } from './local.js';
import { LOCAL_WATCH } from './local-watch.js';
import { LOCAL_DEPLOY } from './local-deploy.js';
import { LOCAL_DOWN, LOCAL_UP } from './local-up.js';
import { START } from './start.js';
import { STATUS } from './status.js';

/**
 * Every command of the CLI, in the order the top-level --help lists them. Each is declared once, in its own
 * module (name, summary, positionals, flags, input, run); the parser, the dispatcher and every --help come from
 * here.
 */
export const COMMANDS: readonly Command[] = [
  LOCAL,
  LOCAL_WATCH,
  LOCAL_UP,
  LOCAL_DOWN,
  LOCAL_DEPLOY,
  START,
  STATUS,
  ESTIMATE,
  liveCommand('rate'),
  liveCommand('pause'),
  liveCommand('resume'),
];

/** The command `argv` names (the longest name whose words start it: `local watch` before `local`), and its arguments. */
export function findCommand(
  argv: readonly string[],
  commands: readonly Command[] = COMMANDS,
): { command: Command; args: readonly string[] } | null {
  const named = commands
    .map((command) => ({ command, words: command.name.split(' ') }))
    .filter(({ words }) => words.every((word, i) => argv[i] === word))
    .sort((a, b) => b.words.length - a.words.length)[0];
  return named ? { command: named.command, args: argv.slice(named.words.length) } : null;
}
