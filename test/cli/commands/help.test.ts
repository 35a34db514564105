import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { commandHelp, flagLabel, mainHelp } from '../../../cli/command-line/help.js';
import type { Command } from '../../../cli/command-line/parse-command-line.js';
import { COMMANDS, findCommand } from '../../../cli/commands/command-table.js';
import { runCli as runCliInProcess } from '../../../cli/commands/run-cli.js';
import { UnknownFlagError } from '../../../cli/command-line/usage-error.js';
import { runCli } from '../../e2e/cli-process.js';
import { capture } from '../../support/cloud-clients.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** The `.ts` or `.md` files under a folder of the repository. */
function filesUnder(folder: string, extension: string): string[] {
  return readdirSync(join(ROOT, folder), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith(extension))
    .map((f) => join(ROOT, folder, f));
}

/**
 * Every `--flag` written anywhere in the CLI's sources, the README and the docs (the guides hold what the README
 * once did), so a flag parsed outside the table is tried.
 */
function flagsMentioned(): string[] {
  const files = [...filesUnder('cli', '.ts'), ...filesUnder('docs', '.md')];
  const text = [...files, join(ROOT, 'bin/s3-ddb-import.ts'), join(ROOT, 'README.md')]
    .map((f) => readFileSync(f, 'utf8'))
    .join('\n');
  return [...new Set(text.match(/--[a-z][a-z0-9-]*/g) ?? [])];
}

/** Candidates: those, every flag of every command, and every one-letter short flag. */
const CANDIDATES = [
  ...new Set([
    ...flagsMentioned(),
    ...COMMANDS.flatMap((c) => Object.keys(c.flags).map((name) => `--${name}`)),
    ...[...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ'].map((letter) => `-${letter}`),
  ]),
];

/** Whether the command's parser takes `flag` (as the CLI runs it: Command.execute parses with Command.parse). */
function accepts(command: Command, flag: string): boolean {
  try {
    command.parse([...command.positionals.map(() => '1'), flag]);
    return true;
  } catch (error) {
    return !(error instanceof UnknownFlagError);
  }
}

/** The flags a help shows: each row's label starts with `--name` or `-x, --name`. */
function flagsShown(help: string): Set<string> {
  return new Set(
    [...help.matchAll(/^ {2}(?:(-[A-Za-z]), )?(--[a-z][a-z0-9-]*)/gm)].flatMap((m) => m.slice(1, 3).filter(Boolean)),
  );
}

describe.each(COMMANDS.map((command) => [command.name, command] as const))('%s --help', (_name, command) => {
  const shown = flagsShown(commandHelp(command));

  it('shows every flag of its table entry, with its value name', () => {
    for (const [name, flag] of Object.entries(command.flags)) {
      expect(shown, `--${name}`).toContain(`--${name}`);
      expect(commandHelp(command)).toContain(`  ${flagLabel(name, flag)}`);
    }
  });

  it('shows every flag its parser accepts (tried with every flag the CLI, the README and the docs name)', () => {
    const accepted = CANDIDATES.filter((flag) => accepts(command, flag));
    expect(accepted).toContain('--help');
    expect(accepted.filter((flag) => !shown.has(flag))).toEqual([]);
  });

  it('shows every positional', () => {
    for (const positional of command.positionals) expect(commandHelp(command)).toContain(`<${positional.name}>`);
  });
});

describe('the top-level --help', () => {
  it("lists every command with its summary, and no command's flags: one screen", () => {
    const help = mainHelp(COMMANDS);
    for (const command of COMMANDS) {
      expect(help).toContain(command.summary.split(' ').slice(0, 4).join(' '));
      expect(help).not.toContain(commandHelp(command));
    }
    expect(help).not.toContain('--table');
    expect(help).toContain('s3-ddb-import <command> --help');
    // 8 commands, --version, --help, usage, blank lines and the pointer: far below the 207 lines it had.
    expect(help.split('\n').length).toBeLessThanOrEqual(40);
  });

  it('finds `local watch` before `local`, and a file named watch as ./watch', () => {
    expect(findCommand(['local', 'watch', '--json'])).toMatchObject({
      command: { name: 'local watch' },
      args: ['--json'],
    });
    expect(findCommand(['local', './watch'])).toMatchObject({ command: { name: 'local' }, args: ['./watch'] });
    expect(findCommand(['watch'])).toBeNull();
  });
});

describe('--version', () => {
  const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };

  it("prints package.json's version on stdout and exits 0", async () => {
    const shown = capture();
    expect(await runCliInProcess(['--version'], shown.output)).toBe(0);
    expect(shown.out).toEqual([version]);
    expect(shown.err).toEqual([]);
  });

  it('does so as the npm bin runs it, and the top-level help names it', async () => {
    expect(await runCli(['--version'])).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
    expect(mainHelp(COMMANDS)).toContain('--version');
  });
});
