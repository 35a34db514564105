import { execFile } from 'node:child_process';
import { CLI } from '../e2e/cli-process.js';

/** What a user sees on a terminal: the CLI's stdout and stderr as one stream, and its exit code. */
export interface TerminalRun {
  readonly code: number;
  /** Both streams as the terminal showed them, carriage returns and escapes kept. */
  readonly screen: string;
}

/**
 * Runs the CLI under a pseudo-terminal (util-linux `script`, as node-pty is not installed), so stderr is a TTY
 * and the CLI behaves as it does for a user: progress rewrites its line, colour may be on. `script -e` returns
 * the CLI's exit code.
 */
export function runOnTerminal(
  args: readonly string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number } = {},
): Promise<TerminalRun> {
  const command = [process.execPath, CLI, ...args].map(shellQuote).join(' ');
  const env = { ...process.env, COLUMNS: '100', LINES: '40', ...options.env };
  return new Promise((resolve) => {
    execFile(
      'script',
      ['-qfec', command, '/dev/null'],
      { cwd: options.cwd, env, timeout: options.timeoutMs ?? 120_000 },
      (error, stdout) => resolve({ code: error ? Number(error.code ?? 1) : 0, screen: stdout }),
    );
  });
}

/** The screen's lines, as the user reads them: CRLF (the terminal's newline) split, colour escapes removed. */
export function screenLines(screen: string): string[] {
  // eslint-disable-next-line no-control-regex
  const plain = screen.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '');
  return plain.split(/\r?\n/).filter((line, i, all) => line !== '' || i < all.length - 1);
}

function shellQuote(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}
