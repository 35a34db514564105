import { InvalidRequestError } from '../../lambdas/contract/errors.js';
import { UsageError } from '../command-line/usage-error.js';
import { CloudCommandError, explainAwsError } from '../cloud/aws/clients.js';
import { RequestFileError } from '../flags/request-file.js';
import { CliError } from '../output/cli-error.js';
import { printFailure } from '../output/failure.js';
import type { Output } from '../output/summary.js';

/**
 * Runs a command against AWS: any failure but a usage error prints `<name> failed: <error>: <message>`, naming
 * the fix where it can, and with --json a FAILED object on stdout, as `local` does (exit 1).
 */
export async function reportingFailures(
  name: string,
  json: boolean,
  output: Output,
  run: () => Promise<number>,
): Promise<number> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof UsageError) throw error;
    const e = error as Error;
    const known =
      e instanceof CliError ||
      e instanceof CloudCommandError ||
      e instanceof InvalidRequestError ||
      e instanceof RequestFileError;
    return printFailure(known ? e : explainAwsError(e), { what: name, json }, output);
  }
}
