import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The CLI's npm bin entry, as `npx s3-ddb-import` runs it. */
export const CLI = fileURLToPath(new URL('../../bin/s3-ddb-import.mjs', import.meta.url));

export interface CliRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Runs the CLI as users do, in its own process, against the test run's servers (AWS_ENDPOINT_URL_* are set, so
 * it starts none); `env` adds to the test's environment.
 */
export function runCli(args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): Promise<CliRun> {
  const env = { ...process.env, ...options.env };
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI, ...args], { cwd: options.cwd, env, timeout: 120_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr });
    });
  });
}

/** `local`'s flags for a 1-gram file (ngram, year, counts) into a table it creates, with the `--json` summary. */
export const NGRAM_TABLE_ARGS = [
  '--pk',
  'ngram',
  '--sk',
  'year:N',
  '--create-table',
  '--types',
  'match_count=N,volume_count=N',
  '--json',
];

/** The `--json` summary: the last line on stdout. */
export const lastJsonLine = (stdout: string) => JSON.parse(stdout.trim().split('\n').at(-1)!);
