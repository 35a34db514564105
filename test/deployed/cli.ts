import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { inject } from 'vitest';
import { runCli, type CliRun } from '../e2e/cli-process.js';
import { ngramArgs } from './ngram-file.js';

/** A fresh folder under the run's scratch dir (removed at its end). */
export const workDir = () => mkdtempSync(join(inject('deployed').scratchDir, 'cli-'));

/**
 * Runs `npx s3-ddb-import <args>` in its own process and in a fresh working folder (where `start --follow` copies
 * the rejects), against the deployed stack: the workers' AWS_* env points it at the engine.
 */
export async function cloudCli(args: string[]): Promise<CliRun & { cwd: string }> {
  const cwd = workDir();
  return { ...(await runCli(args, { cwd })), cwd };
}

/** The last line on stdout parsed: `--json` output. */
export const jsonOut = (run: CliRun) => JSON.parse(run.stdout.trim().split('\n').at(-1) as string);

/**
 * `start <source> --follow --json` of an n-gram file into `table` with the tier's types (ngram-file.ts), `extra` flags
 * before the follow: the command most cases run.
 */
export const startFollowed = (source: string, table: string, ...extra: string[]) =>
  cloudCli(['start', source, ...ngramArgs(table), ...extra, '--follow', '--poll-s', '1', '--json']);
