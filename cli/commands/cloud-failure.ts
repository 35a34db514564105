import { InvalidRequestError } from '../../lambdas/contract/errors.js';
import { UsageError } from '../command-line/usage-error.js';
import { CloudCommandError, explainAwsError } from '../cloud/aws/clients.js';
import { RequestFileError } from '../flags/request-file.js';
import { EXIT_FAILED, type Output } from '../output/summary.js';

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
    output.err(`${name} failed: ${errorName}: ${message}`);
    if (json) output.out(JSON.stringify({ status: 'FAILED', error: errorName, message }));
    return EXIT_FAILED;
  }
}
