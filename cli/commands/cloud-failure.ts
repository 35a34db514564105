import { InvalidRequestError } from '../../lambdas/contract/errors.js';
import { UsageError } from '../command-line/usage-error.js';
import { CloudCommandError, explainAwsError } from '../cloud/aws/clients.js';
import { RequestFileError } from '../flags/request-file.js';
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
    const known = e instanceof CloudCommandError || e instanceof InvalidRequestError || e instanceof RequestFileError;
    const { name: errorName, message } = known ? e : explainAwsError(e);
    return printFailure({ name: errorName, message }, { what: name, json }, output);
  }
}
